/**
 * The boid id that travels with each boid through the GPU sorts (every GPU backend, DESIGN.md
 * section 3). A GPU step keeps the boids in the order of the last sort; velocity.w carries each
 * boid's id as a float (exact below 2^24, and counts are at most 2^24), so reorder and steer move
 * it with the boid. |N_i| (FlockState's velocities.w) travels beside, one float per element.
 * `tagBoidIds` builds that layout from a state in boid-id order; `scatterByBoidId` reads it back
 * into boid-id order. Pure functions: no GPU, tested in Node (tests/unit/boid-order.test.ts).
 */
import type { FlockState } from './state';

/**
 * `state` (boid-id order) as the GPU paths store it: Float32Array(length) positions and
 * velocities (length >= 4 * count, zero beyond) with velocity.w = the boid id, and
 * Float32Array(length / 4) |N_i| (the state's velocities.w).
 */
export function tagBoidIds(
  state: FlockState,
  length = 4 * state.count,
): { pos: Float32Array; vel: Float32Array; nbr: Float32Array } {
  const pos = new Float32Array(length);
  const vel = new Float32Array(length);
  const nbr = new Float32Array(length / 4);
  pos.set(state.positions.subarray(0, 4 * state.count));
  vel.set(state.velocities.subarray(0, 4 * state.count));
  for (let i = 0; i < state.count; i++) {
    nbr[i] = vel[4 * i + 3]!;
    vel[4 * i + 3] = i;
  }
  return { pos, vel, nbr };
}

/**
 * The boid id in velocity.w of element s of `vel` (4 floats per element).
 * @throws Error when it is not an integer in [0, count) (a broken sort or reorder shows here).
 */
export function boidIdAt(vel: Float32Array, s: number, count: number): number {
  const id = vel[4 * s + 3]!;
  if (!(Number.isInteger(id) && id >= 0 && id < count)) {
    throw new Error(`internal: element ${s} carries boid id ${id} (count ${count})`);
  }
  return id;
}

/**
 * Elements in any order -> FlockState in boid-id order. Element s is pos[4s..4s+4) (xyzw, kept
 * whole), vel[4s..4s+3) (xyz) with its id in vel[4s+3], and |N_i| in nbr[nbrStride * s] (0 when
 * `nbr` is absent), which becomes velocities.w.
 * @throws Error when the ids of the first `count` elements are not a permutation of 0..count-1.
 */
export function scatterByBoidId(
  count: number,
  pos: Float32Array,
  vel: Float32Array,
  nbr?: Float32Array,
  nbrStride = 1,
): FlockState {
  const positions = new Float32Array(4 * count);
  const velocities = new Float32Array(4 * count);
  const seen = new Uint8Array(count);
  for (let s = 0; s < count; s++) {
    const id = boidIdAt(vel, s, count);
    if (seen[id]) throw new Error(`internal: boid id ${id} appears twice`);
    seen[id] = 1;
    positions.set(pos.subarray(4 * s, 4 * s + 4), 4 * id);
    velocities.set(vel.subarray(4 * s, 4 * s + 3), 4 * id);
    velocities[4 * id + 3] = nbr ? nbr[nbrStride * s]! : 0;
  }
  return { count, positions, velocities };
}

/**
 * Per-element values filed under their boid ids: out[id of element s] = values[stride * s], for
 * the first `count` elements (`vel` as in boidIdAt). Uint32Array(count).
 */
export function valuesByBoidId(
  values: Uint32Array,
  stride: number,
  vel: Float32Array,
  count: number,
): Uint32Array {
  const out = new Uint32Array(count);
  for (let s = 0; s < count; s++) out[boidIdAt(vel, s, count)] = values[stride * s]!;
  return out;
}
