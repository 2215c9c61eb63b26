// Degenerate and extreme states on both WebGL2 paths (the feedback path with EXT_color_buffer_float
// hidden): co-located boids, a boid alone, zero velocities, boids on and far outside the walls,
// huge and tiny speeds. Every value stays finite (DESIGN.md section 1) and, where the reference is
// meaningful, matches it.
import { describe, expect, test } from 'vitest';
import type { FlockParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { initialState, type FlockState } from '../../src/core/state';
import { addCanvas } from '../support/browser';
import { allFinite, checkTolerance, parityParams, outsideBox } from '../support/compare';
import { WEBGL2_PATHS, pathSlot } from '../support/webgl2-paths';

const modes: [string, Partial<FlockParams>][] = [
  ['bounce grid', {}],
  ['wrap grid', { boundary: 'wrap' }],
  ['bounce brute', { neighborSearch: 'brute' }],
  ['2D wrap grid', { dimensions: 2, boundary: 'wrap', perceptionRadius: 0.9 }],
];

describe.each(WEBGL2_PATHS)('$kind degenerate states', (path) => {
  const slot = pathSlot(path);

  async function run(params: FlockParams, state: FlockState, steps: number): Promise<FlockState> {
    const backend = await slot.create({ canvas: addCanvas(), params, state });
    backend.step(steps);
    return backend.readState();
  }

  for (const [name, overrides] of modes) {
    test(`${name}: all boids at one point`, async () => {
      const params = parityParams({ count: 777, ...overrides });
      const state = initialState(params);
      for (let i = 0; i < state.count; i++) {
        state.positions.set([1.5, -2, params.dimensions === 2 ? 0 : 3], 4 * i);
      }
      const got = await run(params, state, 5);
      expect(allFinite(got)).toBe(true);
      expect(outsideBox(got, params, true)).toBe(0);
      const report = checkTolerance(got, referenceSteps(state, params, 5), params, 5);
      expect(report.ok, report.message).toBe(true);
      // They part through their velocities: no longer all at one point.
      expect(got.positions[0]).not.toBe(got.positions[4]);
    });

    test(`${name}: all velocities zero`, async () => {
      const params = parityParams({ count: 1500, ...overrides });
      const state = initialState(params);
      state.velocities.fill(0);
      const got = await run(params, state, 4);
      expect(allFinite(got)).toBe(true);
      expect(outsideBox(got, params, true)).toBe(0);
      const report = checkTolerance(got, referenceSteps(state, params, 4), params, 4);
      expect(report.ok, report.message).toBe(true);
    });
  }

  test('a single boid, 1 and 10 steps, bounce and wrap', async () => {
    for (const boundary of ['bounce', 'wrap'] as const) {
      const params = parityParams({ count: 1, boundary });
      const state = initialState(params);
      const got1 = await run(params, state, 1);
      expect(checkTolerance(got1, referenceSteps(state, params, 1), params, 1).ok).toBe(true);
      slot.current!.step(9);
      const got10 = await slot.current!.readState();
      const report = checkTolerance(got10, referenceSteps(state, params, 10), params, 10);
      expect(report.ok, report.message).toBe(true);
      // Alone, it keeps its velocity (speed within the clamp) and moves.
      expect(got10.positions[0]).not.toBe(state.positions[0]);
      slot.dispose();
    }
  });

  test('zero speed clamp (minSpeed 0) with zero velocities stays at rest', async () => {
    // Bounce: soft walls would push a boid in their margin.
    const params = parityParams({ count: 1, minSpeed: 0, boundary: 'bounce' });
    const state = initialState(params);
    state.velocities.fill(0);
    const got = await run(params, state, 3);
    expect([...got.velocities]).toEqual([0, 0, 0, 0]);
    expect([...got.positions]).toEqual([...state.positions]);
  });

  for (const boundary of ['bounce', 'wrap'] as const) {
    test(`${boundary}: boids on the walls, far outside, with huge and tiny speeds`, async () => {
      const params = parityParams({ count: 600, boundary });
      const state = initialState(params);
      const extremes = [
        [10, 10, 10], // exactly on boundsMax (outside the half-open box)
        [-10, -10, -10],
        [1e30, -1e30, 3e38],
        [-3.4e38, 0, 1e-30],
        [9.9999999, -9.9999999, 0],
      ];
      for (let i = 0; i < state.count; i++) {
        const e = extremes[i % extremes.length]!;
        if (i % 3 === 0) state.positions.set(e, 4 * i);
        if (i % 4 === 1) state.velocities.set([3e38, -1e37, 1e20], 4 * i);
        if (i % 4 === 2) state.velocities.set([1e-30, -1e-38, 0], 4 * i);
        state.positions[4 * i + 3] = i % 7; // species ids ride along
      }
      const got = await run(params, state, 3);
      expect(allFinite(got)).toBe(true);
      expect(outsideBox(got, params, true)).toBe(0);
      for (let i = 0; i < state.count; i++) {
        expect(got.positions[4 * i + 3]).toBe(i % 7);
        const v = got.velocities.subarray(4 * i, 4 * i + 3);
        expect(Math.hypot(...v)).toBeLessThanOrEqual(params.maxSpeed * (1 + 1e-5));
      }
    });
  }
});
