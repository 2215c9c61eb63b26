/**
 * The headless WebGPU flock: DESIGN section 1 in compute passes, with no DOM or canvas, so it
 * runs in a browser and in Node under Dawn alike. Owns every GPU buffer it makes (`dispose()`).
 *
 * Memory (boid.wgsl), 32 bytes per boid in each of two buffers, the boid id as f32 in vel.w:
 * `state`, the current state in the order the last step left it (sorted by cell), as a block of
 * positions then a block of velocities (2 * count vec4f); `sorted`, the steer pass's input in
 * cell order, as Boid { pos, vel } records (or position and velocity blocks: sortedLayout,
 * sorted.wgsl), velocities guarded; `nbr`, |N_i| (FlockState's velocities.w) as one f32
 * per boid in the order of `state`, written by the steer pass.
 * Simulated time t (SimTime): the steer pass of each step reads its StepParams (predator positions,
 * the flow's phase at t, from src/core/behaviours.ts in float64) from its own 256-byte slot of a
 * ring, bound with a dynamic offset, so the many steps of one submission each see their own t.
 * One step (grid search, counting sort):
 *   key      clear per-cell counts; count per cell with atomics, keep (cellKey, rank) per boid
 *   sort     exclusive prefix scan of the counts (multi-level) = cell table
 *   reorder  scatter positions and velocities to scan[key] + rank
 *   steer    steer + integrate from `sorted` into `state`, over the 3^d cells
 * Bitonic sort: key (pairs padded to a power of two) -> sort (bitonic network) -> cellTable
 * (binary search) -> reorder (gather) -> steer. Brute force: state -> records in the same order
 * (reorder), then steer over all pairs in workgroup-memory tiles.
 * Every pass keeps to 4 storage buffers, so it runs in Dawn's compatibility mode.
 * The steer pass runs a pipeline specialised for the parameters (terms.ts: the code of terms that
 * are off compiled out) once it is compiled, the generic one until then.
 */
import { nextPow2 } from '../core/numbers';
import { FlockError } from '../core/errors';
import { gridFor, type Grid } from '../core/grid';
import { MAX_COUNT, validateParams, type FlockParams } from '../core/params';
import { SimTime } from '../core/sim-time';
import { initialState, type FlockState } from '../core/state';
import { BufferUsage, MapMode } from './constants';
import {
  programSpecs,
  type CandidateUnroll,
  type ProgramName,
  type SearchTile,
  type SortedLayout,
} from './programs';
import { steerTerms } from '../core/terms';
import {
  createComputePrograms,
  shaderFiles,
  type ComputeProgram,
  type ComputeProgramOptions,
} from './shaders';
import { PassTimer, type PassAverages, type PassName } from './timing';
import { SIM_UNIFORMS, SORT_STAGE_UNIFORMS, STEP_UNIFORMS } from './uniforms';

/** Bytes of one boid's state (position + velocity vec4f, in two blocks). */
export const BOID_BYTES = 32;
/** Elements per scan block per lane (ITEMS in scan.wgsl). */
const SCAN_ITEMS = 4;
/** Largest workgroup the fixed-size workgroup arrays allow (MAX_WG / MAX_BLOCK in the WGSL). */
const MAX_WG = 256;
/** Stride of the per-stage bitonic uniforms (dynamic offsets must be 256-byte aligned at most). */
const STAGE_STRIDE = 256;
/** Stride and initial number of the per-step StepParams slots (the ring grows for longer encodes). */
const STEP_STRIDE = 256;
const STEP_SLOTS = 64;

export interface FlockSimulationOptions {
  device: GPUDevice;
  /** Validated parameters (validateParams). */
  params: FlockParams;
  /** State in boid-id order; initialState(params) when absent. */
  initialState?: FlockState;
  /** Simulated time of that state, seconds (default 0). */
  time?: number;
  /** Workgroup size of the per-boid passes (default 256, at most 256 and the device limit). */
  workgroupSize?: number;
  /** Time passes with timestamp queries when the device has 'timestamp-query' (default true). */
  timestamps?: boolean;
  /** Replace or add WGSL files by name (tests: a broken shader must report its file and line). */
  shaderFiles?: Readonly<Record<string, string>>;
  /** Label prefix of GPU objects. */
  label?: string;
  /** Use at most this many bytes per buffer, below the device's limits (tests, memory budgets). */
  maxBufferBytes?: number;
  /** 'eager' (default): every compute pipeline compiled before this resolves; 'on-use': see ComputeProgramOptions. */
  pipelines?: ComputeProgramOptions['pipelines'];
  /**
   * With pipelines 'on-use': once this settles, the pipelines a step with `params` runs are
   * compiled in the background (the renderer's pipelines first, then these).
   */
  warmAfter?: Promise<unknown>;
  /**
   * Steer pipelines specialised for the parameters (default true): the code of the terms that
   * are off compiled out (steer.wgsl TERMS). Compiled in the background when the parameters
   * change; until then the generic pipeline (same results) runs. `ready()` waits for it.
   */
  specialise?: boolean;
  /**
   * The grid's warp-coherent search (steer.wgsl TILE): boids per tile (0 or 1: off) and the most
   * cells along x a tile may span to use it. Default DEFAULT_SEARCH_TILE.
   */
  searchTile?: SearchTile;
  /** Layout of the steer pass's input (sorted.wgsl): default DEFAULT_SORTED_LAYOUT. */
  sortedLayout?: SortedLayout;
  /**
   * The grid's candidate loop unrolled by 4 (steer.wgsl UNROLL) or not (1, the default): same
   * results; faster on a hardware GPU, slower on a CPU adapter (candidateUnrollFor, device.ts).
   */
  unroll?: CandidateUnroll;
}

