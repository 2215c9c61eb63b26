/**
 * The demo on a small touch screen (a phone), or on any device that draws the default count below
 * SLOW_FPS: a quick measured probe picks the largest count the device holds at 30 fps or more,
 * instead of starting at 16,384 and crawling. It times a few frames of one step + one draw at the
 * starting count; when that count is to be changed, it times them again at the count a cost
 * proportional to the count would pick, fits cost = fixed + perBoid * count through the two
 * points (a frame has fixed costs: passes, draw calls, sorting network stages, the wait for the
 * device, which a proportional estimate would wrongly shrink with the count), and takes the
 * largest count of COUNT_LADDER whose fitted cost fits.
 */
import type { Flock } from '../index';

/**
 * Below this many frames per second at the default count, a device that is not a phone is slow:
 * the demo lowers the count to what holds 30 fps (src/app/main.ts).
 */
export const SLOW_FPS = 15;

/** The counts the probe chooses from. */
export const COUNT_LADDER = [512, 1024, 2048, 4096, 8192, 16384, 32768] as const;

/** A coarse pointer (touch) and a screen at most 820 CSS px on its short side. */
export function isSmallTouchScreen(): boolean {
  const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  return coarse && Math.min(screen.width, screen.height) <= 820;
}

/** One measurement: ms per frame (one step + one draw, until the device finished) at `count`. */
export interface FrameSample {
  count: number;
  frameMs: number;
}

/** A frame's cost model: fixedMs + perBoidMs * count, both >= 0. */
export interface FrameCost {
  fixedMs: number;
  perBoidMs: number;
}

/**
 * The line through two samples of different counts (one sample: through the origin, the cost
 * proportional to the count). Noise can tilt the line impossibly; then: a cost that did not fall
 * with the count is all fixed (perBoid 0, fixed the larger sample); a line that would cross zero
 * above count 0 becomes proportional through the costlier sample per boid (never cheaper than
 * either measurement).
 */
export function fitFrameCost(a: FrameSample, b?: FrameSample): FrameCost {
  const proportional = (...s: FrameSample[]): FrameCost => ({
    fixedMs: 0,
    perBoidMs: Math.max(...s.map((x) => x.frameMs / Math.max(1, x.count))),
  });
  if (!b || b.count === a.count) return proportional(a, ...(b ? [b] : []));
  const [lo, hi] = a.count < b.count ? [a, b] : [b, a];
  if (hi.frameMs <= lo.frameMs) return { fixedMs: Math.max(lo.frameMs, hi.frameMs), perBoidMs: 0 };
  const perBoidMs = (hi.frameMs - lo.frameMs) / (hi.count - lo.count);
  const fixedMs = lo.frameMs - perBoidMs * lo.count;
  return fixedMs < 0 ? proportional(lo, hi) : { fixedMs, perBoidMs };
}

/** The cost model's ms per frame at `count`. */
export function estimateMs(cost: FrameCost, count: number): number {
  return cost.fixedMs + cost.perBoidMs * count;
}

/**
 * The largest ladder count whose estimated frame fits `budgetMs`, at most `maxCount`; the
 * smallest ladder count when none fits.
 */
export function chooseCount(
  cost: FrameCost,
  budgetMs: number,
  maxCount: number,
  ladder: readonly number[] = COUNT_LADDER,
): number {
  let pick = ladder[0]!;
  for (const c of ladder) if (c <= maxCount && estimateMs(cost, c) <= budgetMs) pick = c;
  return Math.min(pick, maxCount);
}

export interface CountProbe {
  /** The count chosen for the target frame rate. */
  count: number;
  /** ms per frame (one step + one draw, until the device finished) at `atCount`. */
  frameMs: number;
  /** The flock's count when the probe started. */
  atCount: number;
  /** The second measurement, at the count a proportional cost picked; absent when none was taken. */
  second?: FrameSample;
  /** The cost model the choice came from (fitFrameCost of the samples). */
  cost: FrameCost;
}

/**
 * A frame estimated above this (ms) would leave the page unanswering (a step of 1M boids on a
 * software GPU takes seconds): counts chosen from a menu or a slider are capped below it.
 */
export const MAX_FRAME_MS = 250;

