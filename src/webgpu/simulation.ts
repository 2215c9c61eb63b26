/**
 * The headless WebGPU flock: DESIGN section 1 in compute passes, with no DOM or canvas, so it
 * runs in a browser and in Node under Dawn alike. Owns every GPU buffer it makes (`dispose()`).
 *
 * Memory (boid.wgsl), 32 bytes per boid in each of two buffers, the boid id as f32 in vel.w
 * (src/core/boid-order.ts): `state`, the current state in the order the last step left it
 * (sorted by cell), as a block of positions then a block of velocities (2 * count vec4f);
 * `sorted`, the steer pass's input in cell order, as Boid { pos, vel } records (or position and
 * velocity blocks: sortedLayout, sorted.wgsl), velocities guarded; `nbr`, |N_i| (FlockState's
 * velocities.w) as one f32 per boid in the order of `state`, written by the steer pass.
 * One step, one module per pass (the WebGL2 folder's names), over buffers.ts's buffers and
 * bind-groups.ts's groups:
 *   key        key-pass.ts: counting: clear per-cell counts, count per cell with atomics, keep
 *              (cellKey, rank) per boid; bitonic: (cellKey, index) pairs padded to a power of two
 *   sort       counting-sort.ts: exclusive prefix scan of the counts (multi-level) = cell table;
 *              bitonic-sort.ts: the bitonic network over the pairs
 *   cellTable  cell-table.ts (bitonic only): binary search of each cell's start
 *   reorder    reorder.ts: state -> sorted (scatter to scan[key] + rank, a gather by the sorted
 *              pairs, or a copy for brute force)
 *   steer      steer.ts: steer + integrate from `sorted` into `state`, over the 3^d cells or all
 *              boids in workgroup-memory tiles; its per-step uniforms (simulated time t) and its
 *              pipelines specialised for the parameters
 * Every pass keeps to 4 storage buffers, so it runs in Dawn's compatibility mode.
 */
import { FlockError } from '../core/errors';
import { gridFor, type Grid } from '../core/grid';
import { autoCellSplitX, splitCellsX } from './cell-split';
import { validateParams, type FlockParams } from '../core/params';
import { SimTime } from '../core/sim-time';
import { initialState, type FlockState } from '../core/state';
import { scatterByBoidId, tagBoidIds } from '../core/boid-order';
import { BindGroupCache, type PassEnv, type WorkgroupSizes } from './bind-groups';
import { encodeBitonicSort } from './bitonic-sort';
import { BOID_BYTES, SimBuffers } from './buffers';
import { encodeCellTable } from './cell-table';
import { encodeCountingSort } from './counting-sort';
import { encodeKeyPass } from './key-pass';
import { programSpecs, type ProgramName } from './programs';
import { readBuffer, readNeighborCounts, readSortedKeys } from './readback';
import { encodeReorder } from './reorder';
import { createComputePrograms, shaderFiles, type ComputeProgram } from './shaders';
import { SteerPass, variantsOf } from './steer';
import { StepPlan, stepPrograms } from './step-plan';
import type { VariantStats } from '../core/variant-cache';
import { LazyPassTimer, type PassAverages, type PassName } from './pass-timer';
import { SIM_UNIFORMS } from './uniforms';
import {
  DEFAULT_SEARCH_TILE,
  DEFAULT_SORTED_LAYOUT,
  type FlockSimulation,
  type FlockSimulationOptions,
  type SimulationBuffers,
  type SimulationTimings,
} from './simulation-types';

export { BOID_BYTES, bufferLimit, maxCountFor } from './buffers';

/** Largest workgroup the fixed-size workgroup arrays allow (MAX_WG / MAX_BLOCK in the WGSL). */
const MAX_WG = 256;

// The simulation's types and defaults (all of simulation-types.ts), for this module's importers.
export * from './simulation-types';

const floorPow2 = (n: number): number => 2 ** Math.floor(Math.log2(Math.max(1, n)));

export { stepPrograms } from './step-plan';

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
      options.splitIntegrate ?? false,
      options.flatSearch ?? false,
      options.faceCull ?? true,
      cellSplitOf(options),
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

/** The x split of the grid's cells these options run with (1 where the search cannot use it). */
function cellSplitOf(options: FlockSimulationOptions): number | 'auto' {
  const k = options.cellSplitX ?? 1;
  if (k !== 'auto' && (!Number.isInteger(k) || k < 1 || k > 8)) {
    throw new FlockError('cellSplitX', k, "an integer from 1 to 8, or 'auto'");
  }
  const tiled = (options.searchTile ?? DEFAULT_SEARCH_TILE).tile > 1;
  return tiled || options.flatSearch ? 1 : k;
}

