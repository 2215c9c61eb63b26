// The initial state and its PRNG (src/core/state.ts): mulberry32, initialState, validateState.
import { describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import { validateParams } from '../../src/core/params';
import { initialState, mulberry32, validateState } from '../../src/core/state';
import { length3 } from '../support/hand-state';

describe('PRNG and initial state', () => {
  test('mulberry32 is deterministic, in [0, 1), and seed-dependent', () => {
    const a = mulberry32(1);
    const b = mulberry32(1);
    const c = mulberry32(2);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(c()).not.toBe(xs[0]);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
  });

  test('initial state: inside [min, max), speeds in [minSpeed, maxSpeed], w = 0, same bits per seed', () => {
    const p = validateParams({
      count: 3001,
      boundsMin: [-1, 0, 5],
      boundsMax: [1, 7, 6],
      seed: 99,
    });
    const s = initialState(p);
    expect(s.positions).toHaveLength(4 * 3001);
    for (let i = 0; i < s.count; i++) {
      for (let a = 0; a < 3; a++) {
        expect(s.positions[4 * i + a]).toBeGreaterThanOrEqual(p.boundsMin[a]!);
        expect(s.positions[4 * i + a]).toBeLessThan(p.boundsMax[a]!);
      }
      const v = length3(s.velocities, i);
      expect(v).toBeGreaterThanOrEqual(p.minSpeed - 1e-5);
      expect(v).toBeLessThanOrEqual(p.maxSpeed + 1e-5);
      expect(s.positions[4 * i + 3]).toBe(0);
      expect(s.velocities[4 * i + 3]).toBe(0);
    }
    expect(initialState(p).positions).toEqual(s.positions);
    expect(initialState({ ...p, seed: 100 }).positions).not.toEqual(s.positions);
  });

  test('2D initial state has z = 0', () => {
    const s = initialState(validateParams({ count: 100, dimensions: 2 }));
    for (let i = 0; i < 100; i++)
      expect([s.positions[4 * i + 2], s.velocities[4 * i + 2]]).toEqual([0, 0]);
  });

  test('validateState names the field', () => {
    const good = { count: 2, positions: new Float32Array(8), velocities: new Float32Array(8) };
    expect(validateState(good).count).toBe(2);
    const cases: [unknown, string][] = [
      [{ ...good, count: 2.5 }, 'state.count'],
      [{ ...good, count: -1 }, 'state.count'],
      [{ ...good, positions: new Float32Array(7) }, 'state.positions'],
      [
        { ...good, velocities: new Float32Array([0, 0, NaN, 0, 0, 0, 0, 0]) },
        'state.velocities[2]',
      ],
      [
        { ...good, positions: new Float32Array([0, 0, 0, 0, Infinity, 0, 0, 0]) },
        'state.positions[4]',
      ],
    ];
    for (const [s, field] of cases) {
      expect(() => validateState(s)).toThrow(FlockError);
      try {
        validateState(s);
      } catch (e) {
        expect((e as FlockError).field).toBe(field);
      }
    }
  });
});
