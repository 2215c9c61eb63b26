/**
 * Uniform-grid math shared by the CPU reference and every backend (DESIGN.md section 1).
 * Cells are at least perceptionRadius wide, so the 3^d cells around a boid's cell hold all of its
 * neighbours; under `wrap` the cells tile the box exactly and there are at least 3 per axis.
 * Cells grow (never hash) so the cell count stays O(N): at most about max(4096, 2*count) cells.
 */
import type { FlockParams, Vec3 } from './params';
import { activeAxes } from './params';

export interface Grid {
  /** Cells per axis (z is 1 in 2D). */
  dims: Vec3;
  /** Cell size per axis, world units (>= perceptionRadius on active axes). */
  cellSize: Vec3;
  /** dims.x * dims.y * dims.z. */
  cellCount: number;
  /** boundsMax - boundsMin per axis, world units. */
  boxSize: Vec3;
}

/** The cell budget for a count: memory O(N), and a handful of boids per occupied cell. */
export function maxCellsFor(count: number): number {
  return Math.max(4096, 2 * count);
}

/** The grid for these parameters. Deterministic: every backend computes the same one. */
export function gridFor(
  p: Pick<
    FlockParams,
    'count' | 'dimensions' | 'boundsMin' | 'boundsMax' | 'perceptionRadius' | 'boundary'
  >,
): Grid {
  const axes = activeAxes(p);
  const boxSize: Vec3 = [0, 0, 0];
  let volume = 1;
  for (let a = 0; a < 3; a++) {
    boxSize[a] = p.boundsMax[a]! - p.boundsMin[a]!;
    if (a < axes) volume *= boxSize[a]!;
  }
  // Start from the cube root of the volume per allowed cell; grow while thin boxes (a wide,
  // flat box rounds every axis up) still give more cells than allowed.
  const maxCells = maxCellsFor(p.count);
  let target = Math.max(p.perceptionRadius, Math.pow(volume / maxCells, 1 / axes));
  const dims: Vec3 = [1, 1, 1];
  const cellSize: Vec3 = [1, 1, 1];
  for (let attempt = 0; attempt < 100; attempt++) {
    for (let a = 0; a < axes; a++) {
      const size = boxSize[a]!;
      if (p.boundary === 'wrap') {
        // Tile the box exactly; validation guarantees size / r >= 3, so size / 3 >= r.
        const n = Math.max(3, Math.floor(size / target));
        dims[a] = n;
        cellSize[a] = size / n;
      } else {
        dims[a] = Math.max(1, Math.ceil(size / target));
        cellSize[a] = target;
      }
    }
    if (dims[0] * dims[1] * dims[2] <= maxCells) break;
    target *= 1.25;
  }
  if (axes === 2) cellSize[2] = Math.max(1, boxSize[2]!);
  return { dims, cellSize, cellCount: dims[0] * dims[1] * dims[2], boxSize };
}

/** Integer cell coordinate of a position component, clamped into the grid. */
export function cellCoord(x: number, min: number, cellSize: number, dim: number): number {
  const c = Math.floor((x - min) / cellSize);
  return c < 0 ? 0 : c >= dim ? dim - 1 : c;
}

/** Linear cell key x + dims.x * (y + dims.y * z) of a position (xyz at `pos[4*i..]`). */
export function cellKeyOf(
  pos: ArrayLike<number>,
  i: number,
  grid: Grid,
  boundsMin: Vec3,
  dimensions: 2 | 3,
): number {
  const cx = cellCoord(pos[4 * i]!, boundsMin[0], grid.cellSize[0], grid.dims[0]);
  const cy = cellCoord(pos[4 * i + 1]!, boundsMin[1], grid.cellSize[1], grid.dims[1]);
  const cz =
    dimensions === 2 ? 0 : cellCoord(pos[4 * i + 2]!, boundsMin[2], grid.cellSize[2], grid.dims[2]);
  return cx + grid.dims[0] * (cy + grid.dims[1] * cz);
}
