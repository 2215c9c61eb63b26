// The grid build of both WebGL2 paths (the feedback path runs the texture path's integer passes,
// fed from the RGBA32F copies of its state buffers; EXT_color_buffer_float hidden there): sorted
// (cellKey, id) pairs are sorted, a permutation and keyed exactly as src/core/grid.ts; the grid
// search finds the same neighbours as brute force and the CPU.
import { describe, expect, test } from 'vitest';
import { blockedSortPassCount } from '../../src/core/bitonic';
import { cellKeyOf, gridFor } from '../../src/core/grid';
import type { FlockParams } from '../../src/core/params';
import { buildCellLists, neighborCounts } from '../../src/core/reference';
import { initialState, type FlockState } from '../../src/core/state';
import { addCanvas } from '../support/browser';
import { parityParams } from '../support/compare';
import { WEBGL2_PATHS, pathSlot } from '../support/webgl2-paths';

function expectSortedPermutation(
  sorted: { keys: Uint32Array; ids: Uint32Array },
  state: FlockState,
  params: FlockParams,
): void {
  const n = state.count;
  const grid = gridFor(params);
  expect(sorted.keys.length).toBe(n);
  expect(sorted.ids.length).toBe(n);
  const seen = new Uint8Array(n);
  let badOrder = 0;
  let badKey = 0;
  for (let s = 0; s < n; s++) {
    const id = sorted.ids[s]!;
    expect(id).toBeLessThan(n);
    expect(seen[id]).toBe(0);
    seen[id] = 1;
    if (s > 0 && sorted.keys[s]! < sorted.keys[s - 1]!) badOrder++;
    if (
      sorted.keys[s] !== cellKeyOf(state.positions, id, grid, params.boundsMin, params.dimensions)
    )
      badKey++;
  }
  expect(badOrder).toBe(0);
  expect(badKey).toBe(0);
}

describe.each(WEBGL2_PATHS)('$kind grid', (path) => {
  const slot = pathSlot(path);

  async function make(params: FlockParams, state = initialState(params)) {
    return slot.create({ canvas: addCanvas(), params, state });
  }

  describe('sorted keys', () => {
    for (const count of [1, 2, 3, 1000, 4096, 5000]) {
      test(`count ${count}: sorted, a permutation, CPU cell keys, CPU order`, async () => {
        const params = parityParams({ count, seed: 777 + count });
        const state = initialState(params);
        const b = await make(params, state);
        const sorted = await b.debugSortedKeys!();
        expectSortedPermutation(sorted, state, params);
        // Right after setState the payload order is the id order, so the GPU's (key, index) order
        // is exactly the CPU's stable order by (key, id).
        expect([...sorted.ids]).toEqual([...buildCellLists(state, params).sortedIds]);
        if (count > 1) {
          expect(new Set(sorted.keys).size).toBeGreaterThan(1);
        }
        // After steps the state is kept in sorted order: still sorted and keyed like the CPU.
        b.step(3);
        const after = await b.readState();
        expectSortedPermutation(await b.debugSortedKeys!(), after, params);
      });
    }

    test('blocks of 8 pairs (contexts with 4 draw buffers): sorted like the CPU, fewer passes', async () => {
      for (const count of [17, 3001]) {
        const params = parityParams({ count, seed: 31 + count });
        const state = initialState(params);
        const backend = await slot.create({ canvas: addCanvas(), params, state, sortBlockLog2: 3 });
        expect(backend.sortPasses).toBe(blockedSortPassCount(count, 3));
        const sorted = await backend.debugSortedKeys!();
        expectSortedPermutation(sorted, state, params);
        expect([...sorted.ids]).toEqual([...buildCellLists(state, params).sortedIds]);
      }
      // 3001 boids: M = 4096, 1 + ceil((12 * 13 - 3 * 4) / 6) = 25 passes instead of 78.
      expect(slot.current!.sortPasses).toBe(25);
    });

    test('2D wrap keys (z cell 0)', async () => {
      const params = parityParams({
        count: 2500,
        dimensions: 2,
        boundary: 'wrap',
        perceptionRadius: 0.9,
      });
      const state = initialState(params);
      const b = await make(params, state);
      const sorted = await b.debugSortedKeys!();
      expectSortedPermutation(sorted, state, params);
      expect(Math.max(...sorted.keys)).toBeLessThan(
        gridFor(params).dims[0] * gridFor(params).dims[1],
      );
    });
  });

  describe('neighbour counts', () => {
    const cases: [string, Partial<FlockParams>][] = [
      ['3D bounce', {}],
      ['3D wrap', { boundary: 'wrap' }],
      ['2D wrap', { dimensions: 2, boundary: 'wrap', count: 3001, perceptionRadius: 0.9 }],
      ['2D bounce', { dimensions: 2, count: 3001, perceptionRadius: 0.9 }],
    ];
    for (const [name, overrides] of cases) {
      test(`${name}: grid == brute == CPU, before and after steps`, async () => {
        const params = parityParams(overrides);
        const b = await make(params);
        for (const steps of [0, 5]) {
          b.step(steps);
          const state = await b.readState();
          b.setParams({ ...params, neighborSearch: 'grid' });
          const grid = await b.debugNeighborCounts!();
          b.setParams({ ...params, neighborSearch: 'brute' });
          const brute = await b.debugNeighborCounts!();
          b.setParams(params);
          const cpu = neighborCounts(state, params, 'brute');
          expect(grid.length).toBe(params.count);
          expect([...grid]).toEqual([...brute]);
          expect([...grid]).toEqual([...cpu]);
          // A real scene: most boids have neighbours, about 20 on average (the parity scene).
          const mean = cpu.reduce((a, c) => a + c, 0) / cpu.length;
          expect(mean).toBeGreaterThan(5);
        }
      });
    }
  });
});
