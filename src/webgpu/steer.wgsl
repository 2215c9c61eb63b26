// Steer + integrate: one step of DESIGN section 1 (Jacobi: read the sorted previous state, write
// the next), with the grid search over the 3^d cells around a boid's cell or all pairs (brute):
// steering ('reynolds' or 'sum'), soft walls, obstacles, attractor, predators, the speed clamp,
// the flow, the obstacles' hard constraint and the walls; |N_i| into `outNbr`. The terms are
// uniform branches (a count or a strength of 0 skips them; SimParams) in the generic pipeline and
// compiled out where a pipeline is specialised for parameters that turn them off (TERMS below);
// the per-step values (predators h_k(t), the flow's phase) come from a StepParams slot bound with
// a dynamic offset. Velocities in `sorted` are already guarded (safeVelocity, sorted.wgsl).
// The same rules as src/webgl2/flock-rules.glsl and src/core/reference.ts.
// The grid visits, per (dy, dz), the x-adjacent cells as ONE contiguous range of the sorted
// records (cells x-1..x+1 are consecutive keys), so 3D reads 9 ranges instead of 27 cells.
#include "common.wgsl"
#include "step-params.gen.wgsl"
#include "sorted.wgsl"

override WG: u32 = 64u;
// Fixed-size workgroup arrays for the brute-force tiles: WG must be <= MAX_WG.
const MAX_WG: u32 = 256u;

// Specialisation (docs/real-gpu.md, issue 13): the override TERMS says which code a pipeline
// contains. Each switch of the model (src/core/terms.ts) has two bits, "may be on" and "may be
// off"; with both set the uniform decides at run time (the generic pipeline: every bit set), with
// one set the branch is a constant and the driver's compiler removes the other side, so a term
// that is off costs nothing and its registers do not limit the occupancy of the candidate loop.
// terms.gen.wgsl (generated from the term table) declares TERMS, the bits and one function per
// switch: wrapOn(), is3d(), reynoldsOn(), softOn(), speciesOn(), obstaclesOn(), attractorOn(),
// predatorsOn(), turbulenceOn().
#include "terms.gen.wgsl"

fn obstacleCount() -> u32 {
  return select(0u, P.obstacleCount, obstaclesOn());
}
fn predatorCount() -> u32 {
  return select(0u, P.predatorCount, predatorsOn());
}

// Warp-coherent search (TILE > 1): the boids of one tile of TILE consecutive sorted boids (a
// warp on NVIDIA with TILE = 32) that all lie in one row of cells, spanning at most TILE_SPAN
// cells along x, all visit the union of their 3^d blocks, rows x0-1 .. x1+1: every lane of the
// tile then runs the same loop over the same records (one broadcast load per candidate, no
// divergence) at the price of testing candidates of up to TILE_SPAN more cells per row. The
// extra candidates lie >= one cell (>= r) away along x and fail the distance test, which is
// brute force's, so the neighbour sets (and the order of their sums) stay those of the 3^d search.
// Off by default (TILE = 0): on an H200 it was no faster than the per-boid search (docs/real-gpu.md).
override TILE: u32 = 0u;
override TILE_SPAN: u32 = 2u;
// CULL: the per-boid search skips the cells it can prove hold no neighbour. With cells of side
// >= r the 3^d block is needed, but a row (dy, dz) whose nearest face lies >= r from the boid
// (|face offset|^2 summed over y and z >= r^2: the corner rows, about 1 time in 5 each) holds
// none, and in a row the cell x-1 (x+1) holds none when the boid's distance to its cell's low
// (high) x face, squared, plus the row's own, is >= r^2. That leaves about 20.6 of the 27 cells
// at a uniform density (24% fewer candidates). Every skipped candidate would have failed d2 < r2:
// the face distances are shrunk by CULL_EPS (relative to the box's coordinates) first, more than
// the float32 rounding of the cell index, the offset and d2, so the neighbour set and the order
// of the sums (the remaining candidates in the same order) are unchanged: the same bits.
override CULL: bool = true;
const CULL_EPS: f32 = 1e-5;
// SPHERE_X: the grid's cells are cut along x (FlockSimulationOptions.cellSplitX: k cells of r / k
// per cell of the search, y and z as before), and each row (dy, dz) is searched over the x cells
// its slice of the perception sphere can reach: |dx| < sqrt(r^2 - f2), f2 the row's face distance
// squared (CULL), widened by the same margin. Still one contiguous range per row (x-adjacent cells
// are consecutive keys), 16.5 r^3 searched at k = 2 and 14.5 at k = 4 instead of 20.6 (uniform
// density). Every skipped candidate would have failed d2 < r2: the same neighbour sets as brute
// force; the sums run in another order (the cells do), within DESIGN's tolerance.
override SPHERE_X: bool = false;
// The candidate loop unrolled by UNROLL (1, 2 or 4): that many position loads in flight before the
// first is used. The candidates are still taken in order j, j+1, ..., so the sums are the same bits.
// On an H200 the steer pass is faster unrolled at the steady state; on CPU adapters (SwiftShader,
// llvmpipe) 2-3x slower, so webgpu-backend.ts picks 1 there (docs/real-gpu.md).
override UNROLL: u32 = 1u;
// SPLIT: steerGrid keeps only the neighbour sums and the steering from them and writes the
// steering acceleration into outState's velocity slot; integrateGrid (a second dispatch) adds the
// point forces and integrates: the same operations in the same order (the steering goes through
// memory as the f32 it is); the candidate loop's pipeline then carries none of integrate's code.
override SPLIT: bool = false;

