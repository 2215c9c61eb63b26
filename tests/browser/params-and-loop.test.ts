// Every schema field rejected through a running flock (state and parameters kept).
import { afterEach, describe, expect, test } from 'vitest';
import { createFlock, FlockError, PARAM_SCHEMA, type Flock } from '../../src/index';
import { badValues } from '../support/bad-values';

/** Bad values of every field, from its spec (type and range): tests/support/bad-values.ts. */
const BAD_VALUES: Record<string, unknown[]> = Object.fromEntries(
  PARAM_SCHEMA.map((spec) => [spec.name, badValues(spec)]),
);

const flocks: Flock[] = [];
afterEach(() => {
  for (const f of flocks.splice(0)) f.dispose();
});

describe('bad parameters through a running flock', () => {
  test('every schema field has bad values that are rejected by name, keeping params and state', async () => {
    for (const spec of PARAM_SCHEMA) expect(BAD_VALUES[spec.name]!.length).toBeGreaterThan(2);
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
