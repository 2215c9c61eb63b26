// Both WebGL2 paths (texture, transform feedback with EXT_color_buffer_float hidden) against the
// CPU reference (DESIGN.md section 5): 1 and 10 steps within the tolerance rule for bounce and
// wrap, 3D and 2D, grid search; brute force for 1 step.
import { describe, expect, test } from 'vitest';
import type { FlockParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { initialState } from '../../src/core/state';
import { addCanvas } from '../support/browser';
import { allFinite, checkCounts, checkTolerance, parityParams } from '../support/compare';
import { WEBGL2_PATHS, pathSlot } from '../support/webgl2-paths';

describe.each(WEBGL2_PATHS)('$kind parity with the CPU reference', (path) => {
  const slot = pathSlot(path);

  async function expectParity(params: FlockParams, steps: number[]): Promise<void> {
    const b = await slot.create({ canvas: addCanvas(64), params, state: initialState(params) });
    const start = initialState(params);
    let done = 0;
    let want = start;
    for (const n of steps) {
      b.step(n - done);
      want = referenceSteps(want, params, n - done);
      done = n;
      const got = await b.readState();
      expect(allFinite(got)).toBe(true);
      const report = checkTolerance(got, want, params, n);
      expect(report.ok, report.message).toBe(true);
      // Species ids (positions.w) travel with their boids; velocities.w is |N_i|.
      const counts = checkCounts(got, want, n);
      expect(counts.ok, counts.message).toBe(true);
    }
  }

  test('3D bounce, grid: 1 and 10 steps', async () => {
    await expectParity(parityParams({ boundary: 'bounce' }), [1, 10]);
  });
  test('3D wrap, grid: 1 and 10 steps', async () => {
    await expectParity(parityParams({ boundary: 'wrap' }), [1, 10]);
  });
  test('3D bounce, brute: 1 step', async () => {
    await expectParity(parityParams({ neighborSearch: 'brute' }), [1]);
  });
  test('3D wrap, brute: 1 step', async () => {
    await expectParity(parityParams({ neighborSearch: 'brute', boundary: 'wrap' }), [1]);
  });
  test('2D wrap, grid: 1 and 10 steps', async () => {
    await expectParity(
      parityParams({ dimensions: 2, boundary: 'wrap', count: 3001, perceptionRadius: 0.9 }),
      [1, 10],
    );
  });
  test('2D bounce, grid: 1 and 10 steps', async () => {
    await expectParity(
      parityParams({ dimensions: 2, count: 3001, perceptionRadius: 0.9 }),
      [1, 10],
    );
  });
});