@group(0) @binding(0) var<uniform> P: SimParams;
@group(0) @binding(1) var<storage, read> sorted: array<vec4f>;
@group(0) @binding(2) var<storage, read> cellStart: array<u32>;
@group(0) @binding(3) var<storage, read_write> outState: array<vec4f>;
// Test hook output: |N_i| per boid id.
@group(0) @binding(4) var<storage, read_write> outCounts: array<u32>;
// |N_i| of the step, in the order of outState (FlockState's velocities.w).
@group(0) @binding(5) var<storage, read_write> outNbr: array<f32>;
@group(1) @binding(0) var<uniform> S: StepParams;

const EPS = 1e-3;

// CONE_SHARED (coneShared()): under a view cone, in a pipeline with cells cut along x (SPHERE_X:
// crowded cells, cellSplitFor) and an unrolled candidate loop (UNROLL > 1: a hardware adapter),
// each lane's cone values (v xyz, coneK) wait in workgroup memory, written before a barrier and
// read per neighbour, instead of taking 4 registers across the candidate loop: more warps in
// flight. The same arithmetic, so the same bits. Measured on an H100 (docs/real-gpu-tune.md,
// issue 29): fov 270 at 16M dense 16.53 -> 15.21 ms a step; at fov 360 nothing changes (off);
// in the sparse scene (uncut cells) it cost 1-6%, and on SwiftShader a barrier costs more than
// registers do, hence the two conditions.
var<workgroup> coneLds: array<vec4f, MAX_WG>;
var<private> lane: u32;

fn coneShared() -> bool {
  return fovOn() && SPHERE_X && UNROLL > 1u;
}

fn sortedBoid(j: u32) -> Boid {
  return Boid(sorted[sortedPosAt(j)], sorted[sortedVelAt(j)]);
}

struct Accum {
  sep: vec3f,     // - sum over S_i of d / |d|^2 (closer than min(rs, r), any species)
  velSum: vec3f,  // sum over M_i (own species) of v_j
  offSum: vec3f,  // sum over M_i of d
  n: u32,         // |N_i|
  m: u32,         // |M_i|
}

// Minimum image along the active axes: off - size * round(off / size), round = floor(x + 0.5).
fn minimumImage(d: vec3f) -> vec3f {
  var o = d - P.boxSize * floor(d / P.boxSize + vec3f(0.5));
  if (!is3d()) {
    o.z = d.z;
  }
  return o;
}

