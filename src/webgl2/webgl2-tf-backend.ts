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
 * Invariant: outside a step the copies hold states[cur], so render() and the key pass read them.
 * Reorder as its own pass (not folded into steer by gathering through the sorted keys): on
 * SwiftShader both measured the same (N = 4,096 and 16,384); the separate pass keeps the steer
 * loop identical to the texture path's, without a dependent key fetch per candidate neighbour.
 *
 * What it shares with the texture path (resources, context loss, the pass order, the boid-id order
 * of readState, debug hooks) is webgl2-path-base.ts; here is where the state lives and how the
 * feedback passes write it. Never enables EXT_color_buffer_float.
 */
import { FlockError } from '../core/errors';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import { tagBoidIds, valuesByBoidId } from '../core/boid-order';
import { probeWebGL2 } from './capabilities';
import { createSortTargets, deleteSortTargets, runUnpack, type SortTargets } from './bitonic-sort';
import { ProgramCache, type ProgramSpec } from './program';
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
import { REORDER_SPEC, runTFReorder } from './tf-reorder';
import { runTFNeighborCount, runTFSteer, steerProgramSpec } from './tf-steer';
import { powerOfTwoLayout, type Target } from './textures';
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

/** Options of createWebGL2TFBackend beyond the common BackendInit. */
export type WebGL2TFBackendInit = WebGL2PathInit;

/** The transform-feedback backend's extras over Backend. */
export interface WebGL2TFBackend extends WebGL2PathBackend {
  readonly kind: 'webgl2-tf';
}

/**
 * What the feedback passes need from the device; WebGL2 (GLES 3.0) guarantees all of it (4, 4,
 * 16), so a shortfall means a broken driver: refuse it with a reason instead of drawing nothing.
 */
function checkDeviceLimits(gl: WebGL2RenderingContext): string | null {
  const attribs = gl.getParameter(gl.MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS) as number;
  const components = gl.getParameter(gl.MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS) as number;
  const units = gl.getParameter(gl.MAX_VERTEX_TEXTURE_IMAGE_UNITS) as number;
  if (attribs < 3) return `MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS is ${attribs} (3 needed)`;
  if (components < 4)
    return `MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS is ${components} (4 needed)`;
  if (units < 5) return `MAX_VERTEX_TEXTURE_IMAGE_UNITS is ${units} (5 needed)`;
  return null;
}

/** Count-dependent objects of one layout. */
interface FeedbackStates extends StateObjects<StateBuffers> {
  /** RGBA32F copies of states[cur] (outside a step) for texelFetch: neighbours, keys, drawing. */
  copies: StateCopies;
}
type Resources = PathResources<FeedbackEnv, FeedbackStates>;

class WebGL2TFBackendImpl extends WebGL2PathBase<FeedbackEnv, StateBuffers, FeedbackStates> {
  readonly kind = 'webgl2-tf' as const;

  constructor(
    canvas: HTMLCanvasElement,
    gl: WebGL2RenderingContext,
    maxTextureSize: number,
    readonly deviceInfo: string,
    init: WebGL2TFBackendInit,
  ) {
    super(canvas, gl, maxTextureSize, init);
  }

  protected checkDevice(): void {
    const limit = checkDeviceLimits(this.gl);
    if (limit) throw new FlockError('backend', 'webgl2-tf', 'a WebGL2 device', limit);
  }

  protected createEnv(): FeedbackEnv {
    const gl = this.gl;
    return {
      gl,
      vao: gl.createVertexArray()!,
      programs: new ProgramCache(gl, this.parallelCompile()),
      feedback: gl.createTransformFeedback()!,
    };
  }

  protected deleteEnv(env: FeedbackEnv): void {
    env.programs.dispose();
    this.gl.deleteTransformFeedback(env.feedback);
    this.gl.deleteVertexArray(env.vao);
  }

