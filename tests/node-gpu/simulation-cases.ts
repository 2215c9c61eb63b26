/**
 * Checks of the headless WebGPU simulation against the CPU oracle, written once for any GPUDevice:
 * run in Node under Dawn (tests/node-gpu) and in headless Chromium (tests/browser/webgpu-*).
 * No Node or DOM imports here.
 */
import { expect } from 'vitest';
import { cellKeyOf, gridFor } from '../../src/core/grid';
import type { FlockParams } from '../../src/core/params';
import { buildCellLists, neighborCounts, referenceSteps } from '../../src/core/reference';
import { initialState, type FlockState } from '../../src/core/state';
import { ShaderError } from '../../src/core/shader-source';
import { WGSL_FILES, createCheckedModule } from '../../src/webgpu/shaders';
import {
  createFlockSimulation,
  type FlockSimulation,
  type FlockSimulationOptions,
} from '../../src/webgpu/simulation';
import { allFinite, checkCounts, checkTolerance, parityParams } from '../support/compare';

/** Simulation options the checks pass through (workgroup size, specialisation, search tile, unrolling). */
export type SimVariant = Pick<
  FlockSimulationOptions,
  | 'workgroupSize'
  | 'specialise'
  | 'searchTile'
  | 'sortedLayout'
  | 'unroll'
  | 'splitIntegrate'
  | 'flatSearch'
  | 'faceCull'
  | 'cellSplitX'
>;

async function withSim<T>(
  device: GPUDevice,
  params: FlockParams,
  state: FlockState | undefined,
  body: (sim: FlockSimulation) => Promise<T>,
  variant: SimVariant = {},
): Promise<T> {
  const sim = await createFlockSimulation({ device, params, initialState: state, ...variant });
  // The specialised steer pipeline, where asked for, runs every step of a check.
  await sim.ready();
  try {
    return await body(sim);
  } finally {
    sim.dispose();
  }
}

/** Largest |a - b| over xyz of all boids (how far a state moved). */
function maxMove(a: FlockState, b: FlockState): number {
  let m = 0;
  for (let i = 0; i < a.count; i++)
    for (let c = 0; c < 3; c++)
      m = Math.max(m, Math.abs(a.positions[4 * i + c]! - b.positions[4 * i + c]!));
  return m;
}

/** steps GPU steps from initialState(params) vs referenceSteps: the DESIGN tolerance rule. */
export async function expectParity(
  device: GPUDevice,
  params: FlockParams,
  steps: number,
  variant: SimVariant = {},
): Promise<string> {
  const s0 = initialState(params);
  const want = referenceSteps(s0, params, steps);
  return withSim(
    device,
    params,
    s0,
    async (sim) => {
      sim.step(steps);
      const got = await sim.readState();
      const report = checkTolerance(got, want, params, steps);
      expect(report.ok, report.message).toBe(true);
      expect(allFinite(got)).toBe(true);
      // The step did something: boids moved by about speed * dt per step.
      expect(maxMove(got, s0)).toBeGreaterThan(0.5 * params.minSpeed * params.timeStep * steps);
      // Species (pos.w) survives and velocities.w is |N_i|.
      const counts = checkCounts(got, want, steps);
      expect(counts.ok, counts.message).toBe(true);
      if (params.dimensions === 2) {
        for (let i = 0; i < got.count; i++) {
          if (got.positions[4 * i + 2] !== 0 || got.velocities[4 * i + 2] !== 0) {
            throw new Error(`boid ${i}: z is not 0 in 2D`);
          }
        }
      }
      return report.message;
    },
    variant,
  );
}

/**
 * Grid and brute neighbour counts on the GPU equal the CPU brute-force counts, boid by boid, for
 * `state` (default initialState(params)).
 */
export async function expectNeighborCounts(
  device: GPUDevice,
  params: FlockParams,
  variant: SimVariant = {},
  state?: FlockState,
): Promise<number> {
  const s0 = state ?? initialState(params);
  const want = neighborCounts(s0, params, 'brute');
  return withSim(
    device,
    { ...params, neighborSearch: 'grid' },
    s0,
    async (sim) => {
      const grid = await sim.debugNeighborCounts();
      sim.setParams({ ...params, neighborSearch: 'brute' });
      const brute = await sim.debugNeighborCounts();
      let mismatches = 0;
      let total = 0;
      for (let i = 0; i < s0.count; i++) {
        if (grid[i] !== want[i] || brute[i] !== want[i]) mismatches++;
        total += want[i]!;
      }
      expect(mismatches, 'boids whose GPU neighbour count differs from the CPU').toBe(0);
      const mean = total / s0.count;
      expect(mean).toBeGreaterThan(1); // a scene where neighbours exist at all
      return mean;
    },
    variant,
  );
}

