// The framework examples as their users build them (issue 20): examples/react-app, vue-app and
// svelte-app (Vite's react-ts, vue-ts and svelte-ts templates), next-app (Next.js App Router)
// and sveltekit-app (SvelteKit), each installed with `npm ci` from its committed lockfile and
// the packed library, built (type checks included, then a strict consumer check of the shipped
// declarations), served (static files, `next start`, `vite preview`) and opened in headless
// Chromium. In each: a GPU rung runs; changing the bound colour mode and cohesion changes the
// running flock's view and params with its state kept (same Flock, positions unchanged while
// paused); a count change re-initialises that same flock (by design); unmounting disposes it
// (its context lost or device destroyed, no event after) and remounting starts a new one. The
// server-rendered pages hold the element in their HTML. The type-errors/ file of the React, Vue
// and Svelte examples must fail its checker on exactly the lines marked `wrong:`. Printed: each
// example's install + build time and the gzip JavaScript its page loads.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumPath, launchChromium, type LaunchedChromium } from '../support/chromium';
import {
  FRAMEWORK_ENV,
  FRAMEWORK_EXAMPLES,
  FRAMEWORK_TARBALL,
  examplesDir,
  packLibrary,
  type FrameworkExampleName,
  prepareFrameworkExample,
  root,
} from '../../scripts/examples.mjs';
import type { Flock, FlockState } from '../../src/index';
import type { GpuFlockElement } from '../../src/element/index';
import { freePort } from '../support/free-port';
import { serveStatic } from '../support/static-server';

const GPU_RUNGS = ['webgpu', 'webgl2', 'webgl2-tf'];
interface Running {
  url: string;
  stop: () => Promise<void>;
  /** What the server printed (its errors would show a server render that failed). */
  log: () => string;
}

/** Starts a server process (`next start`, `vite preview`) and waits until it answers. */
async function startServer(dir: string, cmd: string, args: string[], port: number) {
  let out = '';
  const child: ChildProcess = spawn(cmd, args, {
    cwd: dir,
    env: FRAMEWORK_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} exited: ${out}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - t0 > 60_000) throw new Error(`${cmd} did not answer in 60 s: ${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, stop, log: () => out };
}

async function serveExample(name: FrameworkExampleName): Promise<Running> {
  const dir = join(examplesDir, name);
  const { serve } = FRAMEWORK_EXAMPLES[name];
  if (serve.kind === 'static') {
    // A Vite build: index.html for unknown paths.
    const { url, close } = await serveStatic(join(dir, serve.dir), { spa: true });
    return { url, stop: close, log: () => '' };
  }
  const port = await freePort();
  if (serve.kind === 'next')
    return startServer(
      dir,
      process.execPath,
      ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)],
      port,
    );
  return startServer(
    dir,
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'preview',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
    ],
    port,
  );
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Opens `url`, recording problems, the element's events on the document and the JS loaded. */
async function open(context: BrowserContext, url: string) {
  const page = await context.newPage();
  const problems: string[] = [];
  const bodies: Promise<number>[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${new URL(r.url()).pathname}`);
    const type = r.headers()['content-type'] ?? '';
    if (!type.includes('javascript') || r.status() !== 200) return;
    bodies.push(
      r.body().then(
        (b) => gzipSync(b, { level: 9 }).length,
        () => 0,
      ),
    );
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __events: string[]; __csp: string[] };
    w.__events = [];
    w.__csp = [];
    for (const type of ['ready', 'error', 'fallback', 'contextlost', 'contextrestored'])
      document.addEventListener(type, () => w.__events.push(type), true);
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(url);
  const shipped = async () => (await Promise.all(bodies.slice())).reduce((a, b) => a + b, 0);
  return { page, problems, shipped };
}

/** The page's status line once it says the flock runs (or failed). */
async function status(page: Page): Promise<string> {
  await page.waitForFunction(
    () => /^(running on|error)/.test(document.querySelector('#status')?.textContent ?? ''),
    undefined,
    { timeout: 60_000 },
  );
  return (await page.locator('#status').textContent()) ?? '';
}

type Win = {
  __events: string[];
  __csp: string[];
  __flock: Flock;
  __state: FlockState;
  __after: string[];
  __gl: WebGL2RenderingContext | null;
  __device: GPUDevice | null;
};

/** Pauses the flock (the `paused` attribute) and keeps it and its state in the page. */
async function pauseAndRead(page: Page): Promise<{ count: number; backend: string }> {
  return page.evaluate(async () => {
    const w = window as unknown as Win;
    const el = document.querySelector('gpu-flock') as GpuFlockElement;
    el.setAttribute('paused', '');
    w.__flock = el.flock!;
    w.__state = await w.__flock.readState();
    return { count: w.__state.count, backend: w.__flock.backend };
  });
}