/** The default layout of `sorted` (docs/real-gpu.md). */
export const DEFAULT_SORTED_LAYOUT: SortedLayout = 'records';

/**
 * The default search: per boid (tile 0). Tiles of 32 spanning at most 1, 2 or 4 cells were no
 * faster on an H200 at the steady state (docs/real-gpu.md), so they are an option only.
 */
export const DEFAULT_SEARCH_TILE: SearchTile = { tile: 0, span: 0 };

export interface SimulationTimings {
  /** 'gpu': timestamp queries; 'none': the device has no 'timestamp-query'. */
  kind: 'gpu' | 'none';
  /** ms per step by pass, averaged over the last timed batch; null where not measured. */
  passes: Record<Exclude<PassName, 'draw'>, number | null>;
  /** ms per step, first pass begin to last pass end; null where not measured. */
  stepMs: number | null;
  /** Steps the averages cover. */
  steps: number;
  /** Timestamp granularity in ms (Chrome: 0.1), null without timestamps. */
  resolutionMs: number | null;
}

/** The buffers a renderer (or a benchmark) may read. Valid until the next setParams/setState/dispose. */
export interface SimulationBuffers {
  /** Current state: 2*count vec4f, positions then velocities (STORAGE | VERTEX | COPY_SRC | COPY_DST). */
  state: GPUBuffer;
  /** Scratch: the steer pass's input, `count` Boid { pos, vel } records in cell order. */
  sorted: GPUBuffer;
  /** cellCount + 1 u32: cell c holds sorted boids [cellStart[c], cellStart[c+1]). */
  cellStart: GPUBuffer;
  /** SimParams uniform. */
  uniforms: GPUBuffer;
  /** `count` f32: |N_i| of the last step, in the order of `state` (STORAGE | VERTEX | COPY_SRC | COPY_DST). */
  nbr: GPUBuffer;
}

export interface FlockSimulation {
  readonly device: GPUDevice;
  /** The current parameters (a copy). */
  readonly params: FlockParams;
  readonly count: number;
  /** The grid of the current parameters. */
  readonly grid: Grid;
  /** Largest count the device's buffer limits allow. */
  readonly maxCount: number;
  /** Padded length of the bitonic key array (0 unless sort = 'bitonic'). */
  readonly sortSize: number;
  /** Workgroup sizes in use. */
  readonly workgroupSizes: { boid: number; scan: number; sort: number };
  readonly buffers: SimulationBuffers;
  /** Simulated time t at the start of the next step, seconds (0 at creation and setState). */
  readonly time: number;
  /** Submits n fixed steps (no drawing). */
  step(n?: number): void;
  /** Resolves once the steer pipeline specialised for the current parameters is in use. */
  ready(): Promise<void>;
  /**
   * Encodes n steps into `encoder` (the caller submits, then calls afterSubmit()). Their per-step
   * uniforms are written into fresh ring slots now: submit an encoder before encoding more than
   * the ring holds (it grows to the largest n asked for, at least 64 steps).
   */
  encodeSteps(encoder: GPUCommandEncoder, n: number): void;
  /** Reads back timestamps of steps encoded with encodeSteps, once their encoder was submitted. */
  afterSubmit(): void;
  /** The state after all submitted work, in boid-id order. */
  readState(): Promise<FlockState>;
  /** New validated parameters; keeps the state unless `count` changes (then initialState(params)). */
  setParams(params: FlockParams): void;
  /**
   * Uploads a state in boid-id order (velocities.w: |N_i|); a different count updates
   * params.count. The simulated time restarts at `time` seconds (default 0).
   */
  setState(state: FlockState, time?: number): void;
  /**
   * Uploads data already in the internal layout (packRecords: positions, then velocities with ids;
   * |N_i| becomes 0); a different count updates params.count; the time restarts at `time` (default 0).
   * For callers that must keep CPU work away from GPU calls.
   */
  setRecords(count: number, records: Float32Array, time?: number): void;
  /** |N_i| per boid id for the current state, counted the way the step counts. */
  debugNeighborCounts(): Promise<Uint32Array>;
  /** (cellKey, boid id) of the current state after the grid sort, in sorted order. */
  debugSortedKeys(): Promise<{ keys: Uint32Array; ids: Uint32Array }>;
  /** Per-cell [start, end) into the sorted order, after the grid sort of the current state. */
  debugCellTable(): Promise<{ start: Uint32Array; end: Uint32Array }>;
  /** Per-pass GPU times of recent steps. */
  timings(): SimulationTimings;
  /** Averages since resetTimings() (benchmarks), or null. */
  cumulativeTimings(): PassAverages | null;
  resetTimings(): void;
  /** Resolves when the timestamp readback in flight has been averaged. */
  timingsSettled(): Promise<void>;
  dispose(): void;
  readonly disposed: boolean;
}

/** min(maxStorageBufferBindingSize, maxBufferSize) of a device, and `cap` when given. */
export function bufferLimit(limits: GPUSupportedLimits, cap = Infinity): number {
  return Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize, cap);
}

