import { describe, expect, test } from 'vitest';
import { validateParams } from '../../src/core/params';
import { initialState } from '../../src/core/state';
import { resizeState } from '../../src/core/resize-state';
import { referenceSteps } from '../../src/core/reference';
import { length3 } from '../support/hand-state';

describe('resizeState: a count change without a pop (issue 27)', () => {
  test.each([
    [3, 'soft'],
    [2, 'wrap'],
  ] as const)(
    '%sD %s: kept boids keep their state; added ones start inside the flock',
    (dimensions, boundary) => {
      const p = validateParams({ count: 1999, dimensions, boundary, seed: 4 });
      // A flown flock (not the seed's start).
      const s = referenceSteps(initialState(p), p, 5);
      const next = { ...p, count: 3001 };
      const r = resizeState(s, p, next);
      expect(r.count).toBe(3001);
      // Kept: bit for bit (same box).
      expect(Array.from(r.positions.subarray(0, 4 * 1999))).toEqual(
        Array.from(s.positions.subarray(0, 4 * 1999)),
      );
      expect(Array.from(r.velocities.subarray(0, 4 * 1999))).toEqual(
        Array.from(s.velocities.subarray(0, 4 * 1999)),
      );
      // The flock's extent (its bounding box) before the change.
      const lo = [Infinity, Infinity, Infinity];
      const hi = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < 1999; i++)
        for (let a = 0; a < 3; a++) {
          lo[a] = Math.min(lo[a]!, s.positions[4 * i + a]!);
          hi[a] = Math.max(hi[a]!, s.positions[4 * i + a]!);
        }
      const r08 = 0.8 * p.perceptionRadius;
      for (let j = 1999; j < 3001; j++) {
        // Within 0.8 r of a flying boid (none at the origin, none in a grid) and inside the box.
        let nearest = Infinity;
        for (let i = 0; i < 1999; i++) {
          let q = 0;
          for (let a = 0; a < 3; a++) q += (r.positions[4 * j + a]! - s.positions[4 * i + a]!) ** 2;
          nearest = Math.min(nearest, q);
        }
        if (boundary === 'soft') expect(Math.sqrt(nearest)).toBeLessThanOrEqual(r08 + 1e-4);
        for (let a = 0; a < 3; a++) {
          const x = r.positions[4 * j + a]!;
          if (a < dimensions) {
            expect(x).toBeGreaterThanOrEqual(Math.max(p.boundsMin[a]!, lo[a]! - r08 - 1e-4));
            expect(x).toBeLessThanOrEqual(Math.min(p.boundsMax[a]!, hi[a]! + r08 + 1e-4));
          } else expect(x).toBe(0);
        }
        // Flying like a flockmate: a speed in range, not at rest.
        const v = length3(r.velocities, j);
        expect(v).toBeGreaterThanOrEqual(p.minSpeed - 1e-4);
        expect(r.positions[4 * j + 3]).toBe(j % p.species);
      }
    },
  );

  test('a shrink keeps the lowest ids; a new box scales positions about the centres', () => {
    const p = validateParams({
      count: 1500,
      seed: 2,
      boundsMin: [-20, -10, -10],
      boundsMax: [20, 10, 10],
    });
    const s = initialState(p);
    const next = validateParams({
      ...p,
      count: 700,
      boundsMin: [-40, -10, -5],
      boundsMax: [40, 10, 5],
    });
    const r = resizeState(s, p, next);
    expect(r.count).toBe(700);
    for (const i of [0, 1, 350, 699]) {
      expect(r.positions[4 * i]).toBeCloseTo(2 * s.positions[4 * i]!, 4);
      expect(r.positions[4 * i + 1]).toBeCloseTo(s.positions[4 * i + 1]!, 4);
      expect(r.positions[4 * i + 2]).toBeCloseTo(0.5 * s.positions[4 * i + 2]!, 4);
      expect(r.velocities[4 * i]).toBe(s.velocities[4 * i]);
    }
  });
});
