/**
 * The part of the real-GPU benchmark (scripts/bench-gpu.ts) that measures what users run
 * (issue 13, DESIGN.md section 6): per N and scene (sparse: the default density; dense: box side
 * / 2.15), the fresh state, then the steady state after `warmSteps` steps (with mean |N_i| then),
 * each variant (workgroup size, probe) started from the same steady state (a GPU copy), timed as
 * steps (per pass) and as whole frames: one step plus the draw of the flock with the browser's
 * WebGPU renderer (src/webgpu/renderer.ts, render.wgsl) into a 1920x1080 offscreen colour +
 * depth target. Brute force is timed from the same steady state where asked (grid vs brute).
 */
import { validateParams, type FlockParams } from '../src/core/params';
import { boidSizeFor, defaultCamera, viewProjection } from '../src/core/render-math';
import { BufferUsage } from '../src/webgpu/constants';
import { createBoidRenderer, type BoidRenderer, type DrawMode } from '../src/webgpu/renderer';
import { createFlockSimulation, type FlockSimulation } from '../src/webgpu/simulation';

export type Scene = 'sparse' | 'dense';
/** Box side of the dense scene: the sparse side / DENSE_FACTOR (about 20 neighbours a boid). */
export const DENSE_FACTOR = 2.15;
export const FRAME_WIDTH = 1920;
export const FRAME_HEIGHT = 1080;

/**
 * A variant by name: grid[@WG][/probe]. @WG: workgroup size of the per-boid passes; /probe: the
 * steer pass without its candidate loop (diagnostics: how much of the pass the loop is).
 */
export interface Variant {
  workgroupSize?: number;
  probe: boolean;
}

export function parseVariant(name: string): Variant {
  const m = /^grid(?:@([0-9]+))?(\/probe)?$/.exec(name);
  if (!m) throw new Error(`unknown variant '${name}' (grid, then @WG, then /probe)`);
  return { ...(m[1] ? { workgroupSize: Number(m[1]) } : {}), probe: Boolean(m[2]) };
}

/** Default parameters (default steering), box side 64 (N/16384)^(1/3), / DENSE_FACTOR when dense. */
export function steadyParams(n: number, scene: Scene, brute = false): FlockParams {
  const side = (64 * Math.cbrt(n / 16384)) / (scene === 'dense' ? DENSE_FACTOR : 1);
  return validateParams({
    count: n,
    boundsMin: [-side / 2, -side / 2, -side / 2],
    boundsMax: [side / 2, side / 2, side / 2],
    neighborSearch: brute ? 'brute' : 'grid',
    sort: 'counting',
    seed: 7,
  });
}

/** The dense scene's records from the sparse ones (positions scaled about the box's centre 0). */
export function denseRecords(sparse: Float32Array, n: number): Float32Array {
  const out = sparse.slice();
  const k = 1 / DENSE_FACTOR;
  for (let i = 0; i < n; i++) {
    out[4 * i] = out[4 * i]! * k;
    out[4 * i + 1] = out[4 * i + 1]! * k;
    out[4 * i + 2] = out[4 * i + 2]! * k;
  }
  return out;
}

export interface SteadyRow {
  n: number;
  scene: Scene;
  /** 'fresh': the seed's uniform state; 'steady': after warmSteps steps. */
  state: 'fresh' | 'steady';
  /** Search variant name (or 'brute'). */
  variant: string;
  box: number;
  cells: number;
  /** Mean |N_i| of the state the row starts from. */
  meanNeighbors: number;
  stepMs: number;
  gpuStepMs: number | null;
  passMs: Partial<Record<string, number>>;
  /** Whole frames (one step + the draw at 1920x1080) with instanced drawing, where measured. */
  frame?: FrameTiming;
  /** The same with vertex-id drawing (boid index from the vertex index), where the device has it. */
  frameVertexId?: FrameTiming;
}