class Simulation implements FlockSimulation {
  readonly maxCount: number;
  private readonly timer: LazyPassTimer;
  private readonly label: string;
  /** The newest parameters (setParams). */
  private _params!: FlockParams;
  /**
   * What the buffers and uniforms are laid out for and steps run: `_params`, or for live steps
   * `_params` with the last search and sort whose pipelines exist (step-plan.ts).
   */
  private _run!: FlockParams;
  private _grid!: Grid;
  private _disposed = false;
  private readonly clock = new SimTime(1 / 60);
  private readonly bufs: SimBuffers;
  private readonly groups: BindGroupCache;
  private readonly env: PassEnv;
  private readonly steer: SteerPass;
  private readonly plan: StepPlan;
  /** The grid's x split (FlockSimulationOptions.cellSplitX, as cellSplitOf resolves it). */
  private readonly cellSplit: number | 'auto';

  constructor(
    readonly device: GPUDevice,
    private readonly programs: Record<ProgramName, ComputeProgram>,
    readonly workgroupSizes: WorkgroupSizes,
    options: FlockSimulationOptions,
  ) {
    this.label = options.label ?? 'flock';
    this.cellSplit = cellSplitOf(options);
    this.timer = new LazyPassTimer(device, options.timestamps ?? true, this.label);
    this.bufs = new SimBuffers(device, this.label, options.maxBufferBytes);
    this.maxCount = this.bufs.maxCount;
    this.groups = new BindGroupCache(device, programs, this.label);
    this.env = {
      device,
      programs,
      buffers: this.bufs,
      groups: this.groups,
      timer: this.timer,
      wg: workgroupSizes,
    };
    this.steer = new SteerPass(this.env, {
      specialise: options.specialise ?? true,
      // With pipelines on use, specialised ones wait for what the first frame needs.
      compileAfter: (options.pipelines === 'on-use' && options.warmAfter) || Promise.resolve(),
      files: shaderFiles(options.shaderFiles),
      label: this.label,
      variantBound: options.variantBound,
      split: options.splitIntegrate ?? false,
      cellSplit: (p) => this.cellSplitAt(p),
    });
    this.plan = new StepPlan(programs, variantsOf(device, options.variantBound));
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
    return this.bufs.count;
  }
  get grid(): Grid {
    return this._grid;
  }
  get sortSize(): number {
    return this.bufs.sortSize;
  }
  get disposed(): boolean {
    return this._disposed;
  }
  get buffers(): SimulationBuffers {
    this.assertLive();
    const b = this.bufs;
    return {
      state: b.state!,
      sorted: b.sorted!,
      cellStart: b.cellStart!,
      uniforms: b.uniforms,
      nbr: b.nbr!,
    };
  }

  private assertLive(): void {
    if (this._disposed) throw new Error('FlockSimulation: used after dispose()');
  }

  /** Buffers for the params steps run; the bind groups over replaced ones are dropped. */
  private ensureLayout(): void {
    const wg = this.workgroupSizes;
    if (this.bufs.ensureLayout(this._run, this._grid, wg.sort, wg.scan)) this.groups.clear();
  }

  /** Steps run `p` from now on (the newest params, or them with another search and sort). */
  private runWith(p: FlockParams): void {
    if (p === this._run) return;
    this._run = p;
    this.ensureLayout();
    this.writeUniforms();
  }

  // ---- a step ----

  /** key/sort/(cellTable)/reorder: state -> sorted, with cellStart filled. */
  private encodeSort(encoder: GPUCommandEncoder, timed: boolean): void {
    const sort = this._run.sort;
    encodeKeyPass(this.env, encoder, sort, timed);
    if (sort === 'counting') {
      encodeCountingSort(this.env, encoder, timed);
    } else {
      encodeBitonicSort(this.env, encoder, timed);
      encodeCellTable(this.env, encoder, timed);
    }
    encodeReorder(this.env, encoder, 'grid', sort, timed);
  }

  /** Everything before the steer pass: `sorted` (and cellStart for the grid) ready. */
  private encodeGather(encoder: GPUCommandEncoder, timed: boolean): void {
    if (this._run.neighborSearch === 'grid') this.encodeSort(encoder, timed);
    else encodeReorder(this.env, encoder, 'brute', this._run.sort, timed);
  }

  async ready(): Promise<void> {
    this.assertLive();
    await this.plan.settled();
    await this.steer.settled();
  }

  encodeSteps(encoder: GPUCommandEncoder, n: number, live = false): void {
    this.assertLive();
    this.runWith(live ? this.plan.live(this._params, this._run) : this._params);
    const p = this._run;
    const offsets = this.steer.stepOffsets(p, this.clock, n);
    const program = this.steer.program(p);
    for (let s = 0; s < n; s++) {
      const timed = this.timer.beginStep();
      this.encodeGather(encoder, timed);
      this.steer.encode(encoder, p, program, offsets[s]!, timed);
    }
    this.timer.resolve(encoder);
  }

  variantStats(): VariantStats {
    return this.steer.stats();
  }

  get specialised(): boolean {
    return !this._disposed && this._run === this._params && this.steer.specialised(this._params);
  }

  afterSubmit(): void {
    this.timer.collect();
  }

  step(n = 1, live = false): void {
    this.assertLive();
    // Submit in chunks so the GPU starts while later steps are still being encoded.
    const chunk = 16;
    for (let done = 0; done < n; done += chunk) {
      const encoder = this.device.createCommandEncoder({ label: `${this.label}.step` });
      this.encodeSteps(encoder, Math.min(chunk, n - done), live);
      this.device.queue.submit([encoder.finish()]);
      this.afterSubmit();
    }
  }