fn offsetTo(p: vec3f, q: vec3f) -> vec3f {
  if (wrapOn()) {
    return minimumImage(q - p);
  }
  return q - p;
}

// An offset of the model (to obstacles, the attractor, predators): minimum image under wrap,
// z = 0 in 2D.
fn modelOffset(d: vec3f) -> vec3f {
  var o = d;
  if (wrapOn()) {
    o = minimumImage(d);
  }
  if (!is3d()) {
    o.z = 0.0;
  }
  return o;
}

// |x| without overflow or underflow of the squares for very large or very small components.
fn safeLength(x: vec3f) -> f32 {
  let m = max(max(abs(x.x), abs(x.y)), abs(x.z));
  if (m == 0.0) {
    return 0.0;
  }
  if (m > 1e18 || m < 1e-18) {
    return m * length(x / m);
  }
  return length(x);
}

// e / |e| for q = |e|, or (1, 0, 0) when q <= eps (DESIGN.md section 1).
fn unitOr(e: vec3f, q: f32) -> vec3f {
  if (q > EPS) {
    return e / q;
  }
  return vec3f(1.0, 0.0, 0.0);
}

// A neighbour at offset d (|d|^2 = d2) with velocity v; `mate`: of the boid's own species.
// v is already guarded (safeVelocity, applied where `sorted` is written: sorted.wgsl).
fn addNeighbor(acc: ptr<function, Accum>, d: vec3f, d2: f32, v: vec3f, mate: bool) {
  (*acc).n += 1u;
  if (d2 < P.rs2) {
    (*acc).sep -= d * (1.0 / d2);
  }
  if (mate) {
    (*acc).velSum += v;
    (*acc).offSum += d;
    (*acc).m += 1u;
  }
}

// What the candidate loop keeps of boid i: position (xyz) and species (w); under a view cone its
// velocity and coneK = |v|^2 c |c| (c = cos(fov / 2); a very negative number when |v| <= eps, so
// that every neighbour is seen). Its velocity is read again after the loop when there is no cone:
// fewer values live across the loop, more warps in flight (docs/real-gpu.md, issue 29).
struct Me {
  pos: vec4f,
  vel: vec3f,
  coneK: f32,
}

fn meOf(i: u32) -> Me {
  let p = sorted[sortedPosAt(i)];
  if (fovOn()) {
    return meWith(p, sorted[sortedVelAt(i)].xyz);
  }
  return Me(p, vec3f(0.0), 0.0);
}

fn meWith(p: vec4f, v: vec3f) -> Me {
  if (fovOn()) {
    let vv = dot(v, v);
    // -3e38 * d2 (d2 > eps^2) is below any dv |dv| (or -inf past d2 > 1.13): always seen.
    let k = select(-3.0e38, vv * (P.fovCos * abs(P.fovCos)), vv > P.eps2);
    return Me(p, v, k);
  }
  return Me(p, vec3f(0.0), 0.0);
}

// Me of sorted boid min(i, count - 1) for lane `lid`; under coneShared() its cone values go to
// workgroup memory (all lanes of the workgroup call this: it holds a barrier).
fn meShared(lid: u32, i: u32) -> Me {
  let me = meOf(min(i, P.count - 1u));
  if (!coneShared()) {
    return me;
  }
  lane = lid;
  coneLds[lid] = vec4f(me.vel, me.coneK);
  workgroupBarrier();
  return Me(me.pos, vec3f(0.0), 0.0);
}

// Whether neighbour j (offset d, |d|^2 = d2, species sj) is a flockmate of boid `me`, counted by
// alignment and cohesion (M_i): of the boid's own species and inside its view cone, |v| <= eps (no
// heading) or d . v >= |d| |v| c, tested as dv |dv| >= d2 |v|^2 c |c| (dv = d . v, c = cos(fov /
// 2)): the same set without a square root or a division (src/core/reference.ts shows why).
// Separation sees every neighbour.
fn isMate(me: Me, d: vec3f, d2: f32, sj: f32) -> bool {
  if (speciesOn() && me.pos.w != sj) {
    return false;
  }
  if (fovOn()) {
    var cone = vec4f(me.vel, me.coneK);
    if (coneShared()) {
      cone = coneLds[lane];
    }
    let dv = dot(d, cone.xyz);
    if (dv * abs(dv) < d2 * cone.w) {
      return false;
    }
  }
  return true;
}

