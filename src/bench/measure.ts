/**
 * Benchmark measuring code shared by the benchmark page (bench.html) and the CLI (`npm run bench`,
 * which drives the page in headless Chromium). Runs in a browser; owns nothing between calls
 * (each case makes a flock on a fresh canvas and disposes it).
 *
 * Density is constant across N (DESIGN.md section 6): the box side scales with (N / 16384)^(1/d)
 * from the default 64-unit box. Every case uses the same seed and parameters; only the box follows N.
 *
 * What one case measures (all times in milliseconds):
 * - step: the median over `samples` batches of (CPU clock around `step(batch)` + `finish()`) / batch.
 *   This wall time is measured the same way on every backend ('cpu-wait'), so it is the number the
 *   ratios use.
 * - passes: key, sort, cell table, reorder, steer, draw from `Flock.timings()` after each batch,
 *   median over batches. `timing` says where they came from: 'gpu' (timer queries:
 *   EXT_disjoint_timer_query_webgl2, WebGPU timestamp-query), 'cpu-wait', or 'none' (not split).
 * - draw: median of (CPU clock around `render()` + `finish()`).
 * - frame: median of (`step(1)` + `render()` + `finish()`), frames back to back (not paced by
 *   requestAnimationFrame); fps = 1000 / frame.
 */
import type { PassTimes } from '../backend';
import { createFlock, FlockError, type Flock } from '../index';
import {
  caseLabel,
  caseParams,
  PASS_KEYS,
  expectedGrowth,
  expectedNeighbors,
  STEADY_STEPS,
  type BenchCase,
  type BenchFamily,
  type SweepCap,
  type TimingKind,
} from './cases';
import { longTasksBetween } from './long-tasks';
import { median } from './stats';
import { skipInWords, type AnyRow, type BenchRow, type SkippedRow } from './rows';
import { withOffTermsRemoved } from './shader-variants';

export interface BenchOptions {
  /** Timed batches per case (median taken); at least 3 are always kept. */
  samples: number;
  /** Steps per batch, or 'auto': enough steps for a batch of about 40 ms, at most 16. */
  batch: number | 'auto';
  /** Frames measured with drawing (0: no drawing measured). */
  frames: number;
  /** ms per step: a family stops growing once a step takes longer than this. */
  budgetMs: number;
  /** Each case gets a fresh canvas inside this element (a canvas keeps its first context type). */
  container: HTMLElement;
  /** Called between measurements with a short description (for a status line). */
  onProgress?: (text: string) => void;
  /** Returns true to abandon the sweep (the page's Stop button). */
  aborted?: () => boolean;
}
function sumStepPasses(p: PassTimes): number | null {
  const parts = [p.key, p.sort, p.cellTable, p.reorder, p.steer].filter(
    (x): x is number => x !== null,
  );
  return parts.length ? parts.reduce((a, b) => a + b, 0) : null;
}

/** Per-pass medians over the non-null values seen. */
export function medianPasses(seen: PassTimes[]): PassTimes {
  const out = {} as PassTimes;
  for (const k of PASS_KEYS) {
    const xs = seen.map((p) => p[k]).filter((x): x is number => x !== null && Number.isFinite(x));
    out[k] = xs.length ? median(xs) : null;
  }
  return out;
}