  protected createStates(count: number): FeedbackStates {
    const gl = this.gl;
    const layout = powerOfTwoLayout(count);
    const bufs: StateBuffers[] = [];
    let copies: StateCopies | null = null;
    let sort: SortTargets | null = null;
    try {
      bufs.push(createStateBuffers(gl, layout), createStateBuffers(gl, layout));
      copies = createStateCopies(gl, layout);
      sort = createSortTargets(gl, count, this.init.sortBlockLog2);
      this.checkMemory(count);
      return {
        states: [bufs[0]!, bufs[1]!],
        copies,
        sort,
      };
    } catch (e) {
      bufs.forEach((b) => deleteStateBuffers(gl, b));
      deleteStateCopies(gl, copies);
      deleteSortTargets(gl, sort);
      throw e;
    }
  }

  protected freeStates(s: FeedbackStates): void {
    const gl = this.gl;
    s.states.forEach((b) => deleteStateBuffers(gl, b));
    deleteStateCopies(gl, s.copies);
    deleteSortTargets(gl, s.sort);
  }

  protected replaceStates(res: FeedbackStates, count: number): void {
    const sized = this.createStates(count);
    this.freeStates(res);
    Object.assign(res, sized);
  }

  protected stateStorage(): string {
    return 'state buffers and textures';
  }

  protected steerSpec(params: FlockParams): ProgramSpec {
    return steerProgramSpec(params, params.neighborSearch);
  }

  protected reorderSpec(): ProgramSpec {
    return REORDER_SPEC;
  }

  /** Writes `state` into states[0] and its copies. */
  protected writeState(res: Resources, state: FlockState): void {
    const { pos, vel, nbr } = tagBoidIds(state);
    uploadStateBuffers(this.gl, res.states[0], pos, vel, nbr);
    copyStateToTextures(this.gl, res.states[0], res.copies, state.count);
  }

  protected currentTextures(res: Resources): StateCopies {
    return res.copies;
  }

  /** Unpacks the sorted blocks, reorders the state in the copies into states[1 - cur] and copies that back. */
  protected reorderPass(res: Resources, blocks: Target): Target {
    const sorted = runUnpack(res.env, res.sort, blocks);
    const scratch = res.states[1 - this.cur]!;
    runTFReorder(res.env, res.copies, sorted, this.count, scratch);
    copyStateToTextures(this.gl, scratch, res.copies, this.count, false);
    return sorted;
  }

  protected steerPass(res: Resources, grid: GridInputs | null, out: 0 | 1, time: number): void {
    const dst = res.states[out];
    runTFSteer(res.env, res.copies, grid, this.count, this.params, this.grid, dst, time);
    copyStateToTextures(this.gl, dst, res.copies, this.count);
  }

  protected stateRead(state: StateBuffers, count: number): StateRead {
    const pos = new Float32Array(4 * count);
    const vel = new Float32Array(4 * count);
    const nbr = new Float32Array(count);
    return {
      reqs: [
        { buffer: state.pos, dst: pos },
        { buffer: state.vel, dst: vel },
        { buffer: state.nbr, dst: nbr },
      ],
      pos,
      vel,
      nbr,
      nbrStride: 1,
    };
  }

  protected async countNeighbors(
    res: Resources,
    grid: GridInputs | null,
    order: StateBuffers,
    count: number,
  ): Promise<Uint32Array> {
    const gl = this.gl;
    const out = createFeedbackBuffer(gl, 4 * count);
    try {
      runTFNeighborCount(res.env, res.copies, grid, count, this.params, this.grid, out);
      // Back to the invariant: the copies hold the current state.
      if (grid) copyStateToTextures(gl, res.states[this.cur], res.copies, count);
      const raw = new Uint32Array(count);
      const state = this.stateRead(order, count);
      await res.reader.read([{ buffer: out, dst: raw }, ...state.reqs]);
      return valuesByBoidId(raw, 1, state.vel, count);
    } finally {
      gl.deleteBuffer(out);
    }
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
  const probe = await probeWebGL2(init.disable);
  if (!probe.ok) {
    throw new FlockError('backend', 'webgl2-tf', allowed, probe.reason ?? 'probe failed');
  }
  const { gl, maxTextureSize } = openWebGL2(init, 'webgl2-tf', allowed);
  return new WebGL2TFBackendImpl(
    init.canvas,
    gl,
    maxTextureSize,
    probe.renderer ?? '',
    init,
  ).start();
}