// One candidate at sorted slot j, position q (its velocity is read only for a neighbour).
// The boid itself has d = 0 (also under wrap), so d2 > eps2 excludes it (j != i).
fn visitCandidate(acc: ptr<function, Accum>, b: Me, q: vec4f, j: u32) {
  let d = offsetTo(b.pos.xyz, q.xyz);
  let d2 = dot(d, d);
  if (d2 > P.eps2 && d2 < P.r2) {
    addNeighbor(acc, d, d2, sorted[sortedVelAt(j)].xyz, isMate(b, d, d2, q.w));
  }
}

fn visitRange(acc: ptr<function, Accum>, b: Me, first: u32, last: u32) {
  // Sorted boids [cellStart[first], cellStart[last + 1]) are the cells first..last of one row.
  // Only the position is read for the distance test; the velocity only for a neighbour.
  let end = cellStart[last + 1u];
  var j = cellStart[first];
  if (UNROLL == 4u) {
    for (; j + 4u <= end; j += 4u) {
      let q0 = sorted[sortedPosAt(j)];
      let q1 = sorted[sortedPosAt(j + 1u)];
      let q2 = sorted[sortedPosAt(j + 2u)];
      let q3 = sorted[sortedPosAt(j + 3u)];
      visitCandidate(acc, b, q0, j);
      visitCandidate(acc, b, q1, j + 1u);
      visitCandidate(acc, b, q2, j + 2u);
      visitCandidate(acc, b, q3, j + 3u);
    }
  }
  if (UNROLL == 2u) {
    for (; j + 2u <= end; j += 2u) {
      let q0 = sorted[sortedPosAt(j)];
      let q1 = sorted[sortedPosAt(j + 1u)];
      visitCandidate(acc, b, q0, j);
      visitCandidate(acc, b, q1, j + 1u);
    }
  }
  for (; j < end; j++) {
    visitCandidate(acc, b, sorted[sortedPosAt(j)], j);
  }
}

// SPHERE_X: the x cells of one row that the sphere's slice can reach (|dx| < sqrt(r^2 - f2),
// widened by `margin`); under wrap as one or two ranges, or the whole row once when the slice
// spans it (never a cell twice).
fn visitSphereRow(acc: ptr<function, Accum>, b: Me, row: u32, f2: f32, margin: f32) {
  let nx = i32(P.dims.x);
  let h = sqrt(max(P.r2 - f2, 0.0)) + margin;
  let x0 = i32(floor((b.pos.x - h - P.boundsMin.x) / P.cellSize.x));
  let x1 = i32(floor((b.pos.x + h - P.boundsMin.x) / P.cellSize.x));
  if (!wrapOn()) {
    visitRange(acc, b, row + u32(clamp(x0, 0, nx - 1)), row + u32(clamp(x1, 0, nx - 1)));
  } else if (x1 - x0 + 1 >= nx) {
    visitRange(acc, b, row, row + u32(nx - 1));
  } else if (x0 < 0) {
    visitRange(acc, b, row + u32(x0 + nx), row + u32(nx - 1));
    if (x1 >= 0) {
      visitRange(acc, b, row, row + u32(x1));
    }
  } else if (x1 >= nx) {
    visitRange(acc, b, row + u32(x0), row + u32(nx - 1));
    visitRange(acc, b, row, row + u32(x1 - nx));
  } else {
    visitRange(acc, b, row + u32(x0), row + u32(x1));
  }
}

