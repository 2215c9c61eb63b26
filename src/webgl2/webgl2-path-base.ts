/**
 * What the two WebGL2 backends share (DESIGN.md section 3): the texture path (webgl2-backend.ts,
 * state in RGBA32F render targets) and the transform-feedback path (webgl2-tf-backend.ts, state in
 * buffers) differ only in where the state lives and how reorder and steer write it. The rest is
 * here, once: the context, the count and cell-table limits, the resource lifetime (one build that
 * runs again after 'webglcontextrestored'), the grid build (key pass, bitonic sort, cell table),
 * the order of the passes in a step, readState's scatter into boid-id order, sync, the debug
 * hooks, timings and dispose.
 *
 * Internal order (both paths): the state holds the boids in the order of the last sort (boid-id
 * order right after setState), and velocity.w carries each boid's id as a float (exact below 2^24,
 * and counts are at most 2^24) so the id travels with the boid through reorder and steer;
 * |N_i| (FlockState's velocities.w) lives beside them, one float per element in the same order
 * (an R32F texture, a float buffer on the feedback path), written by the steer pass.
 * readState() scatters back into id order with velocities.w = |N_i| (both directions are
 * src/core/boid-order.ts, shared with the WebGPU path).
 * The simulated time t (SimTime) is kept here: the steer pass gets t at the start of its step.
 *
 * A backend owns every GL object it creates (counted by gl-tracker.ts) and frees them in
 * dispose(); the context of a canvas the flock made (init.ownsCanvas) is given back there too
 * (WEBGL_lose_context), a caller's canvas keeps its context for the next user.
 */
import { capWebGL2 } from '../core/limits';
import {
  NO_PASS_TIMES,
  type Backend,
  type BackendInit,
  type BackendTimings,
  type RenderView,
} from '../backend';
import { FlockError } from '../core/errors';
import { gridFor, type Grid } from '../core/grid';
import { MAX_COUNT, type FlockParams } from '../core/params';
import { SimTime } from '../core/sim-time';
import type { FlockState } from '../core/state';
import { boidIdAt, scatterByBoidId } from '../core/boid-order';
import {
  compileSortPrograms,
  runSortPasses,
  runUnpack,
  sortPassCount,
  type SortTargets,
} from './bitonic-sort';
import { uploadCellBounds, type CellBounds } from './cell-bounds';
import { cellTableLayout, createCellTable, runCellTable } from './cell-table';
import { resetGLTracker, trackGL } from './gl-tracker';
import { GpuTimer } from './gpu-timer';
import { runKeyPass } from './key-pass';
import type { PassEnv } from './pass-env';
import { AsyncReader, type ReadRequest } from './readback';
import { freeDrawTarget, runDraw, type DrawMode } from './renderer';
import type { GridInputs } from './steer';
import { deleteTarget, powerOfTwoLayout, rowsFor, type TexLayout, type Target } from './textures';
import { flockDefines } from './uniforms';

/** Options of both WebGL2 backends beyond the common BackendInit. */
export interface WebGL2PathInit extends BackendInit {
  /** 'instanced' (default) or 'vertex-id' (one plain draw; boid = gl_VertexID / 12). */
  drawMode?: DrawMode;
  /** Use at most this MAX_TEXTURE_SIZE (below the device's): tests, memory budgets. */
  maxTextureSize?: number;
  /** log2 of the bitonic sort's block (3 or 4; default: the largest the context can write): tests. */
  sortBlockLog2?: number;
}

/** What both WebGL2 backends add to Backend. */
export interface WebGL2PathBackend extends Backend {
  readonly kind: 'webgl2' | 'webgl2-tf';
  /** How render() draws; may be changed at any time. */
  drawMode: DrawMode;
  /** The MAX_TEXTURE_SIZE in use (device limit, or the lower one asked for). */
  readonly maxTextureSize: number;
  /** The context (tests read pixels from it). */
  readonly gl: WebGL2RenderingContext;
}