  // ---- parameters and state ----

  setParams(params: FlockParams): void {
    this.assertLive();
    const p = validateParams(params);
    const countChanged = this._params !== undefined && p.count !== this.bufs.count;
    const running = this._run ?? p;
    this._params = p;
    this.clock.setTimeStep(p.timeStep);
    this._grid = this.gridOf(p);
    // Laid out for the search and sort steps ran with so far until the new ones' pipelines exist
    // (an explicit step or a hook lays out the newest at once).
    this._run = this.plan.live(p, running);
    this.ensureLayout();
    this.writeUniforms();
    if (countChanged) this.setRecords(p.count, packRecords(initialState(p)));
    // Ask for the specialised steer pipeline of these parameters (the generic one serves
    // meanwhile), then for the search and sort's (first: the newest wish compiles first).
    this.steer.request(p);
    this.plan.request(p);
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
    this.device.queue.writeBuffer(this.bufs.nbr!, 0, nbr);
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
    if (n !== this.bufs.count) {
      this._params = validateParams({ count: n }, this._params);
      this._run = this.plan.live(this._params, this._run);
      this._grid = this.gridOf(this._params);
      this.ensureLayout();
      this.writeUniforms();
    }
    const b = this.bufs;
    this.device.queue.writeBuffer(b.state!, 0, records as Float32Array<ArrayBuffer>, 0, 8 * n);
    this.device.queue.writeBuffer(b.nbr!, 0, new Float32Array(n));
    this.clock.reset(time);
  }

  /** The grid's x split for `p`: cellSplitX, or for 'auto' autoCellSplitX of gridFor(p). */
  private cellSplitAt(p: FlockParams): number {
    return this.cellSplit === 'auto' ? autoCellSplitX(gridFor(p), p.count) : this.cellSplit;
  }

  /** The grid of `p`, its cells cut along x as cellSplitX says. */
  private gridOf(p: FlockParams): Grid {
    return splitCellsX(gridFor(p), this.cellSplitAt(p));
  }

  private writeUniforms(): void {
    this.device.queue.writeBuffer(
      this.bufs.uniforms,
      0,
      SIM_UNIFORMS.pack({ params: this._run, grid: this._grid, sortSize: this.bufs.sortSize }),
    );
  }

  // ---- readback ----

  private readBuffer(
    src: GPUBuffer,
    bytes: number,
    encode?: (e: GPUCommandEncoder) => void,
  ): Promise<ArrayBuffer> {
    this.assertLive();
    return readBuffer(this.env, this.label, src, bytes, encode);
  }

  async readState(): Promise<FlockState> {
    const n = this.bufs.count;
    const [raw, nbr] = await Promise.all([
      this.readBuffer(this.bufs.state!, n * BOID_BYTES),
      this.readBuffer(this.bufs.nbr!, n * 4),
    ]);
    return unpackRecords(new Float32Array(raw), n, new Float32Array(nbr));
  }

  debugNeighborCounts(): Promise<Uint32Array> {
    this.assertLive();
    this.runWith(this._params);
    const grid = this._params.neighborSearch === 'grid';
    return readNeighborCounts(this.env, this.label, grid, (e) => this.encodeGather(e, false));
  }

  debugSortedKeys(): Promise<{ keys: Uint32Array; ids: Uint32Array }> {
    this.assertLive();
    this.runWith(this._params);
    return readSortedKeys(this.env, this.label, (e) => this.encodeSort(e, false));
  }

  async debugCellTable(): Promise<{ start: Uint32Array; end: Uint32Array }> {
    this.assertLive();
    this.runWith(this._params);
    const cells = this._grid.cellCount;
    const table = new Uint32Array(
      await this.readBuffer(this.bufs.cellStart!, (cells + 1) * 4, (encoder) =>
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
    this.steer.dispose();
    this.plan.dispose();
    this.bufs.dispose();
    this.groups.clear();
  }
}

/**
 * A state in boid-id order -> the internal layout (boid.wgsl): Float32Array(8*count), positions
 * (xyzw) of every boid, then velocities (xyz + the boid id as f32 in w: tagBoidIds).
 */
export function packRecords(state: FlockState): Float32Array {
  const n = state.count;
  const { pos, vel } = tagBoidIds(state);
  const data = new Float32Array(8 * n);
  data.set(pos, 0);
  data.set(vel, 4 * n);
  return data;
}

/**
 * The internal layout (positions block, velocities block with ids in w), boids in any order, and
 * `nbr` (|N_i| in the same order; zeros when absent) -> FlockState in boid-id order with
 * velocities.w = |N_i| (scatterByBoidId).
 * @throws Error when the ids are not a permutation of 0..n-1 (a broken sort would show here).
 */
export function unpackRecords(raw: Float32Array, n: number, nbr?: Float32Array): FlockState {
  return scatterByBoidId(n, raw.subarray(0, 4 * n), raw.subarray(4 * n, 8 * n), nbr);
}