// The neighbour sums of sorted boid i, b (Me: position xyz, species w; the cone's values).
fn gatherGrid(i: u32, b: Me) -> Accum {
  var acc = Accum(vec3f(0.0), vec3f(0.0), vec3f(0.0), 0u, 0u);
  let c = vec3i(cellOf(b.pos.xyz));
  let dims = vec3i(P.dims);
  let wrap = wrapOn();
  var zr = 0;
  if (is3d()) {
    zr = 1;
  }
  // The x extent of the cells whose 3^d blocks are searched: the boid's own, or its tile's.
  var xlo = c.x;
  var xhi = c.x;
  if (TILE > 1u && !wrap) {
    let t0 = i - i % max(TILE, 1u);
    let a = vec3i(cellOf(sorted[sortedPosAt(t0)].xyz));
    let b = vec3i(cellOf(sorted[sortedPosAt(min(t0 + TILE - 1u, P.count - 1u))].xyz));
    // Keys are sorted: a and b in one row puts every boid of the tile in it, between them.
    if (a.y == b.y && a.z == b.z && u32(b.x - a.x) <= TILE_SPAN) {
      xlo = a.x;
      xhi = b.x;
    }
  }
  // CULL: the boid's distances to its cell's low and high faces, shrunk by the rounding margin.
  let cull = CULL && TILE <= 1u;
  let cellLo = P.boundsMin + vec3f(c) * P.cellSize;
  let margin = CULL_EPS * (max(max(abs(P.boundsMin.x), abs(P.boundsMin.y)), abs(P.boundsMin.z)) +
    max(max(abs(P.boundsMax.x), abs(P.boundsMax.y)), abs(P.boundsMax.z)) + P.cellSize.x);
  let lowFace = max(b.pos.xyz - cellLo - vec3f(margin), vec3f(0.0));
  let highFace = max(cellLo + P.cellSize - b.pos.xyz - vec3f(margin), vec3f(0.0));
  for (var dz = -zr; dz <= zr; dz++) {
    for (var dy = -1; dy <= 1; dy++) {
      var y = c.y + dy;
      var z = c.z + dz;
      if (wrap) {
        y = (y + dims.y) % dims.y;
        z = (z + dims.z) % dims.z;
      } else if (y < 0 || y >= dims.y || z < 0 || z >= dims.z) {
        continue;
      }
      // Whether the cells x-1 and x+1 of this row may hold a neighbour (CULL), and the row at all.
      var left = true;
      var right = true;
      var f2 = 0.0;
      if (cull) {
        let fy = select(select(highFace.y, lowFace.y, dy < 0), 0.0, dy == 0);
        let fz = select(select(highFace.z, lowFace.z, dz < 0), 0.0, dz == 0);
        f2 = fy * fy + fz * fz;
        if (f2 >= P.r2) {
          continue;
        }
        left = lowFace.x * lowFace.x + f2 < P.r2;
        right = highFace.x * highFace.x + f2 < P.r2;
      }
      let row = u32(dims.x * (y + dims.y * z));
      if (SPHERE_X) {
        visitSphereRow(&acc, b, row, f2, margin);
      } else if (!wrap) {
        let x0 = max(xlo - select(0, 1, left), 0);
        let x1 = min(xhi + select(0, 1, right), dims.x - 1);
        visitRange(&acc, b, row + u32(x0), row + u32(x1));
      } else if (c.x == 0) {
        // Under wrap every axis has >= 3 cells, so these ranges never overlap.
        visitRange(&acc, b, row, row + select(0u, 1u, right));
        if (left) {
          visitRange(&acc, b, row + u32(dims.x - 1), row + u32(dims.x - 1));
        }
      } else if (c.x == dims.x - 1) {
        visitRange(&acc, b, row + u32(c.x - select(0, 1, left)), row + u32(c.x));
        if (right) {
          visitRange(&acc, b, row, row);
        }
      } else {
        visitRange(&acc, b, row + u32(c.x - select(0, 1, left)), row + u32(c.x + select(0, 1, right)));
      }
    }
  }
  return acc;
}