/** The context attributes of both WebGL2 paths (the same canvas setup, the same pictures). */
export const CONTEXT_ATTRIBUTES: WebGLContextAttributes = {
  antialias: true,
  preserveDrawingBuffer: false,
  // An alpha channel, premultiplied, so view.background may be translucent or `transparent`.
  alpha: true,
  premultipliedAlpha: true,
  depth: true,
  stencil: false,
  powerPreference: 'high-performance',
};

/**
 * Largest count the textures hold for a MAX_TEXTURE_SIZE: state textures are at most w x w
 * (w the largest power of two <= maxTextureSize); a quarter of that leaves the cell table room for
 * its up to ~2.4 cells per boid (src/core/grid.ts), and never more than MAX_COUNT.
 */
export function maxCountFor(maxTextureSize: number): number {
  const w = 2 ** Math.floor(Math.log2(Math.max(1, maxTextureSize)));
  return Math.max(1, Math.min(MAX_COUNT, (w * w) / 4));
}

/**
 * The WebGL2 context of `init.canvas` (counted by gl-tracker.ts) and the MAX_TEXTURE_SIZE to use.
 * @throws FlockError field 'backend', value `rung`, when the canvas gives no WebGL2 context.
 */
export function openWebGL2(
  init: WebGL2PathInit,
  rung: 'webgl2' | 'webgl2-tf',
  allowed: string,
): { gl: WebGL2RenderingContext; maxTextureSize: number } {
  const gl = init.canvas.getContext('webgl2', CONTEXT_ATTRIBUTES) as WebGL2RenderingContext | null;
  if (!gl) {
    // A canvas that holds another context type (2d, webgpu) gives null; one that cannot make a
    // WebGL2 context at all was already turned away by the probe.
    throw new FlockError(
      'target',
      init.canvas,
      'a canvas without another context type (2d, webgpu)',
      `no WebGL2 context on this canvas for ${rung}; ${allowed}`,
    );
  }
  trackGL(gl);
  capWebGL2(gl, init.limits ?? null);
  const deviceMax = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  return { gl, maxTextureSize: Math.min(deviceMax, init.maxTextureSize ?? deviceMax) };
}

/**
 * A read of the first `count` elements (whole rows) of colour attachment `attachment` of `t`:
 * `dst` gets `stride` values per texel (Float32Array for float targets, Uint32Array for uint ones):
 * the attachment's own channels when the implementation reads that format (RED/FLOAT of an R32F
 * target, RG_INTEGER of RG32UI: IMPLEMENTATION_COLOR_READ_FORMAT), else 4 (RGBA, the format WebGL2
 * always reads). Reading in the attachment's own format lets ANGLE copy into the pixel-pack buffer
 * on the GPU; a converting read makes it wait for the GPU on the CPU and log "GPU stall due to
 * ReadPixels" (issue 21).
 */
export function targetRead<T extends Float32Array | Uint32Array>(
  gl: WebGL2RenderingContext,
  t: Target,
  attachment: number,
  count: number,
  make: new (length: number) => T,
): { req: ReadRequest; data: T; stride: number } {
  const { width } = t.layout;
  const rows = rowsFor(t.layout, count);
  const float = make === (Float32Array as unknown);
  const own = nativeReadFormat(gl, t.fbo, attachment, float);
  const stride = own?.channels ?? 4;
  const data = new make(stride * width * rows);
  const req: ReadRequest = {
    fbo: t.fbo,
    attachment,
    width,
    rows,
    format: own?.format ?? (float ? gl.RGBA : gl.RGBA_INTEGER),
    type: float ? gl.FLOAT : gl.UNSIGNED_INT,
    dst: data,
  };
  return { req, data, stride };
}

/**
 * The implementation's own read format of one attachment when it reads 32-bit values of the
 * wanted kind (FLOAT or UNSIGNED_INT) without conversion; null otherwise (read as RGBA).
 * Binds READ_FRAMEBUFFER and leaves it unbound.
 */
