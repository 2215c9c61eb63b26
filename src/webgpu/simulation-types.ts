/**
 * The WebGPU simulation's public shape (simulation.ts makes one): its options, the buffers a
 * renderer reads, its timings, and the FlockSimulation interface.
 */
import type { FlockParams } from '../core/params';
import type { Grid } from '../core/grid';
import type { FlockState } from '../core/state';
import type { WorkgroupSizes } from './bind-groups';
import type { CandidateUnroll, SearchTile, SortedLayout } from './programs';
import type { ComputeProgramOptions } from './shaders';
import type { VariantStats } from '../core/variant-cache';
import type { PassAverages, PassName } from './timing';

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
   * change (one at a time per device, the newest wish only; steer.ts); until then the generic
   * pipeline (same results) runs. `ready()` waits for it.
   */
  specialise?: boolean;
  /**
   * Most specialised steer pipelines kept on the device (LRU), set by the first simulation on a
   * device (default STEER_VARIANT_BOUND, 16): tests.
   */
  variantBound?: number;
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
  /**
   * The grid's steer pass as two dispatches (steer.wgsl SPLIT): the neighbour sums and the
   * steering, then the point forces and the integration. Same results; default false
   * (docs/real-gpu.md, issue 29).
   */
  splitIntegrate?: boolean;
  /**
   * The grid's 3^d search as one loop over all its rows' candidates (steer.wgsl FLAT) instead of
   * one loop per row: same results (docs/real-gpu.md, issue 29).
   */
  flatSearch?: boolean;
  /**
   * The grid's search skips the rows and the x-1 / x+1 cells whose nearest face lies at least r
   * from the boid (steer.wgsl CULL): about 24% fewer candidates at a uniform density, the same
   * neighbours and the same sums. Default true; false only to measure against (issue 29).
   */
  faceCull?: boolean;
  /**
   * The grid's cells cut into this many along x (1 to 8; default 1): each row of the search then
   * visits only the x cells the perception sphere's slice reaches (steer.wgsl SPHERE_X), 20%
   * (k = 2) to 30% (k = 4) fewer candidates at a uniform density for k times the cells to count
   * and scan. Same neighbour sets; the sums run in the finer cells' order (DESIGN's tolerance).
   * 'auto': per parameters, as many (up to 4) as keep at least one boid per cell on average
   * (autoCellSplitX, src/webgpu/cell-split.ts); on an H100 the step at the steady state was 13-15%
   * faster in the dense scene at k = 4 and up to 15% slower in the sparse one at any k > 1
   * (docs/real-gpu-tune.md). Ignored (1) with a warp-coherent searchTile or flatSearch. Issue 29.
   */
  cellSplitX?: number | 'auto';
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
  readonly workgroupSizes: WorkgroupSizes;
  readonly buffers: SimulationBuffers;
  /** Simulated time t at the start of the next step, seconds (0 at creation and setState). */
  readonly time: number;
  /**
   * Submits n fixed steps (no drawing). `live` (the frame loop's steps): while the pipelines of
   * a new neighbour search or sort compile, keep the last ones that exist (step-plan.ts); other
   * steps run the newest parameters as given, creating what they need.
   */
  step(n?: number, live?: boolean): void;
  /**
   * Resolves once the steer pipeline specialised for the newest parameters is in use (or failed
   * to compile: the generic one, same results, stays).
   */
  ready(): Promise<void>;
  /** True while the steer pass runs the pipeline specialised for the current parameters. */
  readonly specialised: boolean;
  /** The device's steer variant cache: hits, misses, compiles, evictions, size and bound. */
  variantStats(): VariantStats;
  /**
   * Encodes n steps into `encoder` (the caller submits, then calls afterSubmit()). Their per-step
   * uniforms are written into fresh ring slots now: submit an encoder before encoding more than
   * the ring holds (it grows to the largest n asked for, at least 64 steps). `live`: as step().
   */
  encodeSteps(encoder: GPUCommandEncoder, n: number, live?: boolean): void;
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