// FLAT: the grid's 3^d search as ONE loop over the candidates of all its rows (no wrap, no tile):
// a lane whose row ends moves on to its next row within the same loop instead of waiting at the
// end of a per-row loop for the warp's longest row, so a warp runs as many iterations as its
// lane with the most candidates, not the sum over rows of each row's longest. The candidates are
// taken in the same order (rows dz-major, dy, then j), so the sums are the same bits.
override FLAT: bool = false;

fn gatherFlat(b: Me) -> Accum {
  var acc = Accum(vec3f(0.0), vec3f(0.0), vec3f(0.0), 0u, 0u);
  let c = vec3i(cellOf(b.pos.xyz));
  let dims = vec3i(P.dims);
  var zr = 0;
  if (is3d()) {
    zr = 1;
  }
  let rows = u32(3 * (2 * zr + 1));
  let x0 = max(c.x - 1, 0);
  let x1 = min(c.x + 1, dims.x - 1);
  var k = 0u;
  var j = 0u;
  var end = 0u;
  loop {
    if (j >= end) {
      // The next row inside the grid, or done.
      if (k >= rows) {
        break;
      }
      let y = c.y + i32(k % 3u) - 1;
      let z = c.z + i32(k / 3u) - zr;
      k += 1u;
      if (y >= 0 && y < dims.y && z >= 0 && z < dims.z) {
        let row = dims.x * (y + dims.y * z);
        j = cellStart[u32(row + x0)];
        end = cellStart[u32(row + x1) + 1u];
      }
      continue;
    }
    if (UNROLL == 4u && j + 4u <= end) {
      let q0 = sorted[sortedPosAt(j)];
      let q1 = sorted[sortedPosAt(j + 1u)];
      let q2 = sorted[sortedPosAt(j + 2u)];
      let q3 = sorted[sortedPosAt(j + 3u)];
      visitCandidate(&acc, b, q0, j);
      visitCandidate(&acc, b, q1, j + 1u);
      visitCandidate(&acc, b, q2, j + 2u);
      visitCandidate(&acc, b, q3, j + 3u);
      j += 4u;
      continue;
    }
    if (UNROLL == 2u && j + 2u <= end) {
      let q0 = sorted[sortedPosAt(j)];
      let q1 = sorted[sortedPosAt(j + 1u)];
      visitCandidate(&acc, b, q0, j);
      visitCandidate(&acc, b, q1, j + 1u);
      j += 2u;
      continue;
    }
    visitCandidate(&acc, b, sorted[sortedPosAt(j)], j);
    j += 1u;
  }
  return acc;
}

// The grid search the pipeline was built for: FLAT's one loop where it applies, else per row.
fn gatherSearch(i: u32, b: Me) -> Accum {
  if (FLAT && !wrapOn() && TILE <= 1u) {
    return gatherFlat(b);
  }
  return gatherGrid(i, b);
}

// Reynolds' steer toward a desired velocity along u: limit(maxSpeed u/|u| - v, maxSteerForce),
// 0 for u = 0 (the sum over an empty set). Reynolds, "Steering behaviors for autonomous
// characters", GDC 1999.
fn steerToward(u: vec3f, v: vec3f) -> vec3f {
  let len = safeLength(u);
  if (!(len > 0.0)) {
    return vec3f(0.0);
  }
  let s = P.maxSpeed * (u / len) - v;
  let sl = safeLength(s);
  if (sl > P.maxSteerForce) {
    return s * (P.maxSteerForce / sl);
  }
  return s;
}

fn steering(v: vec3f, acc: Accum) -> vec3f {
  if (reynoldsOn()) {
    return P.separationWeight * steerToward(acc.sep, v) +
      P.alignmentWeight * steerToward(acc.velSum, v) + P.cohesionWeight * steerToward(acc.offSum, v);
  }
  var a = P.separationWeight * acc.sep;
  if (acc.m > 0u) {
    let inv = 1.0 / f32(acc.m);
    a += P.alignmentWeight * (acc.velSum * inv - v) + P.cohesionWeight * acc.offSum * inv;
  }
  let alen = safeLength(a);
  if (alen > P.maxSteerForce) {
    a *= P.maxSteerForce / alen;
  }
  return a;
}

