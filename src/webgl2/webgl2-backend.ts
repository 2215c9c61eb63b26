/**
 * The WebGL2 texture-path backend (DESIGN.md section 3): boid state in RGBA32F textures, a uniform
 * grid built each step by fragment passes (key -> bitonic sort -> cell table -> reorder), then one
 * steer + integrate pass, and an instanced (or vertex-id) draw. Needs a float colour attachment
 * verified by probing (capabilities.ts).
 *
 * What it shares with the transform-feedback path (resources, context loss, the pass order, the
 * boid-id order of readState, debug hooks) is webgl2-path-base.ts; here is where the state lives: two
 * render targets of two RGBA32F attachments (position, velocity) and one R32F (|N_i|) that
 * reorder and steer draw into.
 */
import { FlockError } from '../core/errors';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import { tagBoidIds, valuesByBoidId } from '../core/boid-order';
import { probeWebGL2 } from './capabilities';
import type { PassEnv } from './pass-env';
import { createSortTargets, deleteSortTargets, type SortTargets } from './bitonic-sort';
import { ProgramCache, type ProgramSpec } from './program';
import { targetRead } from './readback';
import { createReorderTarget, deleteReorderTarget, reorderSpec, runReorder } from './reorder';
import { runNeighborCount, runSteer, type GridInputs } from './steer';
import { createTarget, deleteTarget, powerOfTwoLayout, rowsFor, type Target } from './textures';
import { flockDefines } from './uniforms';
import {
  openWebGL2,
  WebGL2PathBase,
  type PathResources,
  type StateObjects,
  type StateRead,
  type WebGL2PathBackend,
  type WebGL2PathInit,
} from './webgl2-path-base';

export type { DrawMode } from './renderer';
export { CONTEXT_ATTRIBUTES, maxCountFor } from './webgl2-path-base';

/** Options of createWebGL2Backend beyond the common BackendInit. */
export type WebGL2BackendInit = WebGL2PathInit;

/** The WebGL2 backend's extras over Backend. */
export interface WebGL2Backend extends WebGL2PathBackend {
  readonly kind: 'webgl2';
}

/**
 * Two (RGBA32F position, RGBA32F velocity, R32F |N_i|) targets: the current state and the
 * scratch/next one; and per state the reorder pass's framebuffer (its textures + the sorted keys).
 */
interface TextureStates extends StateObjects<Target> {
  reorderTargets: [Target, Target];
}
type Resources = PathResources<PassEnv, TextureStates>;

class WebGL2BackendImpl extends WebGL2PathBase<PassEnv, Target, TextureStates> {
  readonly kind = 'webgl2' as const;

  protected checkDevice(): void {
    if (!this.gl.getExtension('EXT_color_buffer_float')) {
      throw new FlockError('backend', 'webgl2', 'a device with EXT_color_buffer_float');
    }
  }

  protected createEnv(): PassEnv {
    const gl = this.gl;
    return {
      gl,
      vao: gl.createVertexArray()!,
      programs: new ProgramCache(gl, this.parallelCompile()),
    };
  }

  protected deleteEnv(env: PassEnv): void {
    env.programs.dispose();
    this.gl.deleteVertexArray(env.vao);
  }

  protected createStates(count: number): TextureStates {
    const gl = this.gl;
    const layout = powerOfTwoLayout(count);
    const made: Target[] = [];
    const target = (formats: number[], label: string) => {
      const t = createTarget(gl, layout, formats, label);
      made.push(t);
      return t;
    };
    const reorders: Target[] = [];
    let sort: SortTargets | null = null;
    try {
      const a = target([gl.RGBA32F, gl.RGBA32F, gl.R32F], 'state A');
      const b = target([gl.RGBA32F, gl.RGBA32F, gl.R32F], 'state B');
      sort = createSortTargets(gl, count, this.init.sortBlockLog2);
      reorders.push(createReorderTarget(gl, a, sort.sorted, 'reorder into state A'));
      reorders.push(createReorderTarget(gl, b, sort.sorted, 'reorder into state B'));
      return { states: [a, b], sort, reorderTargets: [reorders[0]!, reorders[1]!] };
    } catch (e) {
      reorders.forEach((t) => deleteReorderTarget(this.gl, t));
      deleteSortTargets(this.gl, sort);
      made.forEach((t) => deleteTarget(this.gl, t));
      throw e;
    }
  }

