// The sweep's skipped rows say why in words (src/bench/cases.ts sweepCap, src/bench/rows.ts
// skipInWords): the caps of brute force and
// the steady rows name their own reason, and a backend's rejection (a FlockError on count or
// backend) becomes a sentence, not "count = 16384 is not allowed".
import { describe, expect, test } from 'vitest';
import { STEADY_MAX_COUNT, STEADY_STEPS, sweepCap } from '../../src/bench/cases';
import { skipInWords } from '../../src/bench/rows';
import { FlockError } from '../../src/core/errors';

describe('sweepCap', () => {
  test('brute force: all pairs grow as N²; steady and dense rows: their untimed steps; grid: none', () => {
    expect(sweepCap({ backend: 'webgl2', mode: 'brute' }, 16384)).toEqual({
      count: 16384,
      skipped: 'left out above N = 16,384: all pairs grow as N², too slow here',
    });
    expect([STEADY_MAX_COUNT, STEADY_STEPS]).toEqual([4096, 600]);
    expect(
      sweepCap({ backend: 'webgpu', mode: 'grid', sort: 'counting', scene: 'steady' }, 16384),
    ).toEqual({
      count: 4096,
      skipped:
        'left out above N = 4,096: a steady row first runs 600 untimed steps so that the flock forms, too slow here',
    });
    const dense = sweepCap({ backend: 'webgl2', mode: 'grid', scene: 'dense' }, 16384);
    expect(dense?.skipped).toContain('a dense row first runs 600 untimed steps');
    expect(dense?.skipped).not.toContain('N²');
    expect(sweepCap({ backend: 'webgl2', mode: 'grid' }, 16384)).toBeNull();
  });
});

describe('skipInWords', () => {
  test("the cpu backend's cap, as createFlock reports it", () => {
    const e = new FlockError('count', 16384, "an integer from 1 to 4096 (the cpu backend's cap)");
    expect(e.message).toContain('count = 16384 is not allowed');
    expect(skipInWords(e, 'cpu')).toBe('the CPU backend takes at most 4,096 boids on this device');
  });

  test('a backend that cannot run here, with the reason the ladder gave', () => {
    const e = new FlockError(
      'backend',
      'webgpu',
      'a backend this device can run',
      'navigator.gpu is missing (no WebGPU in this browser)',
    );
    expect(skipInWords(e, 'webgpu')).toBe(
      'WebGPU does not run in this browser: navigator.gpu is missing (no WebGPU in this browser)',
    );
    expect(skipInWords(new FlockError('backend', 'webgl2-tf', 'x'), 'webgl2-tf')).toBe(
      'transform feedback does not run in this browser',
    );
  });

  test('anything else: the error, said as a failure', () => {
    expect(skipInWords(new Error('device lost'), 'webgl2')).toBe('failed: device lost');
  });
});