/** Whether the element's flock is still the kept one, and its state equals the kept state. */
async function sameFlockAndState(page: Page): Promise<{ same: boolean; maxDiff: number }> {
  return page.evaluate(async () => {
    const w = window as unknown as Win;
    const el = document.querySelector('gpu-flock') as GpuFlockElement;
    const s = await el.flock!.readState();
    let maxDiff = s.count === w.__state.count ? 0 : Infinity;
    for (let i = 0; i < s.positions.length && maxDiff < Infinity; i++)
      maxDiff = Math.max(maxDiff, Math.abs(s.positions[i]! - w.__state.positions[i]!));
    return { same: el.flock === w.__flock, maxDiff };
  });
}

/** The lines an error is reported on by tsc / vue-tsc (`file(L,C): error`) or svelte-check. */
function errorLines(output: string): number[] {
  const lines = new Set<number>();
  for (const m of output.matchAll(/\((\d+),\d+\): error /g)) lines.add(Number(m[1]));
  for (const m of output.matchAll(/ ERROR "[^"]+" (\d+):\d+ /g)) lines.add(Number(m[1]));
  return [...lines].sort((a, b) => a - b);
}

/** True when FRAMEWORK_TARBALL is newer than every file the package is built from. */
function packIsFresh(): boolean {
  const packed = statSync(FRAMEWORK_TARBALL).mtimeMs;
  const newest = (path: string): number => {
    const st = statSync(path);
    if (!st.isDirectory()) return st.mtimeMs;
    return Math.max(st.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
  };
  const sources = [
    'src',
    'scripts/build-lib.mjs',
    'scripts/shader-squeeze.mjs',
    'scripts/docs-out.mjs',
    'package.json',
    'README.md',
  ];
  return sources.every((f) => newest(join(root, f)) < packed);
}

let context: BrowserContext;
let chrome: LaunchedChromium | undefined;
const report: string[] = [];

describe.skipIf(!chromiumPath)('framework examples, installed and built as users do', () => {
  beforeAll(async () => {
    // The tarball tests/e2e/examples.test.ts packed just before is kept when no source of the
    // package changed since (a pack takes a minute); REUSE_PACK=1 keeps any tarball there is.
    if (!(existsSync(FRAMEWORK_TARBALL) && (process.env.REUSE_PACK || packIsFresh())))
      packLibrary(() => undefined);
    chrome = await launchChromium('frameworks', { width: 960, height: 720 });
    context = chrome.context;
  }, 240_000);

  afterAll(async () => {
    await chrome?.close();
    if (report.length)
      console.log(
        `framework examples: npm ci, build (type checks included), gzip JavaScript the page loads:\n${report.join('\n')}`,
      );
  });

  for (const name of Object.keys(FRAMEWORK_EXAMPLES) as FrameworkExampleName[]) {
    const spec = FRAMEWORK_EXAMPLES[name];
    test(`${name}: built from the lockfile; a GPU rung; bound state updates the flock in place; unmount disposes; remount starts anew`, async () => {
      const { installS, buildS } = prepareFrameworkExample(name, () => undefined);
      if (spec.wrong && spec.wrongFile) {
        // The checker must reject the wrong file, on exactly the lines marked `wrong:`.
        const dir = join(examplesDir, name);
        const [cmd, ...args] = spec.wrong;
        let output = '';
        let failed = false;
        try {
          execFileSync(cmd!, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
        } catch (e) {
          failed = true;
          const err = e as { stdout?: string; stderr?: string };
          output = `${err.stdout ?? ''}${err.stderr ?? ''}`;
        }
        expect(failed, `${cmd} accepted ${spec.wrongFile}`).toBe(true);
        const marked = readFileSync(join(dir, spec.wrongFile), 'utf8')
          .split('\n')
          .flatMap((line, i) => (/wrong:/.test(line) ? [i + 1] : []));
        expect(marked.length).toBeGreaterThanOrEqual(5);
        expect(errorLines(output), output).toEqual(marked);
      }

      const server = await serveExample(name);
      try {
        const serverRendered = spec.serve.kind !== 'static';
        if (serverRendered) {
          // The server's HTML holds the element with the state's attributes (no window needed).
          const html = await (await fetch(server.url)).text();
          expect(html).toMatch(/<gpu-flock[^>]*\scount="4000"/);
          expect(html).toMatch(/<gpu-flock[^>]*\scolor-mode="speed"/);
        }
        const { page, problems, shipped } = await open(context, `${server.url}/`);
        try {
          const first = await status(page);
          const backend = first.replace('running on ', '');
          expect(GPU_RUNGS, `${first}; problems: ${problems.join(' | ')}`).toContain(backend);
          const js = await shipped();
          if (process.env.SHOT_DIR) {
            await page.waitForTimeout(1500); // let the flock form a little
            await page.screenshot({ path: join(process.env.SHOT_DIR, `${name}.png`) });
          }
          // The element was upgraded (a server-rendered one too) and runs.
          expect(
            await page.evaluate(() => {
              const el = document.querySelector('gpu-flock') as GpuFlockElement;
              return [
                el instanceof customElements.get('gpu-flock')!,
                el.shadowRoot !== null,
                el.flock!.running,
                el.getAttribute('count'),
              ];
            }),
          ).toEqual([true, true, true, '4000']);

          // Colour mode and cohesion: the same flock takes them, its state kept.
          const before = await pauseAndRead(page);
          expect(before.count).toBe(4000);
          expect(await sameFlockAndState(page)).toEqual({ same: true, maxDiff: 0 }); // paused
          await page.selectOption('#color-mode', 'heading');
          await page.waitForFunction(
            () => (window as unknown as Win).__flock.view.colorMode === 'heading',
          );
          expect(await sameFlockAndState(page)).toEqual({ same: true, maxDiff: 0 });
          await page.selectOption('#cohesion', '2');
          await page.waitForFunction(
            () => (window as unknown as Win).__flock.params.cohesionWeight === 2,
          );
          expect(await sameFlockAndState(page)).toEqual({ same: true, maxDiff: 0 });
          // Count: the same flock re-initialises (by design), no new start.
          await page.selectOption('#count', '8000');
          await page.waitForFunction(
            () => (window as unknown as Win).__flock.params.count === 8000,
          );
          const recount = await page.evaluate(async () => {
            const w = window as unknown as Win;
            const el = document.querySelector('gpu-flock') as GpuFlockElement;
            el.removeAttribute('paused');
            return {
              same: el.flock === w.__flock,
              count: (await el.flock!.readState()).count,
              events: w.__events.join(','),
            };
          });
          expect(recount).toEqual({ same: true, count: 8000, events: 'ready' });

          // Unmount: the flock is disposed, its context or device gone, nothing fires after.
          await page.evaluate(() => {
            const w = window as unknown as Win;
            const el = document.querySelector('gpu-flock') as GpuFlockElement;
            const canvas = w.__flock.canvas;
            w.__gl = w.__flock.backend.startsWith('webgl2') ? canvas.getContext('webgl2') : null;
            const gpu = w.__flock.backend === 'webgpu' ? canvas.getContext('webgpu') : null;
            w.__device = gpu?.getConfiguration?.()?.device ?? null;
            w.__after = [];
            for (const type of ['ready', 'error', 'fallback', 'contextlost', 'contextrestored']) {
              el.addEventListener(type, () => w.__after.push(`element ${type}`));
              w.__flock.addEventListener(type, () => w.__after.push(`flock ${type}`));
            }
          });
          await page.click('#toggle');
          await page.waitForFunction(() => document.querySelector('gpu-flock') === null);
          await page.waitForTimeout(1000);
          const gone = await page.evaluate(async () => {
            const w = window as unknown as Win;
            let disposed = false;
            try {
              await w.__flock.setParams({ cohesionWeight: 1 });
            } catch {
              disposed = true;
            }
            const lost = w.__device
              ? await Promise.race([
                  w.__device.lost.then((i) => i.reason),
                  new Promise((r) => setTimeout(() => r('not lost'), 3000)),
                ])
              : null;
            return {
              disposed,
              backend: w.__flock.backend,
              canvasInPage: w.__flock.canvas.isConnected,
              glLost: w.__gl ? w.__gl.isContextLost() : null,
              deviceLost: lost,
              after: w.__after,
              status: document.querySelector('#status')?.textContent,
            };
          });
          expect(gone.disposed).toBe(true);
          expect(gone.backend).toBe('none');
          expect(gone.canvasInPage).toBe(false);
          if (backend === 'webgpu') {
            if (gone.deviceLost !== null) expect(gone.deviceLost).toBe('destroyed');
          } else expect(gone.glLost).toBe(true);
          expect(gone.after).toEqual([]);
          expect(gone.status).toBe('removed');

          // Remount: a new element, a new flock, running on a GPU rung.
          await page.click('#toggle');
          const again = await status(page);
          expect(again).toBe(first);
          const fresh = await page.evaluate(() => {
            const w = window as unknown as Win;
            const el = document.querySelector('gpu-flock') as GpuFlockElement;
            return {
              newFlock: el.flock !== null && el.flock !== w.__flock,
              running: el.flock?.running,
              events: w.__events.join(','),
              after: w.__after,
              csp: w.__csp,
            };
          });
          expect(fresh).toEqual({
            newFlock: true,
            running: true,
            events: 'ready,ready',
            after: [],
            csp: [],
          });
          expect(problems).toEqual([]);
          expect(server.log()).not.toMatch(/ReferenceError|window is not defined|Error:/);
          const line = `  ${name.padEnd(14)} npm ci ${installS.toFixed(1)} s, build ${buildS.toFixed(1)} s, ${backend.padEnd(7)} ${kb(js)}`;
          report.push(line);
          console.log(`passed: ${line}`); // at once, for a run cut short by a time limit
        } finally {
          await page.close();
        }
      } finally {
        await server.stop();
      }
    }, 600_000);
  }
});
