// The benchmark page end to end: Vite's dev server, the system Chromium (SwiftShader WebGL2 and
// WebGPU), a small sweep on every backend available there, the charts, the exports, and the
// side-by-side view's divergence after one step against the backend-test tolerance.
// Small N and few samples: this checks that the page works, never how fast anything is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';
import type { AnyRow, BenchRow } from '../../src/bench/measure';
import type { BenchExport } from '../../src/bench/report';
import { validateParams } from '../../src/core/params';
import type { FlockState } from '../../src/core/state';
import { checkTolerance } from '../support/compare';

const executablePath = findChromium();
const root = join(import.meta.dirname, '../..');

let server: ViteDevServer;
let ctx: BrowserContext;
let page: Page;
let profile: string;
const pageErrors: string[] = [];

/** Loads the page and waits for `fn` in it; Vite may reload a page once while it optimises a dependency. */
async function openAndWait<T>(url: string, fn: () => Promise<T>): Promise<T> {
  await page.goto(url);
  for (let attempt = 0; ; attempt++) {
    try {
      await page.waitForFunction(() => window.bench !== undefined);
      return await page.evaluate(fn);
    } catch (e) {
      if (attempt >= 3 || !/context was destroyed|navigat/i.test(String(e))) throw e;
      await page.waitForLoadState('load');
    }
  }
}