function nativeReadFormat(
  gl: WebGL2RenderingContext,
  fbo: WebGLFramebuffer,
  attachment: number,
  float: boolean,
): { format: number; channels: number } | null {
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, fbo);
  gl.readBuffer(attachment);
  const format = gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_FORMAT) as number;
  const type = gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_TYPE) as number;
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
  if (type !== (float ? gl.FLOAT : gl.UNSIGNED_INT)) return null;
  const channels: [number, number, number][] = [
    [gl.RED, gl.RED_INTEGER, 1],
    [gl.RG, gl.RG_INTEGER, 2],
    [gl.RGBA, gl.RGBA_INTEGER, 4],
  ];
  const row = channels.find(([f, fi]) => (float ? f : fi) === format);
  return row ? { format, channels: row[2] } : null;
}

function sameLayout(a: TexLayout, b: TexLayout): boolean {
  return a.width === b.width && a.height === b.height;
}

/** The count-dependent objects of a path. */
export interface StateObjects<P> {
  /** The current state and the scratch/next one; `cur` says which is current. */
  states: [P, P];
  /** The key pass's and the bitonic sort's targets (the sorted RG32UI keys among them). */
  sort: SortTargets;
}

/** The objects of one build that do not depend on the path. */
export interface SharedResources<E extends PassEnv> {
  env: E;
  reader: AsyncReader;
  timer: GpuTimer;
  table: Target;
  /** R32F exact cell thresholds of the grid (cell-bounds.ts). */
  bounds: CellBounds;
}

/** Everything one build of a path owns. */
export type PathResources<E extends PassEnv, S> = SharedResources<E> & S;

/**
 * What a state read brings back from element 0 (at least `count`): 4 floats per element of
 * positions and velocities, and |N_i| every `nbrStride` floats of `nbr`.
 */
export interface StateRead {
  reqs: ReadRequest[];
  pos: Float32Array;
  vel: Float32Array;
  nbr: Float32Array;
  nbrStride: number;
}

/**
 * The backend both paths are. E: the pass environment; P: one state (position + velocity);
 * S: the count-dependent objects. The hooks below say how a path stores and steps its state.
 * The constructor only checks and records; `start()` (called by the factories) builds the
 * resources through the hooks, once the subclass's own fields are set.
 */
/** The live (not disposed) WebGL2 backend drawing on each canvas. */
const liveOn = new WeakMap<HTMLCanvasElement, object>();

export abstract class WebGL2PathBase<
  E extends PassEnv,
  P,
  S extends StateObjects<P>,
