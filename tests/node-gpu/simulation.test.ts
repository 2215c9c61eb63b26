// The headless WebGPU simulation in Node through Dawn (Vulkan where present, else OpenGL on Mesa
// in compatibility mode), against the CPU reference. Skipped with a printed reason when no adapter
// exists, except under CI=true, where that fails.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { behaviourCases } from '../support/behaviour-cases';
import { parityParams } from '../support/compare';
import { deviceOrSkip } from './dawn';
import type { DawnDevice } from '../../src/webgpu/node-dawn';
import {
  expectCellTables,
  expectDegenerateFinite,
  expectNeighborCounts,
  type SimVariant,
  expectParity,
  expectEveryShaderMessage,
  expectShaderErrorLocation,
  expectSortedKeys,
  latticeState,
  faceCullState,
  expectSameSearch,
  expectAutoSplitAcrossParams,
} from './simulation-cases';
import { useGpuErrorScopes } from '../support/gpu-error-scopes';

let dawn: DawnDevice | null = null;

beforeAll(async () => {
  dawn = await deviceOrSkip();
  if (dawn)
    console.log(`[node-gpu] adapter: ${dawn.adapterName} (${dawn.backend}, ${dawn.featureLevel})`);
});

afterAll(() => {
  dawn?.close();
});

useGpuErrorScopes(() => [dawn?.device]);

/** A test that needs the device: skipped at run time (with the reason printed once) without one. */
function gpuTest(name: string, body: (device: GPUDevice) => Promise<void>): void {
  test(name, async (ctx) => {
    if (!dawn) return ctx.skip();
    await body(dawn.device);
  });
}

