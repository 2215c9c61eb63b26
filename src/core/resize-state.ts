/**
 * A count change that keeps the flock on screen (issue 27: a probe that measures while the flock
 * shows, a remembered capacity corrected later): the boids kept keep their state, and each added
 * boid joins the flock next to a boid already flying (the same heading and speed, a short offset)
 * rather than appearing in a grid or at the origin. When the box changes with the count (the
 * page's auto box), positions are first scaled with the box about its centre, so the flock keeps
 * its place on the canvas.
 * Owns nothing (a pure function of its inputs; mulberry32 for the choices, src/core/state.ts).
 */
import type { FlockParams } from './params';
import { mulberry32, randomDirection, type FlockState } from './state';

/** Salt of the PRNG that places added boids (mixed with the seed and the new count). */
const JOIN_SALT = 0x9e3779b9;

/**
 * The state of `next.count` boids from `state` (in boid-id order), for the box of `next`:
 * - positions scaled from `prev`'s box to `next`'s about the boxes' centres (per active axis);
 * - boids 0..min(count)-1 kept (a shrink drops the highest ids);
 * - boid j >= state.count: boid k (k uniform among the old ones, from mulberry32(seed ^ count ^
 *   JOIN_SALT)) plus an offset of length in [rs'/2, 0.8 r] in a random direction (in the plane
 *   in 2D), inside next's box (clamped, or wrapped under `wrap`), with k's velocity;
 * species j mod next.species (positions.w); velocities.w 0 for added boids.
 * @param state the flock's state now (count >= 1)
 * @param prev the params the state was flown under (its box)
 * @param next the params of the new count (count >= 1, its box)
 */
export function resizeState(
  state: FlockState,
  prev: Pick<FlockParams, 'boundsMin' | 'boundsMax'>,
  next: FlockParams,
): FlockState {
  const n = next.count;
  const old = state.count;
  const axes = next.dimensions === 2 ? 2 : 3;
  const lo = next.boundsMin;
  const hi = next.boundsMax;
  const scale = [0, 1, 2].map((a) =>
    a < axes ? (hi[a]! - lo[a]!) / (prev.boundsMax[a]! - prev.boundsMin[a]!) : 1,
  );
  const c0 = [0, 1, 2].map((a) => (prev.boundsMin[a]! + prev.boundsMax[a]!) / 2);
  const c1 = [0, 1, 2].map((a) => (lo[a]! + hi[a]!) / 2);
  const positions = new Float32Array(4 * n);
  const velocities = new Float32Array(4 * n);
  const inside = (x: number, a: number): number => {
    if (next.boundary === 'wrap') {
      const size = hi[a]! - lo[a]!;
      let w = lo[a]! + ((((x - lo[a]!) % size) + size) % size);
      if (w >= hi[a]!) w = lo[a]!;
      return w;
    }
    const eps = 1e-4 * (hi[a]! - lo[a]!);
    return Math.min(hi[a]! - eps, Math.max(lo[a]! + eps, x));
  };
  const keep = Math.min(n, old);
  for (let i = 0; i < keep; i++) {
    for (let a = 0; a < 3; a++) {
      const x = state.positions[4 * i + a]!;
      positions[4 * i + a] = a < axes ? inside(c1[a]! + (x - c0[a]!) * scale[a]!, a) : 0;
      velocities[4 * i + a] = state.velocities[4 * i + a]!;
    }
    positions[4 * i + 3] = i % next.species;
    velocities[4 * i + 3] = state.velocities[4 * i + 3]!;
  }
  const rand = mulberry32((next.seed ^ n ^ JOIN_SALT) >>> 0);
  const r = next.perceptionRadius;
  const near = Math.min(next.separationRadius, r) / 2;
  const far = Math.max(near, 0.8 * r);
  for (let j = keep; j < n; j++) {
    const k = Math.min(old - 1, Math.floor(rand() * old));
    const [dx, dy, dz] = randomDirection(rand, axes);
    const len = near + rand() * (far - near);
    const d = [dx, dy, dz];
    for (let a = 0; a < 3; a++) {
      if (a >= axes) continue;
      const x = positions[4 * k + a]! + d[a]! * len;
      positions[4 * j + a] = inside(x, a);
      velocities[4 * j + a] = velocities[4 * k + a]!;
    }
    positions[4 * j + 3] = j % next.species;
    velocities[4 * j + 3] = 0;
  }
  return { count: n, positions, velocities };
}
