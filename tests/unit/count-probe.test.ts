import { describe, expect, test } from 'vitest';
import {
  chooseCount,
  estimateMs,
  fitFrameCost,
  probeMessage,
  type CountProbe,
} from '../../src/app/count-probe';
import { boundedCount, MAX_FRAME_MS } from '../../src/app/count-probe';

const BUDGET = 1000 / 30;

describe('demo count probe', () => {
  test('two samples: cost = fixed + perBoid * count through both', () => {
    // 100 ms at 16,384 and 30 ms at 2,048: perBoid = 70 / 14,336 = 1/204.8 ms,
    // fixed = 100 - 16,384 / 204.8 = 100 - 80 = 20 ms.
    const cost = fitFrameCost({ count: 16384, frameMs: 100 }, { count: 2048, frameMs: 30 });
    expect(cost.perBoidMs).toBeCloseTo(1 / 204.8, 12);
    expect(cost.fixedMs).toBeCloseTo(20, 9);
    // Sample order does not matter.
    expect(fitFrameCost({ count: 2048, frameMs: 30 }, { count: 16384, frameMs: 100 })).toEqual(
      cost,
    );
    // 33.3 ms holds 20 + c / 204.8 for c <= 2,730: the ladder's 2,048. The proportional estimate
    // (6.1 us a boid, nothing fixed) picked 4,096, which costs 20 + 20 = 40 ms: 25 fps, not 30.
    expect(estimateMs(cost, 4096)).toBeCloseTo(40, 9);
    expect(chooseCount(cost, BUDGET, 1e9)).toBe(2048);
    expect(chooseCount(fitFrameCost({ count: 16384, frameMs: 100 }), BUDGET, 1e9)).toBe(4096);
  });

  test('one sample or an impossible line: proportional, or all fixed', () => {
    // One sample: through the origin.
    expect(fitFrameCost({ count: 16384, frameMs: 100 })).toEqual({
      fixedMs: 0,
      perBoidMs: 100 / 16384,
    });
    // No cheaper at fewer boids (noise, or all fixed cost): fixed = the larger sample, 0 a boid.
    expect(fitFrameCost({ count: 16384, frameMs: 100 }, { count: 2048, frameMs: 104 })).toEqual({
      fixedMs: 104,
      perBoidMs: 0,
    });
    // 100 ms at 16,384 and 5 ms at 2,048 would cross zero at 3,126 boids (fixed -8.6 ms):
    // proportional through the costlier per boid, 100 / 16,384 (2,048's is 5 / 2,048 = 2.44 us).
    expect(fitFrameCost({ count: 16384, frameMs: 100 }, { count: 2048, frameMs: 5 })).toEqual({
      fixedMs: 0,
      perBoidMs: 100 / 16384,
    });
  });

  test('the largest ladder count whose estimated frame fits the budget', () => {
    // 10 ms at 16,384, proportional: 32,768 boids would take 20 ms.
    expect(chooseCount({ fixedMs: 0, perBoidMs: 10 / 16384 }, BUDGET, 1e9)).toBe(32768);
    // Capped by what the backend holds (cpu: 4,096).
    expect(chooseCount({ fixedMs: 0, perBoidMs: 1 / 4096 }, BUDGET, 4096)).toBe(4096);
    // A fixed 30 ms leaves 3.3 ms: 512 boids at 5 us fit (2.56 ms), 1,024 (5.12) do not.
    expect(chooseCount({ fixedMs: 30, perBoidMs: 0.005 }, BUDGET, 1e9)).toBe(512);
    // Nothing fits (a fixed 40 ms): the smallest count, said as such by the caller.
    expect(chooseCount({ fixedMs: 40, perBoidMs: 0 }, BUDGET, 1e9)).toBe(512);
    expect(chooseCount({ fixedMs: 0, perBoidMs: 0.05 }, BUDGET, 1e9, [100, 200, 500, 1000])).toBe(
      500,
    );
  });

  test('the overlay says "the most estimated to hold 30 fps" only when the estimate holds 30 fps', () => {
    const fitted: CountProbe = {
      count: 2048,
      frameMs: 100,
      atCount: 16384,
      second: { count: 4096, frameMs: 40 },
      cost: fitFrameCost({ count: 16384, frameMs: 100 }, { count: 4096, frameMs: 40 }),
    };
    // The line: 1/204.8 ms a boid + 20 ms; 2,048 boids: 30 ms, within 33.3.
    expect(probeMessage(fitted, false)).toBe(
      'slow device: 2,048 boids, the most estimated to hold 30 fps here (one step + draw took ' +
        '100 ms at 16,384 and 40 ms at 4,096; ?count=N in the URL overrides)',
    );
    // 1,522 ms at 16,384 (this machine's SwiftShader WebGPU) and 62 ms at 512: fixed 14.9 ms +
    // 92.0 us a boid (1,460 / 15,872), 512 boids 62 ms, 16 fps: nothing on the ladder holds 30.
    const slow: CountProbe = {
      count: 512,
      frameMs: 1522,
      atCount: 16384,
      second: { count: 512, frameMs: 62 },
      cost: fitFrameCost({ count: 16384, frameMs: 1522 }, { count: 512, frameMs: 62 }),
    };
    expect(slow.cost.fixedMs).toBeCloseTo(62 - (512 * 1460) / 15872, 9);
    expect(probeMessage(slow, true)).toBe(
      'small touch screen: 512 boids, the fewest offered; even these do not hold 30 fps here ' +
        '(about 16 fps estimated: one step + draw took 1522 ms at 16,384 and 62 ms at 512; ' +
        '?count=N in the URL overrides)',
    );
    // One sample, 8,000 ms at 16,384: 250 ms for 512 boids, 4.0 fps.
    expect(
      probeMessage(
        {
          count: 512,
          frameMs: 8000,
          atCount: 16384,
          cost: fitFrameCost({ count: 16384, frameMs: 8000 }),
        },
        false,
      ),
    ).toMatch(
      /^slow device: 512 boids, the fewest offered; .*\(about 4\.0 fps estimated: .* at 16,384; /,
    );
  });
});

describe('boundedCount (a large count from the menu or the panel)', () => {
  test('the count whose estimated frame fits MAX_FRAME_MS, never below the ladder start', () => {
    expect(MAX_FRAME_MS).toBe(250);
    const cost = { fixedMs: 10, perBoidMs: 0.01 };
    // 20,000 boids: 10 + 200 = 210 ms fits.
    expect(boundedCount(cost, 20000)).toBe(20000);
    // 2^20: 10,496 ms; (250 - 10) / 0.01 = 24,000.
    expect(boundedCount(cost, 1 << 20)).toBe(24000);
    // A fixed cost above the limit: the ladder's smallest count (or less when asked less).
    expect(boundedCount({ fixedMs: 300, perBoidMs: 0.01 }, 1 << 20)).toBe(512);
    expect(boundedCount({ fixedMs: 300, perBoidMs: 0.01 }, 100)).toBe(100);
    // A cost that does not grow with the count: no cut.
    expect(boundedCount({ fixedMs: 300, perBoidMs: 0 }, 1 << 20)).toBe(1 << 20);
  });
});