describe('WebGPU simulation under Dawn', () => {
  for (const boundary of ['bounce', 'wrap'] as const) {
    for (const sort of ['counting', 'bitonic'] as const) {
      for (const steps of [1, 10]) {
        gpuTest(
          `${boundary}, ${sort} sort, ${steps} step(s) match the CPU reference`,
          async (device) => {
            const msg = await expectParity(device, parityParams({ boundary, sort }), steps);
            console.log(`[node-gpu] ${boundary}/${sort}: ${msg}`);
          },
        );
      }
    }
  }

  gpuTest(
    'field of view alone and with every term (3D soft, 2D wrap): 10 steps match the CPU reference',
    async (device) => {
      const cases = behaviourCases().filter(
        (c) =>
          c.params.fieldOfView < 360 &&
          (c.name.startsWith('field of view') || /3D soft|2D wrap/.test(c.name)),
      );
      expect(cases.length).toBe(4);
      for (const c of cases) {
        const msg = await expectParity(device, c.params, 10);
        console.log(`[node-gpu] ${c.name}: ${msg}`);
      }
      // The generic pipeline (every TERMS bit: the uniform decides) computes the same.
      await expectParity(device, cases[0]!.params, 10, { specialise: false });
      // The H200's search (one flat loop, unrolled by 4) with the cone.
      await expectParity(device, cases[2]!.params, 10, { flatSearch: true, unroll: 4 });
      // Cells cut along x with the loop unrolled: the cone's values in workgroup memory
      // (steer.wgsl coneShared()), specialised and generic; the counts pass (countGrid) too.
      for (const variant of [
        { cellSplitX: 2, unroll: 4 },
        { cellSplitX: 4, unroll: 2, specialise: false },
      ] as SimVariant[]) {
        await expectParity(device, cases[0]!.params, 10, variant);
        await expectParity(device, cases[2]!.params, 10, variant);
        await expectNeighborCounts(device, cases[0]!.params, variant);
      }
    },
  );

  gpuTest('brute force, 1 and 10 steps match the CPU reference', async (device) => {
    await expectParity(device, parityParams({ neighborSearch: 'brute', count: 3000 }), 1);
    await expectParity(
      device,
      parityParams({ neighborSearch: 'brute', boundary: 'wrap', count: 3000 }),
      10,
    );
  });

  gpuTest('2D, wrap and bounce, match the CPU reference', async (device) => {
    await expectParity(device, parityParams({ dimensions: 2, count: 3001 }), 10);
    await expectParity(
      device,
      parityParams({ dimensions: 2, count: 3001, boundary: 'wrap', sort: 'bitonic' }),
      1,
    );
  });

  for (const boundary of ['bounce', 'wrap'] as const) {
    gpuTest(`grid neighbour counts equal brute force and the CPU (${boundary})`, async (device) => {
      const mean = await expectNeighborCounts(device, parityParams({ boundary }));
      expect(mean).toBeGreaterThan(10);
    });
  }

  gpuTest(
    'the search that skips far rows and cells (CULL) finds what the whole 3^d block finds',
    async (device) => {
      // CULL drops a row or a cell when the boid's distance to its nearest face is >= r: boids at
      // offsets near the faces, edges and corners of cells of side r put many candidates within
      // rounding of r there. With and without CULL the GPU finds the same neighbours, boid by
      // boid, and 3 steps give the same state (the kept candidates summed in the same order);
      // against the CPU's float64 brute force a pair within rounding of r may fall either way.
      const state = faceCullState();
      for (const boundary of ['bounce', 'wrap'] as const) {
        const params = parityParams({
          count: state.count,
          boundsMin: [-8, -8, -8],
          boundsMax: [8, 8, 8],
          perceptionRadius: 2,
          boundary,
        });
        // Also with the cells cut along x (SPHERE_X: the rows' x reach from the sphere, with
        // CULL's face distances or, without CULL, r): cells of side 1, so the offsets near 1 sit
        // on their faces too.
        const variants: SimVariant[] = [
          { unroll: 1 },
          { unroll: 4 },
          { unroll: 4, cellSplitX: 2 },
          { unroll: 1, cellSplitX: 3 },
        ];
        for (const variant of variants) {
          const r = await expectSameSearch(device, params, state, variant, 3);
          expect(r.meanNeighbors).toBeGreaterThan(10);
          expect(r.cpuMismatches).toBeLessThanOrEqual(Math.ceil(0.01 * state.count));
          console.log(
            `[node-gpu] CULL ${boundary} ${JSON.stringify(variant)}: ${JSON.stringify(r)}`,
          );
        }
      }
    },
  );

  gpuTest(
    'grid on an exact lattice: pairs at exactly r, boids on cell boundaries and max faces',
    async (device) => {
      const state = latticeState();
      for (const boundary of ['bounce', 'soft'] as const) {
        const params = parityParams({
          count: state.count,
          boundsMin: [-8, -8, -8],
          boundsMax: [8, 8, 8],
          perceptionRadius: 2,
          boundary,
        });
        const mean = await expectNeighborCounts(device, params, {}, state);
        expect(mean).toBeGreaterThan(25);
      }
    },
  );

  gpuTest(
    'other workgroup sizes (64, and 96: not a power of two) give the same counts and steps',
    async (device) => {
      for (const workgroupSize of [64, 96]) {
        await expectNeighborCounts(device, parityParams({ boundary: 'wrap' }), { workgroupSize });
        await expectParity(device, parityParams({ sort: 'bitonic' }), 10, { workgroupSize });
        await expectParity(device, parityParams({ neighborSearch: 'brute', count: 1500 }), 1, {
          workgroupSize,
        });
      }
    },
  );

  // Warp-coherent search (tiles of 8 and 32, any span, off), generic pipelines, sorted as blocks,
  // the candidate loop unrolled by 4: one test per variant, so a slow software adapter times each
  // alone and a failure names its variant.
  // Dense (about 40 neighbours): tiles of sorted boids mostly lie in one row of cells.
  const dense = () => parityParams({ count: 3001, boundsMin: [-6, -6, -6], boundsMax: [6, 6, 6] });
  const searchVariants: [string, SimVariant][] = [
    ['the defaults', {}],
    ['tiles of 8, span 2', { searchTile: { tile: 8, span: 2 } }],
    ['tiles of 32, any span', { searchTile: { tile: 32, span: 1000 } }],
    ['generic pipelines', { specialise: false }],
    ['sorted as blocks', { sortedLayout: 'blocks' }],
    [
      'blocks, generic, tiles off',
      { sortedLayout: 'blocks', specialise: false, searchTile: { tile: 0, span: 0 } },
    ],
    ['unrolled by 4', { unroll: 4 }],
    ['unrolled by 4, generic, blocks', { unroll: 4, specialise: false, sortedLayout: 'blocks' }],
    ['unrolled by 2', { unroll: 2 }],
    ['every cell of the 3^d block (CULL off), unrolled by 4', { faceCull: false, unroll: 4 }],
    ['one flat loop over the rows, unrolled by 4', { flatSearch: true, unroll: 4 }],
    ['cells cut in 2 along x, unrolled by 4', { cellSplitX: 2, unroll: 4 }],
    ['cells cut in 4 along x, plain, generic', { cellSplitX: 4, specialise: false }],
    // 'auto' cuts the dense case's 216 cells in 4 (13.9 boids a cell), the 2D case's 100 in 4.
    [
      'cells cut along x as the count asks (auto), unrolled by 4',
      { cellSplitX: 'auto', unroll: 4 },
    ],
    ['one flat loop, plain, generic', { flatSearch: true, specialise: false }],
    [
      'one flat loop, unrolled by 2, blocks',
      { flatSearch: true, unroll: 2, sortedLayout: 'blocks' },
    ],
    ['integrate split off', { splitIntegrate: true, unroll: 4 }],
    [
      'integrate split off, generic, flat',
      { splitIntegrate: true, specialise: false, flatSearch: true },
    ],
  ];
  for (const [name, variant] of searchVariants) {
    gpuTest(`search variant (${name}): same neighbour counts and steps`, async (device) => {
      const mean = await expectNeighborCounts(device, dense(), variant);
      expect(mean).toBeGreaterThan(20);
      await expectNeighborCounts(device, parityParams({ dimensions: 2, count: 2000 }), variant);
      await expectParity(device, dense(), 10, variant);
      await expectParity(device, parityParams({ boundary: 'soft', species: 3 }), 10, variant);
    });
  }

  gpuTest('cells cut along x under wrap: rows as one or two ranges, 3D and 2D', async (device) => {
    // A box of 3 cells of r per axis (the least wrap allows) cut in 2 and 3: the sphere's reach
    // crosses the box's faces from most cells, so rows split into two ranges at x = 0.
    for (const cellSplitX of [2, 3]) {
      const tight = { boundary: 'wrap' as const, perceptionRadius: 2, count: 1001 };
      await expectNeighborCounts(
        device,
        parityParams({ ...tight, boundsMin: [-3, -3, -3], boundsMax: [3, 3, 3] }),
        { cellSplitX, unroll: 4 },
      );
      await expectNeighborCounts(
        device,
        parityParams({ ...tight, dimensions: 2, boundsMin: [-3, -3, -3], boundsMax: [3, 3, 3] }),
        { cellSplitX },
      );
      await expectNeighborCounts(device, parityParams({ boundary: 'wrap', count: 2999 }), {
        cellSplitX,
      });
      await expectParity(device, parityParams({ boundary: 'wrap', species: 2 }), 10, {
        cellSplitX,
      });
    }
  });

  gpuTest("cellSplitX 'auto' follows setParams: cut, not cut, cut again", async (device) => {
    // 3,001 boids in 6^3 = 216 cells: 13.9 a cell, cut in 4; in 20^3 = 8,000 cells: not cut.
    expect(await expectAutoSplitAcrossParams(device)).toEqual([4, 1, 4]);
  });

  gpuTest(
    'brute force, bitonic and wrap read the blocks layout and the unrolled loop',
    async (device) => {
      // Brute force and the bitonic path read and write `sorted` too.
      const blocks = { sortedLayout: 'blocks' as const };
      await expectParity(device, parityParams({ neighborSearch: 'brute', count: 1500 }), 1, blocks);
      await expectParity(device, parityParams({ sort: 'bitonic', boundary: 'wrap' }), 10, blocks);
      // Wrap splits a row into two ranges at the box's faces; each range has its own remainder.
      const unrolled = { unroll: 4 as const };
      await expectNeighborCounts(device, parityParams({ boundary: 'wrap', count: 2999 }), unrolled);
      await expectParity(device, parityParams({ boundary: 'wrap', count: 2999 }), 10, unrolled);
    },
  );

  gpuTest('grid neighbour counts in 2D', async (device) => {
    await expectNeighborCounts(
      device,
      parityParams({ dimensions: 2, count: 2000, boundary: 'wrap' }),
    );
  });

  gpuTest('counting and bitonic sorts give the CPU cell table', async (device) => {
    await expectCellTables(device, parityParams());
    // A grid whose cell count is not a multiple of any workgroup size, and a multi-level scan.
    await expectCellTables(
      device,
      parityParams({ count: 20000, boundsMin: [-31, -17, -23], boundsMax: [30, 18, 22] }),
    );
  });

  for (const count of [1, 2, 3, 1000, 4096, 5000]) {
    gpuTest(`sorted keys are sorted and ids a permutation, count ${count}`, async (device) => {
      await expectSortedKeys(device, parityParams({ count }), 'counting');
      await expectSortedKeys(device, parityParams({ count }), 'bitonic');
    });
  }

  gpuTest('degenerate states stay finite', async (device) => {
    await expectDegenerateFinite(device);
  });

  gpuTest('a broken WGSL line is reported with its file and line', async (device) => {
    await expectShaderErrorLocation(device);
  });

  gpuTest(
    'a WGSL warning and an error in two files: the ShaderError carries both',
    async (device) => {
      await expectEveryShaderMessage(device);
    },
  );
});
