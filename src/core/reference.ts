/**
 * The CPU reference step: DESIGN.md section 1 in executable form, the oracle every backend is
 * tested against. Plain float64 arithmetic, results stored as float32.
 * Reynolds, "Flocks, herds and schools: a distributed behavioral model", SIGGRAPH 1987;
 * Reynolds, "Steering behaviors for autonomous characters", GDC 1999.
 */
import type { FlockParams, Vec3 } from './params';
import { activeAxes } from './params';
import type { FlockState } from './state';
import { gridFor, cellKeyOf, type Grid } from './grid';
import { flowAt, flowPhase, hasFlow, predatorPosition } from './behaviours';
import { EPS, EPS2 } from './numbers';

export { EPS, EPS2 } from './numbers';

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

/** `e/|e|`, or (1, 0, 0) when |e| <= eps (DESIGN.md section 1): never NaN. */
function unitOr(e: number[], q: number): [number, number, number] {
  return q > EPS ? [e[0]! / q, e[1]! / q, e[2]! / q] : [1, 0, 0];
}

/**
 * Reynolds' steer toward a desired velocity: limit(maxSpeed * u/|u| - v, maxSteerForce), or 0
 * when u is 0 (the sum over an empty set). Reynolds, "Steering behaviors for autonomous
 * characters", GDC 1999; Shiffman, The Nature of Code, ch. 6.
 */
function steerToward(
  u: number[],
  v: number[],
  maxSpeed: number,
  maxForce: number,
): [number, number, number] {
  const len = Math.hypot(u[0]!, u[1]!, u[2]!);
  if (!(len > 0)) return [0, 0, 0];
  const s: [number, number, number] = [
    (maxSpeed * u[0]!) / len - v[0]!,
    (maxSpeed * u[1]!) / len - v[1]!,
    (maxSpeed * u[2]!) / len - v[2]!,
  ];
  const sl = Math.hypot(s[0], s[1], s[2]);
  if (sl > maxForce) {
    const k = maxForce / sl;
    s[0] *= k;
    s[1] *= k;
    s[2] *= k;
  }
  return s;
}

/**
 * The view cone's per-boid factor K = |v_i|^2 c |c|, c = cos(fieldOfView / 2) (fieldOfView in
 * degrees, 0..360), for viewConeSees; heading2 = |v_i|^2 (world units² / s²).
 */
export function viewConeK(heading2: number, fieldOfView: number): number {
  const c = Math.cos((fieldOfView * Math.PI) / 360);
  return heading2 * (c * Math.abs(c));
}

/**
 * Whether a neighbour at offset d from boid i (dv = d . v_i, d2 = |d|^2 > 0) lies in i's view
 * cone, DESIGN section 1's d . v_i >= |d| |v_i| c (c = cos(fieldOfView / 2), |v_i| > eps), tested
 * without a square root or a division as
 *   dv |dv| >= d2 |v_i|^2 c |c| = d2 K       (K: viewConeK).
 * The same set: with X = |d| |v_i| >= 0, dv >= X c iff dv |dv| >= (X c) |X c| = X^2 c |c|,
 * because t -> t |t| is strictly increasing on the reals. Every backend tests this form
 * (steer.wgsl isMate, src/webgl2/flock-rules.glsl isFlockmate), so float rounding at the cone's edge
 * falls alike; a cone of 270 degrees then costs a multiply per neighbour, not a root.
 */
export function viewConeSees(dv: number, d2: number, coneK: number): boolean {
  return dv * Math.abs(dv) >= d2 * coneK;
}

/**
 * One fixed step of every boid from the previous state (Jacobi), exactly as DESIGN.md section 1:
 * neighbour sums (separation from every species within min(rs, r), alignment and cohesion with
 * the boid's own species in its field of view), steering ('reynolds' or 'sum'), soft walls, obstacle avoidance,
 * attractor, predators; velocity and speed clamp; position with the flow; the obstacles' hard
 * constraint; walls. velocities.w' = |N_i|.
 * `search` overrides params.neighborSearch; `time` is the simulated time t at the start of the
 * step, seconds (predator paths and the flow's phase use it).
 * Returns a new state; the input is not modified.
 */