// Soft walls, obstacles' avoidance, the attractor and predators at position p.
fn pointForces(p: vec3f) -> vec3f {
  var a = vec3f(0.0);
  if (softOn()) {
    // Per axis K (lo - p) below lo, -K (p - hi) above hi (z only in 3D), as vectors: a loop
    // over the axes would index vectors dynamically, which puts them in local memory.
    a = P.softK * max(P.softLo - p, vec3f(0.0)) - P.softK * max(p - P.softHi, vec3f(0.0));
    if (!is3d()) {
      a.z = 0.0;
    }
  }
  let obstacles = obstacleCount();
  for (var k = 0u; k < obstacles; k++) {
    let o = P.obstacles[k];
    let e = modelOffset(p - o.xyz);
    let q = safeLength(e);
    let reach = o.w + P.obstacleMargin;
    if (q < reach) {
      a += (P.obstacleForce * (reach - q) / P.obstacleMargin) * unitOr(e, q);
    }
  }
  if (attractorOn()) {
    let e = modelOffset(P.attractor - p);
    let q = safeLength(e);
    if (q > EPS && q < P.attractorRadius) {
      a += (P.attractorStrength * (1.0 - q / P.attractorRadius) / q) * e;
    }
  }
  let predators = predatorCount();
  for (var k = 0u; k < predators; k++) {
    let e = modelOffset(p - S.predators[k].xyz);
    let q = safeLength(e);
    if (q > EPS && q < P.predatorRadius) {
      a += (P.predatorForce * (1.0 - q / P.predatorRadius) / q) * e;
    }
  }
  return a;
}

// The air's flow w(p, t): wind + turbulence * u(k p + phi) (ABC flow in 3D, (cos y, sin x) in 2D).
fn flowAt(p: vec3f) -> vec3f {
  var w = P.wind;
  if (turbulenceOn()) {
    let x = P.turbulenceK * p + vec3f(S.flowPhase);
    if (is3d()) {
      w += (0.5 * P.turbulence) *
        vec3f(sin(x.z) + cos(x.y), sin(x.x) + cos(x.z), sin(x.y) + cos(x.x));
    } else {
      w += P.turbulence * vec3f(cos(x.y), sin(x.x), 0.0);
    }
  }
  if (!is3d()) {
    w.z = 0.0;
  }
  return w;
}

// The next state of boid b from its steering acceleration `steer` (steering(v, acc)).
fn integrate(b: Boid, steer: vec3f) -> Boid {
  let v = safeVelocity(b.vel.xyz);
  var a = steer + pointForces(b.pos.xyz);
  if (!is3d()) {
    a.z = 0.0;
  }
  var nv = v + a * P.dt;
  let speed = safeLength(nv);
  if (speed > 0.0) {
    var k = 1.0;
    if (speed > P.maxSpeed) {
      k = P.maxSpeed / speed;
    } else if (speed < P.minSpeed) {
      k = P.minSpeed / speed;
    }
    nv *= k;
  }
  var np = b.pos.xyz + (nv + flowAt(b.pos.xyz)) * P.dt;
  // Obstacles' hard constraint, in order: back onto the surface (relative to np: under wrap the
  // nearest image), no inward velocity.
  let obstacles = obstacleCount();
  for (var k = 0u; k < obstacles; k++) {
    let o = P.obstacles[k];
    let e = modelOffset(np - o.xyz);
    let q = safeLength(e);
    if (q < o.w) {
      let u = unitOr(e, q);
      np = np - e + o.w * u;
      let vn = dot(nv, u);
      if (vn < 0.0) {
        nv -= vn * u;
      }
    }
  }
  // The walls per axis, as vectors (see pointForces): wrap onto the torus, or reflect and clamp.
  let lo = P.boundsMin;
  let hi = P.boundsMax;
  if (wrapOn()) {
    let m = np - lo - P.boxSize * floor((np - lo) / P.boxSize);
    // Rounding can land on size (or a hair below 0): both are the box's lower wall on the torus.
    np = lo + select(m, vec3f(0.0), (m >= P.boxSize) | (m < vec3f(0.0)));
  } else {
    let below = np < lo;
    let above = (np > hi) & !below;
    np = select(select(np, 2.0 * hi - np, above), 2.0 * lo - np, below);
    nv = select(select(nv, -abs(nv), above), abs(nv), below);
    np = min(hi, max(lo, np));
  }
  if (!is3d()) {
    np.z = 0.0;
    nv.z = 0.0;
  }
  return Boid(vec4f(np, b.pos.w), vec4f(nv, b.vel.w));
}

