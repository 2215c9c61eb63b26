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
