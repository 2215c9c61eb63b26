// The third engine: WebKit (Safari's engine, the engine of every browser on iPhone and iPad),
// through WebKitGTK's WebDriver (Debian's webkit2gtk-driver: WebKitWebDriver driving its
// MiniBrowser, WebGL2 on Mesa, no WebGPU) under a private Xvfb (../shared/BROWSER.md).
// selenium-webdriver is the WebDriver client: it speaks W3C WebDriver to any driver and manages
// the driver process (remote.DriverService); Vitest's webdriverio provider knows only Chrome,
// Firefox, Edge and Safari, not WebKitGTK's `webkitgtk:browserOptions`.
// As tests/e2e/firefox.test.ts does for Firefox, this Node-side test serves the browser tests' own
// files with Vite through the Vitest shim (tests/support/shim-server.ts) and asserts that every
// selected test passed in WebKit: both WebGL2 paths against the CPU reference at 1 and 10 steps
// (tests/webkit/cases.ts: a few hundred boids, WebKit being slow here), the <gpu-flock> element,
// real context losses (WEBGL_lose_context); then the built demo under a strict
// Content-Security-Policy. Waits are hang guards, not timings. Without WebKitWebDriver, its
// MiniBrowser or Xvfb the suite is skipped, except under CI, where it fails.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Capabilities, WebDriver } from 'selenium-webdriver';
import { Executor, HttpClient } from 'selenium-webdriver/http';
import { DriverService } from 'selenium-webdriver/remote';
import { build, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { grabDemoCanvas, type DemoGrab } from '../support/demo-grab';
import { expectAllPassed, startShimServer, type CaseResult } from '../support/shim-server';
import { CSP_REPORT_PATH, serveStatic, type StaticServer } from '../support/static-server';
import { startXvfb, XVFB } from '../support/xvfb';

const root = join(import.meta.dirname, '../..');
const DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
/** Debian's libwebkit2gtk-4.1-0 installs the MiniBrowser beside its helper processes. */
const MINIBROWSER =
  process.env.WEBKIT_MINIBROWSER_PATH ??
  [
    '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  ].find((p) => existsSync(p)) ??
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const available = existsSync(DRIVER) && existsSync(MINIBROWSER) && existsSync(XVFB);
if (!available && process.env.CI) {
  throw new Error(
    `WebKit tests need ${DRIVER}, ${MINIBROWSER} and ${XVFB} (apt-get install webkit2gtk-driver xvfb)`,
  );
}

/**
 * Every wait guards only a hang (a page that never finishes): WebKit on this 2-core machine's
 * software GL draws a few frames a second under load, and Vite's first transform of a page took
 * over a minute in loaded full runs. The test timeout (vite.config.ts) stays the outer bound.
 */
const HANG_MS = 200_000;
/** The strict policy of tests/e2e/csp.test.ts, plus a report-uri: WebDriver has no init script. */
const CSP = `default-src 'self'; base-uri 'none'; object-src 'none'; report-uri ${CSP_REPORT_PATH}`;

let xvfb: ChildProcess | null = null;
let server: ViteDevServer | undefined;
let service: DriverService | undefined;
let driver: WebDriver | undefined;
let baseUrl = '';

/** Loads `url` and waits until `script` (a function body) returns something other than null. */
async function loadAndWait<T>(url: string, script: string, what: string): Promise<T> {
  await driver!.get(url);
  return driver!.wait(
    async () => (await driver!.executeScript<T | null>(script)) ?? false,
    HANG_MS,
    `${what}: still waiting after ${HANG_MS} ms`,
    250,
  ) as Promise<T>;
}

/** Runs the tests of `file` whose full name matches `grep` on the shim's page in WebKit. */
async function runInWebKit(file: string, grep: string): Promise<CaseResult[]> {
  const q = new URLSearchParams({ file, grep });
  const out = await loadAndWait<{ results: CaseResult[] } | { error: string }>(
    `${baseUrl}/tests/firefox/page.html?${q}`,
    'return window.__testResults ?? null;',
    file,
  );
  if ('error' in out) throw new Error(`${file} did not load in WebKit: ${out.error}`);
  return out.results;
}

/** One grab of the demo's canvas (tests/support/demo-grab.ts), run in the page. */
const grab = () =>
  driver!.executeAsyncScript<DemoGrab>(
    `const done = arguments[arguments.length - 1]; (${grabDemoCanvas.toString()})().then(done);`,
  );

describe.skipIf(!available)('WebKit (WebKitGTK MiniBrowser: the WebGL2 rungs)', () => {
  beforeAll(async () => {
    const x = await startXvfb();
    xvfb = x.proc;
    ({ server, baseUrl } = await startShimServer('webkit'));
    const env = Object.fromEntries(
      Object.entries({ ...process.env, DISPLAY: x.display }).filter(
        (e): e is [string, string] => e[1] !== undefined,
      ),
    );
    service = new DriverService.Builder(DRIVER).setLoopback(true).setEnvironment(env).build();
    const url = await service.start(HANG_MS);
    const caps = new Capabilities();
    caps.set('webkitgtk:browserOptions', { binary: MINIBROWSER, args: ['--automation'] });
    driver = WebDriver.createSession(new Executor(new HttpClient(url)), caps);
    await driver.getSession();
    await driver.manage().setTimeouts({ script: HANG_MS, pageLoad: HANG_MS });
    await driver.manage().window().setRect({ width: 1024, height: 768 });
  });

  afterAll(async () => {
    await driver?.quit().catch(() => undefined);
    await service?.kill();
    await server?.close();
    xvfb?.kill();
  });

  test('webgl2 and webgl2-tf parity with the CPU reference (3D and 2D, 1 and 10 steps)', async () => {
    expectAllPassed('webkit', await runInWebKit('/tests/webkit/cases.ts', '.*'), 4);
  });

  test('the <gpu-flock> element: attributes, a bad attribute reported, removal and re-insertion', async () => {
    const grep = '^<gpu-flock> > (is defined|a bad attribute fires|removal disposes)';
    expectAllPassed('webkit', await runInWebKit('/tests/browser/element.test.ts', grep), 3);
  });

  test('context loss (WEBGL_lose_context): no step lost on webgl2 and webgl2-tf; never restored falls back', async () => {
    const grep = '^(webgl2|webgl2-tf): no rollback|never restored falls back';
    expectAllPassed('webkit', await runInWebKit('/tests/browser/recovery.test.ts', grep), 3);
  });

  describe('the built demo under a strict CSP', () => {
    let out = '';
    let site: StaticServer | undefined;
    const reports: string[] = [];

    beforeAll(async () => {
      out = mkdtempSync(join(tmpdir(), 'gpu-flock-webkit-csp-'));
      await build({
        root,
        configFile: join(root, 'vite.config.ts'),
        logLevel: 'error',
        build: { outDir: out, emptyOutDir: true },
      });
      site = await serveStatic(out, { csp: CSP, onReport: (r) => reports.push(r) });
    });

    afterAll(async () => {
      await site?.close();
      if (out) rmSync(out, { recursive: true, force: true });
    });

    test('index.html: no violation reported, the flock draws and moves, the panel is styled', async () => {
      const backend = await loadAndWait<string>(
        `${site!.url}/index.html?count=400&backend=webgl2`,
        `const f = window.flockReady;
         if (!f) return null;
         if (!window.__backend) f.then((x) => (window.__backend = x.backend));
         return window.__backend ?? null;`,
        'the demo under CSP',
      );
      expect(backend).toBe('webgl2');
      const a = await grab();
      await driver!.sleep(1000);
      const b = await grab();
      // 400 boids of a few pixels each: well over 100 lit pixels, far from the whole canvas; a
      // flock that moves changes some of them in a second, even at WebKit's few frames a second.
      expect(a.backend).toBe('webgl2');
      expect(a.lit).toBeGreaterThan(100);
      expect(a.lit).toBeLessThan(0.8 * a.width * a.height);
      expect(b.changed).toBeGreaterThan(20);
      const panel = await driver!.executeScript<{
        width: number;
        rowBorder: string | null;
        inlineStyles: number;
      }>(`
        const main = document.querySelector('.dg.main');
        const row = document.querySelector('.dg .cr.number');
        return {
          width: main ? main.getBoundingClientRect().width : 0,
          rowBorder: row ? getComputedStyle(row).borderLeftColor : null,
          inlineStyles: document.querySelectorAll('style').length,
        };`);
      expect(panel.width).toBeGreaterThan(100);
      expect(panel.rowBorder).toBe('rgb(47, 161, 214)');
      expect(panel.inlineStyles).toBe(0);
      expect(reports).toEqual([]);
      // The control: a blocked load (a data: image, which default-src 'self' forbids) is reported
      // by this browser to this server, so the empty list above means no violation.
      await driver!.executeScript(
        `const img = new Image(); img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='; document.body.append(img);`,
      );
      await driver!.wait(async () => reports.length > 0, 30_000, 'no CSP report came back');
      expect(reports.join('\n')).toMatch(/img-src|default-src/);
    });
  });
});