  protected freeStates(s: TextureStates): void {
    for (const t of s.reorderTargets) deleteReorderTarget(this.gl, t);
    for (const t of s.states) deleteTarget(this.gl, t);
    deleteSortTargets(this.gl, s.sort);
  }

  /** Frees the old targets first: at large counts two sets need not fit at once. */
  protected replaceStates(res: TextureStates, count: number): void {
    this.freeStates(res);
    Object.assign(res, this.createStates(count));
    this.checkMemory(count);
  }

  protected stateStorage(): string {
    return 'textures';
  }

  protected steerSpec(params: FlockParams): ProgramSpec {
    // runSteer's program (steer.ts): its search mode is the params'.
    return { vert: 'fullscreen.vert.glsl', frag: 'steer.frag.glsl', defines: flockDefines(params) };
  }

  protected reorderSpec(sort: SortTargets): ProgramSpec {
    return reorderSpec(sort.blockLog2);
  }

  protected writeState(res: Resources, state: FlockState): void {
    const gl = this.gl;
    const layout = res.states[0].layout;
    const rows = rowsFor(layout, state.count);
    const { pos, vel, nbr } = tagBoidIds(state, 4 * layout.width * rows);
    const [pt, vt, nt] = res.states[0].textures;
    gl.bindTexture(gl.TEXTURE_2D, pt!);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, layout.width, rows, gl.RGBA, gl.FLOAT, pos);
    gl.bindTexture(gl.TEXTURE_2D, vt!);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, layout.width, rows, gl.RGBA, gl.FLOAT, vel);
    gl.bindTexture(gl.TEXTURE_2D, nt!);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, layout.width, rows, gl.RED, gl.FLOAT, nbr);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  protected currentTextures(res: Resources): Target {
    return res.states[this.cur];
  }

  /** Unpacks the sorted blocks into res.sort.sorted as it reorders (one pass). */
  protected reorderPass(res: Resources, blocks: Target): Target {
    const out = res.reorderTargets[1 - this.cur]!;
    runReorder(res.env, res.states[this.cur], res.sort, blocks, this.count, out);
    return res.sort.sorted;
  }

  protected steerPass(res: Resources, grid: GridInputs | null, out: 0 | 1, time: number): void {
    const src = grid ? res.states[1 - this.cur]! : res.states[this.cur];
    runSteer(res.env, src, grid, this.count, this.params, this.grid, res.states[out], time);
  }

  protected stateRead(state: Target, count: number): StateRead {
    const gl = this.gl;
    const pos = targetRead(gl, state, gl.COLOR_ATTACHMENT0, count, Float32Array);
    const vel = targetRead(gl, state, gl.COLOR_ATTACHMENT1, count, Float32Array);
    // R32F: |N_i| in red, read as RED/FLOAT where the implementation offers it, else RGBA/FLOAT
    // (the one float read format WebGL2 guarantees).
    const nbr = targetRead(gl, state, gl.COLOR_ATTACHMENT2, count, Float32Array);
    return {
      reqs: [pos.req, vel.req, nbr.req],
      pos: pos.data,
      vel: vel.data,
      nbr: nbr.data,
      nbrStride: nbr.stride,
    };
  }

  protected async countNeighbors(
    res: Resources,
    grid: GridInputs | null,
    order: Target,
    count: number,
  ): Promise<Uint32Array> {
    const gl = this.gl;
    const out = createTarget(gl, order.layout, [gl.R32UI], 'neighbour counts');
    try {
      runNeighborCount(res.env, order, grid, count, this.params, this.grid, out);
      const raw = targetRead(gl, out, gl.COLOR_ATTACHMENT0, count, Uint32Array);
      const state = this.stateRead(order, count);
      await res.reader.read([raw.req, ...state.reqs]);
      return valuesByBoidId(raw.data, raw.stride, state.vel, count);
    } finally {
      deleteTarget(gl, out);
    }
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
  const probe = await probeWebGL2(init.disable);
  if (!probe.ok || !probe.floatRenderTarget) {
    throw new FlockError('backend', 'webgl2', allowed, probe.reason ?? 'probe failed');
  }
  const { gl, maxTextureSize } = openWebGL2(init, 'webgl2', allowed);
  return new WebGL2BackendImpl(init.canvas, gl, maxTextureSize, init).start();
}