export function referenceStep(
  state: FlockState,
  params: FlockParams,
  search: 'grid' | 'brute' = params.neighborSearch,
  time = 0,
): FlockState {
  const n = state.count;
  const P = state.positions;
  const V = state.velocities;
  const outP = new Float32Array(4 * n);
  const outV = new Float32Array(4 * n);
  const lists = search === 'grid' ? buildCellLists(state, params) : null;
  const wrap = params.boundary === 'wrap';
  const soft = params.boundary === 'soft';
  const axes = activeAxes(params);
  const size = [0, 1, 2].map((a) => params.boundsMax[a]! - params.boundsMin[a]!);
  const dt = params.timeStep;
  const rs = Math.min(params.separationRadius, params.perceptionRadius);
  const rs2 = rs * rs;
  const reynolds = params.steering === 'reynolds';
  // The view cone of alignment and cohesion (DESIGN seen_ij), as viewConeSees tests it.
  const cone = params.fieldOfView < 360;
  const predators: number[][] = [];
  for (let k = 0; k < params.predators; k++) predators.push(predatorPosition(params, k, time));
  const phase = flowPhase(time);
  const flow = hasFlow(params);
  // An offset between two points under the model's rules: minimum image under wrap, z = 0 in 2D.
  const offset = (e: number[]): number[] => {
    if (wrap) for (let a = 0; a < axes; a++) e[a] = minimumImage(e[a]!, size[a]!);
    if (axes === 2) e[2] = 0;
    return e;
  };
  for (let i = 0; i < n; i++) {
    const px = P[4 * i]!,
      py = P[4 * i + 1]!,
      pz = P[4 * i + 2]!;
    const vx = V[4 * i]!,
      vy = V[4 * i + 1]!,
      vz = V[4 * i + 2]!;
    const si = P[4 * i + 3]!;
    const sep: Vec3 = [0, 0, 0]; // - sum over S_i of d / |d|^2
    const ali: Vec3 = [0, 0, 0]; // sum over M_i of v_j
    const coh: Vec3 = [0, 0, 0]; // sum over M_i of d
    let m = 0; // |M_i|
    let count = 0; // |N_i|
    // seen_ij: all around, or a boid without heading (|v_i| <= eps), or dv |dv| >= d2 |v_i|^2 c |c|.
    const heading2 = vx * vx + vy * vy + vz * vz;
    const blind = cone && heading2 > EPS2;
    const coneK = viewConeK(heading2, params.fieldOfView);
    forEachNeighbor(i, state, params, lists, (j, d, d2) => {
      count++;
      if (d2 < rs2) {
        sep[0] -= d[0]! / d2;
        sep[1] -= d[1]! / d2;
        sep[2] -= d[2]! / d2;
      }
      const dv = d[0]! * vx + d[1]! * vy + d[2]! * vz;
      const seen = !blind || viewConeSees(dv, d2, coneK);
      if (P[4 * j + 3]! === si && seen) {
        ali[0] += V[4 * j]!;
        ali[1] += V[4 * j + 1]!;
        ali[2] += V[4 * j + 2]!;
        coh[0] += d[0]!;
        coh[1] += d[1]!;
        coh[2] += d[2]!;
        m++;
      }
    });
    const v = [vx, vy, vz];
    let ax: number, ay: number, az: number;
    if (reynolds) {
      const s1 = steerToward(sep, v, params.maxSpeed, params.maxSteerForce);
      const s2 = steerToward(ali, v, params.maxSpeed, params.maxSteerForce);
      const s3 = steerToward(coh, v, params.maxSpeed, params.maxSteerForce);
      const ws = params.separationWeight;
      const wa = params.alignmentWeight;
      const wc = params.cohesionWeight;
      ax = ws * s1[0] + wa * s2[0] + wc * s3[0];
      ay = ws * s1[1] + wa * s2[1] + wc * s3[1];
      az = ws * s1[2] + wa * s2[2] + wc * s3[2];
    } else {
      ax = params.separationWeight * sep[0]!;
      ay = params.separationWeight * sep[1]!;
      az = params.separationWeight * sep[2]!;
      if (m > 0) {
        const inv = 1 / m;
        ax += params.alignmentWeight * (ali[0]! * inv - vx) + params.cohesionWeight * coh[0]! * inv;
        ay += params.alignmentWeight * (ali[1]! * inv - vy) + params.cohesionWeight * coh[1]! * inv;
        az += params.alignmentWeight * (ali[2]! * inv - vz) + params.cohesionWeight * coh[2]! * inv;
      }
      const alen = Math.sqrt(ax * ax + ay * ay + az * az);
      if (alen > params.maxSteerForce) {
        const k = params.maxSteerForce / alen;
        ax *= k;
        ay *= k;
        az *= k;
      }
    }
    const acc = [ax, ay, az];
    // Soft walls: a push inward, linear across the margin M, F at the wall.
    if (soft) {
      const M = params.boundaryMargin;
      const F = params.boundaryForce;
      const pc = [px, py, pz];
      for (let a = 0; a < axes; a++) {
        const lo = params.boundsMin[a]! + M;
        const hi = params.boundsMax[a]! - M;
        if (pc[a]! < lo) acc[a]! += (F * (lo - pc[a]!)) / M;
        if (pc[a]! > hi) acc[a]! -= (F * (pc[a]! - hi)) / M;
      }
    }
    // Obstacles: push outward in the zone [R, R + margin) and inside, growing toward the surface.
    for (const ob of params.obstacles) {
      const e = offset([px - ob.center[0], py - ob.center[1], pz - ob.center[2]]);
      const q = Math.hypot(e[0]!, e[1]!, e[2]!);
      const reach = ob.radius + params.obstacleMargin;
      if (q < reach) {
        const u = unitOr(e, q);
        const k = (params.obstacleForce * (reach - q)) / params.obstacleMargin;
        acc[0]! += k * u[0];
        acc[1]! += k * u[1];
        acc[2]! += k * u[2];
      }
    }
    // Attractor (the pointer): toward A when the strength is > 0, away when < 0.
    if (params.attractorStrength !== 0) {
      const A = params.attractor;
      const e = offset([A[0] - px, A[1] - py, A[2] - pz]);
      const q = Math.hypot(e[0]!, e[1]!, e[2]!);
      if (q > EPS && q < params.attractorRadius) {
        const k = (params.attractorStrength * (1 - q / params.attractorRadius)) / q;
        acc[0]! += k * e[0]!;
        acc[1]! += k * e[1]!;
        acc[2]! += k * e[2]!;
      }
    }
    // Predators: flee.
    for (const h of predators) {
      const e = offset([px - h[0]!, py - h[1]!, pz - h[2]!]);
      const q = Math.hypot(e[0]!, e[1]!, e[2]!);
      if (q > EPS && q < params.predatorRadius) {
        const k = (params.predatorForce * (1 - q / params.predatorRadius)) / q;
        acc[0]! += k * e[0]!;
        acc[1]! += k * e[1]!;
        acc[2]! += k * e[2]!;
      }
    }
    if (axes === 2) acc[2] = 0;
    const nv = [vx + acc[0]! * dt, vy + acc[1]! * dt, vz + acc[2]! * dt];
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
    // Positions move with the air: the flow adds to the airspeed here only.
    const w = flow ? flowAt(params, px, py, pz, phase) : [0, 0, 0];
    const np = [px + (nv[0]! + w[0]!) * dt, py + (nv[1]! + w[1]!) * dt, pz + (nv[2]! + w[2]!) * dt];
    // Obstacles' hard constraint, in order: back onto the surface, no inward velocity.
    for (const ob of params.obstacles) {
      const e = offset([np[0]! - ob.center[0], np[1]! - ob.center[1], np[2]! - ob.center[2]]);
      const q = Math.hypot(e[0]!, e[1]!, e[2]!);
      if (q < ob.radius) {
        const u = unitOr(e, q);
        // Under wrap e is the minimum image: the surface point is taken relative to p'.
        np[0] = np[0]! - e[0]! + ob.radius * u[0];
        np[1] = np[1]! - e[1]! + ob.radius * u[1];
        np[2] = np[2]! - e[2]! + ob.radius * u[2];
        const vn = nv[0]! * u[0] + nv[1]! * u[1] + nv[2]! * u[2];
        if (vn < 0) {
          nv[0] = nv[0]! - vn * u[0];
          nv[1] = nv[1]! - vn * u[1];
          nv[2] = nv[2]! - vn * u[2];
        }
      }
    }
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
    outV[4 * i + 3] = count;
  }
  return { count: n, positions: outP, velocities: outV };
}

/** n reference steps from simulated time `time0` (seconds); step k starts at time0 + k*dt. */
export function referenceSteps(
  state: FlockState,
  params: FlockParams,
  steps: number,
  search?: 'grid' | 'brute',
  time0 = 0,
): FlockState {
  let s = state;
  for (let k = 0; k < steps; k++) s = referenceStep(s, params, search, time0 + k * params.timeStep);
  return s;
}

/**
 * |N_i| for every boid (the neighbour count the step uses), by brute force or through the grid.
 * `visit(i, j)`, when given, is called for every neighbour pair; `lists` reuses cell lists.
 */
export function neighborCounts(
  state: FlockState,
  params: FlockParams,
  search: 'grid' | 'brute' = 'brute',
  visit?: (i: number, j: number) => void,
  lists: CellLists | null = search === 'grid' ? buildCellLists(state, params) : null,
): Uint32Array {
  const out = new Uint32Array(state.count);
  for (let i = 0; i < state.count; i++) {
    let c = 0;
    forEachNeighbor(i, state, params, search === 'grid' ? lists : null, (j) => {
      c++;
      visit?.(i, j);
    });
    out[i] = c;
  }
  return out;
}
