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
import { buildScene, viewStatic, type RenderScene } from '../src/core/scene';
import { defaultView } from '../src/core/view';
import type { Shape } from '../src/core/look';
import { BufferUsage } from '../src/webgpu/constants';
import { createBoidRenderer, type BoidRenderer, type DrawMode } from '../src/webgpu/renderer';
import { createFlockSimulation, type FlockSimulation } from '../src/webgpu/simulation';
import type { CandidateUnroll, SearchTile, SortedLayout } from '../src/webgpu/programs';
import { FIRST_MODEL } from '../src/bench/scene';

export type Scene = 'sparse' | 'dense';
/** Box side of the dense scene: the sparse side / DENSE_FACTOR (about 20 neighbours a boid). */
export const DENSE_FACTOR = 2.15;
/** Steps per batch of the fresh rows (the state is restored before each batch), and batches. */
export const FRESH_STEPS = 8;
const FRESH_BATCHES = 6;
export const FRAME_WIDTH = 1920;
export const FRAME_HEIGHT = 1080;

/**
 * A variant by name: (grid|base)[@WG][+gen][+tTILEsSPAN][+uUNROLL][+split][+blocks|+records][/probe]. grid: today's steer.wgsl with
 * the simulation's defaults (specialised pipelines, DEFAULT_SEARCH_TILE); base: the steer.wgsl
 * the bundle was given as the baseline (scripts/bench-baseline/, generic, no tile, records);
 * +blocks / +records: the layout of `sorted` (sorted.wgsl); @WG: workgroup size of
 * the per-boid passes; +gen: the generic pipeline (no specialisation); +tTILEsSPAN: the
 * warp-coherent search with tiles of TILE boids spanning at most SPAN cells (t0: off); +u1 / +u2 /
 * +u4: the candidate loop plain or unrolled by 2 or 4 (steer.wgsl UNROLL; default: the adapter's,
 * as the browser backend picks it); +split: the steer pass as two dispatches (steer.wgsl SPLIT);
 * +flat: the 3^d search as one loop over all rows' candidates (steer.wgsl FLAT); +nocull: every
 * cell of the 3^d block (steer.wgsl CULL off); +xsK / +xsa: the grid's cells cut in K along x
 * (or 'auto'), rows searched as far as the sphere reaches (FlockSimulationOptions.cellSplitX;
 * default: the adapter's, cellSplitFor); +fovN (last):
 * timed with fieldOfView N from the sweep's state (made with the sweep's fieldOfView), so the
 * cone test's cost is seen apart from the state it makes;
 * /probe: the steer pass without its candidate loop (diagnostics).
 */
export interface Variant {
  workgroupSize?: number;
  probe: boolean;
  baseline: boolean;
  specialise: boolean;
  searchTile?: SearchTile;
  sortedLayout?: SortedLayout;
  unroll?: CandidateUnroll;
  split?: boolean;
  flat?: boolean;
  /** false: the search without steer.wgsl's CULL (every cell of the 3^d block). */
  cull?: boolean;
  /** fieldOfView timed (degrees), from the state of the sweep's own fieldOfView. */
  fov?: number;
  /** FlockSimulationOptions.cellSplitX. */
  cellSplitX?: number | 'auto';
}

