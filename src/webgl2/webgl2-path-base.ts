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
 * (WEBGL_lose_context), a caller's canvas keeps its context for the next user. Flocks beyond the
 * first on a page draw with one shared context instead (shared-context.ts, ContextHome).
 */
import {
  NO_PASS_TIMES,
  type BackendTimings,
  type BackendVariants,
  type RenderView,
} from '../backend';
import { FlockError } from '../core/errors';
import { gridFor, type Grid } from '../core/grid';
import type { FlockParams } from '../core/params';
import { SimTime } from '../core/sim-time';
import type { FlockState } from '../core/state';
import { boidIdAt, scatterByBoidId } from '../core/boid-order';
import {
  sortProgramSpecs,
  runSortPasses,
  runUnpack,
  sortPassCount,
  type SortTargets,
} from './bitonic-sort';
import { uploadCellBounds, type CellBounds } from './cell-bounds';
import { cellTableLayout, createCellTable, runCellTable } from './cell-table';
import { GpuTimer } from './gpu-timer';
import { runKeyPass } from './key-pass';
import type { PassEnv } from './pass-env';
import { AsyncReader, gpuDone, targetRead } from './readback';
import { boidProgramSpec, freeDrawTarget, runDraw, type DrawMode } from './renderer';
import type { GridInputs } from './steer';
import { deleteTarget, powerOfTwoLayout, type TexLayout, type Target } from './textures';
import { flockDefines } from './uniforms';
import type { ProgramSpec } from './program';
import { ContextHome, oneStartAtATime } from './shared-context';
import { ProgramVariants, type ProgramVariant } from './program-variants';
import {
  lostBeforeStart,
  maxCountFor,
  type WebGL2PathBackend,
  type WebGL2PathInit,
} from './webgl2-context';
import type { PathResources, StateObjects, StateRead } from './path-resources';

export {
  CONTEXT_ATTRIBUTES,
  maxCountFor,
  openWebGL2,
  type WebGL2PathBackend,
  type WebGL2PathInit,
} from './webgl2-context';

export type { PathResources, SharedResources, StateObjects, StateRead } from './path-resources';

function sameLayout(a: TexLayout, b: TexLayout): boolean {
  return a.width === b.width && a.height === b.height;
}

