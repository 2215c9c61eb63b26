/**
 * How many boids a flock's backend holds at 60 and 30 fps on this device, measured: the
 * capacity search of src/core/capacity-search.ts over frames of a real flock (the steps the frame loop
 * takes to keep real time at that rate, then a draw, until the device finished). The benchmark
 * page, the demo's count probe and the element use this one measure.
 */
import {
  searchCapacity,
  type CapacityProbe,
  type CapacityResult,
  type CapacitySearchOptions,
} from './core/capacity-search';
import { rescaleForCount } from './core/presets';
import type { Flock } from './index';

export type { CapacityProbe, CapacityResult, CapacitySearchOptions } from './core/capacity-search';
export { roundCount, searchCapacity, stepsPerFrame } from './core/capacity-search';

/** Options of measureCapacity: the search's, and how one probe measures. */
export interface CapacityOptions extends CapacitySearchOptions {
  /**
   * Wall-time bound of one probe, ms (default 1,500): a probe stops timing frames once it has
   * taken this long, and one whose untimed first frame (which also pays for the count change:
   * new buffers, a new state) took over four times this does not hold.
   */
  probeMs?: number;
  /** Frames timed per probe at most (default 5; the median is taken). */
  frames?: number;
  /**
   * Sets the flock's count for a probe (default: `flock.setParams(rescaleForCount(params,
   * count))`, the box scaled to keep the flock's density, as the demo does).
   */
  setCount?: (count: number) => unknown;
  /** Put the flock's count and box back afterwards (default true). */
  restore?: boolean;
  /** Returns true to stop the search (a Cancel button); the probes so far stand. */
  aborted?: () => boolean;
}

/** One probe of measureCapacity: the search's, plus the main thread's share of the frame. */
export interface MeasuredProbe extends CapacityProbe {
  /**
   * Main-thread ms per frame (median): `performance.now()` around the calls that encode and
   * submit the frame's work (`step()` until it resolves, and `render()`), without the wait for
   * the device. null for a probe that did not time a frame.
   */
  mainMs: number | null;
}

/** What measureCapacity found for one flock. */
export interface CapacityReport {
  /** The backend measured. */
  backend: string;
  /** Its renderer or adapter (flock.deviceInfo). */
  device: string;
  /** One per frame rate asked for, in order. */
  results: CapacityResult[];
  /** Every probe, in the order taken. */
  probes: MeasuredProbe[];
  /** Wall time of the whole search, ms. */
  ms: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Finds the largest count the flock's backend holds at each frame rate (default 60 and 30 fps)
 * on this device: searchCapacity over frames of this flock, each probe bounded in wall time
 * (`probeMs`), the whole search by `maxProbes` and `deadlineMs`. The frame loop is stopped
 * while it measures and restarted after if it ran; the state moves on (and is re-initialised by
 * every count change).
 * @param flock a running or stopped flock; its backend, view and canvas size are what is measured
 * @returns the answer per rate and every probe (with its main-thread ms per frame)
 * @throws FlockError when a count cannot be set (the flock keeps its state)
 */
export async function measureCapacity(
  flock: Flock,
  options: CapacityOptions = {},
): Promise<CapacityReport> {
  const t0 = performance.now();
  const probeMs = options.probeMs ?? 1500;
  const frames = Math.max(1, options.frames ?? 5);
  const before = flock.params;
  const setCount =
    options.setCount ?? ((n: number) => flock.setParams(rescaleForCount(flock.params, n)));
  const running = flock.running;
  flock.stop();
  const main = new Map<string, number | null>();
  let stop = false;
  try {
    const { results, probes } = await searchCapacity(
      async (count, steps) => {
        if (stop || options.aborted?.()) {
          stop = true;
          return Infinity;
        }
        if (flock.params.count !== count) await setCount(count);
        await flock.finish();
        // An untimed frame first: allocation after a count change, first use of a pipeline.
        const w0 = performance.now();
        await flock.step(steps);
        flock.render();
        await flock.finish();
        const warm = performance.now() - w0;
        if (warm > 4 * probeMs) {
          main.set(`${count}|${steps}`, null);
          return Infinity;
        }
        const times: number[] = [];
        const mains: number[] = [];
        const p0 = performance.now();
        while (times.length < frames && (times.length === 0 || performance.now() - p0 < probeMs)) {
          const a = performance.now();
          await flock.step(steps);
          flock.render();
          const b = performance.now();
          await flock.finish();
          times.push(performance.now() - a);
          mains.push(b - a);
        }
        main.set(`${count}|${steps}`, median(mains));
        return median(times);
      },
      { maxCount: flock.maxCount, timeStep: before.timeStep, ...options },
    );
    return {
      backend: flock.backend,
      device: flock.deviceInfo,
      results: stop ? results.map((r) => ({ ...r, bounded: true })) : results,
      probes: probes
        .filter((p) => main.has(`${p.count}|${p.steps}`))
        .map((p) => ({ ...p, mainMs: main.get(`${p.count}|${p.steps}`) ?? null })),
      ms: performance.now() - t0,
    };
  } finally {
    if ((options.restore ?? true) && flock.params.count !== before.count) {
      await flock.setParams({
        count: before.count,
        boundsMin: before.boundsMin,
        boundsMax: before.boundsMax,
        obstacles: before.obstacles,
      });
    }
    if (running) flock.start();
  }
}
