/**
 * Measures of how much a flock flocks, for the order script and the benchmarks: the local order
 * parameter (Vicsek et al., "Novel type of phase transition in a system of self-driven
 * particles", PRL 1995, taken over each boid's neighbourhood) and the fraction of grid cells
 * occupied (a gas fills the box; groups leave most cells empty).
 */
import type { FlockParams } from './params';
import type { FlockState } from './state';
import { buildCellLists, neighborCounts } from './reference';
import { gridFor } from './grid';

/**
 * Local order: for every boid with at least one neighbour (the model's N_i), the length of the
 * mean unit heading of the boid and its neighbours, averaged over those boids. 1 = every
 * neighbourhood aligned, about 1/sqrt(1 + |N_i|) for random headings. Boids at rest count with a
 * zero heading. Returns { order, withNeighbors (fraction of boids that have any), meanNeighbors }.
 */
export function localOrder(
  state: FlockState,
  params: FlockParams,
): { order: number; withNeighbors: number; meanNeighbors: number } {
  const n = state.count;
  const V = state.velocities;
  const unit = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const l = Math.hypot(V[4 * i]!, V[4 * i + 1]!, V[4 * i + 2]!);
    if (l > 0) for (let c = 0; c < 3; c++) unit[3 * i + c] = V[4 * i + c]! / l;
  }
  const lists = buildCellLists(state, params);
  const sums = new Float64Array(3 * n);
  const counts = neighborCounts(
    state,
    params,
    'grid',
    (i, j) => {
      for (let c = 0; c < 3; c++) sums[3 * i + c]! += unit[3 * j + c]!;
    },
    lists,
  );
  let total = 0;
  let used = 0;
  let neighbours = 0;
  for (let i = 0; i < n; i++) {
    const k = counts[i]!;
    neighbours += k;
    if (k === 0) continue;
    const hx = (sums[3 * i]! + unit[3 * i]!) / (k + 1);
    const hy = (sums[3 * i + 1]! + unit[3 * i + 1]!) / (k + 1);
    const hz = (sums[3 * i + 2]! + unit[3 * i + 2]!) / (k + 1);
    total += Math.hypot(hx, hy, hz);
    used++;
  }
  return {
    order: used > 0 ? total / used : 0,
    withNeighbors: used / n,
    meanNeighbors: neighbours / n,
  };
}

/** The fraction of the grid's cells (gridFor(params)) that hold at least one boid. */
export function occupiedCells(state: FlockState, params: FlockParams): number {
  const grid = gridFor(params);
  const lists = buildCellLists(state, params);
  let used = 0;
  for (let c = 0; c < grid.cellCount; c++) if (lists.cellEnd[c]! > lists.cellStart[c]!) used++;
  return used / grid.cellCount;
}