/** Largest count whose boid records fit one storage binding of this device (and `cap` bytes). */
export function maxCountFor(limits: GPUSupportedLimits, cap = Infinity): number {
  return Math.max(1, Math.min(MAX_COUNT, Math.floor(bufferLimit(limits, cap) / BOID_BYTES)));
}

const floorPow2 = (n: number): number => 2 ** Math.floor(Math.log2(Math.max(1, n)));
const align = (x: number, a: number): number => Math.ceil(x / a) * a;

/** One bind group: buffers by binding number, optionally with a byte range. */
type Bindings = Record<number, GPUBuffer | { buffer: GPUBuffer; offset?: number; size: number }>;

/** The compute programs one step with `params` runs (its neighbour search and sort). */
export function stepPrograms(params: FlockParams): ProgramName[] {
  if (params.neighborSearch !== 'grid') return ['copyRecords', 'steerBrute'];
  if (params.sort === 'bitonic') {
    return [
      'makeKeys',
      'localSort',
      'localDisperseAll',
      'globalFlip',
      'globalDisperse',
      'cellTable',
      'reorder',
      'steerGrid',
    ];
  }
  return ['clearCounts', 'countCells', 'scanBlocks', 'addBlockSums', 'scatter', 'steerGrid'];
}

/**
 * Creates the simulation: compiles every pipeline (async, so WGSL errors come back as ShaderError
 * with file:line), allocates buffers for `params` and uploads the state.
 * @throws FlockError('count', ...) when the state does not fit the device's buffer limits;
 * ShaderError when a shader does not compile.
 */
export async function createFlockSimulation(
  options: FlockSimulationOptions,
): Promise<FlockSimulation> {
  const { device } = options;
  const lim = device.limits;
  const wgCap = Math.min(
    MAX_WG,
    lim.maxComputeInvocationsPerWorkgroup,
    lim.maxComputeWorkgroupSizeX,
  );
  const wg = {
    boid: Math.max(1, Math.min(options.workgroupSize ?? 256, wgCap)),
    scan: floorPow2(wgCap),
    sort: floorPow2(wgCap),
  };
  const programs = await createComputePrograms(
    device,
    programSpecs(
      wg,
      options.searchTile ?? DEFAULT_SEARCH_TILE,
      options.sortedLayout ?? DEFAULT_SORTED_LAYOUT,
      options.unroll ?? 1,
    ),
    shaderFiles(options.shaderFiles),
    {
      pipelines: options.pipelines ?? 'eager',
      warm: options.warmAfter && {
        names: stepPrograms(options.params),
        after: options.warmAfter,
      },
    },
  );
  const sim = new Simulation(device, programs, wg, options);
  try {
    sim.setParams(options.params);
    sim.setState(options.initialState ?? initialState(sim.params), options.time ?? 0);
  } catch (e) {
    sim.dispose();
    throw e;
  }
  return sim;
}

interface ScanLevel {
  /** Elements at this level. */
  n: number;
  /** Byte offset in the partials buffer (level 0 lives in cellStart). */
  offset: number;
}

class Simulation implements FlockSimulation {
  readonly maxCount: number;
  private readonly limit: number;
  private readonly timer: PassTimer;
  private readonly label: string;
  private _params!: FlockParams;
  private _grid!: Grid;
  private _count = 0;
  private _sortSize = 0;
  private _disposed = false;
  private readonly owned = new Set<GPUBuffer>();
  private readonly uniformBuffer: GPUBuffer;
  private readonly stageBuffer: GPUBuffer;
  private readonly dummy: GPUBuffer;
  private readonly clock = new SimTime(1 / 60);
  /** The StepParams ring: `stepSlots` slots of STEP_STRIDE bytes; `stepNext` the next one to use. */
  private stepBuffer: GPUBuffer;
  private stepSlots = STEP_SLOTS;
  private stepNext = 0;
  private stepGeneration = 0;
  private state: GPUBuffer | null = null;
  private nbr: GPUBuffer | null = null;
  private sorted: GPUBuffer | null = null;
  private cellStart: GPUBuffer | null = null;
  private partials: GPUBuffer | null = null;
  private keyRank: GPUBuffer | null = null;
  private pairs: GPUBuffer | null = null;
  private scanLevels: ScanLevel[] = [];
  private groups = new Map<string, GPUBindGroup>();
  private layoutKey = '';
  private readonly specialise: boolean;
  private readonly compileAfter: Promise<unknown>;
  private readonly files: Readonly<Record<string, string>>;
  /** Specialised steer programs by entry and TERMS mask: null while compiling or after a failure. */
  private readonly variants = new Map<
    string,
    { program: ComputeProgram | null; done: Promise<void> }
  >();

