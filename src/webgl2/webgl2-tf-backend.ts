/**
 * The WebGL2 transform-feedback backend (DESIGN.md section 3, rung `webgl2-tf`): for WebGL2
 * devices without float render targets (older iOS, some Android). Full float32, no extension.
 *
 * The state lives in buffers (positions, velocities: one vec4 per element each, two pairs that
 * ping-pong). Steer + integrate is a vertex shader run with RASTERIZER_DISCARD whose outputs are
 * captured by transform feedback (tf-steer.ts). For the random neighbour reads, and for drawing,
 * the current pair is copied on the GPU into two sampleable RGBA32F textures (PIXEL_UNPACK_BUFFER;
 * RGBA32F is always sampleable in WebGL2, only rendering to it needs EXT_color_buffer_float).
 * The grid is built exactly as on the texture path, in integer textures, which are colour-
 * renderable in core WebGL2: key pass, bitonic sort, cell table (key-pass.ts, bitonic-sort.ts,
 * cell-table.ts). Reorder is a feedback pass too (tf-reorder.ts). One grid step:
 *   key(copies) -> sort -> cell table -> reorder(copies -> B) -> copy B -> copies
 *   -> steer(copies -> A) -> copy A -> copies
 * Invariant: outside a step the copies hold buffers[cur], so render() and the key pass read them.
 * Reorder as its own pass (not folded into steer by gathering through the sorted keys): on
 * SwiftShader both measured the same (N = 4,096 and 16,384); the separate pass keeps the steer
 * loop identical to the texture path's, without a dependent key fetch per candidate neighbour.
 *
 * Internal order: as on the texture path, the buffers hold the boids in the order of the last sort
 * (boid-id order right after setState), velocity.w carries each boid's id as a float, and
 * readState() scatters back into id order (velocity.w = 0).
 *
 * Owns every GL object it creates (counted by gl-tracker.ts) and frees them in dispose(); the
 * context stays with the canvas. All GL resources come from one build function that runs again
 * after 'webglcontextrestored'. Never enables EXT_color_buffer_float.
 */
import {
  NO_PASS_TIMES,
  type Backend,
  type BackendInit,
  type BackendTimings,
  type RenderView,
} from '../backend';
import { FlockError } from '../core/errors';
import { gridFor, type Grid } from '../core/grid';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import { runBitonicSort } from './bitonic-sort';
import { probeWebGL2 } from './capabilities';
import { uploadCellBounds, type CellBounds } from './cell-bounds';
import { cellTableLayout, runCellTable } from './cell-table';
import { resetGLTracker, trackGL } from './gl-tracker';
import { GpuTimer } from './gpu-timer';
import { runKeyPass } from './key-pass';
import { ProgramCache } from './program';
import { AsyncReader } from './readback';
import { runDraw, type DrawMode } from './renderer';
import type { GridInputs } from './steer';
import {
  copyStateToTextures,
  createFeedbackBuffer,
  createStateBuffers,
  createStateCopies,
  deleteStateBuffers,
  deleteStateCopies,
  uploadStateBuffers,
  type FeedbackEnv,
  type StateBuffers,
  type StateCopies,
} from './tf-feedback';
import { reorderProgram, runTFReorder } from './tf-reorder';
import { runTFNeighborCount, runTFSteer, steerProgram } from './tf-steer';
import {
  createTarget,
  deleteTarget,
  powerOfTwoLayout,
  rowsFor,
  type TexLayout,
  type Target,
} from './textures';
import { flockDefines } from './uniforms';
import { CONTEXT_ATTRIBUTES, maxCountFor } from './webgl2-backend';

export type { DrawMode } from './renderer';

/** Options of createWebGL2TFBackend beyond the common BackendInit. */
export interface WebGL2TFBackendInit extends BackendInit {
  /** 'instanced' (default) or 'vertex-id' (one plain draw; boid = gl_VertexID / 12). */
  drawMode?: DrawMode;
  /** Use at most this MAX_TEXTURE_SIZE (below the device's): tests, memory budgets. */
  maxTextureSize?: number;
}

/** The transform-feedback backend's extras over Backend. */
export interface WebGL2TFBackend extends Backend {
  readonly kind: 'webgl2-tf';
  /** How render() draws; may be changed at any time. */
  drawMode: DrawMode;
  /** The MAX_TEXTURE_SIZE in use (device limit, or the lower one asked for). */
  readonly maxTextureSize: number;
  /** The context (tests read pixels from it). */
  readonly gl: WebGL2RenderingContext;
}

