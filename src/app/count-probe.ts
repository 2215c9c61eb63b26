/**
 * The demo on a small touch screen (a phone), or on any device that draws the default count below
 * SLOW_FPS: a quick measured probe picks the largest count the device holds at 30 fps or more,
 * instead of starting at 16,384 and crawling. It times a few
 * frames of one step + one draw at the starting count, assumes the frame cost grows in
 * proportion to the count, and takes the largest count of COUNT_LADDER whose estimate fits.
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

/**
 * The largest ladder count whose frame (cost proportional to the count, `frameMs` measured at
 * `atCount`) fits `budgetMs`, at most `maxCount`; the smallest ladder count when none fits.
 */
export function chooseCount(
  frameMs: number,
  atCount: number,
  budgetMs: number,
  maxCount: number,
  ladder: readonly number[] = COUNT_LADDER,
): number {
  const perBoid = frameMs / Math.max(1, atCount);
  let pick = ladder[0]!;
  for (const c of ladder) if (c <= maxCount && c * perBoid <= budgetMs) pick = c;
  return Math.min(pick, maxCount);
}

export interface CountProbe {
  count: number;
  /** ms per frame (one step + one draw, until the device finished) at `atCount`. */
  frameMs: number;
  atCount: number;
}

/**
 * Times `frames` frames of one step and one draw at the flock's count (after one untimed frame:
 * pipelines compile, the first draw) and picks a count for `targetFps`. Stops the loop while it
 * measures and restarts it if it was running. The state moves on by frames + 1 steps.
 */
export async function probeCount(flock: Flock, targetFps = 30, frames = 3): Promise<CountProbe> {
  const running = flock.running;
  flock.stop();
  try {
    const atCount = flock.params.count;
    await flock.step(1);
    flock.render();
    await flock.finish();
    const t0 = performance.now();
    for (let k = 0; k < frames; k++) {
      await flock.step(1);
      flock.render();
    }
    await flock.finish();
    const frameMs = (performance.now() - t0) / frames;
    return {
      count: chooseCount(frameMs, atCount, 1000 / targetFps, flock.maxCount),
      frameMs,
      atCount,
    };
  } finally {
    if (running) flock.start();
  }
}

/**
 * The overlay's line for a probe's choice: the count, and whether it holds `targetFps` by the
 * probe's proportional estimate. When no ladder count fits (a very slow device), it says that the
 * count is the smallest offered and the estimated frame rate, not that it holds `targetFps`.
 */
export function probeMessage(probe: CountProbe, phone: boolean, targetFps = 30): string {
  const who = phone ? 'small touch screen' : 'slow device';
  const n = probe.count.toLocaleString('en-US');
  const estimateMs = (probe.frameMs / Math.max(1, probe.atCount)) * probe.count;
  const measured =
    `one step + draw took ${probe.frameMs.toFixed(0)} ms at ` +
    `${probe.atCount.toLocaleString('en-US')}; ?count=N in the URL overrides`;
  if (estimateMs <= 1000 / targetFps)
    return `${who}: ${n} boids, the most estimated to hold ${targetFps} fps here (${measured})`;
  const fps = 1000 / estimateMs;
  return (
    `${who}: ${n} boids, the fewest offered; even these do not hold ${targetFps} fps here ` +
    `(about ${fps < 10 ? fps.toFixed(1) : fps.toFixed(0)} fps estimated: ${measured})`
  );
}