> implements WebGL2PathBackend {
  abstract readonly kind: 'webgl2' | 'webgl2-tf';
  readonly maxCount: number;
  /** Largest drawing-buffer side: MAX_RENDERBUFFER_SIZE, MAX_VIEWPORT_DIMS and MAX_TEXTURE_SIZE. */
  readonly maxCanvasSize: number;
  drawMode: DrawMode;
  protected params: FlockParams;
  protected grid: Grid;
  /** The last state given (reference, not copied): uploaded again after a context restore. */
  private lastState: FlockState;
  protected count: number;
  /** Simulated time t. */
  private readonly clock: SimTime;
  /** Which of res.states is the current state. */
  protected cur: 0 | 1 = 0;
  private res: PathResources<E, S> | null = null;
  private lost = false;
  private disposed = false;
  private started = false;
  private readonly onLostEvent = (e: Event) => this.handleLost(e);
  private readonly onRestoredEvent = () => this.handleRestored();

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly gl: WebGL2RenderingContext,
    readonly maxTextureSize: number,
    protected readonly init: WebGL2PathInit,
  ) {
    this.maxCount = maxCountFor(maxTextureSize);
    const dims = gl.getParameter(gl.MAX_VIEWPORT_DIMS) as Int32Array | null;
    this.maxCanvasSize = Math.min(
      gl.getParameter(gl.MAX_RENDERBUFFER_SIZE) as number,
      gl.getParameter(gl.MAX_TEXTURE_SIZE) as number,
      dims?.[0] ?? Infinity,
      dims?.[1] ?? Infinity,
    );
    this.drawMode = init.drawMode ?? 'instanced';
    this.params = init.params;
    this.grid = gridFor(init.params);
    this.lastState = init.state;
    this.count = init.state.count;
    this.clock = new SimTime(init.params.timeStep);
    this.clock.reset(init.time ?? 0);
    this.checkCount(this.count);
  }

  /**
   * Builds every GL resource for the current params and state, uploads the state and starts
   * listening for context loss. The factories call it once, right after the constructor: it runs
   * the path's hooks, which may then read the fields the subclass's constructor set.
   * @throws FlockError (device, count, memory) or ShaderError; nothing is left allocated then.
   */
  start(): this {
    if (this.started) throw new Error('internal: WebGL2 path started twice');
    this.started = true;
    this.build();
    this.canvas.addEventListener('webglcontextlost', this.onLostEvent);
    this.canvas.addEventListener('webglcontextrestored', this.onRestoredEvent);
    liveOn.set(this.canvas, this);
    return this;
  }

  // ---- the path's hooks ------------------------------------------------------------------

  /** Throws a FlockError on 'backend' when this device cannot run the path. */
  protected abstract checkDevice(): void;
  protected abstract createEnv(): E;
  protected abstract deleteEnv(env: E): void;
  /** The states and key targets for `count`; frees what it made when one fails. */
  protected abstract createStates(count: number): S;
  protected abstract freeStates(s: S): void;
  /** Replaces res's count-dependent objects by ones for `count` (a new layout). */
  protected abstract replaceStates(res: S, count: number): void;
  /** What must fit in GPU memory, for the error when it does not. */
  protected abstract stateStorage(): string;
  /** Compiles the path's steer program for the current params. */
  protected abstract compileSteer(env: E): void;
  /** Compiles the path's reorder program (for `sort`'s block size). */
  protected abstract compileReorder(env: E, sort: SortTargets): void;
  /** Writes `state` into res.states[0] (tagBoidIds, src/core/boid-order.ts). */
  protected abstract writeState(res: PathResources<E, S>, state: FlockState): void;
  /** RGBA32F textures (positions, velocities) holding the current state, outside a step. */
  protected abstract currentTextures(res: PathResources<E, S>): Pick<Target, 'textures' | 'layout'>;
  /**
   * The current state in the order of the sorted `blocks` (runSortPasses) -> res.states[1 - cur],
   * with the blocks unpacked into res.sort.sorted (returned) on the way.
   */
  protected abstract reorderPass(res: PathResources<E, S>, blocks: Target): Target;
  /**
   * One steer + integrate step into res.states[out], from the reordered scratch state (grid) or
   * the current one (brute force), at simulated time `time` (seconds, the start of the step).
   */
  protected abstract steerPass(
    res: PathResources<E, S>,
    grid: GridInputs | null,
    out: 0 | 1,
    time: number,
  ): void;
  /** Reads of the first `count` elements of `state`. */
  protected abstract stateRead(state: P, count: number): StateRead;
  /**
   * |N_i| per boid id, counted as the step gathers, over `order`: the current state (brute force)
   * or, with `grid`, the reordered scratch one.
   */
  protected abstract countNeighbors(
    res: PathResources<E, S>,
    grid: GridInputs | null,
    order: P,
    count: number,
  ): Promise<Uint32Array>;

  // ---- resources -------------------------------------------------------------------------

  private checkCount(count: number): void {
    if (!Number.isInteger(count) || count < 1 || count > this.maxCount) {
      throw new FlockError(
        'count',
        count,
        `an integer from 1 to ${this.maxCount} (MAX_TEXTURE_SIZE = ${this.maxTextureSize})`,
        undefined,
        this.maxCount,
      );
    }
  }

  private checkTable(grid: Grid, count: number): TexLayout {
    const layout = cellTableLayout(grid.cellCount);
    if (layout.width > this.maxTextureSize || layout.height > this.maxTextureSize) {
      throw new FlockError(
        'count',
        count,
        `a count whose grid fits one texture (MAX_TEXTURE_SIZE = ${this.maxTextureSize})`,
        `the grid has ${grid.cellCount} cells (${grid.dims.join(' x ')})`,
      );
    }
    return layout;
  }

  /** Objects that did not fit: a FlockError on the count, not a black screen. */
  protected checkMemory(count: number): void {
    const err = this.gl.getError();
    if (err === this.gl.OUT_OF_MEMORY) {
      throw new FlockError(
        'count',
        count,
        `a count whose ${this.stateStorage()} fit in GPU memory`,
      );
    }
  }

  /** Builds every GL resource for the current params and state, and uploads the state. */
  private build(): void {
    const gl = this.gl;
    this.checkDevice();
    const tableLayout = this.checkTable(this.grid, this.params.count);
    const env = this.createEnv();
    const reader = new AsyncReader(gl);
    const timer = new GpuTimer(gl, this.init.disable.has('EXT_disjoint_timer_query_webgl2'));
    let states: S | null = null;
    let table: Target | null = null;
    let bounds: CellBounds | null = null;
    try {
      states = this.createStates(this.count);
      table = createCellTable(gl, tableLayout);
      bounds = uploadCellBounds(gl, this.params, this.grid, null);
      this.checkMemory(this.count);
      this.res = { env, reader, timer, table, bounds, ...states };
      this.warmPrograms();
      this.upload(this.res, this.lastState);
    } catch (e) {
      this.res = null;
      if (states) this.freeStates(states);
      deleteTarget(gl, table);
      if (bounds) gl.deleteTexture(bounds.texture);
      timer.dispose();
      reader.dispose();
      this.deleteEnv(env);
      throw e;
    }
  }

  private freeResources(): void {
    const res = this.res;
    if (!res) return;
    this.res = null;
    res.reader.dispose();
    res.timer.dispose();
    this.freeStates(res);
    deleteTarget(this.gl, res.table);
    this.gl.deleteTexture(res.bounds.texture);
    freeDrawTarget(res.env);
    this.deleteEnv(res.env);
  }

  /** Compiles the programs the current params use, so shader errors surface at once. */
  private warmPrograms(): void {
    const { env } = this.res!;
    const d = flockDefines(this.params);
    this.compileSteer(env);
    if (this.params.neighborSearch === 'grid') {
      // this.res, not this.ready: on a context restore build() runs while `lost` is still set.
      const block = { BLOCK_LOG2: this.res!.sort.blockLog2 };
      env.programs.get('fullscreen.vert.glsl', 'key.frag.glsl', {
        DIMS: d.DIMS!,
        WRAP: d.WRAP!,
        ...block,
      });
      compileSortPrograms(env, this.res!.sort);
      env.programs.get('fullscreen.vert.glsl', 'cell-table.frag.glsl');
      this.compileReorder(env, this.res!.sort);
    }
  }

  /** `state` into res.states[0], which becomes the current state. */
  private upload(res: PathResources<E, S>, state: FlockState): void {
    this.writeState(res, state);
    this.cur = 0;
  }

  private get ready(): PathResources<E, S> | null {
    return this.disposed || this.lost ? null : this.res;
  }

  private requireReady(): PathResources<E, S> {
    const res = this.ready;
    if (!res) throw new Error(this.disposed ? 'backend disposed' : 'WebGL context lost');
    return res;
  }

  // ---- context loss ----------------------------------------------------------------------

  private handleLost(e: Event): void {
    e.preventDefault();
    if (this.disposed) return;
    this.lost = true;
    // Every GL object is gone with the context: forget them (pending reads reject).
    if (this.res) {
      this.res.reader.dispose();
      this.res.env.programs.forget();
      this.res = null;
    }
    this.init.onLost?.('WebGL context lost');
  }

  private handleRestored(): void {
    if (this.disposed) return;
    resetGLTracker(this.gl);
    try {
      this.build();
    } catch (err) {
      this.freeResources();
      this.init.onLost?.(
        `WebGL context restored, but rebuilding failed: ${(err as Error).message}`,
      );
      return;
    }
    this.lost = false;
    this.init.onRestored?.();
  }

  // ---- Backend ---------------------------------------------------------------------------

  setParams(params: FlockParams): void {
    if (this.disposed) return;
    const grid = gridFor(params);
    const tableLayout = this.checkTable(grid, params.count);
    const searchChanged = params.neighborSearch !== this.params.neighborSearch;
    this.params = params;
    this.grid = grid;
    this.clock.setTimeStep(params.timeStep);
    const res = this.ready;
    if (!res) return;
    if (!sameLayout(tableLayout, res.table.layout)) {
      deleteTarget(this.gl, res.table);
      res.table = createCellTable(this.gl, tableLayout);
      this.checkMemory(params.count);
    }
    res.bounds = uploadCellBounds(this.gl, params, grid, res.bounds);
    if (searchChanged) res.timer.clearSamples();
    this.warmPrograms();
  }

  /** The simulated time t, seconds, at the start of the next step. */
  get time(): number {
    return this.clock.time;
  }

  setState(state: FlockState, time = 0): void {
    if (this.disposed) return;
    this.checkCount(state.count);
    this.clock.reset(time);
    this.lastState = state;
    this.count = state.count;
    const res = this.ready;
    if (!res) return;
    if (!sameLayout(powerOfTwoLayout(state.count), res.sort.sorted.layout)) {
      this.replaceStates(res, state.count);
    }
    this.upload(res, state);
  }

  step(n: number): void {
    const res = this.ready;
    if (!res) return;
    res.timer.poll();
    for (let k = 0; k < n; k++) {
      this.stepOnce(res, this.clock.time);
      this.clock.advance(1);
    }
  }

  /** Key pass and sort passes of the current state; returns the sorted blocks (runSortPasses). */
  private sortKeys(res: PathResources<E, S>): Target {
    res.timer.begin('key');
    runKeyPass(
      res.env,
      this.currentTextures(res).textures[0]!,
      this.count,
      this.params,
      this.grid,
      res.bounds,
      res.sort,
    );
    res.timer.end();
    res.timer.begin('sort');
    const blocks = runSortPasses(res.env, res.sort);
    res.timer.end();
    return blocks;
  }

  private cellTable(res: PathResources<E, S>, sorted: Target): void {
    res.timer.begin('cellTable');
    runCellTable(res.env, sorted, this.count, res.table);
    res.timer.end();
  }

  /** Key, sort, unpack and cell table of the current state; returns the sorted keys' target. */
  private buildGrid(res: PathResources<E, S>): Target {
    const blocks = this.sortKeys(res);
    const sorted = runUnpack(res.env, res.sort, blocks);
    this.cellTable(res, sorted);
    return sorted;
  }

  /**
   * A step's grid: key, sort, then the current state in sorted order into res.states[1 - cur]
   * (the path unpacks the sorted keys on the way), then the cell table; the steer pass's grid.
   */
  private gridStep(res: PathResources<E, S>): GridInputs {
    const blocks = this.sortKeys(res);
    res.timer.begin('reorder');
    const sorted = this.reorderPass(res, blocks);
    res.timer.end();
    this.cellTable(res, sorted);
    return { sortedKeys: sorted, cellTable: res.table };
  }

  private stepOnce(res: PathResources<E, S>, time: number): void {
    if (this.params.neighborSearch === 'grid') {
      // The reordered state goes to the scratch state; the step writes back into the current one.
      const grid = this.gridStep(res);
      res.timer.begin('steer');
      this.steerPass(res, grid, this.cur, time);
      res.timer.end();
    } else {
      const next = this.cur === 0 ? 1 : 0;
      res.timer.begin('steer');
      this.steerPass(res, null, next, time);
      res.timer.end();
      this.cur = next;
    }
  }

  render(view: RenderView): void {
    const res = this.ready;
    if (!res) return;
    res.timer.begin('draw');
    runDraw(
      res.env,
      this.currentTextures(res),
      this.count,
      this.params,
      view,
      this.drawMode,
      this.time,
    );
    res.timer.end();
  }

  timings(): BackendTimings {
    const res = this.ready;
    if (!res?.timer.enabled) return { timing: 'none', passes: { ...NO_PASS_TIMES } };
    res.timer.poll();
    return { timing: 'gpu', passes: res.timer.averages() };
  }

  /** Resolves once all submitted GL work has finished: an empty read, i.e. readback.ts's fence. */
  async sync(): Promise<void> {
    await this.requireReady().reader.read([]);
  }

  async readState(): Promise<FlockState> {
    const res = this.requireReady();
    const count = this.count;
    const { reqs, pos, vel, nbr, nbrStride } = this.stateRead(res.states[this.cur], count);
    await res.reader.read(reqs);
    return scatterByBoidId(count, pos, vel, nbr, nbrStride);
  }

  get sortPasses(): number | null {
    const res = this.ready;
    return res && this.params.neighborSearch === 'grid' ? sortPassCount(res.sort) : null;
  }

  async debugSortedKeys(): Promise<{ keys: Uint32Array; ids: Uint32Array }> {
    const res = this.requireReady();
    const count = this.count;
    const sorted = this.buildGrid(res);
    const pairs = targetRead(this.gl, sorted, this.gl.COLOR_ATTACHMENT0, count, Uint32Array);
    const ps = pairs.stride;
    const state = this.stateRead(res.states[this.cur], count);
    await res.reader.read([pairs.req, ...state.reqs]);
    const keys = new Uint32Array(count);
    const ids = new Uint32Array(count);
    for (let s = 0; s < count; s++) {
      keys[s] = pairs.data[ps * s]!;
      const src = pairs.data[ps * s + 1]!;
      if (src >= count) throw new Error(`internal: sorted element ${s} has payload ${src}`);
      ids[s] = boidIdAt(state.vel, src, count);
    }
    return { keys, ids };
  }

  async debugNeighborCounts(): Promise<Uint32Array> {
    const res = this.requireReady();
    // The order counted in: the current state (brute) or the reordered scratch one (grid).
    let order = res.states[this.cur];
    let grid: GridInputs | null = null;
    if (this.params.neighborSearch === 'grid') {
      grid = this.gridStep(res);
      order = res.states[1 - this.cur]!;
    }
    return this.countNeighbors(res, grid, order, this.count);
  }

  /** The context is gone (known at once after loseContext(), before the event). */
  isLost(): boolean {
    return this.lost || this.gl.isContextLost();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.canvas.removeEventListener('webglcontextlost', this.onLostEvent);
    this.canvas.removeEventListener('webglcontextrestored', this.onRestoredEvent);
    if (liveOn.get(this.canvas) === this) liveOn.delete(this.canvas);
    this.freeResources();
    // Give the context back now rather than when the canvas is collected: browsers keep ~16
    // live contexts per page and evict the oldest (another flock) beyond that.
    if (this.gl.isContextLost()) {
      // Lost now (the flock falls back, or is disposed mid-loss) and maybe restored later, when
      // the page or the browser calls restoreContext: a context that comes back after its flock
      // moved on is no one's, and would count against that cap forever on a detached canvas.
      // Give it back the moment it returns (issue 21, reproduction 2).
      // A caller's canvas still in the page keeps it for the next user, as a live one does.
      const { gl, canvas } = this;
      const owns = this.init.ownsCanvas === true;
      const release = () => {
        if (liveOn.has(canvas) || (!owns && canvas.isConnected)) return;
        gl.getExtension('WEBGL_lose_context')?.loseContext();
      };
      canvas.addEventListener('webglcontextrestored', release, { once: true });
    } else if (this.init.ownsCanvas) {
      this.gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  }
}
