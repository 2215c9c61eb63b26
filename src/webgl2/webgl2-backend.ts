/**
 * The WebGL2 texture-path backend (DESIGN.md section 3): boid state in RGBA32F textures, a uniform
 * grid built each step by fragment passes (key -> bitonic sort -> cell table -> reorder), then one
 * steer + integrate pass, and an instanced (or vertex-id) draw. Needs a float colour attachment
 * verified by probing (capabilities.ts).
 *
 * Internal order: the state textures hold the boids in the order of the last sort (boid-id order
 * right after setState), and velocity.w carries each boid's id as a float (exact below 2^24, and
 * counts are at most 2^24) so the id travels with the boid through reorder and steer; readState()
 * scatters back into id order and reports velocity.w = 0 (FlockState's convention).
 *
 * Owns every GL object it creates (counted by gl-tracker.ts) and frees them in dispose(); the
 * context itself stays with the canvas. All GL resources come from one build function that runs
 * again after 'webglcontextrestored'.
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
import { MAX_COUNT, type FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import { runBitonicSort } from './bitonic-sort';
import { probeWebGL2 } from './capabilities';
import { uploadCellBounds, type CellBounds } from './cell-bounds';
import { cellTableLayout, runCellTable } from './cell-table';
import { resetGLTracker, trackGL } from './gl-tracker';
import { GpuTimer } from './gpu-timer';
import { runKeyPass } from './key-pass';
import type { PassEnv } from './pass-env';
import { ProgramCache } from './program';
import { AsyncReader } from './readback';
import { runReorder } from './reorder';
import { runDraw, type DrawMode } from './renderer';
import { runNeighborCount, runSteer } from './steer';
import {
  createTarget,
  deleteTarget,
  powerOfTwoLayout,
  rowsFor,
  type TexLayout,
  type Target,
} from './textures';
import { flockDefines } from './uniforms';

export type { DrawMode } from './renderer';

/** Options of createWebGL2Backend beyond the common BackendInit. */
export interface WebGL2BackendInit extends BackendInit {
  /** 'instanced' (default) or 'vertex-id' (one plain draw; boid = gl_VertexID / 12). */
  drawMode?: DrawMode;
  /** Use at most this MAX_TEXTURE_SIZE (below the device's): tests, memory budgets. */
  maxTextureSize?: number;
}

/** The WebGL2 backend's extras over Backend. */
export interface WebGL2Backend extends Backend {
  readonly kind: 'webgl2';
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
  alpha: false,
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

interface Resources {
  env: PassEnv;
  reader: AsyncReader;
  timer: GpuTimer;
  /** Two RGBA32F (position, velocity) pairs: the current state and the scratch/next one. */
  pairs: [Target, Target];
  /** Two RG32UI (cellKey, payload) targets for the key pass and the sort's ping-pong. */
  keys: [Target, Target];
  table: Target;
  /** R32F exact cell thresholds of the grid (cell-bounds.ts). */
  bounds: CellBounds;
}

function sameLayout(a: TexLayout, b: TexLayout): boolean {
  return a.width === b.width && a.height === b.height;
}

class WebGL2BackendImpl implements WebGL2Backend {
  readonly kind = 'webgl2' as const;
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
    private readonly init: WebGL2BackendInit,
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