export async function timed(f: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

/**
 * Measures one case. Rejects with the backend's FlockError when the backend cannot run it here.
 * Stops early (overBudget, fewer samples) when one step takes longer than `o.budgetMs`.
 */
export async function measureCase(c: BenchCase, o: BenchOptions): Promise<BenchRow> {
  const d = c.dimensions ?? 3;
  const label = caseLabel(c);
  const t0 = performance.now();
  const flock = await startCase(c, o.container);
  try {
    const setupMs = performance.now() - t0;
    let steadyNeighbors: number | null = null;
    if (c.scene) {
      o.onProgress?.(`${label}, N = ${c.count}: ${STEADY_STEPS} steps to the steady state`);
      await flock.step(STEADY_STEPS - 1);
      await flock.finish();
      const st = await flock.readState();
      let sum = 0;
      for (let i = 0; i < st.count; i++) sum += st.velocities[4 * i + 3]!;
      steadyNeighbors = sum / st.count;
    }
    const probe = await timed(async () => {
      await flock.step(1);
      await flock.finish();
    });
    const samples: number[] = [probe];
    const passSeen: PassTimes[] = [];
    let batch = 1;
    const overBudget = probe > o.budgetMs;
    if (!overBudget) {
      batch =
        o.batch === 'auto'
          ? Math.max(1, Math.min(16, Math.round(40 / Math.max(probe, 1e-3))))
          : Math.max(1, Math.floor(o.batch));
      // Keep a case to about 20 budgets of stepping, but take at least 3 batches.
      const want = Math.max(3, o.samples);
      const affordable = Math.max(3, Math.floor((20 * o.budgetMs) / (probe * batch)));
      const n = Math.min(want, affordable);
      samples.length = 0;
      for (let k = 0; k < n; k++) {
        o.onProgress?.(`${label}, N = ${c.count}: batch ${k + 1}/${n} of ${batch} steps`);
        const ms = await timed(async () => {
          await flock.step(batch);
          await flock.finish();
        });
        samples.push(ms / batch);
        passSeen.push(flock.timings().passes);
        if (o.aborted?.()) break;
      }
    }
    let drawMs: number | null = null;
    let frameMs: number | null = null;
    const mains: number[] = [];
    const drawSeen: PassTimes[] = [];
    if (o.frames > 0 && !o.aborted?.()) {
      o.onProgress?.(`${label}, N = ${c.count}: drawing`);
      const draw1 = await timed(() => drawAndWait(flock));
      const draws = [draw1];
      const frames: number[] = [];
      // One whole frame. The main thread's part: from step(1) until it resolves (its passes
      // encoded and submitted) and render(); then the wait for the device.
      const timeFrame = async (): Promise<void> => {
        const a = performance.now();
        await flock.step(1);
        flock.render();
        const b = performance.now();
        await flock.finish();
        frames.push(performance.now() - a);
        mains.push(b - a);
      };
      if (draw1 + probe <= o.budgetMs) {
        for (let k = 1; k < o.frames; k++) draws.push(await timed(() => drawAndWait(flock)));
        for (let k = 0; k < o.frames; k++) {
          await timeFrame();
          drawSeen.push(flock.timings().passes);
        }
      } else {
        // One frame is already over budget: one frame more, to time the main thread's share,
        // and no others.
        await timeFrame();
      }
      drawMs = median(draws);
      frameMs = median(frames);
    }
    const t = flock.timings();
    const stepPasses = medianPasses(passSeen.length ? passSeen : [t.passes]);
    const drawPasses = medianPasses(drawSeen);
    const passes: PassTimes = { ...stepPasses, draw: drawPasses.draw ?? stepPasses.draw };
    const params = flock.params;
    return {
      ...stepFields(c, flock, samples, batch, stepPasses, setupMs),
      meanNeighbors: steadyNeighbors ?? expectedNeighbors(c.count, params.perceptionRadius, d),
      passes,
      drawMs,
      frameMs,
      fps: frameMs === null ? null : 1000 / frameMs,
      mainMs: mains.length ? median(mains) : null,
      longTasks: longTasksBetween(t0, performance.now()),
      overBudget,
    };
  } finally {
    flock.dispose();
  }
}

/**
 * The fields of a measured row that come from the case, the flock and its step samples (ms per
 * step, each a batch of `batch` steps): the sweep's rows and the cost rows share them.
 */
export function stepFields(
  c: BenchCase,
  flock: Flock,
  samples: number[],
  batch: number,
  stepPasses: PassTimes,
  setupMs: number,
) {
  const params = flock.params;
  const stepMs = median(samples);
  const timing: TimingKind = flock.timings().timing;
  return {
    ...c,
    dimensions: c.dimensions ?? 3,
    seed: params.seed,
    label: caseLabel(c),
    box: params.boundsMax[0] - params.boundsMin[0],
    stepMs,
    minMs: Math.min(...samples),
    maxMs: Math.max(...samples),
    samples,
    batch,
    stepsPerSecond: 1000 / stepMs,
    gpuStepMs: timing === 'gpu' ? sumStepPasses(stepPasses) : null,
    timing,
    canvas: [flock.canvas.width, flock.canvas.height] as [number, number],
    setupMs,
    device: flock.deviceInfo,
    sortPasses: flock._debug?.sortPasses ?? null,
  };
}

async function drawAndWait(flock: Flock): Promise<void> {
  flock.render();
  await flock.finish();
}

/**
 * Sweeps counts upward per family (ascending). A family stops once a step exceeds `budgetMs`;
 * a count whose predicted step (the last measured one times the model's growth, 4x grid,
 * 16x brute, per factor 4) is over 4 budgets is skipped rather than measured. `cap(f)` caps a
 * family's counts (sweepCap: brute force, steady rows), the rest reported as left out with its
 * label.
 */
export async function runSweep(
  families: readonly BenchFamily[],
  counts: readonly number[],
  o: BenchOptions & {
    dimensions?: 2 | 3;
    seed?: number;
    cap?: (f: BenchFamily) => SweepCap | null;
  },
  onRow: (row: AnyRow) => void,
): Promise<void> {
  const sorted = [...counts].sort((a, b) => a - b);
  const fmt = (n: number) => n.toLocaleString('en-US');
  const secs = (ms: number) =>
    ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
  for (const f of families) {
    let stop: { why: string; reason: SkippedRow['reason'] } | null = null;
    let last: BenchRow | null = null;
    const cap = o.cap?.(f) ?? null;
    for (const count of sorted) {
      const c: BenchCase = { ...f, count, dimensions: o.dimensions ?? 3, seed: o.seed ?? 1 };
      const label = caseLabel(c);
      if (o.aborted?.()) return;
      if (cap && count > cap.count) {
        onRow({ ...c, label, reason: 'left-out', skipped: cap.skipped });
        continue;
      }
      if (stop) {
        onRow({ ...c, label, reason: stop.reason, skipped: stop.why });
        continue;
      }
      if (last) {
        const factors = Math.log(count / last.count) / Math.log(4);
        const predicted = last.stepMs * expectedGrowth(f.mode) ** factors;
        if (predicted > 4 * o.budgetMs) {
          stop = {
            reason: 'budget',
            why:
              `left out: a step would take about ${secs(predicted)} (from ${secs(last.stepMs)} ` +
              `at N = ${fmt(last.count)}), over the ${secs(o.budgetMs)} a step may take`,
          };
          onRow({ ...c, label, reason: stop.reason, skipped: stop.why });
          continue;
        }
      }
      o.onProgress?.(`${label}, N = ${fmt(count)}: starting`);
      try {
        const row = await measureCase(c, o);
        onRow(row);
        last = row;
        if (row.overBudget || row.stepMs > o.budgetMs)
          stop = {
            reason: 'budget',
            why:
              `left out: a step at N = ${fmt(count)} took ${secs(row.stepMs)}, over the ` +
              `${secs(o.budgetMs)} a step may take`,
          };
      } catch (e) {
        // A FlockError (a backend that cannot run here, a count over its cap) means "not here",
        // and the same holds for every larger count.
        const unavailable = e instanceof FlockError || last === null;
        const why = skipInWords(e, f.backend);
        onRow({ ...c, label, reason: unavailable ? 'unavailable' : 'error', skipped: why });
        stop = unavailable
          ? { reason: 'unavailable', why }
          : { reason: 'error', why: `left out after a failure at N = ${fmt(count)}` };
      }
    }
  }
}
/** The longest a case waits for its specialised programs before it is timed. */
export const VARIANT_WAIT_MS = 10_000;

/** Resolves once `f`'s newest program variant is in use, or after `ms` (whichever is first). */
export async function variantsSettled(f: Flock, ms: number): Promise<void> {
  const v = f._debug?.variants;
  if (!v) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    v.settled(),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]).finally(() => clearTimeout(timer));
}

