/**
 * The check of one WebGL2 path against the CPU reference (DESIGN.md section 5), shared by
 * tests/browser/webgl2-parity.test.ts (Chromium, 5,000 boids) and tests/webkit/cases.ts (WebKit,
 * a few hundred).
 */
import { expect } from 'vitest';
import type { FlockParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { initialState } from '../../src/core/state';
import { addCanvas } from './browser';
import { allFinite, checkCounts, checkTolerance } from './compare';
import type { PathSlot } from './webgl2-paths';

/**
 * `expectParity(params, steps)` for the path of `slot`: a backend made in the slot (which checks
 * for GL errors and disposes it after the test) from initialState(params) is stepped to each
 * count of `steps` in turn (cumulative, e.g. [1, 10]) and read back; each read must be finite,
 * within the tolerance rule and keep every boid's species and neighbour count.
 */
export function parityCheck(
  slot: PathSlot,
): (params: FlockParams, steps: readonly number[]) => Promise<void> {
  return async (params, steps) => {
    const b = await slot.create({ canvas: addCanvas(64), params, state: initialState(params) });
    let done = 0;
    let want = initialState(params);
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
  };
}
