// The uniform grid (src/core/grid.ts): cell sizes and counts, cell coordinates and keys.
import { describe, expect, test } from 'vitest';
import { cellCoord, cellKeyOf, gridFor } from '../../src/core/grid';
import { autoCellSplitX, splitCellsX } from '../../src/webgpu/cell-split';
import { validateParams } from '../../src/core/params';

describe('grid', () => {
  test('cells cut along x: same extent, k times the cells; auto keeps >= 1 boid a cell', () => {
    // Wrap: 3 cells of 7 / 3 per axis; cut in 2: 6 x 3 x 3 cells of 7 / 6 along x, still 7 wide.
    const wrap = gridFor(
      validateParams({
        count: 999,
        boundary: 'wrap',
        boundsMin: [0, 0, 0],
        boundsMax: [7, 7, 7],
        perceptionRadius: 2,
      }),
    );
    const cut = splitCellsX(wrap, 2);
    expect(cut.dims).toEqual([6, 3, 3]);
    expect(cut.cellSize[0]! * cut.dims[0]).toBeCloseTo(7, 12);
    expect(cut.cellSize.slice(1)).toEqual(wrap.cellSize.slice(1));
    expect(cut.cellCount).toBe(54);
    expect(splitCellsX(wrap, 1)).toBe(wrap);
    expect(() => splitCellsX(wrap, 1.5)).toThrow(/cellSplitX: 1.5 .*integer from 1 to 8/);
    // Default box, 32^3 = 32,768 cells: 16,384 boids (0.5 a cell) -> 1; 100,000 (3.05) -> 3;
    // 1,000,000 (30.5) -> 4 (the most).
    const g = gridFor(validateParams());
    expect([16384, 65535, 65536, 100000, 1000000].map((n) => autoCellSplitX(g, n))).toEqual([
      1, 1, 2, 3, 4,
    ]);
  });

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
