// The headless WebGPU simulation in headless Chromium (SwiftShader adapter), against the CPU
// reference: parity after 1 and 10 steps, neighbour counts, cell tables, sorted keys, degenerate
// states, shader error locations. The same checks run in Node under Dawn (tests/node-gpu).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestFlockDevice } from '../../src/webgpu/device';
import { parityParams } from '../support/compare';
import {
  expectCellTables,
  expectDegenerateFinite,
  expectNeighborCounts,
  expectParity,
  expectEveryShaderMessage,
  expectShaderErrorLocation,
  expectSortedKeys,
} from '../node-gpu/simulation-cases';
import { useGpuErrorScopes } from '../support/gpu-error-scopes';

let device: GPUDevice;

beforeAll(async () => {
  const adapter = await navigator.gpu.requestAdapter();
  expect(adapter, 'the test browser must offer a WebGPU adapter').toBeTruthy();
  device = await requestFlockDevice(adapter!);
});

afterAll(() => device?.destroy());

useGpuErrorScopes(() => [device]);

describe('WebGPU simulation in Chromium', () => {
  for (const boundary of ['bounce', 'wrap'] as const) {
    for (const steps of [1, 10]) {
      test(`${boundary}, counting sort, ${steps} step(s) match the CPU reference`, async () => {
        await expectParity(device, parityParams({ boundary }), steps);
      });
    }
    test(`${boundary}, bitonic sort, 10 steps match the CPU reference`, async () => {
      await expectParity(device, parityParams({ boundary, sort: 'bitonic' }), 10);
    });
  }

  test('brute force matches the CPU reference', async () => {
    await expectParity(device, parityParams({ neighborSearch: 'brute', count: 2000 }), 10);
  });

  test('2D matches the CPU reference (z stays 0)', async () => {
    await expectParity(device, parityParams({ dimensions: 2, count: 3001 }), 10);
    await expectParity(device, parityParams({ dimensions: 2, count: 3001, boundary: 'wrap' }), 1);
  });

  test('grid neighbour counts equal brute force and the CPU', async () => {
    expect(await expectNeighborCounts(device, parityParams())).toBeGreaterThan(10);
    await expectNeighborCounts(device, parityParams({ boundary: 'wrap', count: 3000 }));
  });

  test('counting and bitonic sorts give the same cell table as the CPU', async () => {
    await expectCellTables(device, parityParams());
    await expectCellTables(
      device,
      parityParams({ count: 20000, boundsMin: [-31, -17, -23], boundsMax: [30, 18, 22] }),
    );
  });

  test('sorted keys are sorted and ids a permutation (1, 2, 3, 1000, 4096, 5000)', async () => {
    for (const count of [1, 2, 3, 1000, 4096, 5000]) {
      await expectSortedKeys(device, parityParams({ count }), 'counting');
      await expectSortedKeys(device, parityParams({ count }), 'bitonic');
    }
  });

  test('degenerate states stay finite', async () => {
    await expectDegenerateFinite(device);
  });

  test('a broken WGSL line is reported with its file and line', async () => {
    await expectShaderErrorLocation(device);
  });

  test('a WGSL warning and an error in two files: the ShaderError carries both, each at its file:line', async () => {
    await expectEveryShaderMessage(device);
  });
});
