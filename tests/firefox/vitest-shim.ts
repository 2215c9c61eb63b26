/**
 * The part of Vitest's test API that the browser tests use (describe/test/it with .each and .skip,
 * the four hooks, and Vitest's own `expect` matchers from @vitest/expect on chai), for running
 * those same test files in a browser that Vitest's browser mode cannot drive (Firefox ESR through
 * puppeteer-core: tests/e2e/firefox.test.ts). Vite aliases 'vitest' to this file on that page only.
 * Tests are collected at import, then run() runs those whose full name matches a filter, in order,
 * each with its hooks, and returns one result per test.
 */
import * as chai from 'chai';
import { JestAsymmetricMatchers, JestChaiExpect, JestExtend } from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

type Fn = () => unknown;
interface Suite {
  name: string;
  parent: Suite | null;
  beforeAll: Fn[];
  afterAll: Fn[];
  beforeEach: Fn[];
  afterEach: Fn[];
  children: (Suite | Case)[];
}
interface Case {
  name: string;
  fn: Fn;
  skip: boolean;
  parent: Suite;
}
export interface CaseResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  error?: string;
}

const root: Suite = {
  name: '',
  parent: null,
  beforeAll: [],
  afterAll: [],
  beforeEach: [],
  afterEach: [],
  children: [],
};
let current = root;

/** `expect(value, message?)` with Vitest's matchers (toBe, toEqual, toBeCloseTo, rejects, ...). */
export const expect = ((value: unknown, message?: string) =>
  chai.expect(value, message)) as unknown as typeof import('vitest').expect;

/** Vitest's `%s`/`%i`/`%d`/`$field` test-name formatting, enough for this project's names. */
function format(name: string, row: unknown, index: number): string {
  const args = Array.isArray(row) ? row : [row];
  let k = 0;
  let out = name.replace(/%[sidfj#]/g, (m) =>
    m === '%#' ? String(index) : String(args[k++] as string),
  );
  if (row && typeof row === 'object' && !Array.isArray(row)) {
    out = out.replace(/\$(\w+)/g, (_, key: string) =>
      String((row as Record<string, unknown>)[key] as string),
    );
  }
  return out;
}

function addSuite(name: string, body: () => void): void {
  const s: Suite = {
    name,
    parent: current,
    beforeAll: [],
    afterAll: [],
    beforeEach: [],
    afterEach: [],
    children: [],
  };
  current.children.push(s);
  const prev = current;
  current = s;
  try {
    body();
  } finally {
    current = prev;
  }
}

function addCase(name: string, fn: Fn, skip = false): void {
  current.children.push({ name, fn, skip, parent: current });
}

type Each = <T>(rows: readonly T[]) => (name: string, fn: (row: T) => unknown) => void;
const eachOf =
  (add: (name: string, fn: Fn) => void, spread: boolean): Each =>
  (rows) =>
  (name, fn) => {
    rows.forEach((row, i) => {
      const call = () =>
        spread && Array.isArray(row) ? (fn as (...a: unknown[]) => unknown)(...row) : fn(row);
      add(format(name, row, i), call);
    });
  };

export const describe = Object.assign((name: string, body: () => void) => addSuite(name, body), {
  each: eachOf((n, f) => addSuite(n, f as () => void), false),
  skip: (name: string) => addSuite(name, () => undefined),
});
export const test = Object.assign((name: string, fn: Fn) => addCase(name, fn), {
  each: eachOf((n, f) => addCase(n, f), false),
  skip: (name: string, fn: Fn) => addCase(name, fn, true),
});
export const it = test;
export const beforeAll = (fn: Fn): void => void current.beforeAll.push(fn);
export const afterAll = (fn: Fn): void => void current.afterAll.push(fn);
export const beforeEach = (fn: Fn): void => void current.beforeEach.push(fn);
export const afterEach = (fn: Fn): void => void current.afterEach.push(fn);

function fullName(node: Suite | Case): string {
  const parts: string[] = [];
  for (let n: Suite | Case | null = node; n && n !== root; n = n.parent) parts.unshift(n.name);
  return parts.join(' > ');
}

function message(e: unknown): string {
  if (e instanceof Error) return `${e.message}\n${e.stack ?? ''}`.slice(0, 4000);
  return String(e);
}

function chain(s: Suite): Suite[] {
  const out: Suite[] = [];
  for (let n: Suite | null = s; n; n = n.parent) out.unshift(n);
  return out;
}

/** Runs the collected tests whose full name ("suite > test") matches `filter`, in order. */
export async function run(filter: RegExp = /.*/): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const selected = (n: Suite | Case): boolean =>
    'fn' in n ? filter.test(fullName(n)) : n.children.some(selected);
  async function runSuite(s: Suite): Promise<void> {
    if (!selected(s)) return;
    let setupError: unknown = null;
    for (const h of s.beforeAll) {
      try {
        await h();
      } catch (e) {
        setupError = e;
        break;
      }
    }
    for (const c of s.children) {
      if (!('fn' in c)) {
        if (!setupError) await runSuite(c);
        continue;
      }
      if (!selected(c)) continue;
      const name = fullName(c);
      if (c.skip) {
        results.push({ name, status: 'skipped', ms: 0 });
        continue;
      }
      const t0 = performance.now();
      let error: unknown = setupError;
      const suites = chain(c.parent);
      if (!error) {
        try {
          for (const p of suites) for (const h of p.beforeEach) await h();
          await c.fn();
        } catch (e) {
          error = e;
        }
        for (const p of suites.reverse()) {
          for (const h of p.afterEach) {
            try {
              await h();
            } catch (e) {
              error ??= e;
            }
          }
        }
      }
      const ms = performance.now() - t0;
      results.push(
        error
          ? { name, status: 'failed', ms, error: message(error) }
          : { name, status: 'passed', ms },
      );
    }
    for (const h of s.afterAll) {
      try {
        await h();
      } catch (e) {
        results.push({
          name: `${fullName(s)} (afterAll)`,
          status: 'failed',
          ms: 0,
          error: message(e),
        });
      }
    }
  }
  await runSuite(root);
  return results;
}
