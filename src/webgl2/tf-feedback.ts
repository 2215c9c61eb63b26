/**
 * The transform-feedback path's building blocks (DESIGN.md section 3): state buffers, a vertex
 * pass whose outputs are captured into buffers (RASTERIZER_DISCARD, one POINT per element), and
 * the GPU-side copy of a buffer into a sampleable RGBA32F texture (PIXEL_UNPACK_BUFFER), which
 * needs no float render target. The binding rules of BROWSER.md are kept here, in one place: a
 * null framebuffer before each feedback pass, every feedback binding cleared after it.
 * The caller owns every buffer and texture made here (deleteStateBuffers, deleteStateCopies).
 */
import type { GLProgram, UniformValues } from './program';
import { useProgram } from './program';
import type { PassEnv } from './pass-env';
import { createDataTexture, rowsFor, type TexLayout } from './textures';

/** What a feedback pass needs beyond a PassEnv: the transform-feedback object it binds. */
export interface FeedbackEnv extends PassEnv {
  readonly feedback: WebGLTransformFeedback;
}

/**
 * One state: positions and velocities, one vec4 per element in index order, and |N_i| as one
 * float per element (layout.texels of each).
 */
export interface StateBuffers {
  /** xyz world units, w species id. */
  readonly pos: WebGLBuffer;
  /** xyz world units/s, w boid id (internal). */
  readonly vel: WebGLBuffer;
  /** |N_i| of the last step (FlockState's velocities.w). */
  readonly nbr: WebGLBuffer;
}

/**
 * Sampled copies of a StateBuffers, never attached: textures[0] positions, [1] velocities
 * (RGBA32F), [2] |N_i| (R32F).
 */
export interface StateCopies {
  readonly textures: readonly [WebGLTexture, WebGLTexture, WebGLTexture];
  readonly layout: TexLayout;
}

/** A buffer of `bytes` zero bytes, for feedback output and copies (DYNAMIC_COPY). */
export function createFeedbackBuffer(gl: WebGL2RenderingContext, bytes: number): WebGLBuffer {
  const buf = gl.createBuffer()!;
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, buf);
  gl.bufferData(gl.COPY_WRITE_BUFFER, bytes, gl.DYNAMIC_COPY);
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
  return buf;
}

/** Position and velocity buffers of layout.texels vec4 each (16 bytes per element), |N_i| (4 bytes). */
export function createStateBuffers(gl: WebGL2RenderingContext, layout: TexLayout): StateBuffers {
  return {
    pos: createFeedbackBuffer(gl, 16 * layout.texels),
    vel: createFeedbackBuffer(gl, 16 * layout.texels),
    nbr: createFeedbackBuffer(gl, 4 * layout.texels),
  };
}

export function deleteStateBuffers(gl: WebGL2RenderingContext, b: StateBuffers | null): void {
  if (!b) return;
  gl.deleteBuffer(b.pos);
  gl.deleteBuffer(b.vel);
  gl.deleteBuffer(b.nbr);
}

/** Two RGBA32F and one R32F data textures of `layout` (sampled only: no framebuffer, no extension needed). */
export function createStateCopies(gl: WebGL2RenderingContext, layout: TexLayout): StateCopies {
  return {
    textures: [
      createDataTexture(gl, gl.RGBA32F, layout),
      createDataTexture(gl, gl.RGBA32F, layout),
      createDataTexture(gl, gl.R32F, layout),
    ],
    layout,
  };
}

export function deleteStateCopies(gl: WebGL2RenderingContext, c: StateCopies | null): void {
  if (!c) return;
  for (const t of c.textures) gl.deleteTexture(t);
}

/** Writes `pos` and `vel` (4 floats per element, from element 0) and `nbr` (1 float each) into `b`. */
export function uploadStateBuffers(
  gl: WebGL2RenderingContext,
  b: StateBuffers,
  pos: Float32Array,
  vel: Float32Array,
  nbr: Float32Array,
): void {
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, b.pos);
  gl.bufferSubData(gl.COPY_WRITE_BUFFER, 0, pos);
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, b.vel);
  gl.bufferSubData(gl.COPY_WRITE_BUFFER, 0, vel);
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, b.nbr);
  gl.bufferSubData(gl.COPY_WRITE_BUFFER, 0, nbr);
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
}

/**
 * Copies elements [0, count) of `src` (whole rows of the layout) into `dst` on the GPU:
 * texSubImage2D from a PIXEL_UNPACK_BUFFER at offset 0; |N_i| too unless `withNbr` is false
 * (after a reorder, whose |N_i| the steer pass has yet to write). The buffers must not be bound
 * to a transform-feedback binding (INVALID_OPERATION, WebGL2 spec 5.1): runFeedback clears them.
 */
export function copyStateToTextures(
  gl: WebGL2RenderingContext,
  src: StateBuffers,
  dst: StateCopies,
  count: number,
  withNbr = true,
): void {
  const { width } = dst.layout;
  const rows = rowsFor(dst.layout, count);
  const copies: [WebGLBuffer, WebGLTexture, number][] = [
    [src.pos, dst.textures[0], gl.RGBA],
    [src.vel, dst.textures[1], gl.RGBA],
  ];
  if (withNbr) copies.push([src.nbr, dst.textures[2], gl.RED]);
  for (const [buf, tex, format] of copies) {
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, buf);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, rows, format, gl.FLOAT, 0);
  }
  gl.bindTexture(gl.TEXTURE_2D, null);
  gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, null);
}

/**
 * Runs the vertex shader of `prog` once per element [0, count) (gl_VertexID = element index) with
 * the rasterizer off, capturing its feedback outputs into `outputs` (binding k gets the k-th
 * output named when the program was linked). Leaves no framebuffer, feedback object or feedback
 * buffer bound, so the outputs can be copied or read at once.
 */
export function runFeedback(
  env: FeedbackEnv,
  prog: GLProgram,
  uniforms: UniformValues,
  outputs: readonly WebGLBuffer[],
  count: number,
): void {
  const { gl } = env;
  // A framebuffer left bound whose texture this pass samples is a "feedback loop" (INVALID_OPERATION)
  // even with the rasterizer off (BROWSER.md): the grid passes leave theirs bound.
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.enable(gl.RASTERIZER_DISCARD);
  useProgram(gl, prog, uniforms);
  gl.bindVertexArray(env.vao);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, env.feedback);
  outputs.forEach((b, k) => gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, k, b));
  gl.beginTransformFeedback(gl.POINTS);
  gl.drawArrays(gl.POINTS, 0, count);
  gl.endTransformFeedback();
  outputs.forEach((_, k) => gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, k, null));
  gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
  gl.bindVertexArray(null);
  gl.disable(gl.RASTERIZER_DISCARD);
}
