import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { expect } from 'vitest';
import { PREBUNDLED_DEPS } from '../../scripts/prebundle.mjs';

const root = join(import.meta.dirname, '../..');

/**
 * A Vite dev server on 127.0.0.1 (a free port) for running the browser tests' own files in a
 * browser that Vitest's browser mode cannot drive (Firefox ESR, WebKitGTK): 'vitest' is aliased to
 * tests/firefox/vitest-shim.ts, and tests/firefox/page.html?file=F&grep=RE runs the tests of file F
 * whose full name matches RE, leaving the results on `window.__testResults`. The demo (index.html)
 * is served too. `name` keeps each browser's Vite cache apart.
 * @returns the server (close it when done) and its `http://127.0.0.1:PORT` address.
 */
export async function startShimServer(
  name: string,
): Promise<{ server: ViteDevServer; baseUrl: string }> {
  const server = await createServer({
    root,
    logLevel: 'error',
    cacheDir: join(tmpdir(), `gpu-flock-${name}-vite`),
    resolve: { alias: { vitest: join(root, 'tests/firefox/vitest-shim.ts') } },
    optimizeDeps: {
      include: [...PREBUNDLED_DEPS, 'chai', '@vitest/expect'],
      entries: ['index.html', 'tests/firefox/page.html'],
    },
    server: { host: '127.0.0.1', port: 0, hmr: false },
  });
  await server.listen();
  const addr = server.httpServer!.address();
  const baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return { server, baseUrl };
}

/** One test's outcome on the shim's page (tests/firefox/vitest-shim.ts's CaseResult). */
export interface CaseResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  error?: string;
}

/**
 * Every test the page ran passed, and at least `atLeast` ran (a grep that matches nothing must not
 * pass); the failures' names and messages otherwise. Prints one line per test, prefixed `label`.
 */
export function expectAllPassed(label: string, results: CaseResult[], atLeast: number): void {
  const failed = results.filter((r) => r.status !== 'passed');
  const report = failed.map((r) => `${r.name}: ${r.status}\n${r.error ?? ''}`).join('\n\n');
  expect(failed, report).toEqual([]);
  expect(results.length).toBeGreaterThanOrEqual(atLeast);
  console.log(results.map((r) => `  ${label} ✓ ${r.name} (${r.ms.toFixed(0)} ms)`).join('\n'));
}
