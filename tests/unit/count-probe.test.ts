import { describe, expect, test } from 'vitest';
import { chooseCount, probeMessage } from '../../src/app/count-probe';

describe('demo count probe', () => {
  test('the largest ladder count whose proportional frame cost fits the budget', () => {
    // 100 ms a frame at 16,384 -> 6.1 us a boid -> 33.3 ms holds 5,461: the ladder's 4,096.
    expect(chooseCount(100, 16384, 1000 / 30, 1e9)).toBe(4096);
    // 10 ms at 16,384: 32,768 boids would take 20 ms.
    expect(chooseCount(10, 16384, 1000 / 30, 1e9)).toBe(32768);
    // Capped by what the backend holds (cpu: 4,096).
    expect(chooseCount(1, 4096, 1000 / 30, 4096)).toBe(4096);
    // Nothing fits: the smallest count, said as such by the caller.
    expect(chooseCount(2000, 16384, 1000 / 30, 1e9)).toBe(512);
    expect(chooseCount(50, 1000, 1000 / 30, 1e9, [100, 200, 500, 1000])).toBe(500);
  });

  test('the overlay says "the most estimated to hold 30 fps" only when the estimate holds 30 fps', () => {
    // 100 ms at 16,384 -> 4,096 boids take an estimated 25 ms: they hold 30 fps.
    expect(probeMessage({ count: 4096, frameMs: 100, atCount: 16384 }, false)).toBe(
      'slow device: 4,096 boids, the most estimated to hold 30 fps here (one step + draw took 100 ms ' +
        'at 16,384; ?count=N in the URL overrides)',
    );
    // 1,522 ms at 16,384 (this machine's SwiftShader WebGPU): 512 boids take an estimated
    // 47.6 ms, 21 fps; nothing on the ladder holds 30 fps.
    expect(probeMessage({ count: 512, frameMs: 1522, atCount: 16384 }, true)).toBe(
      'small touch screen: 512 boids, the fewest offered; even these do not hold 30 fps here ' +
        '(about 21 fps estimated: one step + draw took 1522 ms at 16,384; ?count=N in the URL overrides)',
    );
    // 8,000 ms at 16,384: 250 ms for 512 boids, 4.0 fps.
    expect(probeMessage({ count: 512, frameMs: 8000, atCount: 16384 }, false)).toMatch(
      /^slow device: 512 boids, the fewest offered; .*\(about 4\.0 fps estimated: /,
    );
  });
});
