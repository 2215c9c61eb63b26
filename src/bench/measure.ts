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
import { PASS_NAMES, type BackendKind, type PassTimes } from '../backend';
import type { FlockParams } from '../core/params';
import { createFlock, FlockError, type Flock } from '../index';
import { allBehaviours, FIRST_MODEL } from './scene';
import { withOffTermsRemoved } from './shader-variants';

export type BenchMode = 'grid' | 'brute';
export type SortKind = 'counting' | 'bitonic';
export type TimingKind = 'gpu' | 'cpu-wait' | 'none';

/** One line of a sweep: a backend, a neighbour search and (WebGPU grid) a sort. */
export interface BenchFamily {
  backend: BackendKind;
  mode: BenchMode;
  /** WebGPU grid build; ignored elsewhere (the WebGL2 paths always sort bitonically). */
  sort?: SortKind;
  /**
   * What users run (DESIGN.md section 6): 'steady', timed after STEADY_STEPS steps from the seed's
   * uniform state; 'dense', the same in a box of side / DENSE_FACTOR. Absent: the fresh state.
   */
  scene?: 'steady' | 'dense';
  /**
   * A cost row (runCosts): the plain default flock ('plain', measured in the same rounds as the
   * others), every behaviour on ('all'), one term on, the first model, or the default flock with
   * the code of its off terms removed from the steer shader ('removed'). Absent: a sweep row.
   */
  behaviours?: BehaviourVariant;
}

/** The terms of DESIGN section 1 that are off in the default flock, switched on one at a time. */
export const TERM_NAMES = [
  'species',
  'obstacles',
  'attractor',
  'predators',
  'wind',
  'turbulence',
] as const;
export type TermName = (typeof TERM_NAMES)[number];
export type BehaviourVariant =
  'plain' | 'all' | TermName | 'first' | 'removed' | 'removed-species' | 'removed-forces';

/** Every variant name, in table order. */
export const ALL_VARIANTS: readonly BehaviourVariant[] = [
  'plain',
  'all',
  ...TERM_NAMES,
  'first',
  'removed',
  'removed-species',
  'removed-forces',
];

/** The cost rows `behaviours=terms` measures, in table order (after 'plain'). */
export const TERM_VARIANTS: readonly BehaviourVariant[] = [
  'all',
  ...TERM_NAMES,
  'first',
  'removed',
];

/** The N of the cost rows by default (issue 9 must-have 7). */
export const COST_COUNTS: readonly number[] = [16384, 65536];

/** The families the cost rows are measured on: one per GPU backend. */
export const COST_BASES: readonly BenchFamily[] = [
  { backend: 'webgpu', mode: 'grid', sort: 'counting' },
  { backend: 'webgl2', mode: 'grid' },
];

const VARIANT_LABELS: Record<BehaviourVariant, string> = {
  plain: 'plain',
  all: '+ all behaviours',
  species: '+ species 3',
  obstacles: '+ 4 obstacles',
  attractor: '+ attractor',
  predators: '+ 2 predators',
  wind: '+ wind',
  turbulence: '+ turbulence',
  first: 'first model',
  removed: 'off-term code removed',
  'removed-species': 'species test removed',
  'removed-forces': 'off forces/flow code removed',
};

/**
 * The parameters a variant sets over the defaults, for a box of half side h: allBehaviours (or
 * the part of it that is one term), FIRST_MODEL for 'first', nothing for 'plain' and 'removed'.
 */
export function variantParams(v: BehaviourVariant, h: number, d: 2 | 3): Partial<FlockParams> {
  const all = allBehaviours(h, d);
  switch (v) {
    case 'plain':
    case 'removed':
    case 'removed-species':
    case 'removed-forces':
      return {};
    case 'all':
      return all;
    case 'first':
      return FIRST_MODEL;
    case 'species':
      return { species: all.species };
    case 'obstacles':
      return { obstacles: all.obstacles };
    case 'attractor':
      return {
        attractor: all.attractor,
        attractorStrength: all.attractorStrength,
        attractorRadius: all.attractorRadius,
      };
    case 'predators':
      return { predators: all.predators };
    case 'wind':
      return { wind: all.wind };
    case 'turbulence':
      return { turbulence: all.turbulence, turbulenceScale: all.turbulenceScale };
  }
}