  /** Builds every GL resource for the current params and state, and uploads the state. */
  private build(): void {
    const gl = this.gl;
    if (!gl.getExtension('EXT_color_buffer_float')) {
      throw new FlockError('backend', 'webgl2', 'a device with EXT_color_buffer_float');
    }
    const tableLayout = this.checkTable(this.grid, this.params.count);
    const layout = powerOfTwoLayout(this.count);
    const env: PassEnv = { gl, vao: gl.createVertexArray()!, programs: new ProgramCache(gl) };
    const reader = new AsyncReader(gl);
    const timer = new GpuTimer(gl, this.init.disable.has('EXT_disjoint_timer_query_webgl2'));
    const made: Target[] = [];
    let bounds: CellBounds | null = null;
    const target = (l: TexLayout, formats: number[], label: string) => {
      const t = createTarget(gl, l, formats, label);
      made.push(t);
      return t;
    };
    try {
      this.res = {
        env,
        reader,
        timer,
        pairs: [
          target(layout, [gl.RGBA32F, gl.RGBA32F], 'state A'),
          target(layout, [gl.RGBA32F, gl.RGBA32F], 'state B'),
        ],
        keys: [target(layout, [gl.RG32UI], 'keys A'), target(layout, [gl.RG32UI], 'keys B')],
        table: target(tableLayout, [gl.RG32UI], 'cell table'),
        bounds: (bounds = uploadCellBounds(gl, this.params, this.grid, null)),
      };
      this.checkMemory();
      this.warmPrograms();
      this.upload(this.lastState);
    } catch (e) {
      this.res = null;
      made.forEach((t) => deleteTarget(gl, t));
      if (bounds) gl.deleteTexture(bounds.texture);
      timer.dispose();
      reader.dispose();
      env.programs.dispose();
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
    for (const t of [...res.pairs, ...res.keys, res.table]) deleteTarget(gl, t);
    gl.deleteTexture(res.bounds.texture);
    res.env.programs.dispose();
    gl.deleteVertexArray(res.env.vao);
  }

  private checkMemory(): void {
    const err = this.gl.getError();
    if (err === this.gl.OUT_OF_MEMORY) {
      throw new FlockError('count', this.count, 'a count whose textures fit in GPU memory');
    }
  }

  /** Compiles the programs the current params use, so shader errors surface at once. */
  private warmPrograms(): void {
    const { programs } = this.res!.env;
    const d = flockDefines(this.params);
    programs.get('fullscreen.vert.glsl', 'steer.frag.glsl', d);
    if (this.params.neighborSearch === 'grid') {
      programs.get('fullscreen.vert.glsl', 'key.frag.glsl', { DIMS: d.DIMS!, WRAP: d.WRAP! });
      programs.get('fullscreen.vert.glsl', 'bitonic-sort.frag.glsl');
      programs.get('fullscreen.vert.glsl', 'cell-table.frag.glsl');
      programs.get('fullscreen.vert.glsl', 'reorder.frag.glsl');
    }
  }

  /** Resizes the count-dependent targets when the layout changes. */
  private resize(count: number): void {
    const res = this.res!;
    const gl = this.gl;
    const layout = powerOfTwoLayout(count);
    if (sameLayout(layout, res.pairs[0].layout)) return;
    for (const t of [...res.pairs, ...res.keys]) deleteTarget(gl, t);
    res.pairs = [
      createTarget(gl, layout, [gl.RGBA32F, gl.RGBA32F], 'state A'),
      createTarget(gl, layout, [gl.RGBA32F, gl.RGBA32F], 'state B'),
    ];
    res.keys = [
      createTarget(gl, layout, [gl.RG32UI], 'keys A'),
      createTarget(gl, layout, [gl.RG32UI], 'keys B'),
    ];
    this.checkMemory();
  }

  /** Writes `state` into pair 0 in boid-id order, velocity.w = boid id. */
  private upload(state: FlockState): void {
    const res = this.res!;
    const gl = this.gl;
    const layout = res.pairs[0].layout;
    const rows = rowsFor(layout, state.count);
    const n = 4 * layout.width * rows;
    const pos = new Float32Array(n);
    const vel = new Float32Array(n);
    pos.set(state.positions.subarray(0, 4 * state.count));
    vel.set(state.velocities.subarray(0, 4 * state.count));
    for (let i = 0; i < state.count; i++) vel[4 * i + 3] = i;
    const [pt, vt] = res.pairs[0].textures;
    gl.bindTexture(gl.TEXTURE_2D, pt!);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, layout.width, rows, gl.RGBA, gl.FLOAT, pos);
    gl.bindTexture(gl.TEXTURE_2D, vt!);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, layout.width, rows, gl.RGBA, gl.FLOAT, vel);
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.cur = 0;
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
      this.checkMemory();
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

