/**
 * Benchmark measuring code shared by the benchmark page (bench.html) and the CLI (`npm run bench`,
 * which drives the page in headless Chromium). Runs in a browser.
 *
 * Density is constant across N (DESIGN.md section 6): the box side scales with (N / 16384)^(1/d)
 * from the default 64-unit box. Step time is the median of several batches, each timed with the
 * CPU clock from submission to a completed wait for the device ('cpu-wait'), or from GPU timers
 * where the backend has them (per-pass times).
 */
import type { BackendKind, PassTimes } from '../backend';
import { createFlock } from '../index';

export type BenchMode = 'grid' | 'brute';

export interface BenchCase {
  backend: BackendKind;
  mode: BenchMode;
  /** WebGPU grid build; ignored elsewhere (WebGL2 always sorts bitonically). */
  sort?: 'counting' | 'bitonic';
  count: number;
  dimensions?: 2 | 3;
}

export interface BenchRow extends BenchCase {
  /** Label such as "webgpu counting", "webgl2 grid", "webgl2 brute". */
  label: string;
  /** Box side, world units. */
  box: number;
  /** Expected mean neighbour count of the uniform initial state: (N-1) * sphere volume / box volume. */
  meanNeighbors: number;
  /** Median ms per step. */
  stepMs: number;
  /** Each batch's ms per step. */
  samples: number[];
  stepsPerSecond: number;
  /** Median ms per drawn frame (draw only), or null when not measured. */
  drawMs: number | null;
  timing: 'gpu' | 'cpu-wait';
  passes: PassTimes;
  /** Renderer / adapter. */
  device: string;
}

export interface BenchOptions {
  /** Timed batches per case (median taken). */
  samples: number;
  /** Steps per batch. */
  batch: number;
  /** Also time drawing (frames). */
  draw: boolean;
  /** Each case gets a fresh canvas inside this element (a canvas keeps its first context type). */
  container: HTMLElement;
}

export function caseLabel(c: BenchCase): string {
  if (c.mode === 'brute') return `${c.backend} brute`;
  if (c.backend === 'webgpu') return `webgpu ${c.sort ?? 'counting'}`;
  return `${c.backend} grid`;
}

/** Box side at constant density: 64 * (N / 16384)^(1/d). */
export function boxSideFor(count: number, dimensions: 2 | 3 = 3): number {
  return 64 * Math.pow(count / 16384, 1 / dimensions);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Measures one case. Throws (FlockError) when the backend cannot run it. */
export async function measureCase(c: BenchCase, o: BenchOptions): Promise<BenchRow> {
  const d = c.dimensions ?? 3;
  const side = boxSideFor(c.count, d);
  const h = side / 2;
  const flock = await createFlock(o.container, {
    backend: c.backend,
    autoStart: false,
    params: {
      count: c.count,
      dimensions: d,
      neighborSearch: c.mode,
      sort: c.sort ?? 'counting',
      boundsMin: [-h, -h, d === 2 ? 0 : -h],
      boundsMax: [h, h, d === 2 ? 1 : h],
      seed: 1,
    },
  });
  try {
    // Warm-up: shader compilation and first-use allocations.
    await flock.step(1);
    await flock.finish();
    const samples: number[] = [];
    for (let k = 0; k < o.samples; k++) {
      const t0 = performance.now();
      await flock.step(o.batch);
      await flock.finish();
      samples.push((performance.now() - t0) / o.batch);
    }
    const t = flock.timings();
    let drawMs: number | null = null;
    if (o.draw) {
      const draws: number[] = [];
      for (let k = 0; k < 3; k++) {
        const t0 = performance.now();
        flock.render();
        await flock.finish();
        draws.push(performance.now() - t0);
      }
      drawMs = median(draws);
    }
    const r = flock.params.perceptionRadius;
    const sphere = d === 3 ? (4 / 3) * Math.PI * r ** 3 : Math.PI * r * r;
    const stepMs = t.timing === 'gpu' ? sumPasses(t.passes) : median(samples);
    return {
      ...c,
      label: caseLabel(c),
      box: side,
      meanNeighbors: ((c.count - 1) * sphere) / side ** d,
      stepMs,
      samples,
      stepsPerSecond: 1000 / stepMs,
      drawMs,
      timing: t.timing === 'gpu' ? 'gpu' : 'cpu-wait',
      passes: t.passes,
      device: flock.deviceInfo,
    };
  } finally {
    flock.dispose();
  }
}

function sumPasses(p: PassTimes): number {
  return (p.key ?? 0) + (p.sort ?? 0) + (p.cellTable ?? 0) + (p.reorder ?? 0) + (p.steer ?? 0);
}

/**
 * Sweeps counts upward per case family; a family stops once a median step exceeds budgetMs
 * (its later counts are reported as skipped).
 */
export async function runSweep(
  families: Omit<BenchCase, 'count'>[],
  counts: number[],
  o: BenchOptions & { budgetMs: number },
  onRow: (row: BenchRow | { label: string; count: number; skipped: string }) => void,
): Promise<void> {
  for (const f of families) {
    let over = false;
    for (const count of counts) {
      const c = { ...f, count };
      if (over) {
        onRow({
          label: caseLabel(c),
          count,
          skipped: `a smaller count took over the ${o.budgetMs} ms budget per step`,
        });
        continue;
      }
      try {
        const row = await measureCase(c, o);
        onRow(row);
        if (row.stepMs > o.budgetMs) over = true;
      } catch (e) {
        onRow({ label: caseLabel(c), count, skipped: e instanceof Error ? e.message : String(e) });
        over = true;
      }
    }
  }
}
