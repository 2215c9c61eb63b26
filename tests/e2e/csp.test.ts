// Issue 11 item 10: the built demo under a strict Content-Security-Policy (default-src 'self', no
// 'unsafe-inline'): no violation is reported, the flock runs, and dat.gui's panel is styled and on
// top of the canvas. The demo is built with `vite build` into a temporary folder and served by a
// small static server that sends the policy with every response. A run-time fallback (the WebGPU device
// destroyed) at devicePixelRatio 2 keeps the canvas's CSS size (its style copied through the CSSOM).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumPath, launchBrowser } from '../support/chromium';
import { serveStatic, type StaticServer } from '../support/static-server';

const root = join(import.meta.dirname, '../..');
const CSP = "default-src 'self'; base-uri 'none'; object-src 'none'";

let out = '';
let server: StaticServer | undefined;
let browser: Browser;
let baseUrl = '';

describe.skipIf(!chromiumPath)('demo under a strict CSP', () => {
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'gpu-flock-csp-'));
    await build({
      root,
      configFile: join(root, 'vite.config.ts'),
      logLevel: 'error',
      build: { outDir: out, emptyOutDir: true },
    });
    server = await serveStatic(out, { csp: CSP });
    baseUrl = server.url;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  test('index.html: no violation, the flock runs, the panel is styled and on top', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(m.text()))
        violations.push(m.text());
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__csp.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    await page.goto(`${baseUrl}/index.html?count=1500&backend=webgl2`);
    await page.waitForFunction(() => window.flockReady !== undefined, null, { timeout: 120_000 });
    const backend = await page.evaluate(async () => (await window.flockReady!).backend);
    expect(backend).toBe('webgl2');
    await page.waitForSelector('.dg.main', { timeout: 30_000 });
    await page.waitForTimeout(500);
    const panel = await page.evaluate(() => {
      const main = document.querySelector('.dg.main') as HTMLElement;
      const r = main.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + 10);
      const row = document.querySelector('.dg .cr.number') as HTMLElement | null;
      const link = document.getElementById('bench-link')!;
      return {
        width: r.width,
        height: r.height,
        onTop: main.contains(top),
        // Colours that only dat-gui.css and app.css give.
        rowBorder: row ? getComputedStyle(row).borderLeftColor : null,
        linkPosition: getComputedStyle(link).position,
        inlineStyles: document.querySelectorAll('style').length,
      };
    });
    const csp = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    expect(csp).toEqual([]);
    expect(violations).toEqual([]);
    expect(panel.width).toBeGreaterThan(100);
    expect(panel.height).toBeGreaterThan(20);
    expect(panel.onTop).toBe(true);
    expect(panel.rowBorder).toBe('rgb(47, 161, 214)');
    expect(panel.linkPosition).toBe('fixed');
    expect(panel.inlineStyles).toBe(0);
    await page.close();
  });

  test('index.html at devicePixelRatio 2: a run-time fallback keeps the canvas CSS size', async () => {
    const page = await browser.newPage({
      viewport: { width: 900, height: 600 },
      deviceScaleFactor: 2,
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__csp.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    await page.goto(`${baseUrl}/index.html?count=1500`);
    await page.waitForFunction(() => window.flockReady !== undefined, null, { timeout: 120_000 });
    const sizes = await page.evaluate(async () => {
      const f = await window.flockReady!;
      const size = (c: HTMLCanvasElement) => {
        const r = c.getBoundingClientRect();
        return `${r.width}x${r.height}`;
      };
      const old = f.canvas;
      const before = { backend: f.backend, size: size(old) };
      const fell = new Promise((r) => f.addEventListener('fallback', r, { once: true }));
      (f as unknown as { _backend: { device: GPUDevice } })._backend.device.destroy();
      await fell;
      for (let k = 0; k < 3; k++) await new Promise((r) => requestAnimationFrame(r));
      return {
        before,
        after: { backend: f.backend, size: size(f.canvas) },
        fresh: f.canvas !== old,
      };
    });
    expect(sizes.before.backend).toBe('webgpu');
    expect(sizes.after.backend).toBe('webgl2');
    expect(sizes.fresh).toBe(true);
    expect(sizes.after.size).toBe(sizes.before.size);
    const csp = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    expect(csp).toEqual([]);
    await page.close();
  });

  test('bench.html: no violation', async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__csp.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    await page.goto(`${baseUrl}/bench.html`);
    await page.waitForLoadState('load');
    await page.waitForTimeout(1000);
    const csp = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    expect(csp).toEqual([]);
    const bodyMargin = await page.evaluate(() => getComputedStyle(document.body).margin);
    expect(bodyMargin).toBe('0px');
    await page.close();
  });
});
