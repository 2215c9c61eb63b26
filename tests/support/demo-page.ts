/**
 * The demo page under Vite's dev server for the Chromium end-to-end tests (tests/e2e/demo*.test.ts,
 * quiet-console.test.ts): the server on a free localhost port, without HMR (an edit elsewhere in
 * the repo must not reload a page mid-test), with its own dependency cache (other test runs may
 * use node_modules/.vite at the same time) and the dependencies pre-bundled up front (so Vite never
 * reloads a page after discovering one); opening the demo and waiting for its flock. Node only.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { PREBUNDLED_DEPS } from '../../scripts/prebundle.mjs';
import { launchChromium, type LaunchedChromium } from './chromium';
import { grabDemoCanvas, type DemoGrab } from './demo-grab';
import { freePort } from './free-port';

/** The repository root (Vite's root for the demo, index.html). */
export const repoRoot = join(import.meta.dirname, '../..');

/**
 * How long a page load may take: a guard against hangs only. Vite's dev server compiles the
 * demo's modules on first load, and a full run beside six busy loops (and other work) took more
 * than 60 s for one load.
 */
export const LOAD_MS = 180_000;

/** A running dev server of the repository and its origin (`http://127.0.0.1:PORT`, no slash). */
export interface DevServer {
  readonly server: ViteDevServer;
  readonly baseUrl: string;
}

/** Starts Vite's dev server of the repository root as described above. */
export async function startDevServer(): Promise<DevServer> {
  const port = await freePort();
  const server = await createServer({
    root: repoRoot,
    logLevel: 'error',
    cacheDir: join(tmpdir(), 'gpu-flock-e2e-vite'),
    optimizeDeps: { include: [...PREBUNDLED_DEPS] },
    server: { host: '127.0.0.1', port, strictPort: true, hmr: false },
  });
  await server.listen();
  return { server, baseUrl: `http://127.0.0.1:${port}` };
}

/**
 * Opens the demo at `${baseUrl}/${query}` and waits for its flock (window.flockReady resolved).
 * @throws Error naming the page's console errors when the demo did not start within LOAD_MS.
 */
export async function openDemo(page: Page, baseUrl: string, query: string): Promise<void> {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${baseUrl}/${query}`, { timeout: LOAD_MS });
  try {
    await page.waitForFunction(() => window.flockReady !== undefined, null, { timeout: LOAD_MS });
  } catch (e) {
    throw new Error(`the demo did not start: ${problems.join(' | ') || String(e)}`);
  }
  await page.evaluate(() => window.flockReady!.then(() => undefined));
}

/** One grab of the demo's canvas (tests/support/demo-grab.ts). */
export const grabDemo = (page: Page): Promise<DemoGrab> => page.evaluate(grabDemoCanvas);

/** The dev server and Chromium of one test file, once its beforeAll hook has run. */
export interface DemoSession {
  /** The Chromium's persistent context. @throws Error before the beforeAll hook ran. */
  readonly context: BrowserContext;
  /** The dev server's origin. @throws Error before the beforeAll hook ran. */
  readonly baseUrl: string;
}

/**
 * Registers the beforeAll / afterAll hooks of one test file (call it inside its describe): the
 * dev server (startDevServer) and a Chromium of `viewport` CSS pixels in a fresh profile
 * `gpu-flock-<name>-*` (launchChromium), both closed after all its tests.
 */
export function demoSession(
  name: string,
  viewport: { width: number; height: number },
): DemoSession {
  let dev: DevServer | undefined;
  let chrome: LaunchedChromium | undefined;
  beforeAll(async () => {
    dev = await startDevServer();
    chrome = await launchChromium(name, viewport);
  });
  afterAll(async () => {
    await chrome?.close();
    await dev?.server.close();
  });
  const ready = () => {
    if (!dev || !chrome) throw new Error('demoSession: used before its beforeAll hook ran');
    return { dev, chrome };
  };
  return {
    get context() {
      return ready().chrome.context;
    },
    get baseUrl() {
      return ready().dev.baseUrl;
    },
  };
}