export interface FrameTiming {
  /** Median wall-clock ms per frame. */
  wallMs: number;
  /** GPU ms per frame: step (first pass begin to last pass end) + draw pass. */
  gpuMs: number | null;
  /** GPU ms per frame by pass, 'draw' included. */
  passMs: Partial<Record<string, number>>;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function meanNeighbors(sim: FlockSimulation): Promise<number> {
  const counts = await sim.debugNeighborCounts();
  let sum = 0;
  for (let i = 0; i < counts.length; i++) sum += counts[i]!;
  return sum / counts.length;
}

/** Median wall ms per unit of `work(k)` (k units, then onSubmittedWorkDone), batches of ~measureMs/8. */
async function timeBatches(
  device: GPUDevice,
  measureMs: number,
  work: (k: number) => void,
  afterBatch: () => Promise<void>,
): Promise<number> {
  const wall = async (k: number) => {
    const t0 = performance.now();
    work(k);
    await device.queue.onSubmittedWorkDone();
    return performance.now() - t0;
  };
  await wall(3);
  const probe = (await wall(2)) / 2;
  const batch = Math.max(1, Math.min(256, Math.round(measureMs / 8 / Math.max(probe, 1e-3))));
  const batches = probe * batch > measureMs / 2 ? 3 : 6;
  const per: number[] = [];
  await afterBatch();
  for (let b = 0; b < batches; b++) {
    per.push((await wall(batch)) / batch);
    await afterBatch();
  }
  return median(per);
}

export interface SteadyOptions {
  device: GPUDevice;
  sizes: number[];
  scenes: Scene[];
  /** Variant names; the first one also runs the warm-up and the fresh row. */
  variants: string[];
  warmSteps: number;
  measureMs: number;
  frames: boolean;
  /** Sizes at which brute force is timed from the steady state (sparse scene). */
  bruteAt: number[];
  workgroupSize: number;
  /** steer.wgsl without its candidate loop, for '/probe' variants. */
  probeSteer: string;
  /** Sparse records by N (packRecords of initialState(steadyParams(n, 'sparse'))). */
  records: Map<number, Float32Array>;
  log: (line: string) => void;
}

/** Runs the steady/dense/frame sweep; rows in the order measured. */
export async function runSteady(o: SteadyOptions): Promise<SteadyRow[]> {
  const { device } = o;
  const rows: SteadyRow[] = [];
  const target = device.createTexture({
    label: 'bench.frame',
    size: [FRAME_WIDTH, FRAME_HEIGHT],
    format: 'rgba8unorm',
    usage: 0x10 | 0x01, // RENDER_ATTACHMENT | COPY_SRC
  });
  const context = { getCurrentTexture: () => target } as unknown as GPUCanvasContext;
  // Dense records are made before the first GPU call of the sweep (GPU.md's pitfall).
  const dense = new Map<number, Float32Array>();
  if (o.scenes.includes('dense'))
    for (const n of o.sizes) dense.set(n, denseRecords(o.records.get(n)!, n));

  const makeSim = async (
    params: FlockParams,
    records: Float32Array,
    variant: Variant | undefined,
    label: string,
  ): Promise<FlockSimulation> => {
    const sim = await createFlockSimulation({
      device,
      params: { ...params, count: 1 },
      initialState: { count: 1, positions: new Float32Array(4), velocities: new Float32Array(4) },
      workgroupSize: variant?.workgroupSize ?? o.workgroupSize,
      label,
      ...(variant?.probe ? { shaderFiles: { 'steer.wgsl': o.probeSteer } } : {}),
    });
    sim.setRecords(params.count, records);
    sim.setParams(params);
    return sim;
  };

  const measureFrames = async (
    sim: FlockSimulation,
    renderer: BoidRenderer,
    mode: DrawMode,
  ): Promise<FrameTiming> => {
    renderer.drawMode = mode;
    const params = sim.params;
    const view = {
      viewProj: viewProjection(defaultCamera(params), FRAME_WIDTH / FRAME_HEIGHT),
      width: FRAME_WIDTH,
      height: FRAME_HEIGHT,
      boidSize: boidSizeFor(params),
    };
    sim.resetTimings();
    const draws: number[] = [];
    const wallMs = await timeBatches(
      device,
      o.measureMs,
      (k) => {
        for (let f = 0; f < k; f++) {
          sim.step(1);
          renderer.render(context, view);
        }
      },
      async () => {
        await sim.timingsSettled();
        // The renderer's timer reads back with the queue; then its latest batch average.
        await device.queue.onSubmittedWorkDone();
        const d = renderer.drawMs();
        if (d !== null) draws.push(d);
      },
    );
    const ft = sim.cumulativeTimings();
    const passMs: Partial<Record<string, number>> = { ...(ft?.passes ?? {}) };
    const draw = draws.length ? median(draws) : null;
    if (draw !== null) passMs.draw = draw;
    return { wallMs, gpuMs: ft?.stepMs != null && draw !== null ? ft.stepMs + draw : null, passMs };
  };

  const measureRow = async (
    sim: FlockSimulation,
    renderer: BoidRenderer | null,
    base: Omit<SteadyRow, 'stepMs' | 'gpuStepMs' | 'passMs' | 'cells'>,
  ): Promise<SteadyRow> => {
    sim.resetTimings();
    const stepMs = await timeBatches(
      device,
      o.measureMs,
      (k) => sim.step(k),
      () => sim.timingsSettled(),
    );
    const t = sim.cumulativeTimings();
    const row: SteadyRow = {
      ...base,
      cells: sim.grid.cellCount,
      stepMs,
      gpuStepMs: t?.stepMs ?? null,
      passMs: { ...(t?.passes ?? {}) },
    };
    if (renderer) {
      row.frame = await measureFrames(sim, renderer, 'instanced');
      if (renderer.modes.includes('vertex-id'))
        row.frameVertexId = await measureFrames(sim, renderer, 'vertex-id');
    }
    return row;
  };

  for (const n of o.sizes) {
    for (const scene of o.scenes) {
      const params = steadyParams(n, scene);
      const box = params.boundsMax[0] - params.boundsMin[0];
      const records = scene === 'dense' ? dense.get(n)! : o.records.get(n)!;
      const first = o.variants.find((v) => !v.endsWith('/probe')) ?? o.variants[0]!;
      const warm = await makeSim(params, records, parseVariant(first), `steady.${first}`);
      const freshNbrs = await meanNeighbors(warm);
      const fresh = await measureRow(warm, null, {
        n,
        scene,
        state: 'fresh',
        variant: first,
        box,
        meanNeighbors: freshNbrs,
      });
      rows.push(fresh);
      // Back to the seed's state, then warmSteps steps: the steady state every variant starts from.
      warm.setRecords(n, records);
      for (let done = 0; done < o.warmSteps; done += 100) {
        warm.step(Math.min(100, o.warmSteps - done));
        await device.queue.onSubmittedWorkDone();
      }
      const steadyNbrs = await meanNeighbors(warm);
      const saved = device.createBuffer({
        label: 'bench.steadyState',
        size: warm.buffers.state.size,
        usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
      });
      let enc = device.createCommandEncoder();
      enc.copyBufferToBuffer(warm.buffers.state, 0, saved, 0, saved.size);
      device.queue.submit([enc.finish()]);
      warm.dispose();
      o.log(
        `[bench-gpu] ${scene} N=${n}: fresh ${fresh.stepMs.toFixed(3)} ms/step, |N_i| ${freshNbrs.toFixed(1)} -> ${steadyNbrs.toFixed(1)} after ${o.warmSteps} steps`,
      );
      const variants = [
        ...o.variants,
        ...(scene === 'sparse' && o.bruteAt.includes(n) ? ['brute'] : []),
      ];
      for (const v of variants) {
        const brute = v === 'brute';
        const sim = await makeSim(
          brute ? steadyParams(n, scene, true) : params,
          records,
          brute ? undefined : parseVariant(v),
          `steady.${v}`,
        );
        enc = device.createCommandEncoder();
        enc.copyBufferToBuffer(saved, 0, sim.buffers.state, 0, saved.size);
        device.queue.submit([enc.finish()]);
        const renderer =
          o.frames && !brute && !v.endsWith('/probe')
            ? await createBoidRenderer(device, 'rgba8unorm', sim)
            : null;
        const row = await measureRow(sim, renderer, {
          n,
          scene,
          state: 'steady',
          variant: v,
          box,
          meanNeighbors: steadyNbrs,
        });
        rows.push(row);
        o.log(
          `[bench-gpu] ${scene} N=${n} steady ${v}: ${row.stepMs.toFixed(3)} ms/step, steer ${row.passMs.steer?.toFixed(3) ?? '-'}${row.frame ? `, frame ${row.frame.wallMs.toFixed(3)} ms (draw ${row.frame.passMs.draw?.toFixed(3) ?? '-'})` : ''}${row.frameVertexId ? `, vertex-id frame ${row.frameVertexId.wallMs.toFixed(3)} ms (draw ${row.frameVertexId.passMs.draw?.toFixed(3) ?? '-'})` : ''}`,
        );
        renderer?.dispose();
        sim.dispose();
      }
      saved.destroy();
    }
  }
  target.destroy();
  return rows;
}

function fmt(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '-';
  if (x >= 1000) return x.toFixed(0);
  if (x >= 100) return x.toFixed(1);
  return x.toPrecision(digits);
}

const STEP_PASSES = ['key', 'sort', 'reorder', 'steer'] as const;

/** The steady/dense/frame table, then the ratios (one line each). */
export function steadyTable(rows: SteadyRow[]): string {
  const head = [
    'scene',
    'state',
    'N',
    'box',
    'nbrs',
    'variant',
    'cells',
    'step ms',
    'gpu ms',
    ...STEP_PASSES.map((p) => `${p} ms`),
    'frame ms',
    'frame gpu',
    'draw ms',
    'vid frame',
    'vid draw',
  ];
  const lines = rows.map((r) => [
    r.scene,
    r.state,
    String(r.n),
    r.box.toFixed(1),
    r.meanNeighbors.toFixed(1),
    r.variant,
    String(r.cells),
    fmt(r.stepMs),
    fmt(r.gpuStepMs),
    ...STEP_PASSES.map((p) => fmt(r.passMs[p])),
    fmt(r.frame?.wallMs),
    fmt(r.frame?.gpuMs),
    fmt(r.frame?.passMs.draw),
    fmt(r.frameVertexId?.wallMs),
    fmt(r.frameVertexId?.passMs.draw),
  ]);
  const all = [head, ...lines];
  const widths = head.map((_, c) => Math.max(...all.map((l) => l[c]!.length)));
  const out = all.map((l) => l.map((s, c) => s.padStart(widths[c]!)).join('  '));
  const at = (scene: Scene, n: number, v: string) =>
    rows.find((r) => r.scene === scene && r.n === n && r.variant === v && r.state === 'steady');
  const variants = [...new Set(rows.filter((r) => r.variant !== 'brute').map((r) => r.variant))];
  const ns = [...new Set(rows.map((r) => r.n))].sort((a, b) => a - b);
  const ratios: string[] = [];
  for (const scene of ['sparse', 'dense'] as const) {
    for (const v of variants) {
      const parts: string[] = [];
      for (let k = 0; k + 1 < ns.length; k++) {
        const a = at(scene, ns[k]!, v);
        const b = at(scene, ns[k + 1]!, v);
        if (a && b) parts.push(`${ns[k + 1]! / ns[k]!}N/N ${fmt(b.stepMs / a.stepMs)}x`);
      }
      const ref = variants.includes('grid') ? 'grid' : variants[0]!;
      const top = ns[ns.length - 1]!;
      const base = at(scene, top, ref);
      const me = at(scene, top, v);
      if (base && me && v !== ref)
        parts.push(
          `${ref}/${v} at ${top}: step ${fmt(base.stepMs / me.stepMs)}x, steer ${fmt((base.passMs.steer ?? NaN) / (me.passMs.steer ?? NaN))}x`,
        );
      if (parts.length) ratios.push(`${scene} ${v}: ${parts.join(', ')}`);
    }
  }
  for (const n of ns) {
    const b = at('sparse', n, 'brute');
    if (!b) continue;
    for (const v of variants) {
      const g = at('sparse', n, v);
      if (g) ratios.push(`brute/grid(${v}) at ${n}, steady sparse: ${fmt(b.stepMs / g.stepMs)}x`);
    }
  }
  return [...out, ...ratios].join('\n');
}