/**
 * What the feedback passes need from the device; WebGL2 (GLES 3.0) guarantees all of it (4, 4,
 * 16), so a shortfall means a broken driver: refuse it with a reason instead of drawing nothing.
 */
function checkDeviceLimits(gl: WebGL2RenderingContext): string | null {
  const attribs = gl.getParameter(gl.MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS) as number;
  const components = gl.getParameter(gl.MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS) as number;
  const units = gl.getParameter(gl.MAX_VERTEX_TEXTURE_IMAGE_UNITS) as number;
  if (attribs < 2) return `MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS is ${attribs} (2 needed)`;
  if (components < 4)
    return `MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS is ${components} (4 needed)`;
  if (units < 5) return `MAX_VERTEX_TEXTURE_IMAGE_UNITS is ${units} (5 needed)`;
  return null;
}

interface Resources {
  env: FeedbackEnv;
  reader: AsyncReader;
  timer: GpuTimer;
  /** Two (position, velocity) buffer pairs of layout.texels vec4 each: current and scratch. */
  buffers: [StateBuffers, StateBuffers];
  /** RGBA32F copies of buffers[cur] (outside a step) for texelFetch: neighbours, keys, drawing. */
  copies: StateCopies;
  /** Two RG32UI (cellKey, payload) targets for the key pass and the sort's ping-pong. */
  keys: [Target, Target];
  table: Target;
  /** R32F exact cell thresholds of the grid (cell-bounds.ts). */
  bounds: CellBounds;
}

function sameLayout(a: TexLayout, b: TexLayout): boolean {
  return a.width === b.width && a.height === b.height;
}

/** Count-dependent objects of one layout. */
interface Sized {
  buffers: [StateBuffers, StateBuffers];
  copies: StateCopies;
  keys: [Target, Target];
}

