/**
 * The CPU reference step: DESIGN.md section 1 in executable form, the oracle every backend is
 * tested against. Plain float64 arithmetic, results stored as float32.
 * Reynolds, "Flocks, herds and schools: a distributed behavioral model", SIGGRAPH 1987.
 */
import type { FlockParams } from './params';
import { activeAxes } from './params';
import type { FlockState } from './state';
import { gridFor, cellKeyOf, type Grid } from './grid';

/** Two boids closer than this (world units) ignore each other: no division by ~0. */
export const EPS = 1e-3;
export const EPS2 = EPS * EPS;

/** Minimum-image offset along one axis of a torus of side `size`: off - size*round(off/size), round = floor(x + 0.5). */
export function minimumImage(off: number, size: number): number {
  return off - size * Math.floor(off / size + 0.5);
}

/** Floored modulo (JS % truncates, so negative inputs need this). Result in [0, size). */
export function floorMod(x: number, size: number): number {
  const m = x - size * Math.floor(x / size);
  return m >= size ? 0 : m;
}

/** Cell lists of a state: boid ids sorted by cell key (stable), with per-cell start/end. */
export interface CellLists {
  grid: Grid;
  keys: Uint32Array; // key per boid id
  sortedIds: Uint32Array; // ids in (key, id) order
  cellStart: Uint32Array; // first index into sortedIds, per cell
  cellEnd: Uint32Array; // one past the last index, per cell (== start when empty)
}

/** Builds cell lists with a counting sort (the order a stable sort by (key, id) gives). */
export function buildCellLists(state: FlockState, params: FlockParams): CellLists {
  const grid = gridFor(params);
  const n = state.count;
  const keys = new Uint32Array(n);
  const counts = new Uint32Array(grid.cellCount + 1);
  for (let i = 0; i < n; i++) {
    const k = cellKeyOf(state.positions, i, grid, params.boundsMin, params.dimensions);
    keys[i] = k;
    counts[k + 1]!++;
  }
  for (let c = 0; c < grid.cellCount; c++) counts[c + 1]! += counts[c]!;
  const cellStart = counts.slice(0, grid.cellCount);
  const cellEnd = counts.slice(1);
  const fill = cellStart.slice();
  const sortedIds = new Uint32Array(n);
  for (let i = 0; i < n; i++) sortedIds[fill[keys[i]!]!++] = i;
  return { grid, keys, sortedIds, cellStart, cellEnd };
}

/** Calls visit(j) for every candidate j of boid i: all boids (brute) or those in the 3^d cells around i's cell. */
function forEachCandidate(
  i: number,
  state: FlockState,
  params: FlockParams,
  lists: CellLists | null,
  visit: (j: number) => void,
): void {
  if (!lists) {
    for (let j = 0; j < state.count; j++) visit(j);
    return;
  }
  const { grid } = lists;
  const wrap = params.boundary === 'wrap';
  const key = lists.keys[i]!;
  const cx = key % grid.dims[0];
  const cy = Math.floor(key / grid.dims[0]) % grid.dims[1];
  const cz = Math.floor(key / (grid.dims[0] * grid.dims[1]));
  const zr = params.dimensions === 2 ? 0 : 1;
  for (let dz = -zr; dz <= zr; dz++) {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        let x = cx + dx;
        let y = cy + dy;
        let z = cz + dz;
        if (wrap) {
          x = (x + grid.dims[0]) % grid.dims[0];
          y = (y + grid.dims[1]) % grid.dims[1];
          z = (z + grid.dims[2]) % grid.dims[2];
        } else if (
          x < 0 ||
          y < 0 ||
          z < 0 ||
          x >= grid.dims[0] ||
          y >= grid.dims[1] ||
          z >= grid.dims[2]
        ) {
          continue;
        }
        const c = x + grid.dims[0] * (y + grid.dims[1] * z);
        for (let s = lists.cellStart[c]!; s < lists.cellEnd[c]!; s++) visit(lists.sortedIds[s]!);
      }
    }
  }
}

/**
 * Calls visit(j, d, d2) for every neighbour j of boid i: d = p_j - p_i (minimum image under wrap;
 * the same array is reused between calls), eps² < d2 = |d|² < r². The one neighbour rule of the
 * model, shared by the step and the neighbour counts.
 */
function forEachNeighbor(
  i: number,
  state: FlockState,
  params: FlockParams,
  lists: CellLists | null,
  visit: (j: number, d: number[], d2: number) => void,
): void {
  const P = state.positions;
  const r2 = params.perceptionRadius * params.perceptionRadius;
  const axes = params.boundary === 'wrap' ? activeAxes(params) : 0;
  const px = P[4 * i]!;
  const py = P[4 * i + 1]!;
  const pz = P[4 * i + 2]!;
  const d = [0, 0, 0];
  forEachCandidate(i, state, params, lists, (j) => {
    if (j === i) return;
    d[0] = P[4 * j]! - px;
    d[1] = P[4 * j + 1]! - py;
    d[2] = P[4 * j + 2]! - pz;
    for (let a = 0; a < axes; a++) {
      d[a] = minimumImage(d[a]!, params.boundsMax[a]! - params.boundsMin[a]!);
    }
    const d2 = d[0]! * d[0]! + d[1]! * d[1]! + d[2]! * d[2]!;
    if (d2 > EPS2 && d2 < r2) visit(j, d, d2);
  });
}

