/**
 * The WebGPU grid's cells cut along x (FlockSimulationOptions.cellSplitX, steer.wgsl SPHERE_X,
 * issue 29): the grid of src/core/grid.ts with finer cells along x, and how many to cut for a
 * count. WebGPU only, so it loads with that backend, not with createFlock's first chunk.
 */
import type { Grid } from '../core/grid';
import type { Vec3 } from '../core/params';

/**
 * The grid with each cell cut into `k` along x (cells of cellSize.x / k; dims.x * k): the same
 * extent, so it tiles a wrapped box as exactly as `grid` does. A search over it must reach
 * sqrt(r^2 - f2) along x per row (DESIGN section 1: smaller cells with a wider search that proves
 * the same neighbour sets); the WebGPU steer pass's SPHERE_X does. k = 1 returns `grid`.
 * @throws RangeError when k is not an integer from 1 to 8.
 */
export function splitCellsX(grid: Grid, k: number): Grid {
  if (!Number.isInteger(k) || k < 1 || k > 8) {
    throw new RangeError(`cellSplitX: ${k} is not allowed (an integer from 1 to 8)`);
  }
  if (k === 1) return grid;
  const dims: Vec3 = [grid.dims[0] * k, grid.dims[1], grid.dims[2]];
  const cellSize: Vec3 = [grid.cellSize[0] / k, grid.cellSize[1], grid.cellSize[2]];
  return { dims, cellSize, cellCount: dims[0] * dims[1] * dims[2], boxSize: grid.boxSize };
}

/**
 * How many to cut each cell into along x for `count` boids (splitCellsX): as many, up to 4, as
 * keep at least one boid per cell on average, floor(count / cellCount) clamped to 1..4. Measured
 * on an H100 (docs/real-gpu-tune.md): cutting pays where cells are crowded (5 boids a cell: the
 * step 13-15% faster at k = 4) and costs where they are not (0.5 a cell: k times the cells to
 * count and scan, up to 15% slower).
 */
export function autoCellSplitX(grid: Grid, count: number): number {
  return Math.max(1, Math.min(4, Math.floor(count / grid.cellCount)));
}
