/**
 * The count probe: how many boids this device holds at 30 fps, for a page that did not say how
 * many it wants (the <gpu-flock> element without a `count`, or with a `density`; the demo without
 * `?count=`). It is measureCapacity (src/capacity.ts), the benchmark's capacity measure, with
 * bounds small enough to run before a page shows its flock: one rate, a start at the flock's
 * small count, doubling from there (so no count is stepped that is more than twice one measured
 * to hold), each probe's timing bounded by PROBE_FRAME_MS and the whole search by
 * PROBE_DEADLINE_MS, so a slow device never freezes the page.
 */
import { measureCapacity, type MeasuredProbe } from './capacity';
import { fitFrameCostOf, type FrameCost } from './core/frame-cost';
import type { Flock } from './index';
import {
  PROBE_DEADLINE_MS,
  PROBE_FPS,
  PROBE_FRAME_MS,
  PROBE_FRAMES,
  PROBE_MAX_COUNT,
  PROBE_MIN_COUNT,
} from './count-probe-limits';

// The bounds live apart, so a page plans with them without loading the probe (count-plan.ts).
export * from './count-probe-limits';

/** How probeCount runs. */
export interface CountProbeOptions {
  /** The most boids to pick (default PROBE_MAX_COUNT; never above flock.maxCount). */
  maxCount?: number;
  /**
   * Sets the flock's count for a probe (default: the box scaled to keep the density,
   * measureCapacity's default). The flock is left at the last count probed: the caller sets the
   * chosen one.
   */
  setCount?: (count: number) => unknown;
  /** The frame rate (default PROBE_FPS). */
  fps?: number;
  /** Wall-time bound of the search, ms (default PROBE_DEADLINE_MS). */
  deadlineMs?: number;
  /** Wall-time bound of one probe, ms (default PROBE_FRAME_MS). */
  probeMs?: number;
}

/** What the probe found. */
export interface CountProbe {
  /** The count chosen: the largest measured to hold `fps`, or the fewest offered when none did. */
  count: number;
  /** The frame rate asked for. */
  fps: number;
  /** `count` was measured to hold `fps` (false: not even the fewest offered did). */
  holds: boolean;
  /** `count` is the most the caller allowed (maxCount), and it held: more may hold too. */
  capped: boolean;
  /** The search's time or probe bound cut it short: `count` is a lower bound. */
  bounded: boolean;
  /** ms per frame measured at `count` (null when that count was not timed). */
  frameMs: number | null;
  /** The smallest count measured not to hold `fps` (null: none failed). */
  failsAt: number | null;
  /** Fixed steps per frame at `fps` (the frame loop's, to keep real time). */
  steps: number;
  /** The flock's count when the probe started (the first count measured). */
  atCount: number;
  /** Every probe, in the order taken (count, steps, ms per frame, main-thread ms). */
  probes: MeasuredProbe[];
  /** Wall time of the search, ms. */
  ms: number;
  /** The frame's cost line through the largest counts measured (fitFrameCostOf). */
  cost: FrameCost | null;
}

/**
 * Picks the count this device holds at `fps` (30) with the flock as it is (backend, view, canvas
 * size): measureCapacity from the flock's count, between min(PROBE_MIN_COUNT, maxCount) and
 * maxCount, bounded as the module says. The frame loop is stopped while it measures and
 * restarted after if it ran. The flock is left at the last count probed (restore: false): set
 * the chosen count after.
 * @throws FlockError when a count cannot be set (the flock keeps its state)
 */
export async function probeCount(
  flock: Flock,
  options: CountProbeOptions = {},
): Promise<CountProbe> {
  const fps = options.fps ?? PROBE_FPS;
  const maxCount = Math.max(1, Math.min(options.maxCount ?? PROBE_MAX_COUNT, flock.maxCount));
  const minCount = Math.min(PROBE_MIN_COUNT, maxCount);
  const atCount = flock.params.count;
  const report = await measureCapacity(flock, {
    fps: [fps],
    start: atCount,
    minCount,
    maxCount,
    deadlineMs: options.deadlineMs ?? PROBE_DEADLINE_MS,
    probeMs: options.probeMs ?? PROBE_FRAME_MS,
    frames: PROBE_FRAMES,
    restore: false,
    ...(options.setCount ? { setCount: options.setCount } : {}),
  });
  const r = report.results[0]!;
  const holds = r.count > 0;
  const count = holds ? r.count : minCount;
  const at = report.probes.find((p) => p.count === count && Number.isFinite(p.frameMs));
  return {
    count,
    fps,
    holds,
    capped: holds && count >= maxCount,
    bounded: r.bounded,
    frameMs: holds ? r.frameMs : (at?.frameMs ?? null),
    failsAt: r.failsAt,
    steps: r.steps,
    atCount,
    probes: report.probes,
    ms: report.ms,
    cost: fitFrameCostOf(report.probes),
  };
}