/**
 * One fixed step of every boid from the previous state (Jacobi), exactly as DESIGN.md section 1.
 * `search` overrides params.neighborSearch. Returns a new state; the input is not modified.
 */
export function referenceStep(
  state: FlockState,
  params: FlockParams,
  search: 'grid' | 'brute' = params.neighborSearch,
): FlockState {
  const n = state.count;
  const P = state.positions;
  const V = state.velocities;
  const outP = new Float32Array(4 * n);
  const outV = new Float32Array(4 * n);
  const lists = search === 'grid' ? buildCellLists(state, params) : null;
  const wrap = params.boundary === 'wrap';
  const axes = activeAxes(params);
  const size = [0, 1, 2].map((a) => params.boundsMax[a]! - params.boundsMin[a]!);
  const dt = params.timeStep;
  for (let i = 0; i < n; i++) {
    const px = P[4 * i]!,
      py = P[4 * i + 1]!,
      pz = P[4 * i + 2]!;
    const vx = V[4 * i]!,
      vy = V[4 * i + 1]!,
      vz = V[4 * i + 2]!;
    let sx = 0,
      sy = 0,
      sz = 0; // separation
    let ux = 0,
      uy = 0,
      uz = 0; // sum of neighbour velocities
    let cx = 0,
      cy = 0,
      cz = 0; // sum of offsets
    let count = 0;
    forEachNeighbor(i, state, params, lists, (j, d, d2) => {
      sx -= d[0]! / d2;
      sy -= d[1]! / d2;
      sz -= d[2]! / d2;
      ux += V[4 * j]!;
      uy += V[4 * j + 1]!;
      uz += V[4 * j + 2]!;
      cx += d[0]!;
      cy += d[1]!;
      cz += d[2]!;
      count++;
    });
    let ax = params.separationWeight * sx;
    let ay = params.separationWeight * sy;
    let az = params.separationWeight * sz;
    if (count > 0) {
      const inv = 1 / count;
      ax += params.alignmentWeight * (ux * inv - vx) + params.cohesionWeight * cx * inv;
      ay += params.alignmentWeight * (uy * inv - vy) + params.cohesionWeight * cy * inv;
      az += params.alignmentWeight * (uz * inv - vz) + params.cohesionWeight * cz * inv;
    }
    const alen = Math.sqrt(ax * ax + ay * ay + az * az);
    if (alen > params.maxSteerForce) {
      const k = params.maxSteerForce / alen;
      ax *= k;
      ay *= k;
      az *= k;
    }
    const nv = [vx + ax * dt, vy + ay * dt, vz + az * dt];
    const speed = Math.sqrt(nv[0]! * nv[0]! + nv[1]! * nv[1]! + nv[2]! * nv[2]!);
    if (speed > 0) {
      const k =
        speed > params.maxSpeed
          ? params.maxSpeed / speed
          : speed < params.minSpeed
            ? params.minSpeed / speed
            : 1;
      nv[0]! *= k;
      nv[1]! *= k;
      nv[2]! *= k;
    }
    const np = [px + nv[0]! * dt, py + nv[1]! * dt, pz + nv[2]! * dt];
    for (let a = 0; a < axes; a++) {
      const lo = params.boundsMin[a]!;
      const hi = params.boundsMax[a]!;
      if (wrap) {
        np[a] = lo + floorMod(np[a]! - lo, size[a]!);
      } else {
        if (np[a]! < lo) {
          np[a] = 2 * lo - np[a]!;
          nv[a] = Math.abs(nv[a]!);
        } else if (np[a]! > hi) {
          np[a] = 2 * hi - np[a]!;
          nv[a] = -Math.abs(nv[a]!);
        }
        np[a] = Math.min(hi, Math.max(lo, np[a]!));
      }
    }
    outP[4 * i] = np[0]!;
    outP[4 * i + 1] = np[1]!;
    outP[4 * i + 2] = axes === 2 ? 0 : np[2]!;
    outP[4 * i + 3] = P[4 * i + 3]!;
    outV[4 * i] = nv[0]!;
    outV[4 * i + 1] = nv[1]!;
    outV[4 * i + 2] = axes === 2 ? 0 : nv[2]!;
    outV[4 * i + 3] = 0;
  }
  return { count: n, positions: outP, velocities: outV };
}

/** n reference steps. */
export function referenceSteps(
  state: FlockState,
  params: FlockParams,
  steps: number,
  search?: 'grid' | 'brute',
): FlockState {
  let s = state;
  for (let k = 0; k < steps; k++) s = referenceStep(s, params, search);
  return s;
}

/** |N_i| for every boid (the neighbour count the step uses), by brute force or through the grid. */
export function neighborCounts(
  state: FlockState,
  params: FlockParams,
  search: 'grid' | 'brute' = 'brute',
): Uint32Array {
  const lists = search === 'grid' ? buildCellLists(state, params) : null;
  const out = new Uint32Array(state.count);
  for (let i = 0; i < state.count; i++) {
    let c = 0;
    forEachNeighbor(i, state, params, lists, () => c++);
    out[i] = c;
  }
  return out;
}
