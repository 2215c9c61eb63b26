// stillPlan (src/element/still.ts): the unseen warm-up of <gpu-flock> under reduced motion, on
// hand-worked numbers.
import { describe, expect, test } from 'vitest';
import { validateParams } from '../../src/core/params';
import {
  FORM_ENCOUNTERS,
  STILL_MAX_SECONDS,
  STILL_MIN_SECONDS,
  stillPlan,
} from '../../src/element/still';

describe('stillPlan', () => {
  test('2,000 boids in the 64-unit box: lambda = rho * pi r^2 * v, 9 / lambda seconds in 0.1 s steps', () => {
    // rho = 2000 / 64^3, pi r^2 = 4 pi, v = 5: lambda = 40000 pi / 262144 = 0.479369 /s.
    const p = stillPlan(validateParams({ count: 2000, boundary: 'wrap' }));
    expect(FORM_ENCOUNTERS[3]).toBe(9);
    expect(p.encounterRate).toBeCloseTo(0.479369, 6);
    expect(p.seconds).toBeCloseTo(18.77468, 5); // 9 * 262144 / (40000 pi)
    // min(separationRadius 1, r 2) / (2 * maxSpeed 5) = 0.1, the largest step.
    expect(p.timeStep).toBe(0.1);
    expect(p.steps).toBe(188); // ceil(187.75)
    // 10 s already flown: ceil(87.75) more.
    expect(stillPlan(validateParams({ count: 2000 }), 10).steps).toBe(88);
    expect(stillPlan(validateParams({ count: 2000 }), 30).steps).toBe(0);
  });

  test('2D: lambda = rho * 2r * v with 14 / lambda seconds', () => {
    // 300 boids in 64^2: rho = 300 / 4096, 2r = 4, v = 5: lambda = 1.464844; 14 / lambda = 9.5573.
    const p = stillPlan(validateParams({ count: 300, dimensions: 2 }));
    expect(p.encounterRate).toBeCloseTo(1.464844, 6);
    expect(p.seconds).toBeCloseTo(9.55733, 5);
    expect(p.steps).toBe(96);
  });

  test('clamped to [3, 40] s; species divide the density; the step follows maxSpeed and the separation distance', () => {
    // 16,384 boids: lambda = 3.927, 9 / lambda = 2.29 s -> the 3 s floor, 30 steps.
    const dense = stillPlan(validateParams({ count: 16384 }));
    expect([dense.seconds, dense.steps]).toEqual([STILL_MIN_SECONDS, 30]);
    // 100 boids: 9 / 0.023968 = 375 s -> 40 s, 400 steps.
    const sparse = stillPlan(validateParams({ count: 100 }));
    expect([sparse.seconds, sparse.steps]).toEqual([STILL_MAX_SECONDS, 400]);
    // 4,000 boids of 2 species meet their own kind as 2,000 of one do.
    const two = stillPlan(validateParams({ count: 4000, species: 2 }));
    expect(two.seconds).toBeCloseTo(18.77468, 5);
    // maxSpeed 20: 1 / 40 s steps (a boid moves half the separation distance per step).
    expect(stillPlan(validateParams({ count: 2000, maxSpeed: 20 })).timeStep).toBe(0.025);
    // separationRadius 0.1: 0.01 s would be below the flock's own step 1/60: that one.
    expect(stillPlan(validateParams({ count: 2000, separationRadius: 0.1 })).timeStep).toBe(1 / 60);
    // maxSpeed 0.01: hardly anyone meets (9 / lambda = 9,388 s); the 40 s cap at the largest step.
    const still = stillPlan(validateParams({ count: 2000, minSpeed: 0, maxSpeed: 0.01 }));
    expect([still.seconds, still.timeStep, still.steps]).toEqual([40, 0.1, 400]);
  });
});