/**
 * The largest count up to `wanted` whose estimated frame fits `maxFrameMs`: `wanted` itself when
 * it fits (or when the cost does not grow with the count), else floor((maxFrameMs - fixedMs) /
 * perBoidMs), never below min(wanted, COUNT_LADDER[0]).
 */
export function boundedCount(cost: FrameCost, wanted: number, maxFrameMs = MAX_FRAME_MS): number {
  if (estimateMs(cost, wanted) <= maxFrameMs || cost.perBoidMs <= 0) return wanted;
  const n = Math.floor((maxFrameMs - cost.fixedMs) / cost.perBoidMs);
  return Math.min(wanted, Math.max(COUNT_LADDER[0], n));
}

/**
 * Times `frames` frames of one step and one draw at the flock's count (after one untimed frame:
 * pipelines compile, the first draw). The state moves on by frames + 1 steps.
 */
export async function timeFrames(flock: Flock, frames: number): Promise<FrameSample> {
  const count = flock.params.count;
  await flock.step(1);
  flock.render();
  await flock.finish();
  const t0 = performance.now();
  for (let k = 0; k < frames; k++) {
    await flock.step(1);
    flock.render();
  }
  await flock.finish();
  return { count, frameMs: (performance.now() - t0) / frames };
}

/**
 * Measures the flock's frame at its count and, when `reduce(frameMs)` says the count is to be
 * chosen (a phone, a slow device), measures again at the count a proportional cost picks
 * (`setCount` changes it the demo's way: the box scales with it) and chooses from the line through
 * both, never above `maxCount` (the flock's own limit by default). Its cost is bounded when the
 * flock starts at a small count: the second sample's count is one the first sample's proportional
 * cost (an overestimate: it counts the fixed costs per boid) puts within one frame of targetFps.
 * Stops the loop while it measures and restarts it if it was running. When `reduce` says
 * no, returns the flock's own count and makes no second measurement. The caller sets the chosen
 * count (the flock may be left at the second sample's count).
 */
export async function probeCount(
  flock: Flock,
  reduce: (first: FrameSample) => boolean,
  setCount: (count: number) => void,
  targetFps = 30,
  frames = 3,
  maxCount = flock.maxCount,
): Promise<CountProbe & { reduce: boolean }> {
  const running = flock.running;
  flock.stop();
  try {
    const budget = 1000 / targetFps;
    const first = await timeFrames(flock, frames);
    const base = { frameMs: first.frameMs, atCount: first.count };
    const proportional = fitFrameCost(first);
    if (!reduce(first)) {
      return { ...base, count: first.count, cost: proportional, reduce: false };
    }
    const limit = Math.min(maxCount, flock.maxCount);
    const guess = chooseCount(proportional, budget, limit);
    if (guess === first.count) return { ...base, count: guess, cost: proportional, reduce: true };
    setCount(guess);
    const second = await timeFrames(flock, frames);
    const cost = fitFrameCost(first, second);
    return {
      ...base,
      second,
      cost,
      count: chooseCount(cost, budget, limit),
      reduce: true,
    };
  } finally {
    if (running) flock.start();
  }
}

/**
 * The overlay's line for a probe's choice: the count, and whether it holds `targetFps` by the
 * probe's cost model. When no ladder count fits (a very slow device), it says that the count is
 * the smallest offered and the estimated frame rate, not that it holds `targetFps`.
 */
export function probeMessage(probe: CountProbe, phone: boolean, targetFps = 30): string {
  const who = phone ? 'small touch screen' : 'slow device';
  const n = probe.count.toLocaleString('en-US');
  const ms = estimateMs(probe.cost, probe.count);
  const at = (s: FrameSample) => `${s.frameMs.toFixed(0)} ms at ${s.count.toLocaleString('en-US')}`;
  const measured =
    `one step + draw took ${at({ count: probe.atCount, frameMs: probe.frameMs })}` +
    (probe.second ? ` and ${at(probe.second)}` : '') +
    '; ?count=N in the URL overrides';
  if (ms <= 1000 / targetFps)
    return `${who}: ${n} boids, the most estimated to hold ${targetFps} fps here (${measured})`;
  const fps = 1000 / ms;
  return (
    `${who}: ${n} boids, the fewest offered; even these do not hold ${targetFps} fps here ` +
    `(about ${fps < 10 ? fps.toFixed(1) : fps.toFixed(0)} fps estimated: ${measured})`
  );
}
