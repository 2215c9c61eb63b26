// The flocking measures of src/core/order.ts against hand-worked cases.
import { expect, test } from 'vitest';
import { validateParams } from '../../src/core/params';
import { localOrder, occupiedCells } from '../../src/core/order';
import type { FlockState } from '../../src/core/state';
import { gridFor } from '../../src/core/grid';

function state(p: number[][], v: number[][]): FlockState {
  const s: FlockState = {
    count: p.length,
    positions: new Float32Array(4 * p.length),
    velocities: new Float32Array(4 * p.length),
  };
  p.forEach((x, i) => s.positions.set(x, 4 * i));
  v.forEach((x, i) => s.velocities.set(x, 4 * i));
  return s;
}

test('local order: aligned pair 1, opposed pair 0, perpendicular pair 1/sqrt(2); loners skipped', () => {
  const params = validateParams({ count: 7 });
  const s = state(
    [
      [0, 0, 0],
      [1, 0, 0], // aligned with 0
      [10, 0, 0],
      [11, 0, 0], // opposed to 2
      [20, 0, 0],
      [20, 1, 0], // perpendicular to 4
      [-20, -20, -20], // alone
    ],
    [
      [3, 0, 0],
      [5, 0, 0],
      [0, 2, 0],
      [0, -4, 0],
      [1, 0, 0],
      [0, 0, 2],
      [1, 1, 1],
    ],
  );
  const o = localOrder(s, params);
  expect(o.withNeighbors).toBeCloseTo(6 / 7, 12);
  expect(o.meanNeighbors).toBeCloseTo(6 / 7, 12);
  expect(o.order).toBeCloseTo((1 + 1 + 0 + 0 + Math.SQRT1_2 + Math.SQRT1_2) / 6, 12);
});

test('occupied cells: the fraction of the grid holding a boid', () => {
  // boids 0 and 1 share a cell, boid 2 is in the far corner: 2 cells of gridFor's
  const params = validateParams({ count: 3 });
  const s = state(
    [
      [0, 0, 0],
      [0.5, 0.5, 0.5], // same cell as boid 0
      [-31, -31, -31],
    ],
    [
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
    ],
  );
  expect(occupiedCells(s, params)).toBeCloseTo(2 / gridFor(params).cellCount, 12);
  expect(gridFor(params).cellCount).toBeGreaterThan(1000);
});