// The candidate loop keeps only Me and the sums live; the boid's velocity is read after it.
@compute @workgroup_size(WG)
fn steerGrid(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  let me = meShared(lid, i);
  if (i >= P.count) {
    return;
  }
  let acc = gatherSearch(i, me);
  outNbr[i] = f32(acc.n);
  let b = sortedBoid(i);
  let steer = steering(safeVelocity(b.vel.xyz), acc);
  if (SPLIT) {
    outState[P.count + i] = vec4f(steer, 0.0);
    return;
  }
  let next = integrate(b, steer);
  outState[i] = next.pos;
  outState[P.count + i] = next.vel;
}

// SPLIT's second dispatch: the steering from outState's velocity slot, then the point forces and
// the integration of DESIGN section 1 (bind group of steerGrid; cellStart unused).
@compute @workgroup_size(WG)
fn integrateGrid(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  if (i >= P.count) {
    return;
  }
  let next = integrate(sortedBoid(i), outState[P.count + i].xyz);
  outState[i] = next.pos;
  outState[P.count + i] = next.vel;
}

@compute @workgroup_size(WG)
fn countGrid(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  let me = meShared(lid, i);
  if (i >= P.count) {
    return;
  }
  outCounts[u32(sorted[sortedVelAt(i)].w)] = gatherSearch(i, me).n;
}

// All pairs, tiled through workgroup memory: each workgroup loads WG records at a time and every
// lane tests them against its boid. Lanes past `count` still load and wait at the barriers
// (barriers need uniform control flow) but write nothing.
var<workgroup> tilePos: array<vec4f, MAX_WG>;
var<workgroup> tileVel: array<vec4f, MAX_WG>;

fn gatherBrute(i: u32, lid: u32, b: Me) -> Accum {
  var acc = Accum(vec3f(0.0), vec3f(0.0), vec3f(0.0), 0u, 0u);
  let n = P.count;
  for (var base = 0u; base < n; base += WG) {
    let j = base + lid;
    if (j < n) {
      let o = sortedBoid(j);
      tilePos[lid] = o.pos;
      tileVel[lid] = o.vel;
    }
    workgroupBarrier();
    let m = min(WG, n - base);
    for (var k = 0u; k < m; k++) {
      let q = tilePos[k];
      let d = offsetTo(b.pos.xyz, q.xyz);
      let d2 = dot(d, d);
      if (base + k != i && d2 > P.eps2 && d2 < P.r2) {
        addNeighbor(&acc, d, d2, tileVel[k].xyz, isMate(b, d, d2, q.w));
      }
    }
    workgroupBarrier();
  }
  return acc;
}

@compute @workgroup_size(WG)
fn steerBrute(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  let b = sortedBoid(min(i, P.count - 1u));
  let acc = gatherBrute(i, lid, meWith(b.pos, b.vel.xyz));
  if (i < P.count) {
    let next = integrate(b, steering(safeVelocity(b.vel.xyz), acc));
    outState[i] = next.pos;
    outState[P.count + i] = next.vel;
    outNbr[i] = f32(acc.n);
  }
}

@compute @workgroup_size(WG)
fn countBrute(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  let b = sortedBoid(min(i, P.count - 1u));
  let acc = gatherBrute(i, lid, meWith(b.pos, b.vel.xyz));
  if (i < P.count) {
    outCounts[u32(b.vel.w)] = acc.n;
  }
}