/** Steps before a 'steady' or 'dense' case is timed. */
export const STEADY_STEPS = 600;
/** The dense scene's box side is the default density's side / DENSE_FACTOR (about 20 neighbours). */
export const DENSE_FACTOR = 2.15;
/** The steady and dense families are measured up to this N (600 steps each; software GPUs are slow). */
export const STEADY_MAX_COUNT = 4096;

export interface BenchCase extends BenchFamily {
  count: number;
  dimensions?: 2 | 3;
  /** uint32 seed of the initial state (default 1). */
  seed?: number;
}

/** The pass names in drawing order (key/sort, cell table, reorder, steer, draw). */
export const PASS_KEYS = PASS_NAMES;

/** The sweep the issue asks for: 1,024 to 1,048,576 in factors of 4. */
export const SWEEP_COUNTS: readonly number[] = [1024, 4096, 16384, 65536, 262144, 1048576];

/** Every family the page offers, in table order. */
export const ALL_FAMILIES: readonly BenchFamily[] = [
  { backend: 'webgpu', mode: 'grid', sort: 'counting' },
  { backend: 'webgpu', mode: 'grid', sort: 'bitonic' },
  { backend: 'webgl2', mode: 'grid' },
  { backend: 'webgl2-tf', mode: 'grid' },
  { backend: 'cpu', mode: 'grid' },
  { backend: 'webgpu', mode: 'grid', sort: 'counting', scene: 'steady' },
  { backend: 'webgl2', mode: 'grid', scene: 'steady' },
  { backend: 'webgpu', mode: 'grid', sort: 'counting', scene: 'dense' },
  { backend: 'webgl2', mode: 'grid', scene: 'dense' },
  { backend: 'webgpu', mode: 'brute' },
  { backend: 'webgl2', mode: 'brute' },
  { backend: 'webgl2-tf', mode: 'brute' },
  { backend: 'cpu', mode: 'brute' },
];

export interface BenchRow extends BenchCase {
  /**
   * Cost rows: per round, this row's step time / the plain row's of the same round (runCosts);
   * the table shows their median and range.
   */
  vsPlain?: number[];
  /**
   * Cost rows under the CLI: median CPU ms per step of the browser's GPU process (where a
   * software GPU runs the simulation), and per round its ratio to the plain flock's.
   */
  cpuMs?: number;
  cpuVsPlain?: number[];
  /** Cost rows, where the backend times passes: per round, the steer pass's time / plain's. */
  steerVsPlain?: number[];
  /** Label such as "webgpu counting", "webgl2 grid", "webgl2 brute". */
  label: string;
  dimensions: 2 | 3;
  seed: number;
  /** Box side, world units. */
  box: number;
  /**
   * Mean neighbour count: of the uniform initial state, (N-1) * sphere volume / box volume; for
   * 'steady' and 'dense' cases the measured mean |N_i| (velocities.w) after STEADY_STEPS steps.
   */
  meanNeighbors: number;
  /** Median wall ms per step (CPU clock around step + finish: 'cpu-wait' on every backend). */
  stepMs: number;
  /** Fastest and slowest batch, ms per step. */
  minMs: number;
  maxMs: number;
  /** Each batch's ms per step. */
  samples: number[];
  /** Steps per timed batch. */
  batch: number;
  /** 1000 / stepMs. */
  stepsPerSecond: number;
  /** Sum of the step's passes (key .. steer) when `timing` is 'gpu'; null otherwise. */
  gpuStepMs: number | null;
  /** How `passes` were measured. */
  timing: TimingKind;
  /** Median per-pass ms per step (draw: per frame); null where not measured. */
  passes: PassTimes;
  /** Median ms of render() + finish(), or null when drawing was not measured. */
  drawMs: number | null;
  /** Median ms of one frame: step(1) + render() + finish(); null when not measured. */
  frameMs: number | null;
  /** 1000 / frameMs. */
  fps: number | null;
  /**
   * Main-thread ms per frame (median over the frames drawn): performance.now() around the calls
   * that encode and submit a frame (`step(1)` until it resolves, and `render()`), not the wait
   * for the device; null when no frame was drawn.
   */
  mainMs: number | null;
  /** Long tasks (PerformanceObserver 'longtask', over 50 ms on the main thread) while the case ran. */
  longTasks: LongTasks;
  /** Drawing buffer size of the canvas drawn into, device pixels. */
  canvas: [number, number];
  /** createFlock + first step + finish (shader compilation, allocation), ms. */
  setupMs: number;
  /** This case took longer than the budget per step (its family stops growing here). */
  overBudget: boolean;
  /** Renderer / adapter of the backend. */
  device: string;
  /** Fragment passes of one step's sort (WebGL2 grid: the bitonic sort); null elsewhere. */
  sortPasses: number | null;
}