/**
 * The backend both paths are. E: the pass environment; P: one state (position + velocity);
 * S: the count-dependent objects. The hooks below say how a path stores and steps its state.
 * The constructor only checks and records; `start()` (called by the factories) builds the
 * resources through the hooks, once the subclass's own fields are set.
 */
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
  /** The params the steps run with (their programs are linked). */
  protected params: FlockParams;
  /** The params given last: `params` once their programs are linked (see step()). */
  private wanted: FlockParams;
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
  /** The canvas's own context or the page's shared one (shared-context.ts). */
  private readonly home: ContextHome;

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly gl: WebGL2RenderingContext,
    readonly maxTextureSize: number,
    protected readonly init: WebGL2PathInit,
  ) {
    this.home = new ContextHome(canvas, gl);
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
    this.wanted = init.params;
    this.grid = gridFor(init.params);
    this.lastState = init.state;
    this.count = init.state.count;
    this.clock = new SimTime(init.params.timeStep);
    this.clock.reset(init.time ?? 0);
    try {
      this.checkCount(this.count);
    } catch (e) {
      // Keep the canvas's context alive: the ladder retries on this canvas (a capped count,
      // the next rung), which would get a lost context back (MAX_TEXTURE_SIZE 0).
      this.home.detach(false);
      throw e;
    }
  }

  /**
   * Builds every GL resource for the current params and state, uploads the state and starts
   * listening for context loss. The factories call it once, right after the constructor: it runs
   * the path's hooks, which may then read the fields the subclass's constructor set.
   * @throws FlockError (device, count, memory) or ShaderError; nothing is left allocated then.
   */
  async start(): Promise<this> {
    if (this.started) throw new Error('internal: WebGL2 path started twice');
    this.started = true;
    try {
      // The programs of a step and of the first draw, linked while the page goes on
      // (ProgramCache.warm): linked one by one here they held the page 200-400 ms on SwiftShader.
      // One flock's start at a time across the page (oneStartAtATime).
      await oneStartAtATime(async () => {
        // The GPU work queued before (another flock's warm-up or first frames on the shared
        // context) is waited for without blocking: the build's checks would wait for it.
        await gpuDone(this.gl);
        // Lost since openWebGL2 (its event may not have come yet): checkDevice() would read
        // EXT_color_buffer_float (or webgl2-tf's limits) as missing.
        if (this.gl.isContextLost()) throw lostBeforeStart(this.kind);
        this.build(false);
        const dims = this.params.dimensions === 2 ? 2 : 3;
        const programs = this.res!.env.programs;
        await programs.warm([...this.programSpecs(), boidProgramSpec(dims, this.drawMode)]);
      });
      // What warm() could not finish (a context lost meanwhile) is linked at once, as before.
      if (this.res) this.warmPrograms();
    } catch (e) {
      this.freeResources();
      this.home.detach(false); // as above: the next try may use this canvas
      throw e;
    }
    if (this.home.attach(this.onLostEvent, this.onRestoredEvent)) {
      // Lost while starting (the start went on with dead objects): handled as if heard now, and
      // rebuilt at once when the context is already back (else on its 'webglcontextrestored').
      this.handleLost(new Event('webglcontextlost'));
      if (!this.gl.isContextLost()) this.handleRestored();
    }
    return this;
  }

  // ---- the path's hooks ------------------------------------------------------------------

  /**
   * The context's KHR_parallel_shader_compile (programs link in the background), or null: absent,
   * or hidden with init.disable 'KHR_parallel_shader_compile' (tests of the synchronous path).
   */
  protected parallelCompile(): KHR_parallel_shader_compile | null {
    if (this.init.disable.has('KHR_parallel_shader_compile')) return null;
    return this.gl.getExtension('KHR_parallel_shader_compile');
  }

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
  /** The path's steer program for `params` (its #defines: one variant per combination). */
  protected abstract steerSpec(params: FlockParams): ProgramSpec;
  /** The path's reorder program (for `sort`'s block size). */
  protected abstract reorderSpec(sort: SortTargets): ProgramSpec;
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

  /**
   * Builds every GL resource for the current params and state, and uploads the state; its
   * programs are linked here (`link`) or left to the caller (start() links them without holding
   * the page).
   */
  private build(link = true): void {
    const gl = this.gl;
    // A restore (or the first build) starts with the newest params.
    if (this.wanted !== this.params) this.switchParams(this.wanted);
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
      const variants = new ProgramVariants(
        gl,
        env.programs,
        () => [this.params, this.wanted].map((p) => this.steerSpec(p)),
        this.init.variantBound,
      );
      this.res = { env, reader, timer, table, bounds, variants, ...states };
      if (link) this.warmPrograms();
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
    res.variants.close(false);
    res.reader.dispose();
    res.timer.dispose();
    this.freeStates(res);
    deleteTarget(this.gl, res.table);
    this.gl.deleteTexture(res.bounds.texture);
    freeDrawTarget(res.env);
    this.deleteEnv(res.env);
  }

  /**
   * The programs a step and a draw of the current params use (this.res must be set; this.res,
   * not this.ready: on a context restore build() runs while `lost` is still set).
   */
  private programSpecs(): ProgramSpec[] {
    const v = this.variant(this.params);
    const specs = [v.steer, ...v.shared];
    if (this.params.neighborSearch === 'grid') {
      const sort = this.res!.sort;
      specs.push(
        ...sortProgramSpecs(sort),
        { vert: 'fullscreen.vert.glsl', frag: 'cell-table.frag.glsl' },
        this.reorderSpec(sort),
      );
    }
    return specs;
  }

  /** Compiles the programs the current params use, so shader errors surface at once. */
  private warmPrograms(): void {
    const { env } = this.res!;
    for (const s of this.programSpecs()) env.programs.get(s.vert, s.frag, s.defines, s.feedback);
  }

  /**
   * The programs that depend on `params`: the path's steer program and (grid) the key pass's,
   * whose #defines follow the params (this.res must be set).
   */
  private variant(params: FlockParams): ProgramVariant {
    const steer = this.steerSpec(params);
    if (params.neighborSearch !== 'grid') return { steer, shared: [] };
    const d = flockDefines(params);
    const key = {
      vert: 'fullscreen.vert.glsl',
      frag: 'key.frag.glsl',
      defines: { DIMS: d.DIMS!, WRAP: d.WRAP!, BLOCK_LOG2: this.res!.sort.blockLog2 },
    };
    return { steer, shared: [key] };
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
      this.res.variants.close(true);
      this.res.reader.dispose();
      this.res.env.programs.forget();
      this.res = null;
    }
    this.init.onLost?.('WebGL context lost');
  }

  private handleRestored(): void {
    if (this.disposed) return;
    this.home.restored();
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

  /**
   * New params. Programs they need that are not linked yet are linked by ProgramVariants (in the
   * background with KHR_parallel_shader_compile, else between frames, newest params only): until
   * then live steps (the frame loop) keep the params whose programs are linked; an explicit step,
   * setState with another count and the debug hooks link them at once.
   * @throws FlockError ('count') when the grid's cell table does not fit a texture.
   */
  setParams(params: FlockParams): void {
    if (this.disposed) return;
    this.checkTable(gridFor(params), params.count);
    this.wanted = params;
    const res = this.ready;
    if (!res) {
      this.switchParams(params);
      return;
    }
    const v = this.variant(params);
    res.variants.request(v);
    if (res.variants.ready(v)) this.switchParams(params);
  }

  /**
   * Steps run with the newest params from here when their programs are linked, or `wait`: then
   * in any case (a link still running is waited for). A variant that failed to link is reported
   * (onError) and the params stay as they run.
   */
  private catchUp(wait: boolean): void {
    if (this.wanted === this.params) return;
    const variants = this.ready?.variants;
    if (variants && !wait) {
      const v = this.variant(this.wanted);
      const failed = variants.failure(v);
      if (failed !== undefined) {
        this.wanted = this.params;
        this.init.onError?.(failed);
        return;
      }
      if (!variants.ready(v)) return;
    }
    this.switchParams(this.wanted);
  }

  /** `params` become the params the steps run with (programs linked here where not yet). */
  private switchParams(params: FlockParams): void {
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

  /** The program variants of the params (see setParams); absent while the context is lost. */
  get variants(): BackendVariants | undefined {
    const v = this.ready?.variants;
    if (!v) return undefined;
    const settled = async () => {
      await v.settled();
      this.catchUp(false);
    };
    return {
      settled,
      current: this.wanted === this.params,
      stats: () => v.stats(),
    };
  }

  /** The simulated time t, seconds, at the start of the next step. */
  get time(): number {
    return this.clock.time;
  }

  setState(state: FlockState, time = 0): void {
    if (this.disposed) return;
    this.checkCount(state.count);
    // A new count needs the newest params' cell table and layout.
    if (state.count !== this.count) this.catchUp(true);
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

  step(n: number, live = false): void {
    const res = this.ready;
    if (!res) return;
    this.catchUp(!live);
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
    this.catchUp(false);
    res.timer.begin('draw');
    this.home.beginFrame(view.width, view.height);
    runDraw(
      res.env,
      this.currentTextures(res),
      this.count,
      this.params,
      view,
      this.drawMode,
      this.time,
    );
    this.home.endFrame();
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
    this.catchUp(true);
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
    this.catchUp(true);
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
    this.freeResources();
    this.home.detach(this.init.ownsCanvas === true);
  }
}