  constructor(
    readonly device: GPUDevice,
    private readonly programs: Record<ProgramName, ComputeProgram>,
    readonly workgroupSizes: { boid: number; scan: number; sort: number },
    options: FlockSimulationOptions,
  ) {
    this.label = options.label ?? 'flock';
    this.specialise = options.specialise ?? true;
    // With pipelines on use, specialised ones wait for what the first frame needs.
    this.compileAfter = (options.pipelines === 'on-use' && options.warmAfter) || Promise.resolve();
    this.files = shaderFiles(options.shaderFiles);
    this.limit = bufferLimit(device.limits, options.maxBufferBytes);
    this.maxCount = maxCountFor(device.limits, options.maxBufferBytes);
    this.timer = new PassTimer(device, options.timestamps ?? true, this.label);
    this.uniformBuffer = this.buffer(
      'uniforms',
      SIM_UNIFORMS.size,
      BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    );
    // One SortStage per power of two: the entry at log2(height) * STAGE_STRIDE.
    this.stageBuffer = this.buffer(
      'sortStages',
      32 * STAGE_STRIDE,
      BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    );
    const stages = new ArrayBuffer(32 * STAGE_STRIDE);
    for (let k = 0; k < 32; k++)
      SORT_STAGE_UNIFORMS.pack({ height: (2 ** k) >>> 0 }, stages, k * STAGE_STRIDE);
    device.queue.writeBuffer(this.stageBuffer, 0, stages);
    // The top scan level has no level above: its block total goes nowhere (arrayLength check).
    this.dummy = this.buffer('scanTop', 16, BufferUsage.STORAGE);
    this.stepBuffer = this.createStepBuffer();
  }

  private createStepBuffer(): GPUBuffer {
    this.stepGeneration++;
    this.stepNext = 0;
    return this.buffer(
      'stepParams',
      this.stepSlots * STEP_STRIDE,
      BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    );
  }

  get time(): number {
    return this.clock.time;
  }

  get params(): FlockParams {
    return {
      ...this._params,
      boundsMin: [...this._params.boundsMin],
      boundsMax: [...this._params.boundsMax],
    };
  }
  get count(): number {
    return this._count;
  }
  get grid(): Grid {
    return this._grid;
  }
  get sortSize(): number {
    return this._sortSize;
  }
  get disposed(): boolean {
    return this._disposed;
  }
  get buffers(): SimulationBuffers {
    this.assertLive();
    return {
      state: this.state!,
      sorted: this.sorted!,
      cellStart: this.cellStart!,
      uniforms: this.uniformBuffer,
      nbr: this.nbr!,
    };
  }

  private assertLive(): void {
    if (this._disposed) throw new Error('FlockSimulation: used after dispose()');
  }

  private buffer(name: string, size: number, usage: number): GPUBuffer {
    const b = this.device.createBuffer({
      label: `${this.label}.${name}`,
      size: align(Math.max(size, 16), 16),
      usage,
    });
    this.owned.add(b);
    return b;
  }

  private drop(b: GPUBuffer | null): null {
    if (b) {
      this.owned.delete(b);
      b.destroy();
    }
    return null;
  }

  private checkFits(what: string, bytes: number, count: number): void {
    if (bytes <= this.limit) return;
    throw new FlockError(
      'count',
      count,
      `an integer from 1 to ${this.maxCount} on this device`,
      `${what} needs ${bytes} bytes; the device's maxStorageBufferBindingSize/maxBufferSize is ${this.limit}`,
    );
  }

  // ---- layout: buffers and bind groups for (count, grid, sort, search) ----

