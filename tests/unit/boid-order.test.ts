// src/core/boid-order.ts against hand-worked layouts: 3 boids (not a power of two), padded to 4
// elements the way the WebGL2 texture path pads its rows, then scattered back from a sorted order.
import { expect, test } from 'vitest';
import { boidIdAt, scatterByBoidId, tagBoidIds, valuesByBoidId } from '../../src/core/boid-order';
import type { FlockState } from '../../src/core/state';

/** Boid i at (10i+1, 10i+2, 10i+3), species w = i % 2; velocity (i+0.5, -i, 2i), |N_i| = 7 + i. */
function three(): FlockState {
  const s: FlockState = {
    count: 3,
    positions: new Float32Array(12),
    velocities: new Float32Array(12),
  };
  for (let i = 0; i < 3; i++) {
    s.positions.set([10 * i + 1, 10 * i + 2, 10 * i + 3, i % 2], 4 * i);
    s.velocities.set([i + 0.5, -i, 2 * i, 7 + i], 4 * i);
  }
  return s;
}

test('tagBoidIds: velocity.w becomes the id, |N_i| moves to nbr, the padding stays zero', () => {
  const { pos, vel, nbr } = tagBoidIds(three(), 16);
  expect([...pos]).toEqual([1, 2, 3, 0, 11, 12, 13, 1, 21, 22, 23, 0, 0, 0, 0, 0]);
  expect([...vel]).toEqual([0.5, -0, 0, 0, 1.5, -1, 2, 1, 2.5, -2, 4, 2, 0, 0, 0, 0]);
  expect([...nbr]).toEqual([7, 8, 9, 0]);
});

test('tagBoidIds: the default length is 4 * count and the state is not changed', () => {
  const s = three();
  const { pos, vel, nbr } = tagBoidIds(s);
  expect(pos.length).toBe(12);
  expect(vel.length).toBe(12);
  expect([...nbr]).toEqual([7, 8, 9]);
  expect(s.velocities[3]).toBe(7);
});

test('scatterByBoidId: elements in sorted order (ids 2, 0, 1) go back to id order with |N_i| in w', () => {
  // Element s holds boid order[s]: what a sort by cell leaves.
  const order = [2, 0, 1];
  const tagged = tagBoidIds(three());
  const pos = new Float32Array(12);
  const vel = new Float32Array(12);
  const nbr = new Float32Array(12); // stride 4, as an RGBA read of an R32F target
  order.forEach((id, s) => {
    pos.set(tagged.pos.subarray(4 * id, 4 * id + 4), 4 * s);
    vel.set(tagged.vel.subarray(4 * id, 4 * id + 4), 4 * s);
    nbr[4 * s] = 100 + id;
  });
  const back = scatterByBoidId(3, pos, vel, nbr, 4);
  expect(back.count).toBe(3);
  expect([...back.positions]).toEqual([1, 2, 3, 0, 11, 12, 13, 1, 21, 22, 23, 0]);
  expect([...back.velocities]).toEqual([0.5, -0, 0, 100, 1.5, -1, 2, 101, 2.5, -2, 4, 102]);
});

test('scatterByBoidId: no nbr gives |N_i| = 0', () => {
  const { pos, vel } = tagBoidIds(three());
  const back = scatterByBoidId(3, pos, vel);
  expect([back.velocities[3], back.velocities[7], back.velocities[11]]).toEqual([0, 0, 0]);
});

test('scatterByBoidId: a repeated or out-of-range id is an error, not a silent overwrite', () => {
  const { pos, vel } = tagBoidIds(three());
  vel[11] = 0; // element 2 claims id 0 too
  expect(() => scatterByBoidId(3, pos, vel)).toThrow(/boid id 0 appears twice/);
  vel[11] = 3;
  expect(() => scatterByBoidId(3, pos, vel)).toThrow(/element 2 carries boid id 3/);
  vel[11] = 1.5;
  expect(() => boidIdAt(vel, 2, 3)).toThrow(/boid id 1.5/);
});

test('valuesByBoidId: counts of elements (ids 1, 2, 0), stride 4, filed under their ids', () => {
  const vel = new Float32Array([0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0]);
  const raw = new Uint32Array([5, 9, 9, 9, 6, 9, 9, 9, 4, 9, 9, 9]);
  expect([...valuesByBoidId(raw, 4, vel, 3)]).toEqual([4, 5, 6]);
});
