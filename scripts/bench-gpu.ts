/**
 * Headless real-GPU benchmark of the WebGPU simulation through Dawn in Node (../shared/GPU.md).
 * Sweeps neighbour search modes (counting sort grid, bitonic sort grid, brute force) over
 * N = 16,384 .. 4,194,304 in factors of 4 at the default density (box side 64 * (N/16384)^(1/3)),
 * stopping a mode once it runs past its time budget. Per configuration: median wall-clock step
 * time over batches timed with queue.onSubmittedWorkDone after a warm-up, per-pass GPU times from
 * timestamp queries where the device has them, the bytes each pass must move and the bandwidth
 * that implies, against a measured vec4 copy bandwidth. Prints a table (last) and writes JSON.
 *
 * Bundled into one ES module (.gpu/bench.mjs, scripts/bench-gpu.vite.config.ts) that runs with a
 * bare `node` and a dawn.node given by --dawn PATH or $DAWN_NODE (else the `webgpu` package).
 *
 *   npm run bench:gpu -- [--modes counting,bitonic,brute] [--min-n 16384] [--max-n 4194304]
 *     [--budget-s 60] [--max-step-ms 400] [--measure-ms 1500] [--copy-mib 256] [--wg 256]
 *     [--wg-sweep 64,128] [--probe] [--extra-n 1048576,4194304] [--backend default|opengl]
 *     [--dawn PATH] [--out DIR]
 * --wg-sweep re-measures the counting grid at --extra-n sizes (those in the sweep) with other
 * workgroup sizes of the per-boid passes (--wg, default 256); --probe adds a steer pass without
 * its candidate loop there (diagnostics, not a simulation).
 * Then what users run (scripts/bench-gpu-steady.ts, issue 13): per N of --steady-n (default
 * 262144,1048576,4194304; 'none' skips it) and scene of --scenes (sparse: the default density;
 * dense: box side / 2.15), each of --variants (default grid,grid/probe; the grammar is
 * parseVariant's: grid or base (the steer.wgsl in scripts/bench-baseline/, if the bundle was
 * built with one), @WG, +gen (no specialised pipeline), +tNsK (warp-coherent search tiles),
 * +blocks/+records (layout of `sorted`), /probe (no candidate loop)) timed fresh (the seed's
 * state restored before every 8 steps) and, from the steady state after --warm-steps (600)
 * steps, with mean |N_i| then, as steps per pass and as whole frames (one step + the draw with
 * the browser's WebGPU render pipeline into a 1920x1080 colour + depth target, in the
 * --draw-modes (instanced, vertex-id), for the variants of
 * --frames-for; --no-frames skips them); brute force from the same steady state at --brute-at
 * (default 262144). --model first: FIRST_MODEL's parameters (src/bench/scene.ts) everywhere;
 * --fresh-only: no warm-up and no steady rows; --modes none: no fresh sweep. --fovs 360,270: the
 * steady sweep once per fieldOfView (degrees; default 360 only), rows tagged with `fov`. The JSON's
 * `steady` rows carry scene, state, mean |N_i| (and after the timed fresh steps).
 * --shapes arrow,bird,fish,dot [--lods 3,0] [--shapes-at 262144]: whole frames per shape and
 * lodPixels of the first variant's sparse steady rows at those sizes (the draw per shape, LOD on
 * and off; printed as a table with the bird/arrow draw ratios).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateParams, type FlockParams } from '../src/core/params';
import { initialState } from '../src/core/state';
import { createDawnDevice, type DawnDevice } from '../src/webgpu/node-dawn';
import { WGSL_FILES, createComputePrograms, shaderFiles } from '../src/webgpu/shaders';
import { BufferUsage } from '../src/webgpu/constants';
import {
  BOID_BYTES,
  createFlockSimulation,
  packRecords,
  type FlockSimulation,
} from '../src/webgpu/simulation';
import type { PassName } from '../src/webgpu/timing';
import {
  runSteady,
  shapeTable,
  steadyTable,
  type Model,
  type Scene,
  type SteadyRow,
} from './bench-gpu-steady';
import type { Shape } from '../src/core/look';
import { candidateUnrollFor, cellSplitFor } from '../src/webgpu/device';
import type { DrawMode } from '../src/webgpu/renderer';
import { FIRST_MODEL } from '../src/bench/scene';

type Mode = 'counting' | 'bitonic' | 'brute';

/**
 * The candidate loop of steer.wgsl's visitRange (from `var j` to the end of the plain loop, the
 * unrolled ones included), and the probe that replaces it (counts, touches no boid).
 */
