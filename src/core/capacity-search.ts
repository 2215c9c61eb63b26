/**
 * Capacity search: the largest boid count whose whole frame fits a frame rate's budget, found by
 * doubling and then bisection over a cost the caller measures. Pure (no DOM, no GPU): the
 * measuring part, which drives a real flock, is src/capacity.ts; the tests give a cost function.
 *
 * A frame is what the frame loop does to keep real time at that rate: `stepsPerFrame(fps,
 * timeStep)` fixed steps (two steps of 1/60 s at 30 fps) and one draw. The search is bounded:
 * at most `maxProbes` measurements in all and, with a clock, `deadlineMs` of wall time; a search
 * cut short reports the largest count that held so far (`bounded: true`).
 */

/** One measurement: ms of one frame (its steps and the draw, until the device finished). */
export interface CapacityProbe {
  /** Boids. */
  count: number;
  /** Fixed steps in the frame. */
  steps: number;
  /** Milliseconds per frame (Infinity: the probe ran past its wall-time bound). */
  frameMs: number;
}

/** The answer for one frame rate. */
export interface CapacityResult {
  /** Frames per second the count holds. */
  fps: number;
  /** Fixed steps per frame at this rate (real time). */
  steps: number;
  /** The largest count measured to hold `fps`; 0 when not even `minCount` holds it. */
  count: number;
  /** ms per frame measured at `count` (null when count is 0). */
  frameMs: number | null;
  /** The smallest count measured not to hold `fps` (null: none failed up to maxCount). */
  failsAt: number | null;
  /** The probe or time bound cut the search short: `count` is a lower bound. */
  bounded: boolean;
}

/** How the search runs. */
export interface CapacitySearchOptions {
  /** Frame rates to find counts for (default [60, 30]). */
  fps?: readonly number[];
  /** Simulation step, seconds (params.timeStep; default 1/60). */
  timeStep?: number;
  /** The first count measured (default 1,024). */
  start?: number;
  /** Smallest count tried (default 64); below it the answer is 0. */
  minCount?: number;
  /** Largest count tried: the backend's cap (default 16,777,216). */
  maxCount?: number;
  /** Bisection stops once the failing count is within this fraction of the holding one (default 0.1). */
  precision?: number;
  /** At most this many measurements in all (default 24). */
  maxProbes?: number;
  /** Wall-time bound of the whole search, ms (default: none); needs `now`. */
  deadlineMs?: number;
  /** The clock `deadlineMs` is read on (default performance.now where it exists). */
  now?: () => number;
  /** Called after every measurement (progress). */
  onProbe?: (p: CapacityProbe) => void;
}

/**
 * Fixed steps a frame takes to keep real time at `fps` with a step of `timeStep` seconds: at
 * least 1 (a 60 fps frame with steps of 1/60 s takes 1, a 30 fps frame 2).
 */
export function stepsPerFrame(fps: number, timeStep = 1 / 60): number {
  return Math.max(1, Math.round(1 / fps / timeStep));
}

/**
 * A count to probe, rounded to two significant figures (1,448 -> 1,400; 181,019 -> 180,000)
 * so that the figures read as estimates, never below 1.
 */
export function roundCount(n: number): number {
  if (n < 100) return Math.max(1, Math.round(n));
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}

/**
 * Finds, for each frame rate, the largest count whose frame fits 1000 / fps ms.
 * From `start` it doubles while frames fit (or halves while they do not), then bisects between
 * the largest count that held and the smallest that did not, at the geometric mean rounded by
 * roundCount, until they are within `precision`. Measurements are shared between the rates
 * where the steps per frame agree; the next rate starts from the last one's answer.
 * @param measure ms per frame at a count with a number of steps; Infinity for a probe that ran
 *   past its own wall-time bound (it counts as not holding)
 * @returns one result per rate, in the order of `fps`, and every probe taken
 */
export async function searchCapacity(
  measure: (count: number, steps: number) => Promise<number>,
  options: CapacitySearchOptions = {},
): Promise<{ results: CapacityResult[]; probes: CapacityProbe[] }> {
  const rates = options.fps ?? [60, 30];
  const timeStep = options.timeStep ?? 1 / 60;
  const minCount = Math.max(1, Math.floor(options.minCount ?? 64));
  const maxCount = Math.max(minCount, Math.floor(options.maxCount ?? 16_777_216));
  const precision = options.precision ?? 0.1;
  const maxProbes = options.maxProbes ?? 24;
  const now =
    options.now ??
    (typeof performance !== 'undefined' ? () => performance.now() : () => Date.now());
  const t0 = now();
  const probes: CapacityProbe[] = [];
  const cache = new Map<string, number>();
  const outOfTime = () =>
    probes.length >= maxProbes ||
    (options.deadlineMs !== undefined && now() - t0 >= options.deadlineMs);

  const frame = async (count: number, steps: number): Promise<number> => {
    const key = `${count}|${steps}`;
    const seen = cache.get(key);
    if (seen !== undefined) return seen;
    const ms = await measure(count, steps);
    const p = { count, steps, frameMs: Number.isNaN(ms) ? Infinity : ms };
    cache.set(key, p.frameMs);
    probes.push(p);
    options.onProbe?.(p);
    return p.frameMs;
  };

  const clamp = (n: number) => Math.min(maxCount, Math.max(minCount, n));
  const results: CapacityResult[] = [];
  let from = clamp(roundCount(options.start ?? 1024));
  for (const fps of rates) {
    const steps = stepsPerFrame(fps, timeStep);
    const budget = 1000 / fps;
    let lo = 0; // largest count that held (0: none yet)
    let loMs: number | null = null;
    let hi: number | null = null; // smallest count that did not hold
    let bounded = false;
    const fits = (ms: number) => ms <= budget;
    // Doubling (or halving) from `from` to a bracket.
    let c = from;
    for (;;) {
      if (outOfTime()) {
        bounded = true;
        break;
      }
      const ms = await frame(c, steps);
      if (fits(ms)) {
        lo = c;
        loMs = ms;
        if (hi !== null || c >= maxCount) break;
        c = clamp(roundCount(c * 2));
        if (c <= lo) break;
      } else {
        hi = c;
        if (lo > 0) break;
        if (c <= minCount) break;
        c = clamp(roundCount(c / 2));
        if (c >= hi) break;
      }
    }
    // Bisection at the geometric mean.
    while (!bounded && lo > 0 && hi !== null && hi > lo * (1 + precision)) {
      const mid = clamp(roundCount(Math.sqrt(lo * hi)));
      if (mid <= lo || mid >= hi) break;
      if (outOfTime()) {
        bounded = true;
        break;
      }
      const ms = await frame(mid, steps);
      if (fits(ms)) {
        lo = mid;
        loMs = ms;
      } else {
        hi = mid;
      }
    }
    results.push({ fps, steps, count: lo, frameMs: lo > 0 ? loMs : null, failsAt: hi, bounded });
    if (lo > 0) from = lo;
  }
  return { results, probes };
}