export function parseVariant(name: string): Variant {
  const m =
    /^(grid|base)(?:@([0-9]+))?(\+gen)?(?:\+t([0-9]+)(?:s([0-9]+))?)?(?:\+u([124]))?(\+split)?(\+blocks|\+records)?(\/probe)?(\+flat)?(\+nocull)?(?:\+xs([1-8]|a))?(?:\+fov([0-9]+))?$/.exec(
      name,
    );
  if (!m)
    throw new Error(
      `unknown variant '${name}' ((grid|base)[@WG][+gen][+tNsK][+u1|+u2|+u4][+split][+blocks|+records][/probe][+flat][+nocull][+xsK][+fovN])`,
    );
  const baseline = m[1] === 'base';
  return {
    ...(m[2] ? { workgroupSize: Number(m[2]) } : {}),
    probe: Boolean(m[9]),
    baseline,
    ...(m[6] ? { unroll: Number(m[6]) as CandidateUnroll } : {}),
    ...(m[7] ? { split: true } : {}),
    ...(m[10] ? { flat: true } : {}),
    ...(m[11] ? { cull: false } : {}),
    ...(m[12] ? { cellSplitX: m[12] === 'a' ? ('auto' as const) : Number(m[12]) } : {}),
    ...(m[13] !== undefined ? { fov: Number(m[13]) } : {}),
    ...(baseline || m[8]
      ? { sortedLayout: m[8] === '+blocks' ? ('blocks' as const) : ('records' as const) }
      : {}),
    specialise: !baseline && !m[3],
    ...(baseline
      ? { searchTile: { tile: 0, span: 0 } }
      : m[4] !== undefined
        ? { searchTile: { tile: Number(m[4]), span: Number(m[5] ?? 2) } }
        : {}),
  };
}

/** The model of a sweep: 'default' (DESIGN section 1's defaults) or 'first' (FIRST_MODEL). */
export type Model = 'default' | 'first';

/**
 * Default parameters (default steering), box side 64 (N/16384)^(1/3), / DENSE_FACTOR when dense,
 * the field of view `fieldOfView` (degrees; 360 is the default).
 */
