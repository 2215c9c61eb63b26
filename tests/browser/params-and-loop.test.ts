// Every schema field rejected through a running flock (state and parameters kept), and the
// frame loop's fixed steps driven by a fake requestAnimationFrame clock.
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

describe('frame loop with a fake clock', () => {
  test('steps follow simulated time at any refresh rate, and a long gap is capped', async () => {
    const realRaf = window.requestAnimationFrame;
    const realCancel = window.cancelAnimationFrame;
    let pending: FrameRequestCallback | null = null;
    window.requestAnimationFrame = (cb) => {
      pending = cb;
      return 1;
    };
    window.cancelAnimationFrame = () => {
      pending = null;
    };
    try {
      const f = await createFlock(undefined, {
        backend: 'webgl2',
        params: { count: 200, timeStep: 1 / 60 },
        autoStart: false,
        // No GPU timer: the loop's step cost is only the CPU-clock one, measured asynchronously,
        // so the fake costs below hold while the frames run synchronously.
        disable: ['EXT_disjoint_timer_query_webgl2'],
      });
      flocks.push(f);
      // The frame pacer takes as many steps as fit the frame budget: a fast device first.
      const pacer = (f as unknown as { _clock: { reportStepCost(s: number): void } })._clock;
      pacer.reportStepCost(0.001);
      const backend = (f as unknown as { _backend: { step(n: number): void } })._backend;
      let steps = 0;
      const realStep = backend.step.bind(backend);
      backend.step = (n: number) => {
        steps += n;
        realStep(n);
      };
      let now = 1000;
      const frame = (dtMs: number) => {
        now += dtMs;
        const cb = pending;
        pending = null;
        cb?.(now);
      };
      f.start();
      for (const hz of [30, 60, 144]) {
        steps = 0;
        const frames = hz * 2; // two simulated seconds
        for (let k = 0; k < frames; k++) frame(1000 / hz);
        expect(Math.abs(steps - 120), `${hz} Hz`).toBeLessThanOrEqual(2);
      }
      steps = 0;
      frame(10 * 60 * 1000); // ten minutes in a background tab
      expect(steps).toBeLessThanOrEqual(4);
      // A slow device: 40 ms a step at 30 Hz. One step per frame instead of the two real time
      // asks: half of real time, and stats say so.
      pacer.reportStepCost(0.04);
      for (let k = 0; k < 150; k++) frame(1000 / 30); // the 1 s averages forget the gap's 4 steps
      steps = 0;
      for (let k = 0; k < 60; k++) frame(1000 / 30);
      expect(steps).toBe(60);
      expect(f.stats.stepsPerFrame).toBeCloseTo(1, 2);
      expect(f.stats.timeScale).toBeCloseTo(0.5, 2);
      f.stop();
      steps = 0;
      frame(1000);
      expect(steps).toBe(0);
    } finally {
      window.requestAnimationFrame = realRaf;
      window.cancelAnimationFrame = realCancel;
    }
  });
});