/**
 * The grid search with steer.wgsl's CULL (the default) and without it, from `state`: the same
 * neighbour count for every boid and, after `steps` steps, the same state within 1e-5. Returns the
 * mean count and how many boids' counts differ from the CPU's brute force (float64 distances).
 */
export async function expectSameSearch(
  device: GPUDevice,
  params: FlockParams,
  state: FlockState,
  variant: SimVariant,
  steps: number,
): Promise<{ meanNeighbors: number; cpuMismatches: number }> {
  const run = (faceCull: boolean) =>
    withSim(
      device,
      { ...params, neighborSearch: 'grid' },
      state,
      async (sim) => {
        const counts = await sim.debugNeighborCounts();
        sim.step(steps);
        return { counts, after: await sim.readState() };
      },
      { ...variant, faceCull },
    );
  const culled = await run(true);
  const whole = await run(false);
  const want = neighborCounts(state, params, 'brute');
  let differ = 0;
  let cpuMismatches = 0;
  let total = 0;
  for (let i = 0; i < state.count; i++) {
    if (culled.counts[i] !== whole.counts[i]) differ++;
    if (culled.counts[i] !== want[i]) cpuMismatches++;
    total += culled.counts[i]!;
  }
  expect(differ, 'boids whose count differs with and without CULL').toBe(0);
  // The kept candidates are summed in the same order; the two pipelines are compiled apart, so
  // the driver may contract a multiply-add differently (seen on llvmpipe: 1 value of 9,000 off by
  // 4.7e-10 after one step), hence a bound instead of bit equality.
  let maxDiff = 0;
  for (const k of ['positions', 'velocities'] as const)
    for (let i = 0; i < culled.after[k].length; i++)
      maxDiff = Math.max(maxDiff, Math.abs(culled.after[k][i]! - whole.after[k][i]!));
  expect(maxDiff, 'largest difference of the states with and without CULL').toBeLessThan(1e-5);
  return { meanNeighbors: total / state.count, cpuMismatches };
}

/** Counting and bitonic sorts give the same cell table, equal to the CPU buildCellLists. */
export async function expectCellTables(device: GPUDevice, params: FlockParams): Promise<void> {
  const s0 = initialState(params);
  const cpu = buildCellLists(s0, params);
  await withSim(device, { ...params, sort: 'counting' }, s0, async (sim) => {
    const counting = await sim.debugCellTable();
    sim.setParams({ ...params, sort: 'bitonic' });
    const bitonic = await sim.debugCellTable();
    expect(counting.start.length).toBe(cpu.grid.cellCount);
    expect(Array.from(counting.start)).toEqual(Array.from(cpu.cellStart));
    expect(Array.from(counting.end)).toEqual(Array.from(cpu.cellEnd));
    expect(Array.from(bitonic.start)).toEqual(Array.from(cpu.cellStart));
    expect(Array.from(bitonic.end)).toEqual(Array.from(cpu.cellEnd));
    // Non-trivial: many cells are occupied.
    let occupied = 0;
    for (let c = 0; c < cpu.grid.cellCount; c++)
      if (cpu.cellEnd[c]! > cpu.cellStart[c]!) occupied++;
    expect(occupied).toBeGreaterThan(Math.min(s0.count, cpu.grid.cellCount) / 4);
  });
}

/** After the sort, keys are non-decreasing, ids a permutation, and each key is its boid's cell. */
export async function expectSortedKeys(
  device: GPUDevice,
  params: FlockParams,
  sort: 'counting' | 'bitonic',
): Promise<void> {
  const p = { ...params, sort };
  const s0 = initialState(p);
  await withSim(device, p, s0, async (sim) => {
    const { keys, ids } = await sim.debugSortedKeys();
    expect(keys.length).toBe(s0.count);
    const seen = new Uint8Array(s0.count);
    let bad = '';
    for (let i = 0; i < s0.count; i++) {
      const id = ids[i]!;
      if (id >= s0.count || seen[id]) bad ||= `ids[${i}] = ${id} repeats or is out of range`;
      else seen[id] = 1;
      if (i > 0 && keys[i]! < keys[i - 1]!)
        bad ||= `keys[${i}] = ${keys[i]} < keys[${i - 1}] = ${keys[i - 1]}`;
      const want = cellKeyOf(s0.positions, id, sim.grid, p.boundsMin, p.dimensions);
      if (keys[i] !== want) bad ||= `boid ${id} sorted under key ${keys[i]}, its cell is ${want}`;
    }
    expect(bad).toBe('');
  });
}