class WebGL2TFBackendImpl implements WebGL2TFBackend {
  readonly kind = 'webgl2-tf' as const;
  readonly maxCount: number;
  drawMode: DrawMode;
  private params: FlockParams;
  private grid: Grid;
  /** The last state given (reference, not copied): uploaded again after a context restore. */
  private lastState: FlockState;
  private count: number;
  private cur: 0 | 1 = 0;
  private res: Resources | null = null;
  private lost = false;
  private disposed = false;
  private readonly onLostEvent = (e: Event) => this.handleLost(e);
  private readonly onRestoredEvent = () => this.handleRestored();

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly gl: WebGL2RenderingContext,
    readonly maxTextureSize: number,
    readonly deviceInfo: string,
    private readonly init: WebGL2TFBackendInit,
  ) {
    this.maxCount = maxCountFor(maxTextureSize);
    this.drawMode = init.drawMode ?? 'instanced';
    this.params = init.params;
    this.grid = gridFor(init.params);
    this.lastState = init.state;
    this.count = init.state.count;
    this.checkCount(this.count);
    this.build();
    canvas.addEventListener('webglcontextlost', this.onLostEvent);
    canvas.addEventListener('webglcontextrestored', this.onRestoredEvent);
  }

  // ---- resources -------------------------------------------------------------------------

  private checkCount(count: number): void {
    if (!Number.isInteger(count) || count < 1 || count > this.maxCount) {
      throw new FlockError(
        'count',
        count,
        `an integer from 1 to ${this.maxCount} (MAX_TEXTURE_SIZE = ${this.maxTextureSize})`,
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

  /** Buffers, copies and key targets for `count`; frees what it made when one fails. */
  private makeSized(count: number): Sized {
    const gl = this.gl;
    const layout = powerOfTwoLayout(count);
    const bufs: StateBuffers[] = [];
    let copies: StateCopies | null = null;
    const keys: Target[] = [];
    try {
      bufs.push(createStateBuffers(gl, layout), createStateBuffers(gl, layout));
      copies = createStateCopies(gl, layout);
      keys.push(createTarget(gl, layout, [gl.RG32UI], 'keys A'));
      keys.push(createTarget(gl, layout, [gl.RG32UI], 'keys B'));
      this.checkMemory(count);
      return {
        buffers: [bufs[0]!, bufs[1]!],
        copies,
        keys: [keys[0]!, keys[1]!],
      };
    } catch (e) {
      bufs.forEach((b) => deleteStateBuffers(gl, b));
      deleteStateCopies(gl, copies);
      keys.forEach((t) => deleteTarget(gl, t));
      throw e;
    }
  }

  private freeSized(s: Sized): void {
    const gl = this.gl;
    s.buffers.forEach((b) => deleteStateBuffers(gl, b));
    deleteStateCopies(gl, s.copies);
    s.keys.forEach((t) => deleteTarget(gl, t));
  }

  /** Builds every GL resource for the current params and state, and uploads the state. */
  private build(): void {
    const gl = this.gl;
    const limit = checkDeviceLimits(gl);
    if (limit) throw new FlockError('backend', 'webgl2-tf', 'a WebGL2 device', limit);
    const tableLayout = this.checkTable(this.grid, this.params.count);
    const env: FeedbackEnv = {
      gl,
      vao: gl.createVertexArray()!,
      programs: new ProgramCache(gl),
      feedback: gl.createTransformFeedback()!,
    };
    const reader = new AsyncReader(gl);
    const timer = new GpuTimer(gl, this.init.disable.has('EXT_disjoint_timer_query_webgl2'));
    let sized: Sized | null = null;
    let table: Target | null = null;
    let bounds: CellBounds | null = null;
    try {
      sized = this.makeSized(this.count);
      table = createTarget(gl, tableLayout, [gl.RG32UI], 'cell table');
      bounds = uploadCellBounds(gl, this.params, this.grid, null);
      this.checkMemory(this.count);
      this.res = { env, reader, timer, ...sized, table, bounds };
      this.warmPrograms();
      this.upload(this.lastState);
    } catch (e) {
      this.res = null;
      if (sized) this.freeSized(sized);
      deleteTarget(gl, table);
      if (bounds) gl.deleteTexture(bounds.texture);
      timer.dispose();
      reader.dispose();
      env.programs.dispose();
      gl.deleteTransformFeedback(env.feedback);
      gl.deleteVertexArray(env.vao);
      throw e;
    }
  }

  private freeResources(): void {
    const res = this.res;
    if (!res) return;
    this.res = null;
    const gl = this.gl;
    res.reader.dispose();
    res.timer.dispose();
    this.freeSized(res);
    deleteTarget(gl, res.table);
    gl.deleteTexture(res.bounds.texture);
    res.env.programs.dispose();
    gl.deleteTransformFeedback(res.env.feedback);
    gl.deleteVertexArray(res.env.vao);
  }

  /** Buffers and textures that did not fit: a FlockError on the count, not a black screen. */
  private checkMemory(count: number): void {
    const err = this.gl.getError();
    if (err === this.gl.OUT_OF_MEMORY) {
      throw new FlockError(
        'count',
        count,
        'a count whose state buffers and textures fit in GPU memory',
      );
    }
  }

  /** Compiles the programs the current params use, so shader errors surface at once. */
  private warmPrograms(): void {
    const env = this.res!.env;
    const d = flockDefines(this.params);
    steerProgram(env, this.params, this.params.neighborSearch);
    if (this.params.neighborSearch === 'grid') {
      env.programs.get('fullscreen.vert.glsl', 'key.frag.glsl', { DIMS: d.DIMS!, WRAP: d.WRAP! });
      env.programs.get('fullscreen.vert.glsl', 'bitonic-sort.frag.glsl');
      env.programs.get('fullscreen.vert.glsl', 'cell-table.frag.glsl');
      reorderProgram(env);
    }
  }

  /** Replaces the count-dependent objects when the layout changes. */
  private resize(count: number): void {
    const res = this.res!;
    if (sameLayout(powerOfTwoLayout(count), res.copies.layout)) return;
    const sized = this.makeSized(count);
    this.freeSized(res);
    Object.assign(res, sized);
  }

  /** Writes `state` into buffers[0] in boid-id order (velocity.w = boid id) and its copies. */
  private upload(state: FlockState): void {
    const res = this.res!;
    const gl = this.gl;
    const pos = new Float32Array(4 * state.count);
    const vel = new Float32Array(4 * state.count);
    pos.set(state.positions.subarray(0, 4 * state.count));
    vel.set(state.velocities.subarray(0, 4 * state.count));
    for (let i = 0; i < state.count; i++) vel[4 * i + 3] = i;
    this.cur = 0;
    uploadStateBuffers(gl, res.buffers[0], pos, vel);
    copyStateToTextures(gl, res.buffers[0], res.copies, state.count);
  }

  private get ready(): Resources | null {
    return this.disposed || this.lost ? null : this.res;
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
    const res = this.ready;
    if (!res) return;
    if (!sameLayout(tableLayout, res.table.layout)) {
      deleteTarget(this.gl, res.table);
      res.table = createTarget(this.gl, tableLayout, [this.gl.RG32UI], 'cell table');
      this.checkMemory(params.count);
    }
    res.bounds = uploadCellBounds(this.gl, params, grid, res.bounds);
    if (searchChanged) res.timer.clearSamples();
    this.warmPrograms();
  }

  setState(state: FlockState): void {
    if (this.disposed) return;
    this.checkCount(state.count);
    this.lastState = state;
    this.count = state.count;
    if (!this.ready) return;
    this.resize(state.count);
    this.upload(state);
  }

  step(n: number): void {
    const res = this.ready;
    if (!res) return;
    res.timer.poll();
    for (let k = 0; k < n; k++) this.stepOnce(res);
  }

  /** Key, sort and cell table of the state in the copies; returns the sorted keys' target. */
  private buildGrid(res: Resources): Target {
    res.timer.begin('key');
    runKeyPass(
      res.env,
      res.copies.textures[0],
      this.count,
      this.params,
      this.grid,
      res.bounds,
      res.keys[0],
    );
    res.timer.end();
    res.timer.begin('sort');
    const sorted = runBitonicSort(res.env, res.keys[0], res.keys[1]);
    res.timer.end();
    res.timer.begin('cellTable');
    runCellTable(res.env, sorted, this.count, res.table);
    res.timer.end();
    return sorted;
  }

  /** Grid: reorders the state in the copies into buffers[1 - cur] and copies that back. */
  private reorder(res: Resources, sorted: Target): GridInputs {
    const scratch = res.buffers[1 - this.cur]!;
    res.timer.begin('reorder');
    runTFReorder(res.env, res.copies, sorted, this.count, scratch);
    copyStateToTextures(this.gl, scratch, res.copies, this.count);
    res.timer.end();
    return { sortedKeys: sorted, cellTable: res.table };
  }

  private stepOnce(res: Resources): void {
    const gl = this.gl;
    if (this.params.neighborSearch === 'grid') {
      // The reordered state goes to the scratch pair; the step writes back into the current one.
      const grid = this.reorder(res, this.buildGrid(res));
      const a = res.buffers[this.cur];
      res.timer.begin('steer');
      runTFSteer(res.env, res.copies, grid, this.count, this.params, this.grid, a);
      copyStateToTextures(gl, a, res.copies, this.count);
      res.timer.end();
    } else {
      const next = (1 - this.cur) as 0 | 1;
      const b = res.buffers[next];
      res.timer.begin('steer');
      runTFSteer(res.env, res.copies, null, this.count, this.params, this.grid, b);
      copyStateToTextures(gl, b, res.copies, this.count);
      res.timer.end();
      this.cur = next;
    }
  }

  render(view: RenderView): void {
    const res = this.ready;
    if (!res) return;
    res.timer.begin('draw');
    runDraw(res.env, res.copies, this.count, this.params, view, this.drawMode);
    res.timer.end();
  }

  timings(): BackendTimings {
    const res = this.ready;
    if (!res?.timer.enabled) return { timing: 'none', passes: { ...NO_PASS_TIMES } };
    res.timer.poll();
    return { timing: 'gpu', passes: res.timer.averages() };
  }

  async sync(): Promise<void> {
    await this.requireReady().reader.read([]);
  }

  private requireReady(): Resources {
    const res = this.ready;
    if (!res) throw new Error(this.disposed ? 'backend disposed' : 'WebGL context lost');
    return res;
  }

  /** The boid id stored in velocity.w of element s. */
  private static idAt(vel: Float32Array, s: number, count: number): number {
    const id = vel[4 * s + 3]!;
    if (!(Number.isInteger(id) && id >= 0 && id < count)) {
      throw new Error(`internal: element ${s} carries boid id ${id} (count ${count})`);
    }
    return id;
  }

  async readState(): Promise<FlockState> {
    const res = this.requireReady();
    const count = this.count;
    const a = res.buffers[this.cur];
    const pos = new Float32Array(4 * count);
    const vel = new Float32Array(4 * count);
    await res.reader.read([
      { buffer: a.pos, dst: pos },
      { buffer: a.vel, dst: vel },
    ]);
    const positions = new Float32Array(4 * count);
    const velocities = new Float32Array(4 * count);
    const seen = new Uint8Array(count);
    for (let s = 0; s < count; s++) {
      const id = WebGL2TFBackendImpl.idAt(vel, s, count);
      if (seen[id]) throw new Error(`internal: boid id ${id} appears twice`);
      seen[id] = 1;
      positions.set(pos.subarray(4 * s, 4 * s + 4), 4 * id);
      velocities.set(vel.subarray(4 * s, 4 * s + 3), 4 * id);
    }
    return { count, positions, velocities };
  }

  async debugSortedKeys(): Promise<{ keys: Uint32Array; ids: Uint32Array }> {
    const res = this.requireReady();
    const gl = this.gl;
    const count = this.count;
    const sorted = this.buildGrid(res);
    const pairs = new Uint32Array(4 * sorted.layout.width * rowsFor(sorted.layout, count));
    const vel = new Float32Array(4 * count);
    await res.reader.read([
      {
        fbo: sorted.fbo,
        attachment: gl.COLOR_ATTACHMENT0,
        width: sorted.layout.width,
        rows: rowsFor(sorted.layout, count),
        format: gl.RGBA_INTEGER,
        type: gl.UNSIGNED_INT,
        dst: pairs,
      },
      { buffer: res.buffers[this.cur].vel, dst: vel },
    ]);
    const keys = new Uint32Array(count);
    const ids = new Uint32Array(count);
    for (let s = 0; s < count; s++) {
      keys[s] = pairs[4 * s]!;
      const src = pairs[4 * s + 1]!;
      if (src >= count) throw new Error(`internal: sorted element ${s} has payload ${src}`);
      ids[s] = WebGL2TFBackendImpl.idAt(vel, src, count);
    }
    return { keys, ids };
  }

  async debugNeighborCounts(): Promise<Uint32Array> {
    const res = this.requireReady();
    const gl = this.gl;
    const count = this.count;
    // The order counted in: the current buffers (brute) or the reordered scratch pair (grid).
    let order = res.buffers[this.cur];
    let gridInputs: GridInputs | null = null;
    if (this.params.neighborSearch === 'grid') {
      gridInputs = this.reorder(res, this.buildGrid(res));
      order = res.buffers[1 - this.cur]!;
    }
    const out = createFeedbackBuffer(gl, 4 * count);
    try {
      runTFNeighborCount(res.env, res.copies, gridInputs, count, this.params, this.grid, out);
      // Back to the invariant: the copies hold the current buffers.
      if (gridInputs) copyStateToTextures(gl, res.buffers[this.cur], res.copies, count);
      const raw = new Uint32Array(count);
      const vel = new Float32Array(4 * count);
      await res.reader.read([
        { buffer: out, dst: raw },
        { buffer: order.vel, dst: vel },
      ]);
      const counts = new Uint32Array(count);
      for (let s = 0; s < count; s++) counts[WebGL2TFBackendImpl.idAt(vel, s, count)] = raw[s]!;
      return counts;
    } finally {
      gl.deleteBuffer(out);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.canvas.removeEventListener('webglcontextlost', this.onLostEvent);
    this.canvas.removeEventListener('webglcontextrestored', this.onRestoredEvent);
    this.freeResources();
  }
}

/**
 * Creates the WebGL2 transform-feedback backend on `init.canvas`, with `init.state` uploaded.
 * Needs WebGL2 and integer (RG32UI) render targets only: no float render target, no extension.
 * Options beyond BackendInit: `drawMode` ('instanced' | 'vertex-id') and `maxTextureSize`.
 * @throws FlockError field 'backend' when WebGL2 is missing (or hidden through `init.disable`:
 *   'webgl2', 'webgl2-tf'), field 'count' when the count does not fit the textures or memory;
 *   ShaderError when a shader fails to compile.
 */
export async function createWebGL2TFBackend(init: WebGL2TFBackendInit): Promise<WebGL2TFBackend> {
  const allowed = 'a browser with WebGL2 (integer render targets and transform feedback)';
  if (init.disable.has('webgl2-tf')) {
    throw new FlockError('backend', 'webgl2-tf', allowed, "hidden by disable: ['webgl2-tf']");
  }
  const probe = probeWebGL2(init.disable);
  if (!probe.ok) {
    throw new FlockError('backend', 'webgl2-tf', allowed, probe.reason ?? 'probe failed');
  }
  const gl = init.canvas.getContext('webgl2', CONTEXT_ATTRIBUTES) as WebGL2RenderingContext | null;
  if (!gl) {
    throw new FlockError(
      'backend',
      'webgl2-tf',
      allowed,
      'no WebGL2 context on this canvas (it may already hold another context type)',
    );
  }
  trackGL(gl);
  const deviceMax = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  const maxTextureSize = Math.min(deviceMax, init.maxTextureSize ?? deviceMax);
  return new WebGL2TFBackendImpl(init.canvas, gl, maxTextureSize, probe.renderer ?? '', init);
}
