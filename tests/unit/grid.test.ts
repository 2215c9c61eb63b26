// The uniform grid (src/core/grid.ts): cell sizes and counts, cell coordinates and keys.
import { describe, expect, test } from 'vitest';
import { cellCoord, cellKeyOf, gridFor } from '../../src/core/grid';
import { validateParams } from '../../src/core/params';

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