export function steadyParams(
  n: number,
  scene: Scene,
  brute = false,
  model: Model = 'default',
  fieldOfView = 360,
): FlockParams {
  const side = (64 * Math.cbrt(n / 16384)) / (scene === 'dense' ? DENSE_FACTOR : 1);
  return validateParams({
    ...(model === 'first' ? FIRST_MODEL : {}),
    count: n,
    boundsMin: [-side / 2, -side / 2, -side / 2],
    boundsMax: [side / 2, side / 2, side / 2],
    neighborSearch: brute ? 'brute' : 'grid',
    sort: 'counting',
    seed: 7,
    fieldOfView,
    // The issue-13/29 scenes start from the seed's uniform spread (shared/GPU.md); the default
    // groups start (formed flocks) clusters 3-10x denser after 600 steps.
    start: 'uniform',
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
  /**
   * fieldOfView of the sweep whose state the row starts from (degrees; absent in files from
   * before issue 29: 360); a '+fovN' variant is timed with fieldOfView N from that state.
   */
  fov?: number;
  /**
   * 'fresh': from the seed's uniform state, restored (a GPU copy) before every batch of
   * FRESH_STEPS steps, so the state stays fresh while it is timed; 'steady': after warmSteps steps.
   */
  state: 'fresh' | 'steady';
  /** Mean |N_i| after the timed steps (fresh: after FRESH_STEPS steps from the seed's state). */
  meanNeighborsAfter?: number;
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
  /** Instanced frames per shape and level of detail (SteadyOptions.shapes), where measured. */
  shapes?: ShapeTiming[];
}

/** One frame row of the draw-per-shape sweep: the default view with `shape` and `lodPixels`. */
export interface ShapeTiming {
  shape: Shape;
  /** lodPixels of the view (0: level of detail off). */
  lodPixels: number;
  frame: FrameTiming;
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
  /** The model's parameters ('first': FIRST_MODEL). */
  model: Model;
  /** fieldOfView of every row (degrees; default 360). */
  fieldOfView?: number;
  /** Only the fresh rows (every variant), no warm-up and no steady rows. */
  freshOnly: boolean;
  /** The baseline steer.wgsl for 'base' variants, if the bundle has one. */
  baselineSteer?: string;
  /** Draw modes of the frame rows (default: every mode the renderer has). */
  drawModes?: DrawMode[];
  /** Variants whose steady rows time frames (default: all but probes and brute). */
  framesFor?: string[];
  /**
   * Shapes whose whole frames are timed per level of detail in `lods`, at the sizes of `shapesAt`
   * (the first variant's sparse steady row; default view otherwise, antialias off as the target
   * is single-sampled).
   */
  shapes?: Shape[];
  lods?: number[];
  shapesAt?: number[];
  workgroupSize: number;
  /** Candidate-loop unrolling of variants that do not name one (+u1 / +u4). */
  unroll: CandidateUnroll;
  /** The grid's x split of variants that do not name one (+xsK, +xsa). */
  cellSplitX: number | 'auto';
  /** steer.wgsl without its candidate loop, for '/probe' variants. */
  probeSteer: string;
  /** Sparse records by N (packRecords of initialState(steadyParams(n, 'sparse'))). */
  records: Map<number, Float32Array>;
  log: (line: string) => void;
}

/** Runs the steady/dense/frame sweep; rows in the order measured. */
export async function runSteady(o: SteadyOptions): Promise<SteadyRow[]> {
  const { device } = o;
  const fov = o.fieldOfView ?? 360;
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
    sweepParams: FlockParams,
    records: Float32Array,
    variant: Variant | undefined,
    label: string,
  ): Promise<FlockSimulation> => {
    let params = sweepParams;
    let files: Record<string, string> | undefined;
    if (variant?.baseline) {
      if (!o.baselineSteer)
        throw new Error(`variant '${label}': the bundle has no baseline steer.wgsl`);
      files = { 'steer.wgsl': o.baselineSteer };
    }
    if (variant?.probe) files = { 'steer.wgsl': o.probeSteer };
    if (variant?.fov !== undefined) params = { ...params, fieldOfView: variant.fov };
    const sim = await createFlockSimulation({
      device,
      params: { ...params, count: 1 },
      initialState: { count: 1, positions: new Float32Array(4), velocities: new Float32Array(4) },
      workgroupSize: variant?.workgroupSize ?? o.workgroupSize,
      label,
      specialise: variant?.specialise ?? true,
      ...(variant?.searchTile ? { searchTile: variant.searchTile } : {}),
      ...(variant?.sortedLayout ? { sortedLayout: variant.sortedLayout } : {}),
      unroll: variant?.unroll ?? o.unroll,
      ...(variant?.split ? { splitIntegrate: true } : {}),
      ...(variant?.flat ? { flatSearch: true } : {}),
      ...(variant?.cull === false ? { faceCull: false } : {}),
      cellSplitX: variant?.cellSplitX ?? o.cellSplitX,
      ...(files ? { shaderFiles: files } : {}),
    });
    sim.setRecords(params.count, records);
    sim.setParams(params);
    await sim.ready();
    return sim;
  };

  /**
   * Fresh-state timing: before each batch of FRESH_STEPS steps the seed's state is copied back
   * (outside the timed passes), so the flock cannot cluster while it is timed (a run of hundreds
   * of steps from the uniform state is mostly a clustering flock). Pass times from timestamps.
   */
  const measureFresh = async (sim: FlockSimulation, fresh: GPUBuffer): Promise<number> => {
    const batch = async () => {
      const t0 = performance.now();
      const enc = device.createCommandEncoder();
      enc.copyBufferToBuffer(fresh, 0, sim.buffers.state, 0, fresh.size);
      sim.encodeSteps(enc, FRESH_STEPS);
      device.queue.submit([enc.finish()]);
      sim.afterSubmit();
      await device.queue.onSubmittedWorkDone();
      return (performance.now() - t0) / FRESH_STEPS;
    };
    await batch();
    await sim.timingsSettled();
    sim.resetTimings();
    const per: number[] = [];
    for (let k = 0; k < FRESH_BATCHES; k++) {
      per.push(await batch());
      await sim.timingsSettled();
    }
    return median(per);
  };

  const measureFrames = async (
    sim: FlockSimulation,
    renderer: BoidRenderer,
    mode: DrawMode,
    scene?: RenderScene,
  ): Promise<FrameTiming> => {
    renderer.drawMode = mode;
    const params = sim.params;
    const view = {
      viewProj: viewProjection(defaultCamera(params), FRAME_WIDTH / FRAME_HEIGHT),
      width: FRAME_WIDTH,
      height: FRAME_HEIGHT,
      boidSize: boidSizeFor(params),
      ...(scene ? { scene } : {}),
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

  let savedState: GPUBuffer | null = null;
  const copyInto = (src: GPUBuffer, sim: FlockSimulation) => {
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, sim.buffers.state, 0, src.size);
    device.queue.submit([enc.finish()]);
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
      const want = (m: DrawMode) =>
        renderer.modes.includes(m) && (!o.drawModes || o.drawModes.includes(m));
      if (want('instanced')) row.frame = await measureFrames(sim, renderer, 'instanced');
      if (want('vertex-id')) row.frameVertexId = await measureFrames(sim, renderer, 'vertex-id');
      if (
        o.shapes?.length &&
        base.scene === 'sparse' &&
        base.variant === o.variants[0] &&
        (o.shapesAt ?? []).includes(base.n)
      ) {
        row.shapes = [];
        for (const shape of o.shapes) {
          for (const lodPixels of o.lods ?? [3, 0]) {
            const view = { ...defaultView(), shape, lodPixels, antialias: false };
            const scene = buildScene(sim.params, view, viewStatic(view), boidSizeFor(sim.params));
            // Each shape starts from the same steady state, so the draws see the same picture.
            if (savedState) copyInto(savedState, sim);
            const frame = await measureFrames(sim, renderer, 'instanced', scene);
            row.shapes.push({ shape, lodPixels, frame });
            o.log(
              `[bench-gpu] sparse N=${base.n} ${base.variant} ${shape} lod ${lodPixels}: frame ${fmt(frame.wallMs)} ms, draw ${fmt(frame.passMs.draw)} ms`,
            );
          }
        }
      }
    }
    return row;
  };

  for (const n of o.sizes) {
    for (const scene of o.scenes) {
      const params = steadyParams(n, scene, false, o.model, fov);
      const box = params.boundsMax[0] - params.boundsMin[0];
      const records = scene === 'dense' ? dense.get(n)! : o.records.get(n)!;
      const first = o.variants.find((v) => !v.endsWith('/probe')) ?? o.variants[0]!;
      const warm = await makeSim(params, records, parseVariant(first), `steady.${first}`);
      const freshNbrs = await meanNeighbors(warm);
      const copyOf = (src: GPUBuffer, label: string) => {
        const b = device.createBuffer({
          label,
          size: src.size,
          usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
        });
        const e = device.createCommandEncoder();
        e.copyBufferToBuffer(src, 0, b, 0, b.size);
        device.queue.submit([e.finish()]);
        return b;
      };
      const fresh = copyOf(warm.buffers.state, 'bench.freshState');
      let saved: GPUBuffer | null = null;
      let steadyNbrs = NaN;
      if (!o.freshOnly) {
        // The seed's state, then warmSteps steps: the steady state every variant starts from.
        for (let done = 0; done < o.warmSteps; done += 100) {
          warm.step(Math.min(100, o.warmSteps - done));
          await device.queue.onSubmittedWorkDone();
        }
        steadyNbrs = await meanNeighbors(warm);
        saved = copyOf(warm.buffers.state, 'bench.steadyState');
        savedState = saved;
        o.log(
          `[bench-gpu] ${scene} N=${n} fov ${fov}: |N_i| ${freshNbrs.toFixed(1)} -> ${steadyNbrs.toFixed(1)} after ${o.warmSteps} steps`,
        );
      }
      const variants = [
        ...o.variants,
        ...(!o.freshOnly && scene === 'sparse' && o.bruteAt.includes(n) ? ['brute'] : []),
      ];
      for (const v of variants) {
        const brute = v === 'brute';
        const probe = v.endsWith('/probe');
        const sim =
          v === first
            ? warm
            : await makeSim(
                brute ? steadyParams(n, scene, true, o.model, fov) : params,
                records,
                brute ? undefined : parseVariant(v),
                `steady.${v}`,
              );
        if (!brute) {
          const stepMs = await measureFresh(sim, fresh);
          const t = sim.cumulativeTimings();
          const row: SteadyRow = {
            n,
            scene,
            fov,
            state: 'fresh',
            variant: v,
            box,
            cells: sim.grid.cellCount,
            meanNeighbors: freshNbrs,
            stepMs,
            gpuStepMs: t?.stepMs ?? null,
            passMs: { ...(t?.passes ?? {}) },
          };
          if (!probe) row.meanNeighborsAfter = await meanNeighbors(sim);
          rows.push(row);
          o.log(
            `[bench-gpu] ${scene} N=${n} fov ${fov} fresh ${v}: ${fmt(row.stepMs)} ms/step wall (gpu ${fmt(row.gpuStepMs)}), steer ${fmt(row.passMs.steer)}, |N_i| after ${FRESH_STEPS} steps ${row.meanNeighborsAfter?.toFixed(2) ?? '-'}`,
          );
        }
        if (saved) {
          const enc = device.createCommandEncoder();
          enc.copyBufferToBuffer(saved, 0, sim.buffers.state, 0, saved.size);
          device.queue.submit([enc.finish()]);
          const renderer =
            o.frames && !brute && !probe && (!o.framesFor || o.framesFor.includes(v))
              ? await createBoidRenderer(device, 'rgba8unorm', sim)
              : null;
          const row = await measureRow(sim, renderer, {
            n,
            scene,
            fov,
            state: 'steady',
            variant: v,
            box,
            meanNeighbors: steadyNbrs,
          });
          rows.push(row);
          o.log(
            `[bench-gpu] ${scene} N=${n} fov ${fov} steady ${v}: ${row.stepMs.toFixed(3)} ms/step, steer ${row.passMs.steer?.toFixed(3) ?? '-'}${row.frame ? `, frame ${row.frame.wallMs.toFixed(3)} ms (draw ${row.frame.passMs.draw?.toFixed(3) ?? '-'})` : ''}${row.frameVertexId ? `, vertex-id draw ${row.frameVertexId.passMs.draw?.toFixed(3) ?? '-'}` : ''}`,
          );
          renderer?.dispose();
        }
        sim.dispose();
      }
      fresh.destroy();
      saved?.destroy();
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
    'fov',
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
    'nbrs after',
  ];
  const lines = rows.map((r) => [
    r.scene,
    String(r.fov ?? 360),
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
    r.meanNeighborsAfter === undefined ? '-' : r.meanNeighborsAfter.toFixed(2),
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
      const ref = variants.includes('base')
        ? 'base'
        : variants.includes('grid')
          ? 'grid'
          : variants[0]!;
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

/** The draw-per-shape table (rows with `shapes`), then bird/arrow draw ratios per N and LOD. */
export function shapeTable(rows: SteadyRow[]): string {
  const head = ['N', 'variant', 'shape', 'lodPixels', 'frame ms', 'frame gpu', 'draw ms'];
  const lines: string[][] = [];
  const ratios: string[] = [];
  for (const r of rows) {
    for (const s of r.shapes ?? []) {
      lines.push([
        String(r.n),
        r.variant,
        s.shape,
        String(s.lodPixels),
        fmt(s.frame.wallMs),
        fmt(s.frame.gpuMs),
        fmt(s.frame.passMs.draw),
      ]);
    }
    const draw = (shape: Shape, lod: number) =>
      r.shapes?.find((s) => s.shape === shape && s.lodPixels === lod)?.frame.passMs.draw;
    for (const lod of [...new Set((r.shapes ?? []).map((s) => s.lodPixels))]) {
      const a = draw('arrow', lod);
      const b = draw('bird', lod);
      if (a && b) ratios.push(`N=${r.n} lodPixels ${lod}: bird/arrow draw ${fmt(b / a)}x`);
    }
  }
  if (!lines.length) return '';
  const all = [head, ...lines];
  const widths = head.map((_, c) => Math.max(...all.map((l) => l[c]!.length)));
  return [...all.map((l) => l.map((x, c) => x.padStart(widths[c]!)).join('  ')), ...ratios].join(
    '\n',
  );
}
