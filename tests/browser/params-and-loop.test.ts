// Every schema field rejected through a running flock (state and parameters kept).
import { afterEach, describe, expect, test } from 'vitest';
import { createFlock, FlockError, PARAM_SCHEMA, type Flock } from '../../src/index';

/** A bad value for each field, of the kind a user or a URL could give. */
const BAD_VALUES: Record<string, unknown[]> = {
  count: [-5, 2.5, NaN, '100', 0],
  dimensions: [4, '3', 2.5],
  boundsMin: [
    [1, 2],
    [0, 0, NaN],
    [0, 0, Infinity],
  ],
  boundsMax: [[1, 2, 3, 4], 'x', [NaN, 0, 0]],
  perceptionRadius: [-1, 0, NaN, Infinity],
  separationWeight: [-0.1, NaN, 1e6],
  alignmentWeight: [-1, Infinity],
  cohesionWeight: [-2, NaN],
  maxSpeed: [0, -3, NaN],
  minSpeed: [-1, NaN],
  maxSteerForce: [-1, Infinity],
  timeStep: [0, -0.01, 1, NaN],
  boundary: ['torus', 1],
  neighborSearch: ['octree', null],
  sort: ['radix'],
  seed: [-1, 1.5, 2 ** 32],
  separationRadius: [-1, NaN, 1e4],
  steering: ['boids', 0],
  boundaryMargin: [0, -1, NaN],
  boundaryForce: [-1, Infinity],
  species: [0, 5, 1.5],
  obstacles: [
    'x',
    { center: [0, 0, 0], radius: 1 },
    Array(17).fill({ center: [0, 0, 0], radius: 1 }),
  ],
  obstacleMargin: [0, NaN],
  obstacleForce: [-1, 1e9],
  attractor: [
    [0, 0],
    [0, NaN, 0],
  ],
  attractorStrength: [1e4, -1e4, NaN],
  attractorRadius: [0, -1],
  predators: [9, -1, 0.5],
  predatorRadius: [0, NaN],
  predatorForce: [-1, Infinity],
  wind: [
    [1, 2, 3, 4],
    [0, 0, 1e4],
  ],
  turbulence: [-1, NaN],
  turbulenceScale: [0, -16],
};

const flocks: Flock[] = [];
afterEach(() => {
  for (const f of flocks.splice(0)) f.dispose();
});

describe('bad parameters through a running flock', () => {
  test('every schema field has bad values that are rejected by name, keeping params and state', async () => {
    expect(Object.keys(BAD_VALUES).sort()).toEqual(PARAM_SCHEMA.map((s) => s.name).sort());
    const f = await createFlock(undefined, {
      backend: 'webgl2',
      params: { count: 700, seed: 5 },
      autoStart: false,
    });
    flocks.push(f);
    await f.step(2);
    const state = await f.readState();
    const params = f.params;
    for (const [field, values] of Object.entries(BAD_VALUES)) {
      for (const value of values) {
        let err: unknown = null;
        try {
          f.setParams({ [field]: value });
        } catch (e) {
          err = e;
        }
        expect(err, `${field} = ${String(value)}`).toBeInstanceOf(FlockError);
        const fe = err as FlockError;
        expect(fe.field).toBe(field);
        expect(
          Object.is(fe.value, value) || JSON.stringify(fe.value) === JSON.stringify(value),
        ).toBe(true);
        expect(fe.message).toContain(field);
        expect(fe.allowed.length).toBeGreaterThan(5);
      }
    }
    // obstacle lists are checked element by element: the error names the element's field
    for (const [value, field] of [
      [
        [
          { center: [0, 0, 0], radius: 1 },
          { center: [0, 0, 0], radius: -1 },
        ],
        'obstacles[1].radius',
      ],
      [[{ center: [0, 0], radius: 1 }], 'obstacles[0].center'],
    ] as const) {
      expect(() => f.setParams({ obstacles: value as never })).toThrow(field);
    }
    expect(f.params).toEqual(params);
    const after = await f.readState();
    expect(after.positions).toEqual(state.positions);
    expect(after.velocities).toEqual(state.velocities);
    // and the flock still runs
    await f.step(1);
    expect((await f.readState()).positions).not.toEqual(state.positions);
  });
});

// The frame loop with a fake clock moved to Node: tests/unit/flock-frame-loop.test.ts (a fake
// frame source and backend, no private fields).