describe.skipIf(!executablePath)('benchmark page', () => {
  beforeAll(async () => {
    // No file watching or HMR: an edit elsewhere in the repo must not reload the page mid-run.
    server = await createServer({
      root,
      logLevel: 'error',
      server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    });
    await server.listen();
    profile = mkdtempSync(join(tmpdir(), 'gpu-flock-bench-e2e-'));
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: executablePath!,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    page = await ctx.newPage();
    page.setDefaultTimeout(200_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterAll(async () => {
    await ctx?.close();
    await server?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  let rows: AnyRow[] = [];
  let exported: BenchExport;

  test('a small sweep completes on every backend available here', async () => {
    const q = new URLSearchParams({
      auto: '1',
      backends: 'webgpu,webgl2,webgl2-tf,cpu',
      modes: 'grid',
      counts: '1024,4096',
      samples: '3',
      batch: '1',
      frames: '1',
      budget: '60000',
      // The steady/dense rows step 600 times before timing: left out of this small sweep.
      steady: '0',
    });
    const base = server.resolvedUrls!.local[0]!;
    rows = await openAndWait(`${base}bench.html?${q}`, () => window.bench.done);
    exported = await page.evaluate(() => window.bench.exportJSON());
    const device = exported.device!;
    expect(device, 'device report').toBeTruthy();
    const available = Object.entries(device.backends)
      .filter(([, b]) => b.available)
      .map(([k]) => k);
    expect(available, 'WebGL2 runs here (SwiftShader)').toContain('webgl2');
    for (const [kind, b] of Object.entries(device.backends)) {
      const mine = rows.filter((r) => r.backend === kind);
      expect(mine.length, kind).toBeGreaterThan(0);
      for (const r of mine) {
        if (b.available) {
          expect('skipped' in r ? r.skipped : '', `${r.label} at ${r.count}`).toBe('');
        } else {
          // Not available here: every count says why (createFlock's rejection).
          expect('skipped' in r && r.skipped.length > 0, `${r.label} says why`).toBe(true);
        }
      }
    }
    const measured = rows.filter((r): r is BenchRow => !('skipped' in r));
    // webgpu counting and bitonic, webgl2, cpu: up to 4 families x 2 counts.
    expect(measured.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...measured.map((r) => r.count))).toBe(4096);
    expect(pageErrors).toEqual([]);
  });

  test('the charts are drawn', async () => {
    const charts = await page.evaluate(() => {
      const lit = (c: HTMLCanvasElement) => {
        const copy = document.createElement('canvas');
        copy.width = c.width;
        copy.height = c.height;
        const g = copy.getContext('2d')!;
        g.drawImage(c, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
        return n;
      };
      const b = window.bench.charts;
      return {
        scalingLines: b.scaling.data.datasets.filter((d) => !String(d.label).includes('guide'))
          .length,
        guides: b.scaling.data.datasets.filter((d) => String(d.label).includes('guide')).length,
        bars: b.passes.data.labels?.length ?? 0,
        scalingPixels: lit(b.scaling.canvas),
        passesPixels: lit(b.passes.canvas),
        xType: b.scaling.options.scales?.x?.type,
        yType: b.scaling.options.scales?.y?.type,
      };
    });
    const families = new Set(rows.filter((r) => !('skipped' in r)).map((r) => r.label));
    expect(charts.scalingLines).toBe(families.size);
    expect(charts.guides).toBe(2);
    expect(charts.xType).toBe('logarithmic');
    expect(charts.yType).toBe('logarithmic');
    expect(charts.bars).toBeGreaterThan(0);
    expect(charts.scalingPixels).toBeGreaterThan(1000);
    expect(charts.passesPixels).toBeGreaterThan(1000);
  });

  test('the exports hold positive, finite numbers, the device report and the settings', async () => {
    expect(exported.settings.counts).toEqual([1024, 4096]);
    expect(exported.scene.seed).toBe(1);
    const measured = exported.rows.filter((r): r is BenchRow => !('skipped' in r));
    expect(measured.length).toBeGreaterThan(0);
    for (const r of measured) {
      const nums: [string, number | null][] = [
        ['stepMs', r.stepMs],
        ['stepsPerSecond', r.stepsPerSecond],
        ['box', r.box],
        ['meanNeighbors', r.meanNeighbors],
        ['drawMs', r.drawMs],
        ['frameMs', r.frameMs],
        ['fps', r.fps],
        ['setupMs', r.setupMs],
        ...r.samples.map((s, i): [string, number] => [`samples[${i}]`, s]),
      ];
      for (const [name, v] of nums)
        expect(Number.isFinite(v) && v! > 0, `${r.label} N=${r.count} ${name} = ${v}`).toBe(true);
      // Pass times: null where the backend does not measure a pass; a quantised GPU timestamp
      // (Chrome: 100 µs) can average to 0 for a tiny pass, so >= 0 there.
      for (const [name, v] of Object.entries(r.passes)) {
        if (v === null) continue;
        expect(Number.isFinite(v) && v >= 0, `${r.label} N=${r.count} ${name} = ${v}`).toBe(true);
      }
      expect(r.drawMs, `${r.label} drew`).not.toBeNull();
      expect(['gpu', 'cpu-wait', 'none']).toContain(r.timing);
    }
    const csv = await page.evaluate(() => window.bench.exportCSV());
    const lines = csv.trim().split('\n');
    const meta = lines.filter((l) => l.startsWith('#'));
    const table = lines.filter((l) => !l.startsWith('#'));
    expect(meta.some((l) => l.includes('WebGL2 renderer'))).toBe(true);
    expect(meta.some((l) => l.includes('setting budgetMs'))).toBe(true);
    const head = table[0]!.split(',');
    expect(table.length - 1).toBe(exported.rows.length);
    const step = head.indexOf('stepMs');
    for (const line of table.slice(1)) {
      if (line.includes('skipped') || line.includes('not allowed')) continue;
      const cell = Number(line.split(',')[step]);
      expect(Number.isFinite(cell) && cell > 0, line).toBe(true);
    }
  });

  test('side by side: webgl2 and webgpu stay within the backend tolerance after one step', async () => {
    const device = exported.device!;
    const both = device.backends.webgl2?.available && device.backends.webgpu?.available;
    if (!both) return; // a browser without one of them: the page says why; nothing to compare
    const got = await page.evaluate(async () => {
      const side = window.bench.side;
      await side.init({ left: 'webgl2', right: 'webgpu', count: 4096, seed: 1, dimensions: 3 });
      const start = side.history.at(-1)!;
      const d = await side.advance(1);
      const states = await side.states();
      const plain = (s: FlockState) => ({
        count: s.count,
        positions: [...s.positions],
        velocities: [...s.velocities],
      });
      return {
        start,
        d,
        params: side.params,
        a: plain(states![0]),
        b: plain(states![1]),
        readout: document.getElementById('side-readout')!.textContent,
      };
    });
    expect(got.start.steps).toBe(0);
    expect(got.start.maxPos, 'same initial bits').toBe(0);
    expect(got.d!.steps).toBe(1);
    expect(got.d!.withinOneStepTolerance).toBe(true);
    expect(got.d!.fracOver1e4).toBeLessThanOrEqual(0.0005);
    expect(got.readout).toContain('steps: 1');
    const state = (s: typeof got.a): FlockState => ({
      count: s.count,
      positions: new Float32Array(s.positions),
      velocities: new Float32Array(s.velocities),
    });
    const r = checkTolerance(state(got.a), state(got.b), validateParams(got.params!), 1);
    expect(r.ok, r.message).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
