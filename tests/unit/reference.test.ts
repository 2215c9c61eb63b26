// The CPU reference step against hand-worked cases (DESIGN.md section 1) and grid == brute.
import { describe, expect, test } from 'vitest';
import { validateParams, type FlockParams } from '../../src/core/params';
import {
  floorMod,
  minimumImage,
  neighborCounts,
  referenceStep,
  referenceSteps,
} from '../../src/core/reference';
import { initialState, type FlockState } from '../../src/core/state';
import { boid, handState, xyz } from '../support/hand-state';
import { allFinite, parityParams } from '../support/compare';

/**
 * dt = 0.1 s keeps the hand arithmetic short. The first model ('sum', bounce, separation over all
 * of N_i, wa = 1) unless a case says otherwise.
 */
const base = (o: Partial<FlockParams> = {}) =>
  validateParams({
    timeStep: 0.1,
    alignmentWeight: 1,
    steering: 'sum',
    boundary: 'bounce',
    separationRadius: 1000,
    ...o,
  });

describe('reference step, hand-worked', () => {
  test('two neighbours 1 apart: separation 1.5*(-1) + cohesion 1 = -0.5 on boid 0', () => {
    // boid 0: d = (1,0,0), |d|^2 = 1: sep = (-1,0,0), ali = v1 - v0 = 0, coh = (1,0,0)
    // a = 1.5*(-1) + 1 = -0.5 -> v' = 3 - 0.05 = 2.95, p' = 0.295
    const s = referenceStep(
      handState([boid([0, 0, 0], [3, 0, 0]), boid([1, 0, 0], [3, 0, 0])]),
      base(),
    );
    expect(xyz(s.velocities, 0)[0]).toBeCloseTo(2.95, 6);
    expect(xyz(s.positions, 0)[0]).toBeCloseTo(0.295, 6);
    expect(xyz(s.velocities, 1)[0]).toBeCloseTo(3.05, 6);
    expect(xyz(s.positions, 1)[0]).toBeCloseTo(1.305, 6);
  });

  test('alignment steers toward the mean heading', () => {
    // boid 0 at origin v=(3,0,0), neighbour 1.5 away on y with v=(0,3,0); ws = wc = 0:
    // ali = (0,3,0) - (3,0,0) = (-3,3,0), |a| = 4.243 > 2 -> a = 2*(-0.7071, 0.7071, 0)
    const p = base({ separationWeight: 0, cohesionWeight: 0 });
    const s = referenceStep(
      handState([boid([0, 0, 0], [3, 0, 0]), boid([0, 1.5, 0], [0, 3, 0])]),
      p,
    );
    const k = 0.1 * 2 * Math.SQRT1_2;
    expect(xyz(s.velocities, 0)[0]).toBeCloseTo(3 - k, 5);
    expect(xyz(s.velocities, 0)[1]).toBeCloseTo(k, 5);
  });

  test('the summed steer is clamped to maxSteerForce', () => {
    // cohesionWeight 10: a = -1.5 + 10 = 8.5 -> 2; v' = 3.2, p' = 0.32
    const s = referenceStep(
      handState([boid([0, 0, 0], [3, 0, 0]), boid([1, 0, 0], [3, 0, 0])]),
      base({ cohesionWeight: 10 }),
    );
    expect(xyz(s.velocities, 0)[0]).toBeCloseTo(3.2, 6);
    expect(xyz(s.positions, 0)[0]).toBeCloseTo(0.32, 6);
  });

  test('speed is clamped to [minSpeed, maxSpeed]; zero velocity stays zero', () => {
    const s = referenceStep(
      handState([
        boid([0, 0, 0], [6, 0, 0]),
        boid([10, 0, 0], [0, 1, 0]),
        boid([-10, 0, 0], [0, 0, 0]),
      ]),
      base(),
    );
    expect(xyz(s.velocities, 0)).toEqual([5, 0, 0]);
    expect(xyz(s.positions, 0)[0]).toBeCloseTo(0.5, 6);
    expect(xyz(s.velocities, 1)).toEqual([0, 2, 0]);
    expect(xyz(s.velocities, 2)).toEqual([0, 0, 0]);
    expect(xyz(s.positions, 2)).toEqual([-10, 0, 0]);
  });

  test('bounce reflects the position and points the velocity inward', () => {
    // |v| = 5: x' = 31.9 + 0.4 = 32.3 > 32 -> 64 - 32.3 = 31.7, v.x = -4;
    // z' = -31.9 - 0.3 = -32.2 < -32 -> -64 + 32.2 = -31.8, v.z = +3
    const s = referenceStep(handState([boid([31.9, 0, -31.9], [4, 0, -3])]), base());
    expect(xyz(s.positions, 0)[0]).toBeCloseTo(31.7, 5);
    expect(xyz(s.positions, 0)[2]).toBeCloseTo(-31.8, 5);
    expect(xyz(s.velocities, 0)).toEqual([-4, 0, 3]);
  });

  test('wrap moves through the wall and keeps the velocity', () => {
    // x' = 32.3 -> -32 + mod(64.3, 64) = -31.7; z' = -32.2 -> -32 + mod(-0.2, 64) = 31.8
    const s = referenceStep(
      handState([boid([31.9, 0, -31.9], [4, 0, -3])]),
      base({ boundary: 'wrap' }),
    );
    expect(xyz(s.positions, 0)[0]).toBeCloseTo(-31.7, 5);
    expect(xyz(s.positions, 0)[2]).toBeCloseTo(31.8, 5);
    expect(xyz(s.velocities, 0)).toEqual([4, 0, -3]);
  });

  test('under wrap, boids on opposite walls are neighbours by minimum image', () => {
    const s0 = handState([boid([-31.5, 0, 0], [0, 3, 0]), boid([31.5, 0, 0], [0, 3, 0])]);
    expect(Array.from(neighborCounts(s0, base({ boundary: 'wrap' })))).toEqual([1, 1]);
    expect(Array.from(neighborCounts(s0, base({ boundary: 'wrap' }), 'grid'))).toEqual([1, 1]);
    expect(Array.from(neighborCounts(s0, base()))).toEqual([0, 0]);
    // boid 0 sees d = -1 (through the wall): separation pushes it +x, cohesion pulls it -x:
    // a.x = 1.5*(+1) + 1*(-1) = 0.5
    const s = referenceStep(s0, base({ boundary: 'wrap' }));
    expect(xyz(s.velocities, 0)[0]).toBeCloseTo(0.05, 6);
  });

  test('minimumImage and floorMod', () => {
    expect(minimumImage(63, 64)).toBe(-1);
    expect(minimumImage(-63, 64)).toBe(1);
    expect(minimumImage(10, 64)).toBe(10);
    expect(floorMod(-0.5, 64)).toBe(63.5);
    expect(floorMod(64.4, 64)).toBeCloseTo(0.4, 10);
    expect(floorMod(-1e-20, 64)).toBe(0); // would round to 64 = size
  });

  test('co-located boids ignore each other; no NaN for degenerate states', () => {
    const n = 37;
    const same: FlockState = {
      count: n,
      positions: new Float32Array(4 * n).fill(1),
      velocities: new Float32Array(4 * n),
    };
    for (let i = 0; i < n; i++) same.positions[4 * i + 3] = 0;
    const p = base();
    expect(Array.from(neighborCounts(same, p))).toEqual(new Array(n).fill(0));
    for (const search of ['grid', 'brute'] as const) {
      const s = referenceSteps(same, p, 5, search);
      expect(allFinite(s)).toBe(true);
    }
    const single = handState([boid([0, 0, 0], [0, 0, 0])]);
    expect(allFinite(referenceSteps(single, p, 3))).toBe(true);
    const still = initialState(
      validateParams({ count: 500, minSpeed: 0, maxSpeed: 0.01, seed: 3 }),
    );
    still.velocities.fill(0);
    expect(allFinite(referenceSteps(still, validateParams({ count: 500, minSpeed: 0 }), 3))).toBe(
      true,
    );
  });

  test('2D keeps z at 0', () => {
    const p = parityParams({ dimensions: 2, count: 777 });
    const s = referenceSteps(initialState(p), p, 3);
    for (let i = 0; i < s.count; i++) {
      expect(s.positions[4 * i + 2]).toBe(0);
      expect(s.velocities[4 * i + 2]).toBe(0);
    }
  });
});

describe('grid search equals brute force', () => {
  test.each([
    ['bounce 3D', {}],
    ['wrap 3D', { boundary: 'wrap' as const }],
    ['bounce 2D', { dimensions: 2 as const, count: 1999 }],
    ['wrap 2D', { dimensions: 2 as const, count: 1999, boundary: 'wrap' as const }],
  ])('%s: same neighbour counts and same step', (_name, o) => {
    const p = parityParams({ count: 3001, ...o });
    const s0 = initialState(p);
    const brute = neighborCounts(s0, p, 'brute');
    expect(Array.from(neighborCounts(s0, p, 'grid'))).toEqual(Array.from(brute));
    const mean = brute.reduce((a, b) => a + b, 0) / brute.length;
    expect(mean).toBeGreaterThan(p.dimensions === 2 ? 2 : 8);
    const g = referenceStep(s0, p, 'grid');
    const b = referenceStep(s0, p, 'brute');
    for (let i = 0; i < g.positions.length; i++) {
      expect(Math.abs(g.positions[i]! - b.positions[i]!)).toBeLessThan(1e-5);
      expect(Math.abs(g.velocities[i]! - b.velocities[i]!)).toBeLessThan(1e-5);
    }
  });
});