  /** Key, sort and cell table of the current state; returns the sorted keys' target. */
  private buildGrid(res: Resources): Target {
    const a = res.pairs[this.cur];
    res.timer.begin('key');
    runKeyPass(
      res.env,
      a.textures[0]!,
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

  private stepOnce(res: Resources): void {
    const a = res.pairs[this.cur];
    const b = res.pairs[1 - this.cur]!;
    if (this.params.neighborSearch === 'grid') {
      const sorted = this.buildGrid(res);
      res.timer.begin('reorder');
      runReorder(res.env, a, sorted, this.count, b);
      res.timer.end();
      res.timer.begin('steer');
      const grid = { sortedKeys: sorted, cellTable: res.table };
      runSteer(res.env, b, grid, this.count, this.params, this.grid, a);
      res.timer.end();
    } else {
      res.timer.begin('steer');
      runSteer(res.env, a, null, this.count, this.params, this.grid, b);
      res.timer.end();
      this.cur = this.cur === 0 ? 1 : 0;
    }
  }

  render(view: RenderView): void {
    const res = this.ready;
    if (!res) return;
    res.timer.begin('draw');
    runDraw(res.env, res.pairs[this.cur], this.count, this.params, view, this.drawMode);
    res.timer.end();
  }

  timings(): BackendTimings {
    const res = this.ready;
    if (!res?.timer.enabled) return { timing: 'none', passes: { ...NO_PASS_TIMES } };
    res.timer.poll();
    return { timing: 'gpu', passes: res.timer.averages() };
  }

  private requireReady(): Resources {
    const res = this.ready;
    if (!res) throw new Error(this.disposed ? 'backend disposed' : 'WebGL context lost');
    return res;
  }

  /** Reads positions and velocities of `pair` (the first `count` elements) asynchronously. */
  private readPair(
    res: Resources,
    pair: Target,
    count: number,
  ): { done: Promise<void>; pos: Float32Array; vel: Float32Array } {
    const gl = this.gl;
    const { width } = pair.layout;
    const rows = rowsFor(pair.layout, count);
    const pos = new Float32Array(4 * width * rows);
    const vel = new Float32Array(4 * width * rows);
    const done = res.reader.read([
      {
        fbo: pair.fbo,
        attachment: gl.COLOR_ATTACHMENT0,
        width,
        rows,
        format: gl.RGBA,
        type: gl.FLOAT,
        dst: pos,
      },
      {
        fbo: pair.fbo,
        attachment: gl.COLOR_ATTACHMENT1,
        width,
        rows,
        format: gl.RGBA,
        type: gl.FLOAT,
        dst: vel,
      },
    ]);
    return { done, pos, vel };
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
    const { done, pos, vel } = this.readPair(res, res.pairs[this.cur], count);
    await done;
    const positions = new Float32Array(4 * count);
    const velocities = new Float32Array(4 * count);
    const seen = new Uint8Array(count);
    for (let s = 0; s < count; s++) {
      const id = WebGL2BackendImpl.idAt(vel, s, count);
      if (seen[id]) throw new Error(`internal: boid id ${id} appears twice`);
      seen[id] = 1;
      positions.set(pos.subarray(4 * s, 4 * s + 4), 4 * id);
      velocities.set(vel.subarray(4 * s, 4 * s + 3), 4 * id);
    }
    return { count, positions, velocities };
  }

  /** Reads the first `count` (x, y) pairs of a uint target. */
  private readUint(
    res: Resources,
    t: Target,
    count: number,
  ): { done: Promise<void>; data: Uint32Array } {
    const gl = this.gl;
    const rows = rowsFor(t.layout, count);
    const data = new Uint32Array(4 * t.layout.width * rows);
    const done = res.reader.read([
      {
        fbo: t.fbo,
        attachment: gl.COLOR_ATTACHMENT0,
        width: t.layout.width,
        rows,
        format: gl.RGBA_INTEGER,
        type: gl.UNSIGNED_INT,
        dst: data,
      },
    ]);
    return { done, data };
  }

  async debugSortedKeys(): Promise<{ keys: Uint32Array; ids: Uint32Array }> {
    const res = this.requireReady();
    const count = this.count;
    const sorted = this.buildGrid(res);
    const k = this.readUint(res, sorted, count);
    const state = this.readPair(res, res.pairs[this.cur], count);
    await Promise.all([k.done, state.done]);
    const keys = new Uint32Array(count);
    const ids = new Uint32Array(count);
    for (let s = 0; s < count; s++) {
      keys[s] = k.data[4 * s]!;
      const src = k.data[4 * s + 1]!;
      if (src >= count) throw new Error(`internal: sorted element ${s} has payload ${src}`);
      ids[s] = WebGL2BackendImpl.idAt(state.vel, src, count);
    }
    return { keys, ids };
  }

  async debugNeighborCounts(): Promise<Uint32Array> {
    const res = this.requireReady();
    const gl = this.gl;
    const count = this.count;
    const a = res.pairs[this.cur];
    let src = a;
    let gridInputs = null;
    if (this.params.neighborSearch === 'grid') {
      const sorted = this.buildGrid(res);
      src = res.pairs[1 - this.cur]!;
      runReorder(res.env, a, sorted, count, src);
      gridInputs = { sortedKeys: sorted, cellTable: res.table };
    }
    const out = createTarget(gl, a.layout, [gl.R32UI], 'neighbour counts');
    try {
      runNeighborCount(res.env, src, gridInputs, count, this.params, this.grid, out);
      const c = this.readUint(res, out, count);
      const state = this.readPair(res, src, count);
      await Promise.all([c.done, state.done]);
      const counts = new Uint32Array(count);
      for (let s = 0; s < count; s++) {
        counts[WebGL2BackendImpl.idAt(state.vel, s, count)] = c.data[4 * s]!;
      }
      return counts;
    } finally {
      deleteTarget(gl, out);
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
 * Creates the WebGL2 texture-path backend on `init.canvas`, with `init.state` uploaded.
 * Options beyond BackendInit: `drawMode` ('instanced' | 'vertex-id') and `maxTextureSize`.
 * @throws FlockError field 'backend' when WebGL2 or a verified float render target is missing
 *   (or hidden through `init.disable`), field 'count' when the count does not fit the textures;
 *   ShaderError when a shader fails to compile.
 */
export async function createWebGL2Backend(init: WebGL2BackendInit): Promise<WebGL2Backend> {
  const allowed = 'a browser with WebGL2 and a float32 colour attachment (EXT_color_buffer_float)';
  const probe = probeWebGL2(init.disable);
  if (!probe.ok || !probe.floatRenderTarget) {
    throw new FlockError('backend', 'webgl2', allowed, probe.reason ?? 'probe failed');
  }
  const gl = init.canvas.getContext('webgl2', CONTEXT_ATTRIBUTES) as WebGL2RenderingContext | null;
  if (!gl) {
    throw new FlockError(
      'backend',
      'webgl2',
      allowed,
      'no WebGL2 context on this canvas (it may already hold another context type)',
    );
  }
  trackGL(gl);
  const deviceMax = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  const maxTextureSize = Math.min(deviceMax, init.maxTextureSize ?? deviceMax);
  return new WebGL2BackendImpl(init.canvas, gl, maxTextureSize, init);
}
