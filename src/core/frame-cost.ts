/**
 * A frame's cost as a line in the boid count, fitted through measured frames: what the demo uses
 * to keep a count chosen from a menu or a slider from freezing the page (boundedCount). Pure.
 *
 * A frame has fixed costs (passes, draw calls, sorting network stages, the wait for the device)
 * beside the per-boid work, which a cost proportional to the count would wrongly shrink with it.
 */

/** One measurement: ms per frame (its steps and the draw, until the device finished) at `count`. */
export interface FrameSample {
  /** Boids. */
  count: number;
  /** ms per frame. */
  frameMs: number;
}

/** A frame's cost model: fixedMs + perBoidMs * count, both >= 0. */
export interface FrameCost {
  /** ms per frame whatever the count. */
  fixedMs: number;
  /** ms per frame per boid. */
  perBoidMs: number;
}

/**
 * The line through two samples of different counts (one sample: through the origin, the cost
 * proportional to the count). Noise can tilt the line impossibly; then: a cost that did not rise
 * with the count becomes proportional through the larger count at the slower frame (a slope of
 * 0 would let any count through); a line that would cross zero above count 0 becomes
 * proportional through the costlier sample per boid (never cheaper than either measurement).
 */
export function fitFrameCost(a: FrameSample, b?: FrameSample): FrameCost {
  const proportional = (...s: FrameSample[]): FrameCost => ({
    fixedMs: 0,
    perBoidMs: Math.max(...s.map((x) => x.frameMs / Math.max(1, x.count))),
  });
  if (!b || b.count === a.count) return proportional(a, ...(b ? [b] : []));
  const [lo, hi] = a.count < b.count ? [a, b] : [b, a];
  // No costlier at more boids (noise: a loaded machine timed the smaller count slower; or a
  // frame bound by the display): the slope is unknown, so never call it 0, which would let any
  // count through (a million boids on a software GPU). Proportional through the larger count,
  // at the slower of the two frames.
  if (hi.frameMs <= lo.frameMs) return proportional({ count: hi.count, frameMs: lo.frameMs });
  const perBoidMs = (hi.frameMs - lo.frameMs) / (hi.count - lo.count);
  const fixedMs = lo.frameMs - perBoidMs * lo.count;
  return fixedMs < 0 ? proportional(lo, hi) : { fixedMs, perBoidMs };
}

/**
 * The cost line through the two largest counts measured with a finite frame time (one: through
 * the origin); null when no sample is finite.
 */
export function fitFrameCostOf(samples: readonly FrameSample[]): FrameCost | null {
  const seen = new Map<number, number>();
  for (const s of samples) if (Number.isFinite(s.frameMs)) seen.set(s.count, s.frameMs);
  const top = [...seen.entries()]
    .sort((x, y) => y[0] - x[0])
    .slice(0, 2)
    .map(([count, frameMs]) => ({ count, frameMs }));
  if (top.length === 0) return null;
  return fitFrameCost(top[0]!, top[1]);
}

/** The cost model's ms per frame at `count`. */
export function estimateMs(cost: FrameCost, count: number): number {
  return cost.fixedMs + cost.perBoidMs * count;
}

/**
 * A frame estimated above this (ms) would leave the page unanswering (a step of 1M boids on a
 * software GPU takes seconds): counts chosen from a menu or a slider are capped below it.
 */
export const MAX_FRAME_MS = 250;

/**
 * The largest count up to `wanted` whose estimated frame fits `maxFrameMs`: `wanted` itself when
 * it fits (or when the cost does not grow with the count), else floor((maxFrameMs - fixedMs) /
 * perBoidMs), never below min(wanted, minCount).
 */
export function boundedCount(
  cost: FrameCost,
  wanted: number,
  maxFrameMs = MAX_FRAME_MS,
  minCount = 512,
): number {
  if (estimateMs(cost, wanted) <= maxFrameMs || cost.perBoidMs <= 0) return wanted;
  const n = Math.floor((maxFrameMs - cost.fixedMs) / cost.perBoidMs);
  return Math.min(wanted, Math.max(minCount, n));
}