/** A case that was not measured, and why. */
export interface SkippedRow extends BenchCase {
  label: string;
  skipped: string;
  /** unavailable: createFlock rejected; budget: a smaller N exceeded the budget (or would);
   *  left-out: not asked for (e.g. brute above its cap); error: failed while running. */
  reason: 'unavailable' | 'budget' | 'left-out' | 'error';
}

export type AnyRow = BenchRow | SkippedRow;

/** Long tasks seen on the main thread during a measurement. */
export interface LongTasks {
  /** How many (null where the browser has no 'longtask' entries). */
  count: number | null;
  /** Their summed duration, ms. */
  ms: number;
  /** The longest, ms. */
  maxMs: number;
}

let longTaskLog: PerformanceEntry[] | null = null;

/**
 * Starts recording long tasks (PerformanceObserver 'longtask': main-thread tasks over 50 ms) for
 * longTasksBetween; false where the browser does not report them.
 */
export function observeLongTasks(): boolean {
  if (longTaskLog) return true;
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('longtask')
  )
    return false;
  const log: PerformanceEntry[] = [];
  new PerformanceObserver((list) => log.push(...list.getEntries())).observe({
    type: 'longtask',
    buffered: true,
  });
  longTaskLog = log;
  return true;
}

/** The long tasks that started between t0 and t1 (performance.now() times). */
export function longTasksBetween(t0: number, t1: number): LongTasks {
  if (!longTaskLog) return { count: null, ms: 0, maxMs: 0 };
  const hit = longTaskLog.filter((e) => e.startTime >= t0 && e.startTime < t1);
  return {
    count: hit.length,
    ms: hit.reduce((s, e) => s + e.duration, 0),
    maxMs: hit.reduce((m, e) => Math.max(m, e.duration), 0),
  };
}

/** The backends' names in sentences. */
export const BACKEND_NAMES: Record<BackendKind, string> = {
  webgpu: 'WebGPU',
  webgl2: 'WebGL2',
  'webgl2-tf': 'transform feedback',
  cpu: 'CPU',
};

/**
 * Why a case was not measured, in words a user acts on, from the error createFlock or a step
 * gave (a FlockError names the field: 'count' over the backend's cap, 'backend' when it cannot
 * run here, with the ladder's reason).
 */
export function skipInWords(e: unknown, backend: BackendKind): string {
  const name = BACKEND_NAMES[backend];
  if (e instanceof FlockError) {
    if (e.field === 'count') {
      const max = /to ([\d,]+)/.exec(e.allowed)?.[1];
      const n = max ? Number(max.replace(/,/g, '')).toLocaleString('en-US') : null;
      return n
        ? `the ${name} backend takes at most ${n} boids on this device`
        : `the ${name} backend cannot take this many boids here`;
    }
    if (e.field === 'backend') {
      const why = /\((.*)\)$/.exec(e.message)?.[1];
      return `${name} does not run in this browser${why ? `: ${why}` : ''}`;
    }
  }
  return `failed: ${e instanceof Error ? e.message : String(e)}`;
}