/** Degenerate states stay finite for every search and boundary. */
export async function expectDegenerateFinite(device: GPUDevice): Promise<void> {
  const base = parityParams({ count: 300 });
  const point = (n: number, v: number): FlockState => {
    const s: FlockState = {
      count: n,
      positions: new Float32Array(4 * n),
      velocities: new Float32Array(4 * n),
    };
    for (let i = 0; i < n; i++) {
      s.positions.set([1.25, -3.5, 2], 4 * i);
      s.velocities.set([v, 0, 0], 4 * i);
    }
    return s;
  };
  const cases: [string, FlockParams, FlockState][] = [
    ['all at one point, zero velocity', base, point(300, 0)],
    ['all at one point, moving', base, point(300, 3)],
    ['one boid', { ...base, count: 1 }, point(1, 0)],
    [
      'one boid at the max corner',
      { ...base, count: 1 },
      {
        count: 1,
        positions: new Float32Array([10, 10, 10, 0]),
        velocities: new Float32Array([0, 0, 0, 0]),
      },
    ],
    [
      // 'sum': from rest, Reynolds steering normalises the separation and cohesion sums, whose
      // direction is ill-conditioned in float32 where they nearly cancel (a boid or two of 300).
      'zero velocities, minSpeed 0',
      { ...base, minSpeed: 0, steering: 'sum' },
      { ...initialState(base), velocities: new Float32Array(4 * 300) },
    ],
    [
      // |v|^2 overflows float32 here: the speed clamp must still see a finite length.
      'speeds of 1e20 and 3e38',
      base,
      (() => {
        const s = initialState(base);
        for (let i = 0; i < s.velocities.length; i++) s.velocities[i]! *= i % 8 < 4 ? 2e19 : 6e37;
        return s;
      })(),
    ],
  ];
  for (const [name, p0, s] of cases) {
    for (const variant of [
      { neighborSearch: 'grid', sort: 'counting', boundary: 'bounce' },
      { neighborSearch: 'grid', sort: 'bitonic', boundary: 'wrap' },
      { neighborSearch: 'brute', boundary: 'wrap' },
    ] as const) {
      const p = { ...p0, ...variant };
      await withSim(device, p, s, async (sim) => {
        sim.step(3);
        const got = await sim.readState();
        expect(allFinite(got), `${name} ${JSON.stringify(variant)}`).toBe(true);
        const want = referenceSteps(s, p, 3);
        const r = checkTolerance(got, want, p, 3);
        expect(r.ok, `${name}: ${r.message}`).toBe(true);
      });
    }
  }
}

/** A broken line in an included chunk is reported with that file's name and line. */
export async function expectShaderErrorLocation(device: GPUDevice): Promise<void> {
  const lines = WGSL_FILES['common.wgsl']!.split('\n');
  const at = lines.findIndex((l) => l.startsWith('fn cellCoord')) + 2; // 1-based line of its body
  lines[at - 1] = '  let c = floor((x - lo) / size) +* 1.0;';
  const broken = { 'common.wgsl': lines.join('\n') };
  let err: unknown = null;
  try {
    const sim = await createFlockSimulation({
      device,
      params: parityParams({ count: 10 }),
      shaderFiles: broken,
    });
    sim.dispose();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ShaderError);
  const se = err as ShaderError;
  expect(se.file).toBe('common.wgsl');
  expect(se.line).toBe(at);
  expect(se.message).toContain(`common.wgsl:${at}:`);
}

/**
 * Two compiler messages in two files: a warning in an included chunk (code after a return is
 * unreachable) and an error in the file that includes it (an unresolved name). WGSL compilers stop
 * at the first error, so the first is a warning; the ShaderError carries both (not only the
 * first), each at its own file, line and column, and names the error's file and line.
 */