/**
 * A flock of case `c` on a fresh canvas in `container`, stepped once (compilation, first-use
 * allocations) and its specialised programs in use (or VARIANT_WAIT_MS gone); for the 'removed'
 * variants compiled from the cut shaders (shader-variants.ts).
 */
export async function startCase(c: BenchCase, container: HTMLElement): Promise<Flock> {
  const make = async () => {
    const f = await createFlock(container, {
      backend: c.backend,
      autoStart: false,
      params: caseParams(c),
    });
    try {
      await f.step(1);
      await f.finish();
      // That step ran the generic programs while the ones specialised for these params compiled
      // in the background (BackendVariants): time the programs the flock keeps, not that compile
      // (on SwiftShader it doubled the first row's step: webgpu counting at 16,384 read 151 ms
      // where the same row run next read 46), waiting at most VARIANT_WAIT_MS.
      await variantsSettled(f, VARIANT_WAIT_MS);
    } catch (e) {
      f.dispose();
      throw e;
    }
    return f;
  };
  switch (c.behaviours) {
    case 'removed':
      return withOffTermsRemoved(make, 'all');
    case 'removed-species':
      return withOffTermsRemoved(make, 'species');
    case 'removed-forces':
      return withOffTermsRemoved(make, 'forces');
    default:
      return make();
  }
}
