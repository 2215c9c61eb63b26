// Schema validation: every field has bad-value cases, derived from its spec (type and range),
// naming the field, the value and the range; the range ends are accepted.
import { describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import {
  PARAM_SCHEMA,
  defaultParams,
  needsReinit,
  validateParams,
  type FlockParams,
} from '../../src/core/params';
import { badValues } from '../support/bad-values';

function rejects(partial: Record<string, unknown>, field: string, base?: FlockParams): FlockError {
  try {
    validateParams(partial, base);
  } catch (e) {
    expect(e).toBeInstanceOf(FlockError);
    const err = e as FlockError;
    expect(err.field).toBe(field);
    expect(err.message).toContain(field);
    expect(err.allowed.length).toBeGreaterThan(3);
    return err;
  }
  throw new Error(`validateParams(${JSON.stringify(partial)}) did not throw`);
}

describe('schema', () => {
  test('defaults validate and match DESIGN', () => {
    const d = validateParams();
    expect(d).toEqual(defaultParams());
    expect(d.count).toBe(16384);
    expect(d.boundsMin).toEqual([-32, -32, -32]);
    expect(d.perceptionRadius).toBe(2);
    expect(d.separationWeight).toBe(1.5);
    expect(d.timeStep).toBeCloseTo(1 / 60, 12);
    expect(d.boundary).toBe('soft');
    expect(d.steering).toBe('reynolds');
    expect(d.separationRadius).toBe(1);
    expect(d.species).toBe(1);
    expect(d.obstacles).toEqual([]);
    expect(d.obstacleMargin).toBe(2);
    expect(d.obstacleForce).toBe(8);
    expect(d.attractor).toEqual([0, 0, 0]);
    expect(d.attractorStrength).toBe(0);
    expect(d.attractorRadius).toBe(16);
    expect(d.predators).toBe(0);
    expect(d.predatorRadius).toBe(8);
    expect(d.predatorForce).toBe(12);
    expect(d.wind).toEqual([0, 0, 0]);
    expect(d.turbulence).toBe(0);
    expect(d.turbulenceScale).toBe(16);
    expect(d.boundaryMargin).toBe(4);
    expect(d.boundaryForce).toBe(4);
    expect(d.neighborSearch).toBe('grid');
    expect(d.seed).toBe(1);
  });

  for (const spec of PARAM_SCHEMA) {
    test(`${spec.name}: each bad value is a FlockError naming it`, () => {
      for (const bad of badValues(spec)) {
        const err = rejects({ [spec.name]: bad }, spec.name);
        expect(err.value).toBe(bad);
      }
    });
    test(`${spec.name}: the default and the range ends are accepted`, () => {
      expect(validateParams({ [spec.name]: spec.default })[spec.name]).toEqual(spec.default);
      if (spec.type === 'int' || spec.type === 'float' || spec.type === 'uint32') {
        const p = validateParams({
          [spec.name]: spec.max,
          ...(spec.name === 'minSpeed' ? { maxSpeed: 1000 } : {}),
        });
        expect(p[spec.name]).toBe(spec.max);
        // The low end (maxSpeed's is bounded by minSpeed: lower that first).
        const q = validateParams({
          [spec.name]: spec.min,
          ...(spec.name === 'maxSpeed' ? { minSpeed: 0 } : {}),
        });
        expect(q[spec.name]).toBe(spec.min);
      }
    });
  }

  test('unknown keys are rejected with the known names', () => {
    const err = rejects({ speed: 3 }, 'speed');
    expect(err.allowed).toContain('perceptionRadius');
  });

  test('cross-field rules', () => {
    rejects({ boundsMin: [0, 0, 0], boundsMax: [10, 0, 10] }, 'boundsMax');
    rejects({ minSpeed: 6 }, 'minSpeed');
    // wrap: a 5-unit box with r = 2 has only 2 cells per axis
    const err = rejects(
      { boundary: 'wrap', boundsMin: [0, 0, 0], boundsMax: [5, 50, 50] },
      'boundary',
    );
    // the other boundaries first (soft and bounce both fit any box), then what wrap would need
    expect(err.allowed).toBe(
      '"soft" or "bounce" here, or wrap needs 3 cells per axis: perceptionRadius at most ' +
        '1.666666 world units (a third of the box side 5)',
    );
    // the conflict is reported on the field the caller changed
    const wrapped = validateParams({ boundary: 'wrap' });
    expect(rejects({ perceptionRadius: 30 }, 'perceptionRadius', wrapped).allowed).toContain(
      '3 cells',
    );
    const wrappedBox = validateParams({ boundary: 'wrap', boundsMin: [-10, -10, -10] });
    rejects({ boundsMax: [-5, 10, 10] }, 'boundsMax', wrappedBox);
    rejects({ maxSpeed: 1 }, 'maxSpeed');
    rejects({ boundsMin: [40, 0, 0] }, 'boundsMin');
    // 2D ignores z bounds
    expect(
      validateParams({ dimensions: 2, boundsMin: [0, 0, 5], boundsMax: [10, 10, 5] }).dimensions,
    ).toBe(2);
  });

  test('the base is never modified and vectors are copied', () => {
    const base = defaultParams();
    const v: [number, number, number] = [-5, -5, -5];
    const p = validateParams({ boundsMin: v, count: 10 }, base);
    v[0] = 100;
    expect(p.boundsMin).toEqual([-5, -5, -5]);
    expect(base.count).toBe(16384);
    expect(() => validateParams({ count: -3 }, p)).toThrow(FlockError);
    expect(p.count).toBe(10);
  });

  test('needsReinit: count, dimensions and seed', () => {
    expect(needsReinit(['count'])).toBe(true);
    expect(needsReinit(['seed', 'maxSpeed'])).toBe(true);
    expect(needsReinit(['dimensions'])).toBe(true);
    expect(needsReinit(['maxSpeed', 'boundsMin'])).toBe(false);
  });
});

describe('obstacles', () => {
  const sphere = (x: number, r: number) => ({ center: [x, 0, 0], radius: r });
  test('each element is checked and the error names its path', () => {
    const cases: [unknown, string][] = [
      [[sphere(0, 1), sphere(1, 1), { center: [0, 0, 0], radius: 0 }], 'obstacles[2].radius'],
      [[sphere(0, 1), { center: [0, 0], radius: 1 }], 'obstacles[1].center'],
      [[{ center: [0, NaN, 0], radius: 1 }], 'obstacles[0].center'],
      [[{ center: [0, 0, 2e6], radius: 1 }], 'obstacles[0].center'],
      [[sphere(0, 1), 5], 'obstacles[1]'],
      [[{ center: [0, 0, 0], radius: 1, colour: 'red' }], 'obstacles[0].colour'],
      [[{ center: [0, 0, 0], radius: Infinity }], 'obstacles[0].radius'],
      [[{ center: [0, 0, 0] }], 'obstacles[0].radius'],
    ];
    for (const [value, field] of cases) rejects({ obstacles: value }, field);
  });
  test('16 spheres are accepted and copied; 17 are not', () => {
    const list = Array.from({ length: 16 }, (_, k) => sphere(k, 0.5 + k));
    const p = validateParams({ obstacles: list });
    expect(p.obstacles).toEqual(list);
    list[0]!.center[0] = 99;
    expect(p.obstacles[0]!.center[0]).toBe(0);
    const q = validateParams({}, p);
    expect(q.obstacles).toEqual(p.obstacles);
    expect(q.obstacles[3]).not.toBe(p.obstacles[3]);
    rejects({ obstacles: [...list, sphere(0, 1)] }, 'obstacles');
  });
});
