// The sweep's caps (src/bench/measure.ts sweepCap): which N each family stops at and the label
// the counts above say, which names the family's own reason.
import { describe, expect, test } from 'vitest';
import { STEADY_MAX_COUNT, STEADY_STEPS, sweepCap } from '../../src/bench/measure';

describe('sweepCap', () => {
  test('brute force: all pairs, O(N²); steady and dense rows: their untimed steps; grid: none', () => {
    expect(sweepCap({ backend: 'webgl2', mode: 'brute' }, 16384)).toEqual({
      count: 16384,
      skipped: 'left out above N = 16384 (all pairs, O(N²): too slow here)',
    });
    expect([STEADY_MAX_COUNT, STEADY_STEPS]).toEqual([4096, 600]);
    expect(
      sweepCap({ backend: 'webgpu', mode: 'grid', sort: 'counting', scene: 'steady' }, 16384),
    ).toEqual({
      count: 4096,
      skipped:
        'left out above N = 4096 (a steady row first runs 600 untimed steps so that the flock forms: too slow here)',
    });
    const dense = sweepCap({ backend: 'webgl2', mode: 'grid', scene: 'dense' }, 16384);
    expect(dense?.skipped).toContain('a dense row first runs 600 untimed steps');
    expect(dense?.skipped).not.toContain('O(N²)');
    expect(sweepCap({ backend: 'webgl2', mode: 'grid' }, 16384)).toBeNull();
  });
});
