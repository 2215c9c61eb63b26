// The benchmark page end to end: Vite's dev server, the system Chromium (SwiftShader WebGL2 and
// WebGPU). The quick run (the page's default: capacity per backend, then a small sweep) ends
// with the capacity sentence filled for every rung (its time is printed, not asserted); the
// results table does not widen the page; the charts, the exports; two imported JSON files show
// both devices on every chart; the side-by-side view's divergence after one step against the
// backend-test tolerance. This checks that the page works, never how fast anything is.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  chromiumPath,
  launchBrowser,
  launchChromium,
  type LaunchedChromium,
} from '../support/chromium';
import { type AnyRow, type BenchRow, BACKEND_NAMES } from '../../src/bench/rows';
import type { BenchExport } from '../../src/bench/report';
import { validateParams } from '../../src/core/params';
import type { FlockState } from '../../src/core/state';
import { checkTolerance } from '../support/compare';
import { canvasPixels } from '../support/frames';

const root = join(import.meta.dirname, '../..');

let server: ViteDevServer;
let ctx: BrowserContext;
let page: Page;
let chrome: LaunchedChromium | undefined;
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

describe.skipIf(!chromiumPath)('benchmark page', () => {
  beforeAll(async () => {
    // No file watching or HMR: an edit elsewhere in the repo must not reload the page mid-run.
    server = await createServer({
      root,
      logLevel: 'error',
      server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    });
    await server.listen();
    // Chromium keeps the compositor of a tab's first about:blank alive for a second after the
    // page replaces it (the feature DelayLayerTreeViewDeletionOnLocalSwap) and then tears it down
    // on the renderer's main thread, waiting for the GPU process, which is busy with the page's
    // first paint: a CDP trace showed that wait as the heartbeat's only gap over 250 ms (413-708
    // ms at 1.07-1.15 s in CI; a bench.html with no script at all had it too, 763 ms). It is the
    // browser's work, not the page's; with the feature off the test measures what the page runs.
    chrome = await launchChromium('bench-e2e', { width: 1280, height: 900 }, [
      '--disable-features=DelayLayerTreeViewDeletionOnLocalSwap',
    ]);
    ctx = chrome.context;
    page = await ctx.newPage();
    page.setDefaultTimeout(200_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  let rows: AnyRow[] = [];
  let exported: BenchExport;

  test('the page answers from its first frame: Quick run during the device report queues and says so; no main-thread gap of its first 40 s reaches 250 ms', async () => {
    // Issue 31 item 1: a 50 ms heartbeat from the page's first script saw a 7.9 s gap while the
    // device report ran (contexts made and given back on the main thread while the GPU process
    // was busy); with the WebGL2 limits read in a worker still 621-1,154 ms (the library's WebGL2
    // capability probe and program links waiting for the GPU process, Chart.js and three empty
    // charts in the page's first task). The bound: under 250 ms on a quiet machine.
    const base = server.resolvedUrls!.local[0]!;
    // What the page runs, not the test's launch: Vite transforms the page's modules on their
    // first request (seconds of the first load on this server); a throwaway browser (its own
    // profile and shader cache) loads the page once before the measured load.
    const warm = await launchBrowser();
    try {
      const w = await warm.newPage();
      await w.goto(`${base}bench.html`);
      await w.waitForFunction(() => window.bench !== undefined, null, { timeout: 200_000 });
      await w.evaluate(() => window.bench.chartsReady());
    } finally {
      await warm.close();
    }
    // One measured load: a fresh tab, the heartbeat from its first script, 40 s.
    const measure = async (first: boolean) => {
      const hb = await ctx.newPage();
      hb.setDefaultTimeout(200_000);
      await hb.addInitScript(() => {
        const beat = { last: performance.now(), gaps: [] as [number, number][] };
        (window as unknown as { beat: typeof beat }).beat = beat;
        setInterval(() => {
          const t = performance.now();
          beat.gaps.push([Math.round(beat.last), Math.round(t - beat.last)]);
          beat.last = t;
        }, 50);
      });
      const t0 = Date.now();
      await hb.goto(`${base}bench.html`);
      await hb.waitForFunction(() => window.bench !== undefined);
      // Quick run pressed while the device report runs: queued, and the status says why it waits.
      const reportDone = await hb.evaluate(() => window.bench.device !== null);
      if (first && !reportDone) {
        await hb.locator('#quick').click();
        expect(await hb.locator('#status').textContent()).toMatch(
          /^Quick run queued: it starts when the device report is done/,
        );
        expect(await hb.locator('#stop').isDisabled()).toBe(false);
        await hb.locator('#stop').click();
        expect(await hb.locator('#status').textContent()).toMatch(/^cancelled; /);
      }
      await hb.evaluate(() => window.bench.deviceReady);
      await hb.waitForTimeout(Math.max(0, 40_000 - (Date.now() - t0)));
      const gaps = await hb.evaluate(
        () => (window as unknown as { beat: { gaps: [number, number][] } }).beat.gaps,
      );
      const status = await hb.locator('#status').textContent();
      await hb.close();
      const longest = gaps.reduce((m, g) => (g[1] > m[1] ? g : m), [0, 0]);
      const over = gaps.filter((g) => g[1] > 250);
      console.log(
        `bench page heartbeat: longest main-thread gap ${longest[1]} ms at ${longest[0]} ms, ` +
          `${gaps.length} beats in ${((Date.now() - t0) / 1000).toFixed(0)} s; over 250 ms: ${JSON.stringify(over)}`,
      );
      if (first && !reportDone)
        expect(status).toMatch(/^Quick run cancelled before it started|^ready/);
      expect(gaps.length).toBeGreaterThan(300);
      return longest;
    };
    // The bound is the page's on a quiet machine; in `npm test` other test files load the same
    // two cores and their browsers' GPU processes. Up to three loads, the best counts: a page that
    // blocks its own main thread fails every one (the 7.9 s of issue 31; 488-829 ms in every
    // load from 2b631f1, the ladder's quick WebGL2 check making a second context after the
    // report's explicit webgl2 flock had probed in full, fixed in src/backend-ladder.ts).
    let longest = await measure(true);
    for (let attempt = 1; attempt < 3 && longest[1] >= 250; attempt++)
      longest = await measure(false);
    expect(longest[1], `longest main-thread gap (ms) at ${longest[0]} ms`).toBeLessThan(250);
  }, 360_000);

  test('the quick run (the default) ends with the capacity sentence filled for every rung', async () => {
    const base = server.resolvedUrls!.local[0]!;
    const t0 = Date.now();
    rows = await openAndWait(`${base}bench.html?auto=1`, () => window.bench.done);
    const secs = (Date.now() - t0) / 1000;
    exported = await page.evaluate(() => window.bench.exportJSON());
    const sentence = await page.locator('#capacity-sentence').textContent();
    const winner = await page.locator('#winner').textContent();
    const status = await page.locator('#status').textContent();
    console.log(`bench quick run: ${secs.toFixed(1)} s from page load\n${status}\n${sentence}`);
    // Issue 31 item 2: the first lines say which backend holds the most at 60 and 30 fps, and
    // by what ratio; the status says the run's time.
    expect(status).toMatch(/^done in \d+\.\d s: /);
    expect(winner).toBe(await page.evaluate(() => window.bench.winner()));
    expect(winner).toMatch(
      /^Most boids on this device: at 60 fps (WebGPU|WebGL2|transform feedback|CPU), .*; at 30 fps /,
    );
    expect(status).toContain(winner);
    expect(exported.settings.preset).toBe('quick');
    const device = exported.device!;
    const available = Object.entries(device.backends)
      .filter(([, b]) => b.available)
      .map(([k]) => k);
    expect(available, 'WebGL2 runs here (SwiftShader)').toContain('webgl2');
    // The sentence names every rung: a figure at 60 and 30 fps for each that runs, the others
    // as not available.
    expect(sentence).toMatch(/^On this device: /);
    expect(sentence).toBe(await page.evaluate(() => window.bench.sentence()));
    const caps = exported.capacity!;
    expect(caps.map((c) => c.backend).sort()).toEqual(Object.keys(device.backends).sort());
    for (const c of caps) {
      const name = BACKEND_NAMES[c.backend];
      expect(sentence, name).toContain(name);
      if (!c.available) {
        expect(sentence).toMatch(new RegExp(`not available here: .*${name}`));
        continue;
      }
      expect(c.results.map((r) => [r.fps, r.steps])).toEqual([
        [60, 1],
        [30, 2],
      ]);
      for (const r of c.results) {
        // A count measured to hold the rate (its frame within budget), or none at all.
        if (r.count > 0)
          expect(r.frameMs!, `${name} ${r.fps} fps`).toBeLessThanOrEqual(1000 / r.fps);
        if (r.failsAt !== null) expect(r.failsAt).toBeGreaterThan(r.count);
      }
      expect(c.probes.length).toBeGreaterThan(1);
    }
    // The sweep: webgpu counting, webgl2, webgl2-tf, cpu at 1,024, 4,096, 16,384; each row of a
    // backend that runs here measured, with its main-thread ms per frame and long tasks, except
    // cpu above its cap, which says why in words.
    for (const [kind, b] of Object.entries(device.backends)) {
      const mine = rows.filter((r) => r.backend === kind);
      expect(mine.map((r) => r.count).sort((x, y) => x - y)).toEqual([1024, 4096, 16384]);
      for (const r of mine) {
        if ('skipped' in r) {
          expect(r.skipped, `${r.label} at ${r.count}`).not.toMatch(/is not allowed/);
          if (b.available)
            expect(r.skipped).toBe('the CPU backend takes at most 4,096 boids on this device');
        } else {
          expect(r.mainMs, `${r.label} main ms`).toBeGreaterThan(0);
          expect(r.mainMs!).toBeLessThanOrEqual(r.frameMs!);
          expect(typeof r.longTasks.count).toBe('number');
        }
      }
    }
    expect(await page.locator('#progress').evaluate((p) => (p as HTMLProgressElement).value)).toBe(
      1,
    );
    expect(pageErrors).toEqual([]);
  });

  test('the results table fits a 1,280 px window; no empty stage box under it; the capacity axis reads several ticks', async () => {
    const w = await page.evaluate(() => {
      const wrap = document.querySelector('.table-wrap')!;
      const stage = document.getElementById('stage')!;
      const y = window.bench.capacityChart.chart.scales.y!;
      return {
        page: document.documentElement.scrollWidth,
        window: window.innerWidth,
        table: document.getElementById('results')!.scrollWidth,
        box: wrap.clientWidth,
        columns: document.querySelectorAll('#results thead th').length,
        stage: getComputedStyle(stage).display,
        ticks: y.ticks.map((t) => String(t.label ?? '')).filter((l) => l !== ''),
      };
    });
    expect(w.window).toBe(1280);
    expect(w.page, 'no horizontal page scroll').toBeLessThanOrEqual(w.window);
    // Before: 1,563 px in a 1,280 px window, draw ms, fps, main ms and long tasks off-screen.
    expect(w.columns).toBeGreaterThan(10);
    expect(w.table, 'every column in view, no scrolling').toBeLessThanOrEqual(w.box);
    // Before: a black 480x270 box under the table between runs.
    expect(w.stage).toBe('none');
    // Before: one tick, "100".
    expect(w.ticks.length, `capacity axis ticks ${JSON.stringify(w.ticks)}`).toBeGreaterThanOrEqual(
      2,
    );
  });

  test('the charts are drawn', async () => {
    // Pixels drawn (alpha > 0) on a chart's canvas.
    const lit = async (which: 'scaling' | 'passes') => {
      const canvas = await page.evaluateHandle((w) => window.bench.charts[w].canvas, which);
      const d = await canvas.evaluate(canvasPixels);
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
      return n;
    };
    const charts = {
      ...(await page.evaluate(() => {
        const b = window.bench.charts;
        return {
          scalingLines: b.scaling.data.datasets.filter((d) => !String(d.label).includes('guide'))
            .length,
          guides: b.scaling.data.datasets.filter((d) => String(d.label).includes('guide')).length,
          bars: b.passes.data.labels?.length ?? 0,
          xType: b.scaling.options.scales?.x?.type,
          yType: b.scaling.options.scales?.y?.type,
        };
      })),
      scalingPixels: await lit('scaling'),
      passesPixels: await lit('passes'),
    };
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
    expect(exported.settings.counts).toEqual([1024, 4096, 16384]);
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
        ['mainMs', r.mainMs],
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
    const measuredLines = table.slice(1).filter((l) => !l.includes('takes at most'));
    expect(measuredLines.length).toBe(measured.length);
    for (const line of measuredLines) {
      const cell = Number(line.split(',')[step]);
      expect(Number.isFinite(cell) && cell > 0, line).toBe(true);
    }
  });

  test('importing two JSON files shows both devices on every chart', async () => {
    const dir = join(root, 'docs/bench-results');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(dir, f));
    expect(files.length, 'example runs shipped in docs/bench-results').toBeGreaterThanOrEqual(2);
    // A page of its own that measured nothing: the imported runs are all it shows.
    await openAndWait(
      `${server.resolvedUrls!.local[0]!}bench.html`,
      () => window.bench.deviceReady,
    );
    // Issue 31 item 4: hostile files are rejected naming the field and leave the page as it
    // was; the good files after them import (before: "Cannot use 'in' operator to search for
    // 'skipped' in null" for every later file).
    const hostile: [string, unknown, RegExp][] = [
      ['nulls.json', { tool: 'gpu-flock bench', rows: [null] }, /^nulls\.json: rows\[0\]: /],
      ['fives.json', { tool: 'gpu-flock bench', rows: [5] }, /^fives\.json: rows\[0\]: /],
      [
        'capacity.json',
        { tool: 'gpu-flock bench', rows: [], capacity: [null] },
        /^capacity\.json: capacity\[0\]: /,
      ],
    ];
    for (const [name, data, message] of hostile) {
      const before = await page.evaluate(
        () => document.getElementById('imported')!.children.length,
      );
      await page.setInputFiles('#import', {
        name,
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(data)),
      });
      await page.waitForFunction(
        (n) => document.getElementById('imported')!.children.length > n,
        before,
      );
      expect(await page.locator('#imported li.bad').last().textContent()).toMatch(message);
      expect(await page.evaluate(() => window.bench.imported.length)).toBe(0);
    }
    await page.setInputFiles('#import', files.slice(0, 2));
    await page.waitForFunction(() => window.bench.imported.length === 2);
    const got = await page.evaluate(() => {
      const b = window.bench;
      return {
        labels: b.imported.map((e) => e.label!),
        scaling: b.charts.scaling.data.datasets.map((d) => String(d.label)),
        passes: (b.charts.passes.data.labels ?? []).map((l) => [l].flat().join(' ')),
        capacity: b.capacityChart.chart.data.datasets.map((d) => String(d.label)),
        listed: document.getElementById('imported')!.textContent,
      };
    });
    expect(new Set(got.labels).size, 'two devices').toBe(2);
    // The rejected files stay listed after the good ones' redraw (before: it wiped them).
    expect(await page.locator('#imported li.bad').allTextContents()).toEqual([
      expect.stringMatching(/^nulls\.json: rows\[0\]: /),
      expect.stringMatching(/^fives\.json: rows\[0\]: /),
      expect.stringMatching(/^capacity\.json: capacity\[0\]: /),
    ]);
    for (const label of got.labels) {
      expect(
        got.scaling.some((l) => l.endsWith(`· ${label}`)),
        `scaling chart: ${label}`,
      ).toBe(true);
      expect(
        got.passes.some((l) => l.includes(label)),
        `per-pass chart: ${label}`,
      ).toBe(true);
      expect(
        got.capacity.some((l) => l.startsWith(`${label} ·`)),
        `capacity bars: ${label}`,
      ).toBe(true);
      expect(got.listed).toContain(label);
    }
    expect(pageErrors).toEqual([]);
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
