import { describe, expect, test } from 'vitest';
import { chooseCount } from '../../src/app/count-probe';

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
});