export function isMeasured(r: AnyRow): r is BenchRow {
  return !('skipped' in r);
}

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

export function caseLabel(c: BenchFamily): string {
  const base =
    c.mode === 'brute'
      ? `${c.backend} brute`
      : c.backend === 'webgpu'
        ? `webgpu ${c.sort ?? 'counting'}`
        : `${c.backend} grid`;
  const scene = c.scene === 'dense' ? ' dense steady' : c.scene === 'steady' ? ' steady' : '';
  const variant = c.behaviours ? ` ${VARIANT_LABELS[c.behaviours]}` : '';
  return base + scene + variant;
}

/** Box side at constant density: 64 * (N / 16384)^(1/d). */
export function boxSideFor(count: number, dimensions: 2 | 3 = 3): number {
  return 64 * Math.pow(count / 16384, 1 / dimensions);
}

/** The parameters of one case: the same seed and model parameters everywhere, the box follows N. */
export function caseParams(c: BenchCase) {
  const d = c.dimensions ?? 3;
  const h = boxSideFor(c.count, d) / 2 / (c.scene === 'dense' ? DENSE_FACTOR : 1);
  return {
    ...(c.behaviours ? variantParams(c.behaviours, h, d) : {}),
    count: c.count,
    dimensions: d,
    neighborSearch: c.mode,
    sort: c.sort ?? 'counting',
    boundsMin: [-h, -h, d === 2 ? 0 : -h] as [number, number, number],
    boundsMax: [h, h, d === 2 ? 1 : h] as [number, number, number],
    seed: c.seed ?? 1,
  };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function sumStepPasses(p: PassTimes): number | null {
  const parts = [p.key, p.sort, p.cellTable, p.reorder, p.steer].filter(
    (x): x is number => x !== null,
  );
  return parts.length ? parts.reduce((a, b) => a + b, 0) : null;
}

/** Per-pass medians over the non-null values seen. */
function medianPasses(seen: PassTimes[]): PassTimes {
  const out = {} as PassTimes;
  for (const k of PASS_KEYS) {
    const xs = seen.map((p) => p[k]).filter((x): x is number => x !== null && Number.isFinite(x));
    out[k] = xs.length ? median(xs) : null;
  }
  return out;
}

async function timed(f: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

/** Expected mean neighbour count of a uniform state: (N-1) * sphere (disc) volume / box volume. */
export function expectedNeighbors(count: number, r: number, d: 2 | 3): number {
  const side = boxSideFor(count, d);
  const ball = d === 3 ? (4 / 3) * Math.PI * r ** 3 : Math.PI * r * r;
  return ((count - 1) * ball) / side ** d;
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
      if (draw1 + probe <= o.budgetMs) {
        for (let k = 1; k < o.frames; k++) draws.push(await timed(() => drawAndWait(flock)));
        for (let k = 0; k < o.frames; k++) {
          // The main thread's part: from step(1) until it resolves (its passes encoded and
          // submitted) and render(); then the wait for the device.
          const a = performance.now();
          await flock.step(1);
          flock.render();
          const b = performance.now();
          await flock.finish();
          frames.push(performance.now() - a);
          mains.push(b - a);
          drawSeen.push(flock.timings().passes);
        }
      } else {
        // One frame is already over budget: one frame more, to time the main thread's share,
        // and no others.
        const a = performance.now();
        await flock.step(1);
        flock.render();
        const b = performance.now();
        await flock.finish();
        frames.push(performance.now() - a);
        mains.push(b - a);
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
function stepFields(
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

/** Step-time growth from N to 4N the model predicts: the grid is O(N), brute force O(N²). */
export function expectedGrowth(mode: BenchMode): number {
  return mode === 'brute' ? 16 : 4;
}

/** The largest N a sweep measures for a family, and why larger ones are left out. */
export interface SweepCap {
  count: number;
  /** The skip label of the counts above it. */
  skipped: string;
}

/**
 * The sweep's cap of family `f`: brute force above `bruteMax` (all pairs, O(N²)); steady and
 * dense rows above STEADY_MAX_COUNT (each runs STEADY_STEPS untimed steps first, so that the
 * flock forms); null for the rest.
 */
export function sweepCap(f: BenchFamily, bruteMax: number): SweepCap | null {
  if (f.mode === 'brute')
    return {
      count: bruteMax,
      skipped: `left out above N = ${bruteMax.toLocaleString('en-US')}: all pairs grow as N², too slow here`,
    };
  if (f.scene)
    return {
      count: STEADY_MAX_COUNT,
      skipped:
        `left out above N = ${STEADY_MAX_COUNT.toLocaleString('en-US')}: a ${f.scene} row first ` +
        `runs ${STEADY_STEPS} untimed steps so that the flock forms, too slow here`,
    };
  return null;
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

/** The p-quantile (0..1, linear between order statistics) of xs. */
export function quantile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const at = p * (s.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo);
}

/**
 * The cost rows: on each base family (COST_BASES: webgpu counting, webgl2 grid) and each count,
 * the plain default flock and every variant are created side by side (each warmed up with one
 * step), then `rounds` rounds each time one batch of every flock back to back, the order
 * reversed every other round. A row's step time is the median of its batches; its `vsPlain`
 * holds, per round, its batch / the plain flock's batch of that round (pairs measured well under
 * a second apart, so a drifting load on a shared machine falls on both), and `steerVsPlain` the
 * same for the steer pass's time where the backend times passes. A base whose plain step is over
 * the budget stops growing; a variant that fails to start (e.g. 'removed' on a shader it no
 * longer recognises) is reported as skipped and the others go on.
 */
export async function runCosts(
  bases: readonly BenchFamily[],
  variants: readonly BehaviourVariant[],
  counts: readonly number[],
  rounds: number,
  o: BenchOptions & { dimensions?: 2 | 3; seed?: number },
  onRow: (row: AnyRow) => void,
): Promise<void> {
  const sorted = [...counts].sort((a, b) => a - b);
  const all: BehaviourVariant[] = ['plain', ...variants.filter((v) => v !== 'plain')];
  for (const base of bases) {
    let stop: string | null = null;
    for (const count of sorted) {
      const cases = all.map((v): BenchCase => ({
        backend: base.backend,
        mode: base.mode,
        ...(base.sort ? { sort: base.sort } : {}),
        behaviours: v,
        count,
        dimensions: o.dimensions ?? 3,
        seed: o.seed ?? 1,
      }));
      if (stop) {
        for (const c of cases)
          onRow({ ...c, label: caseLabel(c), reason: 'budget', skipped: stop });
        continue;
      }
      if (o.aborted?.()) return;
      const open: { c: BenchCase; flock: Flock; setupMs: number }[] = [];
      try {
        for (const c of cases) {
          o.onProgress?.(`${caseLabel(c)}, N = ${count}: starting`);
          const t0 = performance.now();
          try {
            const flock = await startCase(c, o.container);
            open.push({ c, flock, setupMs: performance.now() - t0 });
          } catch (e) {
            const msg = e instanceof Error ? e.message : String(e);
            onRow({ ...c, label: caseLabel(c), reason: 'error', skipped: msg });
            if (c.behaviours === 'plain') {
              stop = `not available here: ${msg}`;
              break;
            }
          }
        }
        if (stop) {
          for (const c of cases.slice(1))
            onRow({ ...c, label: caseLabel(c), reason: 'unavailable', skipped: stop });
          continue;
        }
        // One probe step of the plain flock sets the batch for all.
        const probe = await timed(async () => {
          await open[0]!.flock.step(1);
          await open[0]!.flock.finish();
        });
        const batch =
          o.batch === 'auto'
            ? Math.max(1, Math.min(16, Math.round(40 / Math.max(probe, 1e-3))))
            : Math.max(1, Math.floor(o.batch));
        const n = probe > o.budgetMs ? 1 : Math.max(3, rounds);
        const ms = open.map(() => [] as number[]);
        const cpu = open.map(() => [] as (number | null)[]);
        const steer = open.map(() => [] as (number | null)[]);
        const seen = open.map(() => [] as PassTimes[]);
        for (let r = 0; r < n; r++) {
          const order = open.map((_, k) => k);
          if (r % 2 === 1) order.reverse();
          o.onProgress?.(
            `cost rows, ${base.backend}, N = ${count}: round ${r + 1}/${n} of ${batch} steps`,
          );
          for (const k of order) {
            const f = open[k]!.flock;
            const c0 = await gpuProcessCpuMs();
            const t = await timed(async () => {
              await f.step(batch);
              await f.finish();
            });
            const c1 = await gpuProcessCpuMs();
            ms[k]!.push(t / batch);
            cpu[k]!.push(c0 !== null && c1 !== null ? (c1 - c0) / batch : null);
            const passes = f.timings().passes;
            seen[k]!.push(passes);
            steer[k]!.push(passes.steer);
          }
          if (o.aborted?.()) break;
        }
        const ratios = (xs: readonly (number | null)[], ys: readonly (number | null)[]) => {
          const out: number[] = [];
          for (let r = 0; r < Math.min(xs.length, ys.length); r++) {
            const x = xs[r];
            const y = ys[r];
            if (x !== null && y !== null && x !== undefined && y !== undefined && y > 0)
              out.push(x / y);
          }
          return out;
        };
        open.forEach(({ c, flock, setupMs }, k) => {
          const samples = ms[k]!;
          const passes = medianPasses(seen[k]!.length ? seen[k]! : [flock.timings().passes]);
          const params = flock.params;
          const sv = ratios(steer[k]!, steer[0]!);
          const cpuSamples = cpu[k]!.filter((x): x is number => x !== null);
          onRow({
            ...stepFields(c, flock, samples, batch, passes, setupMs),
            meanNeighbors: expectedNeighbors(c.count, params.perceptionRadius, c.dimensions ?? 3),
            passes,
            drawMs: null,
            frameMs: null,
            fps: null,
            mainMs: null,
            longTasks: { count: null, ms: 0, maxMs: 0 },
            overBudget: probe > o.budgetMs,
            vsPlain: ratios(samples, ms[0]!),
            ...(sv.length ? { steerVsPlain: sv } : {}),
            ...(cpuSamples.length
              ? { cpuMs: median(cpuSamples), cpuVsPlain: ratios(cpu[k]!, cpu[0]!) }
              : {}),
          });
        });
        if (probe > o.budgetMs || median(ms[0]!) > o.budgetMs)
          stop = `N = ${count} took ${Math.round(median(ms[0]!))} ms per step, over the ${o.budgetMs} ms budget`;
      } finally {
        for (const { flock } of open) flock.dispose();
      }
    }
  }
}

/**
 * CPU time so far of the browser's GPU process, ms, where the page's driver provides it (the CLI,
 * scripts/bench.mjs, exposes window.benchGpuProcessCpuMs from /proc); null elsewhere.
 */
async function gpuProcessCpuMs(): Promise<number | null> {
  const f = (globalThis as { benchGpuProcessCpuMs?: () => Promise<number | null> })
    .benchGpuProcessCpuMs;
  if (!f) return null;
  try {
    const v = await f();
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * A flock of case `c` on a fresh canvas in `container`, stepped once (compilation, first-use
 * allocations); for the 'removed' variants compiled from the cut shaders (shader-variants.ts).
 */
async function startCase(c: BenchCase, container: HTMLElement): Promise<Flock> {
  const make = async () => {
    const f = await createFlock(container, {
      backend: c.backend,
      autoStart: false,
      params: caseParams(c),
    });
    try {
      await f.step(1);
      await f.finish();
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
