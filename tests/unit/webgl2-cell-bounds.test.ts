// The exact cell thresholds the WebGL2 key pass uses (src/webgl2/cell-bounds.ts): for every
// boundary, the threshold is in the upper cell and the float32 just below it is not.
import { describe, expect, test } from 'vitest';
import { cellCoord, gridFor } from '../../src/core/grid';
import { validateParams, type FlockParams } from '../../src/core/params';
import { cellThresholds } from '../../src/webgl2/cell-bounds';

function below(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  if (x > 0) u[0]! -= 1;
  else if (x < 0) u[0]! += 1;
  else u[0] = 0x80000001;
  return f[0]!;
}

function check(partial: Partial<FlockParams>): void {
  const p = validateParams(partial);
  const grid = gridFor(p);
  const t0 = performance.now();
  const { stride, values } = cellThresholds(p, grid);
  expect(performance.now() - t0).toBeLessThan(1000);
  const axes = p.dimensions === 2 ? 2 : 3;
  for (let a = 0; a < axes; a++) {
    for (let c = 1; c < grid.dims[a]!; c++) {
      const x = values[a * stride + c]!;
      expect(Math.fround(x)).toBe(x);
      const coord = (v: number) => cellCoord(v, p.boundsMin[a]!, grid.cellSize[a]!, grid.dims[a]!);
      expect(coord(x)).toBe(c);
      expect(coord(below(x))).toBe(c - 1);
    }
  }
}

describe('cell thresholds', () => {
  test('parity box, a boundary at 0 (float64 rounds -8.9e-16 + 10 up to 10)', () => {
    check({ count: 5000, boundsMin: [-10, -10, -10], boundsMax: [10, 10, 10] });
  });
  test('bounds and cell sizes not representable in float32', () => {
    check({ count: 20000, boundsMin: [-10.3, -7.77, 0.1], boundsMax: [9.1, 13.3, 17.9] });
  });
  test('2D wrap, far from the origin', () => {
    check({
      count: 3000,
      dimensions: 2,
      boundary: 'wrap',
      boundsMin: [1000.5, -5000.25, 0],
      boundsMax: [1040.7, -4950, 1],
    });
  });
});