const STEER_LOOP_FIRST = '  var j = cellStart[first];\n';
const STEER_LOOP_LAST = '    visitCandidate(acc, b, sorted[sortedPosAt(j)], j);\n  }';
function withoutCandidateLoop(wgsl: string): string {
  const a = wgsl.indexOf(STEER_LOOP_FIRST);
  const b = wgsl.indexOf(STEER_LOOP_LAST, a);
  if (a < 0 || b < 0) throw new Error('steer.wgsl: probe loop not found');
  return wgsl.slice(0, a) + STEER_PROBE + wgsl.slice(b + STEER_LOOP_LAST.length);
}
/**
 * The steer.wgsl to compare against ('base' variants), when the bundle was built with one in
 * scripts/bench-baseline/steer.wgsl (not tracked: e.g. `git show REV:src/webgpu/steer.wgsl`).
 */
const BASELINE = import.meta.glob('./bench-baseline/*.wgsl', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const BASELINE_STEER = BASELINE['./bench-baseline/steer.wgsl'];
/** The bandwidth probe's kernel (copyBandwidth): the bench's own, not shipped with the library. */
const COPY_WGSL = import.meta.glob('./bench-copy.wgsl', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const STEER_PROBE = `  (*acc).n += end - cellStart[first];`;
const PASSES: Exclude<PassName, 'draw'>[] = ['key', 'sort', 'cellTable', 'reorder', 'steer'];

interface Args {
  modes: Mode[];
  minN: number;
  maxN: number;
  budgetS: number;
  maxStepMs: number;
  measureMs: number;
  copyMiB: number;
  wg: number;
  wgSweep: number[];
  probe: boolean;
  extraN: number[];
  backend: 'default' | 'opengl' | undefined;
  dawn: string | undefined;
  out: string;
  /** The steady/dense/frame sweep (bench-gpu-steady.ts): sizes (none: skipped), scenes, variants. */
  steadyN: number[];
  scenes: Scene[];
  variants: string[];
  warmSteps: number;
  /** fieldOfView of each steady sweep (degrees). */
  fovs: number[];
  frames: boolean;
  bruteAt: number[];
  model: Model;
  freshOnly: boolean;
  drawModes: DrawMode[] | undefined;
  framesFor: string[] | undefined;
  /** Draw per shape and level of detail (--shapes, --lods, --shapes-at). */
  shapes: Shape[];
  lods: number[];
  shapesAt: number[];
}

function parseArgs(argv: string[]): Args {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, d: number) => (get(name) !== undefined ? Number(get(name)) : d);
  const backend = get('backend');
  return {
    modes: (get('modes') ?? 'counting,bitonic,brute')
      .split(',')
      .filter((m) => m !== 'none') as Mode[],
    minN: num('min-n', 16384),
    maxN: num('max-n', 4194304),
    budgetS: num('budget-s', 60),
    maxStepMs: num('max-step-ms', 400),
    measureMs: num('measure-ms', 1500),
    copyMiB: num('copy-mib', 256),
    wg: num('wg', 256),
    wgSweep: (get('wg-sweep') ?? '').split(',').filter(Boolean).map(Number),
    probe: argv.includes('--probe'),
    extraN: (get('extra-n') ?? '1048576,4194304').split(',').map(Number),
    backend: backend === 'default' || backend === 'opengl' ? backend : undefined,
    dawn: get('dawn') ?? process.env.DAWN_NODE,
    out: get('out') ?? 'bench-results',
    steadyN: (get('steady-n') ?? '262144,1048576,4194304')
      .split(',')
      .filter((x) => x && x !== 'none')
      .map(Number),
    scenes: (get('scenes') ?? 'sparse,dense').split(',') as Scene[],
    variants: (get('variants') ?? 'grid,grid/probe').split(','),
    warmSteps: num('warm-steps', 600),
    fovs: (get('fovs') ?? '360').split(',').filter(Boolean).map(Number),
    frames: !argv.includes('--no-frames'),
    bruteAt: (get('brute-at') ?? '262144').split(',').filter(Boolean).map(Number),
    model: get('model') === 'first' ? 'first' : 'default',
    freshOnly: argv.includes('--fresh-only'),
    drawModes: get('draw-modes')?.split(',') as DrawMode[] | undefined,
    framesFor: get('frames-for')?.split(','),
    shapes: (get('shapes') ?? '').split(',').filter(Boolean) as Shape[],
    lods: (get('lods') ?? '3,0').split(',').filter(Boolean).map(Number),
    shapesAt: (get('shapes-at') ?? '262144').split(',').filter(Boolean).map(Number),
  };
}

/** The benchmark scene for N boids: default parameters, box side 64 * (N / 16384)^(1/3). */
export function sceneParams(n: number, mode: Mode, model: Model = 'default'): FlockParams {
  const side = 64 * Math.cbrt(n / 16384);
  return validateParams({
    ...(model === 'first' ? FIRST_MODEL : {}),
    count: n,
    boundsMin: [-side / 2, -side / 2, -side / 2],
    boundsMax: [side / 2, side / 2, side / 2],
    neighborSearch: mode === 'brute' ? 'brute' : 'grid',
    sort: mode === 'bitonic' ? 'bitonic' : 'counting',
    seed: 7,
    // The uniform spread the sweep's figures were made with (the default groups start clusters).
    start: 'uniform',
  });
}

/** Bytes each pass must move per step (each buffer the pass touches, read or written once). */
export function passBytes(
  mode: Mode,
  n: number,
  cells: number,
  sortSize: number,
  wgSort: number,
): Record<string, number> {
  const rec = BOID_BYTES * n; // one pass over the boid records
  const table = 4 * (cells + 1);
  if (mode === 'brute') return { reorder: 2 * rec, steer: 2 * rec };
  if (mode === 'counting') {
    return {
      key: table + rec / 2 + 8 * n + 2 * table, // clear, read positions, write (key, rank), atomics
      sort: 4 * table, // scan read+write, add-back read+write (level 0; upper levels are tiny)
      reorder: rec + 8 * n + 4 * n + rec, // read records + (key, rank) + cell start, write records
      steer: rec + table + rec, // own record + cell table rows (neighbours come from cache)
    };
  }
  const pairs = 8 * sortSize;
  const block = 2 * wgSort;
  let globalPasses = 0;
  let localPasses = 1;
  for (let h = 2 * block; h <= sortSize; h *= 2) {
    globalPasses += 1 + Math.max(0, Math.log2(h / 2) - Math.log2(block));
    localPasses += 1;
  }
  return {
    key: rec / 2 + pairs,
    sort: (globalPasses + localPasses) * 2 * pairs,
    cellTable: table,
    reorder: 8 * n + rec + rec,
    steer: rec + table + rec,
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GB/s of a vec4 copy kernel (16 bytes read + 16 written per element), median of 5 batches. */
async function copyBandwidth(
  dev: DawnDevice,
  mib: number,
): Promise<{ gbps: number; bytes: number }> {
  const device = dev.device;
  const limit = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
  const bytes = Math.min(mib * 1024 * 1024, Math.floor(limit / 16) * 16);
  const { copy } = await createComputePrograms(
    device,
    {
      copy: {
        file: 'copy.wgsl',
        entry: 'copy',
        groups: [{ 0: 'read-only-storage', 1: 'storage' }],
        workgroupSize: 256,
      },
    },
    shaderFiles({ 'copy.wgsl': COPY_WGSL['./bench-copy.wgsl']! }),
  );
  const a = device.createBuffer({ size: bytes, usage: BufferUsage.STORAGE });
  const b = device.createBuffer({ size: bytes, usage: BufferUsage.STORAGE });
  const bg = device.createBindGroup({
    layout: copy.layouts[0]!,
    entries: [
      { binding: 0, resource: { buffer: a } },
      { binding: 1, resource: { buffer: b } },
    ],
  });
  const groups = Math.ceil(bytes / 16 / 256);
  const x = Math.min(groups, device.limits.maxComputeWorkgroupsPerDimension);
  const y = Math.ceil(groups / x);
  const run = async (reps: number): Promise<number> => {
    const t0 = performance.now();
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(copy.pipeline);
    pass.setBindGroup(0, bg);
    for (let r = 0; r < reps; r++) pass.dispatchWorkgroups(x, y);
    pass.end();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    return performance.now() - t0;
  };
  await run(2);
  // Size the batch to about 100 ms.
  const one = await run(1);
  const reps = Math.max(2, Math.min(200, Math.round(100 / Math.max(one, 0.05))));
  const rates: number[] = [];
  for (let k = 0; k < 5; k++) rates.push((2 * bytes * reps) / ((await run(reps)) / 1000) / 1e9);
  a.destroy();
  b.destroy();
  return { gbps: median(rates), bytes };
}

interface Row {
  mode: Mode;
  n: number;
  box: number;
  meanNeighbors: number | null;
  cells: number;
  workgroupSize: number;
  steps: number;
  stepMsMedian: number;
  stepMsMin: number;
  gpuStepMs: number | null;
  passMs: Partial<Record<string, number>>;
  passBytes: Record<string, number>;
  passGBps: Partial<Record<string, number>>;
  effectiveGBps: number;
  note?: string;
}

async function measure(
  sim: FlockSimulation,
  device: GPUDevice,
  measureMs: number,
): Promise<{ median: number; min: number; steps: number }> {
  const wall = async (s: number) => {
    const t0 = performance.now();
    sim.step(s);
    await device.queue.onSubmittedWorkDone();
    return performance.now() - t0;
  };
  await wall(3); // warm-up: pipelines, caches, clocks
  const probe = (await wall(2)) / 2;
  // Batches of about measureMs / 8 each, at least one step; 8 batches (fewer for slow steps).
  const batch = Math.max(1, Math.min(256, Math.round(measureMs / 8 / Math.max(probe, 1e-3))));
  const batches = probe * batch > measureMs / 2 ? 3 : 8;
  sim.resetTimings();
  const per: number[] = [];
  for (let k = 0; k < batches; k++) {
    per.push((await wall(batch)) / batch);
    await sim.timingsSettled();
  }
  return { median: median(per), min: Math.min(...per), steps: batch * batches };
}

function fmt(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '-';
  if (x >= 1000) return x.toFixed(0);
  if (x >= 100) return x.toFixed(1);
  return x.toPrecision(digits);
}

function table(rows: Row[], copyGBps: number): string {
  const head = [
    'mode',
    'N',
    'box',
    'nbrs',
    'wg',
    'step ms',
    'gpu ms',
    ...PASSES.map((p) => `${p} ms`),
    'MB/step',
    'GB/s',
    '% copy',
    'note',
  ];
  const lines = rows.map((r) => {
    const mb = Object.values(r.passBytes).reduce((a, b) => a + b, 0) / 1e6;
    return [
      r.mode,
      String(r.n),
      r.box.toFixed(1),
      r.meanNeighbors === null ? '-' : r.meanNeighbors.toFixed(2),
      String(r.workgroupSize),
      fmt(r.stepMsMedian),
      fmt(r.gpuStepMs),
      ...PASSES.map((p) => fmt(r.passMs[p])),
      mb.toFixed(1),
      fmt(r.effectiveGBps),
      fmt((100 * r.effectiveGBps) / copyGBps, 2),
      r.note ?? '',
    ];
  });
  const all = [head, ...lines];
  const widths = head.map((_, c) => Math.max(...all.map((l) => l[c]!.length)));
  return all.map((l) => l.map((s, c) => s.padStart(widths[c]!)).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sizes: number[] = [];
  for (let n = args.minN; n <= args.maxN; n *= 4) sizes.push(n);
  // All CPU-side data first: long synchronous JavaScript between awaited Dawn calls has crashed
  // Dawn (GPU.md), so states are generated and packed before the first GPU call.
  const t0 = performance.now();
  const records = new Map<number, Float32Array>();
  const allSizes = [...new Set([...sizes, ...args.steadyN])];
  for (const n of allSizes) records.set(n, packRecords(initialState(sceneParams(n, 'counting'))));
  console.log(
    `[bench-gpu] initial states for N = ${allSizes.join(', ')} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const dev = await createDawnDevice({
    dawnPath: args.dawn,
    backend: args.backend,
    flags: ['disable-dawn-features=timestamp_quantization'],
  });
  if (!dev.device) {
    console.error(`[bench-gpu] ${(dev as { reason: string }).reason}`);
    process.exitCode = 1;
    return;
  }
  const d = dev as DawnDevice;
  const device = d.device;
  device.addEventListener('uncapturederror', (ev) => {
    console.error(`[bench-gpu] GPU error: ${(ev as GPUUncapturedErrorEvent).error.message}`);
  });
  const timestamps = device.features.has('timestamp-query');
  // The candidate-loop unrolling the browser's backend would pick for this adapter.
  const unroll = candidateUnrollFor(d.adapter);
  // And its grid's x split (cellSplitX: 'auto' on a hardware GPU).
  const cellSplitX = cellSplitFor(d.adapter);
  console.log(
    `[bench-gpu] unroll ${unroll}, cellSplitX ${cellSplitX}; adapter: ${d.adapterName} (${d.backend}, ${d.featureLevel}${d.isFallbackAdapter ? ', fallback' : ''}); timestamps: ${timestamps}`,
  );
  const copy = await copyBandwidth(d, args.copyMiB);
  console.log(
    `[bench-gpu] copy bandwidth (vec4 read + write, 2 x ${(copy.bytes / 2 ** 20).toFixed(0)} MiB): ${copy.gbps.toFixed(1)} GB/s`,
  );

  const rows: Row[] = [];
  const meanNbrs = new Map<number, number>();
  let resolutionMs: number | null = null;

  const runConfig = async (sim: FlockSimulation, mode: Mode, n: number): Promise<Row> => {
    const params = sceneParams(n, mode, args.model);
    sim.setRecords(n, records.get(n)!);
    sim.setParams(params);
    await sim.ready();
    if (!meanNbrs.has(n) && mode !== 'brute') {
      const counts = await sim.debugNeighborCounts();
      let sum = 0;
      for (let i = 0; i < n; i++) sum += counts[i]!;
      meanNbrs.set(n, sum / n);
    }
    const m = await measure(sim, device, args.measureMs);
    const t = sim.cumulativeTimings();
    // The state moved on while it was timed (m.steps steps from the seed's): |N_i| then.
    let after: number | null = null;
    if (mode !== 'brute') {
      const counts = await sim.debugNeighborCounts();
      let sum = 0;
      for (let i = 0; i < n; i++) sum += counts[i]!;
      after = sum / n;
    }
    if (t) resolutionMs = t.resolutionMs;
    const bytes = passBytes(mode, n, sim.grid.cellCount, sim.sortSize, sim.workgroupSizes.sort);
    const passMs: Partial<Record<string, number>> = {};
    const passGBps: Partial<Record<string, number>> = {};
    for (const p of PASSES) {
      const ms = t?.passes[p];
      if (ms === undefined) continue;
      passMs[p] = ms;
      if (bytes[p] !== undefined && ms > 0) passGBps[p] = bytes[p]! / (ms / 1000) / 1e9;
    }
    const total = Object.values(bytes).reduce((a, b) => a + b, 0);
    const stepMs = t?.stepMs ?? m.median;
    return {
      mode,
      n,
      box: params.boundsMax[0] - params.boundsMin[0],
      meanNeighbors: meanNbrs.get(n) ?? null,
      cells: sim.grid.cellCount,
      workgroupSize: sim.workgroupSizes.boid,
      steps: m.steps,
      stepMsMedian: m.median,
      stepMsMin: m.min,
      gpuStepMs: t?.stepMs ?? null,
      passMs,
      passBytes: bytes,
      passGBps,
      effectiveGBps: total / (stepMs / 1000) / 1e9,
      ...(after !== null ? { note: `nbrs after ${m.steps} steps: ${after.toFixed(2)}` } : {}),
    };
  };

  const started = performance.now();
  for (const mode of args.modes) {
    const first = sceneParams(sizes[0]!, mode);
    const sim = await createFlockSimulation({
      device,
      params: { ...first, count: 1 },
      initialState: { count: 1, positions: new Float32Array(4), velocities: new Float32Array(4) },
      workgroupSize: args.wg,
      unroll,
      cellSplitX,
      label: `bench.${mode}`,
    });
    const modeStart = performance.now();
    let last: Row | null = null;
    for (const n of sizes) {
      // Predict this size from the last one (x4 per size for the grid, x16 for all pairs).
      const growth = mode === 'brute' ? 16 : 4;
      const predicted = last ? last.stepMsMedian * growth : 0;
      const spent = (performance.now() - modeStart) / 1000;
      if (
        last &&
        (predicted > args.maxStepMs || spent + (predicted * 12) / 1000 + 2 > args.budgetS)
      ) {
        console.log(
          `[bench-gpu] ${mode}: stop before N = ${n} (predicted ${predicted.toFixed(1)} ms/step; ${spent.toFixed(0)} s of ${args.budgetS} s spent)`,
        );
        break;
      }
      const row = await runConfig(sim, mode, n);
      rows.push(row);
      last = row;
      console.log(
        `[bench-gpu] ${mode} N=${n}: ${row.stepMsMedian.toFixed(3)} ms/step (gpu ${fmt(row.gpuStepMs)} ms) over ${row.steps} steps`,
      );
      await sleep(10);
    }
    sim.dispose();
  }
  // Other workgroup sizes of the counting grid at 1M and 4M boids (--extra-n), and a steer pass
  // without the candidate loop (only the cell-table lookups, the row logic, integrate and the
  // writes) to split the steer time between finding the candidates and testing them.
  const probeSteer = withoutCandidateLoop(WGSL_FILES['steer.wgsl']!);
  if (args.model === 'first')
    console.log('[bench-gpu] model: first (FIRST_MODEL: sum, bounce, separation over N_i)');
  const extras = [
    ...args.wgSweep.map((wg) => ({ wg, probe: false })),
    ...(args.probe ? [{ wg: args.wg, probe: true }] : []),
  ];
  for (const n of args.extraN.filter((x) => sizes.includes(x))) {
    for (const { wg, probe } of extras) {
      const sim = await createFlockSimulation({
        device,
        params: { ...sceneParams(n, 'counting'), count: 1 },
        initialState: { count: 1, positions: new Float32Array(4), velocities: new Float32Array(4) },
        workgroupSize: wg,
        unroll,
        cellSplitX,
        label: `bench.wg${wg}`,
        ...(probe ? { shaderFiles: { 'steer.wgsl': probeSteer } } : {}),
      });
      const row = await runConfig(sim, 'counting', n);
      row.note = probe ? 'probe: no candidate loop' : 'workgroup sweep';
      rows.push(row);
      console.log(
        `[bench-gpu] ${probe ? 'probe' : 'workgroup'} ${row.workgroupSize} N=${n}: ${row.stepMsMedian.toFixed(3)} ms/step, steer ${fmt(row.passMs.steer)} ms`,
      );
      sim.dispose();
    }
  }
  const steady: SteadyRow[] = [];
  for (const fov of args.steadyN.length ? args.fovs : []) {
    const rows = await runSteady({
      fieldOfView: fov,
      device,
      sizes: args.steadyN,
      scenes: args.scenes,
      variants: args.variants,
      warmSteps: args.warmSteps,
      measureMs: args.measureMs,
      frames: args.frames,
      bruteAt: args.bruteAt,
      model: args.model,
      freshOnly: args.freshOnly,
      ...(BASELINE_STEER ? { baselineSteer: BASELINE_STEER } : {}),
      ...(args.drawModes ? { drawModes: args.drawModes } : {}),
      ...(args.framesFor ? { framesFor: args.framesFor } : {}),
      ...(args.shapes.length
        ? { shapes: args.shapes, lods: args.lods, shapesAt: args.shapesAt }
        : {}),
      workgroupSize: args.wg,
      unroll,
      cellSplitX,
      records,
      probeSteer,
      log: (line) => console.log(line),
    });
    steady.push(...rows);
  }
  const elapsed = (performance.now() - started) / 1000;
  const result = {
    date: new Date().toISOString(),
    adapter: d.adapterName,
    backend: d.backend,
    featureLevel: d.featureLevel,
    isFallbackAdapter: d.isFallbackAdapter,
    timestamps,
    timestampResolutionMs: resolutionMs,
    copyGBps: copy.gbps,
    copyBytes: copy.bytes,
    command: process.argv.join(' '),
    args,
    elapsedS: elapsed,
    limits: {
      maxStorageBufferBindingSize: device.limits.maxStorageBufferBindingSize,
      maxBufferSize: device.limits.maxBufferSize,
      maxComputeInvocationsPerWorkgroup: device.limits.maxComputeInvocationsPerWorkgroup,
    },
    rows,
    // Steady/dense/frame rows: scene (sparse = default density, dense = box side / 2.15), state
    // (fresh, or steady after warmSteps steps), variant, mean |N_i| of that state.
    steady,
  };
  d.close();
  const stamp = result.date.replace(/[:.]/g, '-');
  const files = [join(args.out, `bench-gpu-${stamp}.json`)];
  if (process.env.OUT) files.push(join(process.env.OUT, 'bench-gpu.json'));
  for (const f of files) {
    mkdirSync(join(f, '..'), { recursive: true });
    writeFileSync(f, JSON.stringify(result, null, 2));
  }
  // Ratios the goals speak of.
  const at = (mode: Mode, n: number) => rows.find((r) => r.mode === mode && r.n === n && !r.note);
  const ratios: string[] = [];
  for (const mode of args.modes) {
    const a = at(mode, 1048576);
    const b = at(mode, 4194304);
    if (a && b) ratios.push(`${mode} 4M/1M = ${(b.stepMsMedian / a.stepMsMedian).toFixed(2)}x`);
    const c = at(mode, 16384);
    const e = at(mode, 65536);
    if (c && e) ratios.push(`${mode} 64K/16K = ${(e.stepMsMedian / c.stepMsMedian).toFixed(2)}x`);
  }
  console.log(`\n[bench-gpu] wrote ${files.join(', ')} (${elapsed.toFixed(0)} s)`);
  console.log(
    `adapter: ${d.adapterName} | ${result.date} | copy ${copy.gbps.toFixed(0)} GB/s | timestamps ${timestamps ? `yes (resolution ${resolutionMs ?? '?'} ms)` : 'no'}`,
  );
  console.log(
    'step ms = median wall-clock per step (onSubmittedWorkDone around batches); gpu/pass ms = timestamp averages',
  );
  console.log(table(rows, copy.gbps));
  if (ratios.length) console.log(ratios.join(' | '));
  if (steady.length) {
    console.log(
      `\nsteady state after ${args.warmSteps} steps (${args.model === 'first' ? 'first model: sum steering, bounce' : 'default steering'}), dense = box side / 2.15; frame = one step + the draw at 1920x1080 (WebGPU render pipeline); ms per step or frame`,
    );
    for (const fov of args.fovs) {
      const rows = steady.filter((r) => (r.fov ?? 360) === fov);
      if (rows.length) console.log(`fieldOfView ${fov}\n${steadyTable(rows)}`);
    }
    const shapes = shapeTable(steady);
    if (shapes) console.log(`\ndraw per shape (instanced, 1920x1080, no MSAA)\n${shapes}`);
  }
}

await main();