  private ensureLayout(): void {
    const p = this._params;
    const grid = this._grid;
    const count = p.count;
    const bitonic = p.sort === 'bitonic';
    const key = `${count}|${grid.cellCount}|${p.sort}`;
    if (key === this.layoutKey) return;
    if (count > this.maxCount) {
      throw new FlockError(
        'count',
        count,
        `an integer from 1 to ${this.maxCount} on this device`,
        `${count} boids need ${count * BOID_BYTES} bytes of boid records; the device's maxStorageBufferBindingSize/maxBufferSize is ${this.limit}`,
      );
    }
    const cells = grid.cellCount + 1;
    this.checkFits('the cell table', cells * 4, count);
    const sortSize = bitonic ? Math.max(nextPow2(count), 2 * this.workgroupSizes.sort) : 0;
    if (bitonic) this.checkFits('the bitonic key array', sortSize * 8, count);

    if (count !== this._count || !this.state) {
      this.state =
        this.drop(this.state) ??
        this.buffer(
          'state',
          count * BOID_BYTES,
          BufferUsage.STORAGE | BufferUsage.VERTEX | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
        );
      this.nbr =
        this.drop(this.nbr) ??
        this.buffer(
          'nbr',
          count * 4,
          BufferUsage.STORAGE | BufferUsage.VERTEX | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
        );
      this.sorted =
        this.drop(this.sorted) ??
        this.buffer(
          'sorted',
          count * BOID_BYTES,
          BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
        );
    }
    this.cellStart =
      this.drop(this.cellStart) ??
      this.buffer('cellStart', cells * 4, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
    // Scan levels: level 0 is cellStart itself; each level above holds the block totals below.
    const block = this.workgroupSizes.scan * SCAN_ITEMS;
    const levels: ScanLevel[] = [{ n: cells, offset: 0 }];
    let partialBytes = 0;
    for (let n = cells; n > block;) {
      n = Math.ceil(n / block);
      levels.push({ n, offset: partialBytes });
      partialBytes = align(partialBytes + n * 4, 256);
    }
    this.scanLevels = levels;
    this.partials =
      this.drop(this.partials) ?? this.buffer('scanPartials', partialBytes, BufferUsage.STORAGE);
    this.keyRank = this.drop(this.keyRank);
    this.pairs = this.drop(this.pairs);
    if (bitonic) {
      this.pairs = this.buffer('pairs', sortSize * 8, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
    } else {
      this.keyRank = this.buffer('keyRank', count * 8, BufferUsage.STORAGE);
    }
    this._count = count;
    this._sortSize = sortSize;
    this.layoutKey = key;
    this.groups.clear();
  }

  private bindGroup(
    program: ProgramName,
    group: number,
    bindings: Bindings,
    tag = '',
  ): GPUBindGroup {
    const k = `${program}/${group}/${tag}`;
    let g = this.groups.get(k);
    if (!g) {
      g = this.device.createBindGroup({
        label: `${this.label}.${program}.${group}${tag}`,
        layout: this.programs[program].layouts[group]!,
        entries: Object.entries(bindings).map(([b, r]) => ({
          binding: Number(b),
          resource:
            'buffer' in r
              ? { buffer: r.buffer, offset: r.offset ?? 0, size: r.size }
              : { buffer: r },
        })),
      });
      this.groups.set(k, g);
    }
    return g;
  }

  private levelRange(k: number): { buffer: GPUBuffer; offset: number; size: number } {
    const l = this.scanLevels[k]!;
    return k === 0
      ? { buffer: this.cellStart!, offset: 0, size: l.n * 4 }
      : { buffer: this.partials!, offset: l.offset, size: l.n * 4 };
  }

  // ---- dispatch ----

  private dispatch(pass: GPUComputePassEncoder, items: number, perGroup: number): void {
    const groups = Math.ceil(items / perGroup);
    if (groups === 0) return;
    const maxDim = this.device.limits.maxComputeWorkgroupsPerDimension;
    const x = Math.min(groups, maxDim);
    const y = Math.ceil(groups / x);
    pass.dispatchWorkgroups(x, y);
  }

  private run(
    pass: GPUComputePassEncoder,
    program: ProgramName,
    items: number,
    perGroup: number,
    ...groups: GPUBindGroup[]
  ): void {
    pass.setPipeline(this.programs[program].pipeline);
    groups.forEach((g, i) => pass.setBindGroup(i, g));
    this.dispatch(pass, items, perGroup);
  }

  private beginPass(
    encoder: GPUCommandEncoder,
    name: PassName,
    timed: boolean,
  ): GPUComputePassEncoder {
    const timestampWrites = timed ? this.timer.writes(name) : undefined;
    return encoder.beginComputePass(
      timestampWrites ? { label: name, timestampWrites } : { label: name },
    );
  }

  /** key/sort/(cellTable)/reorder: state -> sorted, with cellStart filled. */
  private encodeSort(encoder: GPUCommandEncoder, timed: boolean): void {
    const u = this.uniformBuffer;
    const n = this._count;
    const cells = this._grid.cellCount + 1;
    const b = this.workgroupSizes.boid;
    if (this._params.sort === 'counting') {
      let pass = this.beginPass(encoder, 'key', timed);
      this.run(
        pass,
        'clearCounts',
        cells,
        b,
        this.bindGroup('clearCounts', 0, { 0: u, 2: this.cellStart! }),
      );
      this.run(
        pass,
        'countCells',
        n,
        b,
        this.bindGroup('countCells', 0, {
          0: u,
          1: this.state!,
          2: this.cellStart!,
          3: this.keyRank!,
        }),
      );
      pass.end();
      pass = this.beginPass(encoder, 'sort', timed);
      this.encodeScan(pass);
      pass.end();
      pass = this.beginPass(encoder, 'reorder', timed);
      this.run(
        pass,
        'scatter',
        n,
        b,
        this.bindGroup('scatter', 0, {
          0: u,
          1: this.state!,
          2: this.cellStart!,
          3: this.keyRank!,
          4: this.sorted!,
        }),
      );
      pass.end();
      return;
    }
    const s = this.workgroupSizes.sort;
    const M = this._sortSize;
    const blockPairs = 2 * s;
    let pass = this.beginPass(encoder, 'key', timed);
    this.run(
      pass,
      'makeKeys',
      M,
      s,
      this.bindGroup('makeKeys', 0, { 0: u, 1: this.pairs!, 2: this.state! }),
    );
    pass.end();
    pass = this.beginPass(encoder, 'sort', timed);
    const pairsOnly = { 0: u, 1: this.pairs! };
    this.run(pass, 'localSort', M / blockPairs, 1, this.bindGroup('localSort', 0, pairsOnly));
    const stage = (h: number) => [Math.log2(h) * STAGE_STRIDE];
    for (let h = 2 * blockPairs; h <= M; h *= 2) {
      pass.setPipeline(this.programs.globalFlip.pipeline);
      pass.setBindGroup(0, this.bindGroup('globalFlip', 0, { 0: u, 1: this.pairs! }));
      pass.setBindGroup(
        1,
        this.bindGroup('globalFlip', 1, {
          0: { buffer: this.stageBuffer, size: SORT_STAGE_UNIFORMS.size },
        }),
        stage(h),
      );
      this.dispatch(pass, M / 2, s);
      if (h / 2 > blockPairs) {
        pass.setPipeline(this.programs.globalDisperse.pipeline);
        pass.setBindGroup(0, this.bindGroup('globalDisperse', 0, { 0: u, 1: this.pairs! }));
        for (let d = h / 2; d > blockPairs; d /= 2) {
          pass.setBindGroup(
            1,
            this.bindGroup('globalDisperse', 1, {
              0: { buffer: this.stageBuffer, size: SORT_STAGE_UNIFORMS.size },
            }),
            stage(d),
          );
          this.dispatch(pass, M / 2, s);
        }
      }
      this.run(
        pass,
        'localDisperseAll',
        M / blockPairs,
        1,
        this.bindGroup('localDisperseAll', 0, pairsOnly),
      );
    }
    pass.end();
    pass = this.beginPass(encoder, 'cellTable', timed);
    this.run(
      pass,
      'cellTable',
      cells,
      b,
      this.bindGroup('cellTable', 0, { 0: u, 1: this.pairs!, 2: this.cellStart! }),
    );
    pass.end();
    pass = this.beginPass(encoder, 'reorder', timed);
    this.run(
      pass,
      'reorder',
      n,
      b,
      this.bindGroup('reorder', 0, { 0: u, 1: this.pairs!, 2: this.state!, 3: this.sorted! }),
    );
    pass.end();
  }

  private encodeScan(pass: GPUComputePassEncoder): void {
    const levels = this.scanLevels;
    const block = this.workgroupSizes.scan * SCAN_ITEMS;
    const top = levels.length - 1;
    for (let k = 0; k <= top; k++) {
      const sums = k < top ? this.levelRange(k + 1) : this.dummy;
      this.run(
        pass,
        'scanBlocks',
        levels[k]!.n,
        block,
        this.bindGroup('scanBlocks', 0, { 0: this.levelRange(k), 1: sums }, `L${k}`),
      );
    }
    for (let k = top - 1; k >= 0; k--) {
      this.run(
        pass,
        'addBlockSums',
        levels[k]!.n,
        block,
        this.bindGroup(
          'addBlockSums',
          0,
          { 0: this.levelRange(k), 1: this.levelRange(k + 1) },
          `L${k}`,
        ),
      );
    }
  }

  /** Everything before the steer pass: `sorted` (and cellStart for the grid) ready. */
  private encodeGather(encoder: GPUCommandEncoder, timed: boolean): void {
    if (this._params.neighborSearch === 'grid') {
      this.encodeSort(encoder, timed);
    } else {
      const pass = this.beginPass(encoder, 'reorder', timed);
      this.run(
        pass,
        'copyRecords',
        this._count,
        this.workgroupSizes.boid,
        this.bindGroup('copyRecords', 0, {
          0: this.uniformBuffer,
          2: this.state!,
          3: this.sorted!,
        }),
      );
      pass.end();
    }
  }

  /**
   * Byte offsets of the StepParams slots of the next n steps, their values written now. Steps
   * that need no per-step value (no predators, no turbulence) all share slot 0.
   */
  private stepOffsets(n: number): number[] {
    const p = this._params;
    if (p.predators === 0 && p.turbulence === 0) {
      this.clock.advance(n);
      return new Array<number>(n).fill(0);
    }
    if (n > this.stepSlots) {
      this.drop(this.stepBuffer);
      this.stepSlots = nextPow2(n);
      this.stepBuffer = this.createStepBuffer();
    }
    if (this.stepNext + n > this.stepSlots) this.stepNext = 0;
    const first = this.stepNext;
    const data = new ArrayBuffer(n * STEP_STRIDE);
    const offsets: number[] = [];
    for (let s = 0; s < n; s++) {
      const t = this.clock.time;
      STEP_UNIFORMS.pack({ params: p, time: t }, data, s * STEP_STRIDE);
      this.clock.advance(1);
      offsets.push((first + s) * STEP_STRIDE);
    }
    this.device.queue.writeBuffer(this.stepBuffer, first * STEP_STRIDE, data);
    this.stepNext = first + n;
    return offsets;
  }

  /**
   * The steer program for the current parameters: the specialised one once compiled (started
   * here in the background the first time), the generic one until then.
   */
  private steerProgram(name: 'steerGrid' | 'steerBrute'): {
    program: ComputeProgram;
    done: Promise<void>;
  } {
    const generic = this.programs[name];
    if (!this.specialise) return { program: generic, done: Promise.resolve() };
    const terms = steerTerms(this._params);
    const key = `${name}:${terms}`;
    let v = this.variants.get(key);
    if (!v) {
      const spec = {
        ...generic.spec,
        constants: { ...generic.spec.constants, TERMS: terms },
      };
      const entry: { program: ComputeProgram | null; done: Promise<void> } = {
        program: null,
        done: Promise.resolve(),
      };
      entry.done = this.compileAfter
        .catch(() => undefined)
        .then(() => createComputePrograms(this.device, { [name]: spec }, this.files))
        .then((made) => {
          if (!this._disposed) entry.program = made[name]!;
        })
        // The generic pipeline computes the same step: keep it when a specialised one fails.
        .catch(() => undefined);
      this.variants.set(key, entry);
      v = entry;
    }
    return { program: v.program ?? generic, done: v.done };
  }

  async ready(): Promise<void> {
    this.assertLive();
    const grid = this._params.neighborSearch === 'grid';
    await this.steerProgram(grid ? 'steerGrid' : 'steerBrute').done;
  }

  encodeSteps(encoder: GPUCommandEncoder, n: number): void {
    this.assertLive();
    const u = this.uniformBuffer;
    const grid = this._params.neighborSearch === 'grid';
    const offsets = this.stepOffsets(n);
    const program = grid ? 'steerGrid' : 'steerBrute';
    const steer = this.steerProgram(program).program;
    const stepGroup = this.bindGroup(
      program,
      1,
      { 0: { buffer: this.stepBuffer, size: STEP_UNIFORMS.size } },
      `g${this.stepGeneration}`,
    );
    for (let s = 0; s < n; s++) {
      const timed = this.timer.beginStep();
      this.encodeGather(encoder, timed);
      const pass = this.beginPass(encoder, 'steer', timed);
      const main = grid
        ? this.bindGroup('steerGrid', 0, {
            0: u,
            1: this.sorted!,
            2: this.cellStart!,
            3: this.state!,
            5: this.nbr!,
          })
        : this.bindGroup('steerBrute', 0, { 0: u, 1: this.sorted!, 3: this.state!, 5: this.nbr! });
      pass.setPipeline(steer.pipeline);
      pass.setBindGroup(0, main);
      pass.setBindGroup(1, stepGroup, [offsets[s]!]);
      this.dispatch(pass, this._count, this.workgroupSizes.boid);
      pass.end();
    }
    this.timer.resolve(encoder);
  }

  afterSubmit(): void {
    this.timer.collect();
  }

  step(n = 1): void {
    this.assertLive();
    // Submit in chunks so the GPU starts while later steps are still being encoded.
    const chunk = 16;
    for (let done = 0; done < n; done += chunk) {
      const encoder = this.device.createCommandEncoder({ label: `${this.label}.step` });
      this.encodeSteps(encoder, Math.min(chunk, n - done));
      this.device.queue.submit([encoder.finish()]);
      this.afterSubmit();
    }
  }

  // ---- parameters and state ----

  setParams(params: FlockParams): void {
    this.assertLive();
    const p = validateParams(params);
    const countChanged = this._params !== undefined && p.count !== this._count;
    this._params = p;
    this.clock.setTimeStep(p.timeStep);
    this._grid = gridFor(p);
    this.ensureLayout();
    this.writeUniforms();
    if (countChanged) this.setRecords(p.count, packRecords(initialState(p)));
    // Start compiling the specialised steer pipeline of these parameters now.
    this.steerProgram(p.neighborSearch === 'grid' ? 'steerGrid' : 'steerBrute');
  }

  setState(state: FlockState, time = 0): void {
    this.assertLive();
    const n = state.count;
    if (state.positions.length !== 4 * n || state.velocities.length !== 4 * n) {
      throw new FlockError('state', state, `positions and velocities of length 4*count = ${4 * n}`);
    }
    this.setRecords(n, packRecords(state), time);
    const nbr = new Float32Array(n);
    for (let i = 0; i < n; i++) nbr[i] = state.velocities[4 * i + 3]!;
    this.device.queue.writeBuffer(this.nbr!, 0, nbr);
  }

  setRecords(n: number, records: Float32Array, time = 0): void {
    this.assertLive();
    if (!Number.isInteger(n) || n < 1 || n > this.maxCount) {
      throw new FlockError(
        'state.count',
        n,
        `an integer from 1 to ${this.maxCount} on this device`,
      );
    }
    if (records.length < 8 * n) {
      throw new FlockError('records', records, `a Float32Array(8*count) = Float32Array(${8 * n})`);
    }
    if (n !== this._count) {
      this._params = validateParams({ count: n }, this._params);
      this._grid = gridFor(this._params);
      this.ensureLayout();
      this.writeUniforms();
    }
    this.device.queue.writeBuffer(this.state!, 0, records as Float32Array<ArrayBuffer>, 0, 8 * n);
    this.device.queue.writeBuffer(this.nbr!, 0, new Float32Array(n));
    this.clock.reset(time);
  }

  private writeUniforms(): void {
    this.device.queue.writeBuffer(
      this.uniformBuffer,
      0,
      SIM_UNIFORMS.pack({ params: this._params, grid: this._grid, sortSize: this._sortSize }),
    );
  }

  // ---- readback ----

  private async readBuffer(
    src: GPUBuffer,
    bytes: number,
    encode?: (e: GPUCommandEncoder) => void,
  ): Promise<ArrayBuffer> {
    this.assertLive();
    const staging = this.buffer('readback', bytes, BufferUsage.MAP_READ | BufferUsage.COPY_DST);
    try {
      const encoder = this.device.createCommandEncoder({ label: `${this.label}.read` });
      encode?.(encoder);
      encoder.copyBufferToBuffer(src, 0, staging, 0, align(bytes, 4));
      this.device.queue.submit([encoder.finish()]);
      await staging.mapAsync(MapMode.READ, 0, align(bytes, 4));
      return staging.getMappedRange(0, align(bytes, 4)).slice(0, bytes);
    } finally {
      this.drop(staging);
    }
  }

  async readState(): Promise<FlockState> {
    const n = this._count;
    const [raw, nbr] = await Promise.all([
      this.readBuffer(this.state!, n * BOID_BYTES),
      this.readBuffer(this.nbr!, n * 4),
    ]);
    return unpackRecords(new Float32Array(raw), n, new Float32Array(nbr));
  }

  async debugNeighborCounts(): Promise<Uint32Array> {
    const n = this._count;
    const out = this.buffer('debugCounts', n * 4, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
    try {
      const grid = this._params.neighborSearch === 'grid';
      const raw = await this.readBuffer(out, n * 4, (encoder) => {
        this.encodeGather(encoder, false);
        const pass = encoder.beginComputePass({ label: 'debugCounts' });
        const bg = this.device.createBindGroup({
          layout: this.programs[grid ? 'countGrid' : 'countBrute'].layouts[0]!,
          entries: [
            { binding: 0, resource: { buffer: this.uniformBuffer } },
            { binding: 1, resource: { buffer: this.sorted! } },
            ...(grid ? [{ binding: 2, resource: { buffer: this.cellStart! } }] : []),
            { binding: 4, resource: { buffer: out } },
          ],
        });
        this.run(pass, grid ? 'countGrid' : 'countBrute', n, this.workgroupSizes.boid, bg);
        pass.end();
      });
      return new Uint32Array(raw);
    } finally {
      this.drop(out);
    }
  }

  async debugSortedKeys(): Promise<{ keys: Uint32Array; ids: Uint32Array }> {
    const n = this._count;
    const out = this.buffer('debugKeys', n * 4, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
    try {
      const keys = new Uint32Array(
        await this.readBuffer(out, n * 4, (encoder) => {
          this.encodeSort(encoder, false);
          const pass = encoder.beginComputePass({ label: 'debugKeys' });
          const bg = this.device.createBindGroup({
            layout: this.programs.sortedKeys.layouts[0]!,
            entries: [
              { binding: 0, resource: { buffer: this.uniformBuffer } },
              { binding: 4, resource: { buffer: this.sorted! } },
              { binding: 5, resource: { buffer: out } },
            ],
          });
          this.run(pass, 'sortedKeys', n, this.workgroupSizes.boid, bg);
          pass.end();
        }),
      );
      const rec = new Float32Array(await this.readBuffer(this.sorted!, n * BOID_BYTES));
      const ids = new Uint32Array(n);
      // vel.w of Boid records, or of the velocity block (sorted.wgsl).
      const blocks = this.programs.scatter.spec.constants?.SORTED_BLOCKS === 1;
      for (let i = 0; i < n; i++) ids[i] = rec[blocks ? 4 * n + 4 * i + 3 : 8 * i + 7]!;
      return { keys, ids };
    } finally {
      this.drop(out);
    }
  }

  async debugCellTable(): Promise<{ start: Uint32Array; end: Uint32Array }> {
    const cells = this._grid.cellCount;
    const table = new Uint32Array(
      await this.readBuffer(this.cellStart!, (cells + 1) * 4, (encoder) =>
        this.encodeSort(encoder, false),
      ),
    );
    return { start: table.slice(0, cells), end: table.slice(1, cells + 1) };
  }

  // ---- timings and teardown ----

  timings(): SimulationTimings {
    const t = this.timer.enabled ? this.timer.latest() : null;
    const get = (k: Exclude<PassName, 'draw'>) => t?.passes[k] ?? null;
    return {
      kind: this.timer.enabled ? 'gpu' : 'none',
      passes: {
        key: get('key'),
        sort: get('sort'),
        cellTable: get('cellTable'),
        reorder: get('reorder'),
        steer: get('steer'),
      },
      stepMs: t?.stepMs ?? null,
      steps: t?.steps ?? 0,
      resolutionMs: t ? t.resolutionMs : null,
    };
  }

  cumulativeTimings(): PassAverages | null {
    return this.timer.cumulative();
  }

  resetTimings(): void {
    this.timer.resetTotals();
  }

  timingsSettled(): Promise<void> {
    return this.timer.settled();
  }

  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this.timer.dispose();
    for (const b of this.owned) b.destroy();
    this.owned.clear();
    this.groups.clear();
    this.state = this.sorted = this.cellStart = this.partials = this.keyRank = this.pairs = null;
    this.nbr = null;
  }
}

/**
 * A state in boid-id order -> the internal layout (boid.wgsl): Float32Array(8*count), positions
 * (xyzw) of every boid, then velocities (xyz + the boid id as f32 in w).
 */
export function packRecords(state: FlockState): Float32Array {
  const n = state.count;
  const data = new Float32Array(8 * n);
  data.set(state.positions.subarray(0, 4 * n), 0);
  data.set(state.velocities.subarray(0, 4 * n), 4 * n);
  for (let i = 0; i < n; i++) data[4 * n + 4 * i + 3] = i;
  return data;
}

/**
 * The internal layout (positions block, velocities block with ids in w), boids in any order, and
 * `nbr` (|N_i| in the same order; zeros when absent) -> FlockState in boid-id order with
 * velocities.w = |N_i|.
 * @throws Error when the ids are not a permutation of 0..n-1 (a broken sort would show here).
 */
export function unpackRecords(raw: Float32Array, n: number, nbr?: Float32Array): FlockState {
  const positions = new Float32Array(4 * n);
  const velocities = new Float32Array(4 * n);
  const seen = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const p = 4 * k;
    const v = 4 * n + 4 * k;
    const id = raw[v + 3]!;
    if (!(id >= 0 && id < n && Number.isInteger(id)) || seen[id]) {
      throw new Error(
        `FlockSimulation: boid ${k} has id ${id}; ids must be a permutation of 0..${n - 1}`,
      );
    }
    seen[id] = 1;
    positions.set(raw.subarray(p, p + 4), 4 * id);
    velocities[4 * id] = raw[v]!;
    velocities[4 * id + 1] = raw[v + 1]!;
    velocities[4 * id + 2] = raw[v + 2]!;
    velocities[4 * id + 3] = nbr ? nbr[k]! : 0;
  }
  return { count: n, positions, velocities };
}
