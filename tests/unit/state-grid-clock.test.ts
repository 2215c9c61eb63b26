import { describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import { cellCoord, cellKeyOf, gridFor } from '../../src/core/grid';
import { validateParams } from '../../src/core/params';
import { resolveShader, mapShaderLog, mapWgslMessages } from '../../src/core/shader-source';
import { initialState, mulberry32, validateState } from '../../src/core/state';

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
      const v = Math.hypot(
        s.velocities[4 * i]!,
        s.velocities[4 * i + 1]!,
        s.velocities[4 * i + 2]!,
      );
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

describe('grid', () => {
  test('default box: 32^3 cells of size 2 (= r) for 16,384 boids', () => {
    const g = gridFor(validateParams());
    expect(g.dims).toEqual([32, 32, 32]);
    expect(g.cellSize).toEqual([2, 2, 2]);
    expect(g.cellCount).toBe(32768);
  });

  test('cells grow (never below r) so the cell count stays O(N)', () => {
    const g = gridFor(
      validateParams({ count: 100, boundsMin: [-500, -500, -500], boundsMax: [500, 500, 500] }),
    );
    expect(g.cellCount).toBeLessThanOrEqual(4096 * 1.2);
    expect(g.cellSize[0]).toBeGreaterThan(2);
  });

  test('a thin box (1000 x 1000 x 1) stays within the cell budget', () => {
    const p = validateParams({ count: 1000, boundsMin: [0, 0, 0], boundsMax: [1000, 1000, 1] });
    const g = gridFor(p);
    expect(g.cellCount).toBeLessThanOrEqual(4096);
    expect(g.cellSize[0]).toBeGreaterThanOrEqual(2);
    expect(g.dims[2]).toBe(1);
  });

  test('wrap tiles the box exactly with >= 3 cells per axis', () => {
    const g = gridFor(
      validateParams({
        boundary: 'wrap',
        boundsMin: [0, 0, 0],
        boundsMax: [7, 100, 9],
        perceptionRadius: 2,
      }),
    );
    expect(g.dims[0]).toBe(3);
    expect(g.cellSize[0]! * g.dims[0]).toBeCloseTo(7, 12);
    expect(g.cellSize[2]! * g.dims[2]).toBeCloseTo(9, 12);
    for (const c of g.cellSize) expect(c).toBeGreaterThanOrEqual(2);
  });

  test('2D grid has one z cell', () => {
    expect(gridFor(validateParams({ dimensions: 2 })).dims[2]).toBe(1);
  });

  test('cell coordinates clamp into the grid; keys are x-fastest', () => {
    expect(cellCoord(-40, -32, 2, 32)).toBe(0);
    expect(cellCoord(32, -32, 2, 32)).toBe(31);
    expect(cellCoord(-31.9, -32, 2, 32)).toBe(0);
    expect(cellCoord(-30, -32, 2, 32)).toBe(1);
    const p = validateParams();
    const g = gridFor(p);
    const pos = new Float32Array([-29, -31, -27, 0]); // cell (1, 0, 2)
    expect(cellKeyOf(pos, 0, g, p.boundsMin, 3)).toBe(1 + 32 * (0 + 32 * 2));
  });
});

describe('shader sources', () => {
  const files = {
    'main.glsl': '#version 300 es\n#include "common.glsl"\nvoid main() {\n  oops;\n}',
    'common.glsl': 'precision highp float;\nfloat f(float x) { return x; }',
  };
  test('includes are inlined with a line map', () => {
    const s = resolveShader('main.glsl', files, { COUNT: 3 });
    expect(s.code.split('\n')).toEqual([
      '#version 300 es',
      '#define COUNT 3',
      'precision highp float;',
      'float f(float x) { return x; }',
      'void main() {',
      '  oops;',
      '}',
    ]);
    expect(s.lines[5]).toEqual({ file: 'main.glsl', line: 4 });
    expect(s.lines[3]).toEqual({ file: 'common.glsl', line: 2 });
  });
  test('GLSL and WGSL logs name the original file and 1-based line', () => {
    const s = resolveShader('main.glsl', files, { COUNT: 3 });
    const { text, first } = mapShaderLog("ERROR: 0:6: 'oops' : undeclared identifier", s);
    expect(text).toBe("ERROR: main.glsl:4: 'oops' : undeclared identifier");
    expect(first).toEqual({ file: 'main.glsl', line: 4 });
    const w = mapWgslMessages([{ type: 'error', lineNum: 4, linePos: 7, message: 'bad' }], s);
    expect(w.text).toBe('common.glsl:2:7: error: bad');
  });
  test('a missing include names the including line', () => {
    expect(() => resolveShader('a.glsl', { 'a.glsl': 'x\n#include "nope.glsl"' })).toThrow(
      'a.glsl:2',
    );
  });
});
