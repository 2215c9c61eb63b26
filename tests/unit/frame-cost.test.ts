// The demo's frame-cost line (src/core/frame-cost.ts): fitted through measured frames, it bounds
// a count chosen from the menu or the panel (boundedCount) so that the page keeps answering.
import { describe, expect, test } from 'vitest';
import * as frameCost from '../../src/core/frame-cost';

describe('fitFrameCost', () => {
  test('two samples: cost = fixed + perBoid * count through both', () => {
    // 100 ms at 16,384 and 30 ms at 2,048: perBoid = 70 / 14,336 = 1/204.8 ms,
    // fixed = 100 - 16,384 / 204.8 = 100 - 80 = 20 ms.
    const cost = frameCost.fitFrameCost(
      { count: 16384, frameMs: 100 },
      { count: 2048, frameMs: 30 },
    );
    expect(cost.perBoidMs).toBeCloseTo(1 / 204.8, 12);
    expect(cost.fixedMs).toBeCloseTo(20, 9);
    // Sample order does not matter.
    expect(
      frameCost.fitFrameCost({ count: 2048, frameMs: 30 }, { count: 16384, frameMs: 100 }),
    ).toEqual(cost);
    expect(frameCost.estimateMs(cost, 4096)).toBeCloseTo(40, 9);
  });

  test('one sample or an impossible line: proportional', () => {
    // One sample: through the origin.
    expect(frameCost.fitFrameCost({ count: 16384, frameMs: 100 })).toEqual({
      fixedMs: 0,
      perBoidMs: 100 / 16384,
    });
    // No cheaper at fewer boids (noise on a loaded machine, or a display-bound frame): the slope
    // is unknown, so proportional through the larger count at the slower frame, 104 / 16,384
    // (a slope of 0 let the Stress preset's 2^20 boids through on a software GPU).
    const flat = frameCost.fitFrameCost(
      { count: 16384, frameMs: 100 },
      { count: 2048, frameMs: 104 },
    );
    expect(flat).toEqual({ fixedMs: 0, perBoidMs: 104 / 16384 });
    // 250 ms allows floor(250 / (104 / 16,384)) = 39,384 boids of the 2^20 asked.
    expect(frameCost.boundedCount(flat, 1 << 20)).toBe(39384);
    // 100 ms at 16,384 and 5 ms at 2,048 would cross zero at 3,126 boids (fixed -8.6 ms):
    // proportional through the costlier per boid, 100 / 16,384 (2,048's is 5 / 2,048 = 2.44 us).
    expect(
      frameCost.fitFrameCost({ count: 16384, frameMs: 100 }, { count: 2048, frameMs: 5 }),
    ).toEqual({
      fixedMs: 0,
      perBoidMs: 100 / 16384,
    });
  });

  test('fitFrameCostOf: the line through the two largest counts with a finite frame', () => {
    const probes = [
      { count: 2000, frameMs: 14 },
      { count: 4000, frameMs: 22 },
      { count: 8000, frameMs: Infinity }, // ran past its bound: not a point
      { count: 5700, frameMs: 28.8 },
    ];
    // Through 4,000 (22 ms) and 5,700 (28.8 ms): 4 us a boid, 6 ms fixed.
    const cost = frameCost.fitFrameCostOf(probes)!;
    expect(cost.perBoidMs).toBeCloseTo(0.004, 12);
    expect(cost.fixedMs).toBeCloseTo(6, 9);
    expect(frameCost.fitFrameCostOf([{ count: 512, frameMs: 40 }])).toEqual({
      fixedMs: 0,
      perBoidMs: 40 / 512,
    });
    expect(frameCost.fitFrameCostOf([{ count: 512, frameMs: Infinity }])).toBeNull();
  });
});

describe('boundedCount (a large count from the menu or the panel)', () => {
  test('the count whose estimated frame fits MAX_FRAME_MS, never below the smallest offered', () => {
    expect(frameCost.MAX_FRAME_MS).toBe(250);
    const cost = { fixedMs: 10, perBoidMs: 0.01 };
    // 20,000 boids: 10 + 200 = 210 ms fits.
    expect(frameCost.boundedCount(cost, 20000)).toBe(20000);
    // 2^20: 10,496 ms; (250 - 10) / 0.01 = 24,000.
    expect(frameCost.boundedCount(cost, 1 << 20)).toBe(24000);
    // A fixed cost above the limit: 512 (or less when asked less).
    expect(frameCost.boundedCount({ fixedMs: 300, perBoidMs: 0.01 }, 1 << 20)).toBe(512);
    expect(frameCost.boundedCount({ fixedMs: 300, perBoidMs: 0.01 }, 100)).toBe(100);
    // A cost that does not grow with the count: no cut.
    expect(frameCost.boundedCount({ fixedMs: 300, perBoidMs: 0 }, 1 << 20)).toBe(1 << 20);
  });
});