export async function expectEveryShaderMessage(device: GPUDevice): Promise<void> {
  const files = {
    'chunk.wgsl': ['fn helper(x: f32) -> f32 {', '  return x;', '  let dead = x * 2.0;', '}'].join(
      '\n',
    ),
    'two-messages.wgsl': [
      '#include "chunk.wgsl"',
      '@compute @workgroup_size(1)',
      'fn main() {',
      '  let b = helper(missingName);',
      '}',
    ].join('\n'),
  };
  let err: unknown = null;
  try {
    await createCheckedModule(device, 'two-messages.wgsl', files);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ShaderError);
  const se = err as ShaderError;
  expect([se.file, se.line]).toEqual(['two-messages.wgsl', 4]);
  expect(se.messages.map((m) => `${m.type} ${m.file}:${m.line}`)).toEqual([
    'warning chunk.wgsl:3',
    'error two-messages.wgsl:4',
  ]);
  expect(se.messages[1]!.text).toContain('missingName');
  for (const m of se.messages) expect(se.message).toContain(`${m.file}:${m.line}:${m.column}: `);
}

/**
 * A lattice where float arithmetic is exact (coordinates multiples of 1/4): many pairs exactly at
 * distance r (not neighbours: |d| < r is strict), boids exactly on cell boundaries and on the
 * box's max faces (clamped into the last cells). Box [-8, 8)^3 around two interleaved lattices of
 * spacing 1, the second offset by 1/4 on every axis.
 */
export function latticeState(): FlockState {
  return latticeOf();
}

/**
 * Boids whose coordinates sit at chosen offsets from the faces of cells of side 2 in the box
 * [-8, 8)^3 (seeded, 2,999 boids): offsets near 0, near the cell side and near 2 - sqrt(2), so that
 * many pairs across an edge or a corner of cells lie within float32 rounding of r = 2, and boids
 * lie both just inside and just outside the reach at which steer.wgsl's CULL drops a row or a cell.
 */
export function faceCullState(): FlockState {
  const offsets = [
    0, 1e-6, 1e-3, 0.25, 0.5857864, 0.5857865, 1, 1.414213, 1.4142137, 1.75, 1.999, 1.9999999,
  ];
  let s = 20261203;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const count = 2999;
  const positions = new Float32Array(4 * count);
  const velocities = new Float32Array(4 * count);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) {
      const cell = Math.floor(rnd() * 8);
      positions[4 * i + c] = Math.min(
        7.9999995,
        -8 + 2 * cell + offsets[Math.floor(rnd() * offsets.length)]!,
      );
      velocities[4 * i + c] = rnd() * 2 - 1;
    }
    velocities[4 * i] = velocities[4 * i]! + 2;
  }
  return { count, positions, velocities };
}

function latticeOf(): FlockState {
  const pts: number[] = [];
  for (const off of [0, 0.25])
    for (let z = 0; z <= 16; z++)
      for (let y = 0; y <= 16; y++)
        for (let x = 0; x <= 16; x++) {
          const p = [x - 8 + off, y - 8 + off, z - 8 + off];
          if (p.every((c) => c <= 8)) pts.push(...p, 0);
        }
  const count = pts.length / 4;
  const velocities = new Float32Array(4 * count);
  for (let i = 0; i < count; i++) velocities[4 * i] = 3;
  return { count, positions: new Float32Array(pts), velocities };
}

/**
 * cellSplitX 'auto' in one simulation across setParams: a crowded box (3,001 boids in 216 cells:
 * cut in 4, SPHERE_X), a roomy one (8,000 cells: not cut; the specialised pipeline without
 * SPHERE_X) and back, each time 10 steps from the seed's state against the CPU reference. A
 * specialised pipeline paired with the other grid would miss neighbours and fail the tolerance.
 */
export async function expectAutoSplitAcrossParams(device: GPUDevice): Promise<number[]> {
  const crowded = parityParams({ count: 3001, boundsMin: [-6, -6, -6], boundsMax: [6, 6, 6] });
  const roomy = parityParams({ count: 3001, boundsMin: [-20, -20, -20], boundsMax: [20, 20, 20] });
  const cuts: number[] = [];
  await withSim(
    device,
    crowded,
    undefined,
    async (sim) => {
      for (const params of [crowded, roomy, crowded]) {
        sim.setParams(params);
        const s0 = initialState(params);
        sim.setState(s0);
        await sim.ready();
        cuts.push(sim.grid.dims[0] / gridFor(params).dims[0]);
        sim.step(10);
        const report = checkTolerance(
          await sim.readState(),
          referenceSteps(s0, params, 10),
          params,
          10,
        );
        expect(report.ok, report.message).toBe(true);
      }
    },
    { cellSplitX: 'auto', unroll: 4 },
  );
  return cuts;
}
