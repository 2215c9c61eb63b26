// The WebGL2 rungs in a second browser: Firefox ESR (Debian's firefox-esr, WebGL2 on Mesa llvmpipe,
// no WebGPU) under a private Xvfb display, driven by puppeteer-core over WebDriver BiDi
// (../shared/BROWSER.md). Vitest's browser mode cannot drive it (its providers are playwright,
// whose Firefox is a patched build not installable here, and webdriverio), so this Node-side test
// serves the browser tests' own files with Vite, with 'vitest' aliased to a small runner
// (tests/firefox/vitest-shim.ts: describe/test/hooks and Vitest's expect), opens
// tests/firefox/page.html once per file, and asserts that every selected test passed there:
// the parity tests of webgl2, webgl2-tf and cpu (1 and 10 steps against the CPU reference), the
// forced-fallback tests, and the demo, which must draw a non-blank flock that moves.
// On a machine without firefox-esr or Xvfb the suite is skipped, except under CI, where it fails.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { grabDemoCanvas } from '../support/demo-grab';
import {
  expectAllPassed as expectAllPassedIn,
  startShimServer,
  type CaseResult,
} from '../support/shim-server';
import { startXvfb, XVFB } from '../support/xvfb';

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const available = existsSync(FIREFOX) && existsSync(XVFB);
if (!available && process.env.CI) {
  throw new Error(
    `Firefox ESR tests need ${FIREFOX} and ${XVFB} (apt-get install firefox-esr xvfb xauth)`,
  );
}

/**
 * Navigation and waits guard nothing but a hang: on a loaded machine (load ~11) Vite's first
 * transform of a page took longer than puppeteer's 30 s default (issue 21), so every page gets
 * the test's own budget instead (the test timeout, 240 s, stays the outer bound).
 */
const HANG_MS = 200_000;

/** A new tab whose navigations and waits time out only after HANG_MS. */
async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultNavigationTimeout(HANG_MS);
  page.setDefaultTimeout(HANG_MS);
  return page;
}

let xvfb: ChildProcess | null = null;
let server: ViteDevServer;
let browser: Browser;
let baseUrl = '';
const shots = join(tmpdir(), 'gpu-flock-firefox');

/** Runs the tests of `file` whose full name matches `grep` in a fresh Firefox tab. */
async function runInFirefox(file: string, grep = '.*'): Promise<CaseResult[]> {
  const page = await newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  try {
    const q = new URLSearchParams({ file, grep });
    await page.goto(`${baseUrl}/tests/firefox/page.html?${q}`);
    await page.waitForFunction(() => window.__testResults !== undefined, {
      timeout: HANG_MS,
      polling: 250,
    });
    const out = await page.evaluate(() => window.__testResults!);
    if ('error' in out) throw new Error(`${file} did not load in Firefox: ${out.error}`);
    return out.results;
  } catch (e) {
    throw new Error(
      `${String(e)}${problems.length ? `; page errors: ${problems.join(' | ')}` : ''}`,
    );
  } finally {
    await page.close();
  }
}

/** Every selected test ran and passed; the failures' messages otherwise. */
const expectAllPassed = (results: CaseResult[], atLeast: number) =>
  expectAllPassedIn('firefox', results, atLeast);

/** One grab of the demo's canvas (tests/support/demo-grab.ts). */
const grab = (page: Page) => page.evaluate(grabDemoCanvas);

describe.skipIf(!available)('Firefox ESR (WebGL2 rungs)', () => {
  beforeAll(async () => {
    const x = await startXvfb();
    xvfb = x.proc;
    ({ server, baseUrl } = await startShimServer('firefox'));
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: false, // WebGL2 needs a display: Xvfb's
      env: { ...process.env, DISPLAY: x.display },
      extraPrefsFirefox: { 'webgl.force-enabled': true },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    xvfb?.kill();
  });

  // The grid-search rows: the brute-force rows run the same steer shader with another neighbour
  // loop and cost half a minute more here (JS reference included); Chromium runs them.
  test('webgl2 and webgl2-tf parity with the CPU reference (grid, 3D and 2D, 1 and 10 steps)', async () => {
    expectAllPassed(await runInFirefox('/tests/browser/webgl2-parity.test.ts', 'grid'), 8);
  });

  test('cpu parity with the CPU reference (1 and 10 steps, worker and main thread)', async () => {
    expectAllPassed(await runInFirefox('/tests/browser/cpu-backend.test.ts', '1 and 10 steps'), 2);
  });

  test('forced fallbacks: the ladder without WebGPU, without float targets, without WebGL2', async () => {
    expectAllPassed(await runInFirefox('/tests/browser/ladder-browsers.test.ts'), 3);
    expectAllPassed(
      await runInFirefox('/tests/browser/webgl2-errors.test.ts', 'webgl2-tf on the ladder'),
      3,
    );
    expectAllPassed(await runInFirefox('/tests/browser/api.test.ts', 'auto with webgpu'), 2);
  });

  test('phone limits: webgl2, webgl2-tf and cpu match the reference with their count caps', async () => {
    expectAllPassed(await runInFirefox('/tests/browser/phone-limits.test.ts'), 4);
  });

  test.each([
    ['?count=2000&backend=webgl2', 'webgl2'],
    // No WebGPU in Firefox: auto walks to webgl2-tf once the float render target is hidden.
    ['?count=2000&disable=EXT_color_buffer_float', 'webgl2-tf'],
  ])('demo %s: a non-blank flock that moves (%s)', async (query, backend) => {
    const page = await newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.setViewport({ width: 800, height: 600 });
      await page.goto(`${baseUrl}/${query}`);
      await page.waitForFunction(() => window.flockReady !== undefined, { timeout: HANG_MS });
      await page.evaluate(() => window.flockReady!.then(() => undefined));
      await new Promise((r) => setTimeout(r, 300));
      const a = await grab(page);
      await new Promise((r) => setTimeout(r, 600));
      const b = await grab(page);
      expect(a.backend).toBe(backend);
      // 2,000 boids of a few pixels each: well over 1,000 lit pixels, far from the whole canvas.
      expect(a.lit).toBeGreaterThan(1000);
      expect(a.lit).toBeLessThan(0.8 * 800 * 600);
      expect(b.lit).toBeGreaterThan(1000);
      expect(b.changed).toBeGreaterThan(200);
      mkdirSync(shots, { recursive: true });
      writeFileSync(join(shots, `demo-${backend}.png`), await page.screenshot());
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
