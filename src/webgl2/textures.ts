/**
 * Data textures and render targets of the WebGL2 paths, and the full-screen pass that writes them.
 * A data texture holds one element per texel in index order, in a rectangle whose width is a power
 * of two (element i at (i & (width - 1), i >> shift)); NEAREST filtering, no mipmaps.
 * The caller owns every texture and framebuffer made here (deleteTarget frees a target's).
 */
import { nextPow2 } from '../core/numbers';
import type { GLProgram, UniformValues } from './program';
import { useProgram } from './program';

export interface TexLayout {
  width: number;
  height: number;
  /** log2(width). */
  shift: number;
  /** width * height. */
  texels: number;
}

/** M = nextPow2(elements) texels in the square-ish power-of-two rectangle (width >= height). */
export function powerOfTwoLayout(elements: number): TexLayout {
  const texels = nextPow2(Math.max(1, elements));
  const log2 = Math.round(Math.log2(texels));
  const shift = Math.ceil(log2 / 2);
  const width = 2 ** shift;
  return { width, height: texels / width, shift, texels };
}

/** At least `elements` texels: a power-of-two width near sqrt(elements), as few rows as needed. */
export function compactLayout(elements: number): TexLayout {
  const width = nextPow2(Math.ceil(Math.sqrt(Math.max(1, elements))));
  const height = Math.max(1, Math.ceil(elements / width));
  return { width, height, shift: Math.round(Math.log2(width)), texels: width * height };
}

export { rowsFor } from './tex-rows';

/** A width x height texture of `internalFormat` (immutable storage), NEAREST, CLAMP_TO_EDGE. */
export function createDataTexture(
  gl: WebGL2RenderingContext,
  internalFormat: number,
  layout: TexLayout,
): WebGLTexture {
  const tex = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texStorage2D(gl.TEXTURE_2D, 1, internalFormat, layout.width, layout.height);
  nearestClamp(gl, gl.TEXTURE_2D);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return tex;
}

/** NEAREST filtering and CLAMP_TO_EDGE on the texture bound to `target` (data, not images). */
function nearestClamp(gl: WebGL2RenderingContext, target: number): void {
  gl.texParameteri(target, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(target, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(target, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(target, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
}

/**
 * Per context, the attachment shapes (formats, layers, size) already found complete.
 * checkFramebufferStatus waits for the GPU process to drain every command before it (on
 * SwiftShader, other flocks' shader links on a shared context: 50-150 ms a call, once per flock
 * of 20 starting at once, issue 31 item 7); a shape found complete once is complete again on
 * that context, so only the first framebuffer of each shape asks.
 */
const completeShapes = new WeakMap<WebGL2RenderingContext, Set<string>>();

/**
 * A framebuffer whose COLOR_ATTACHMENT0..n-1 `attach(k)` sets (all drawn), and its completeness
 * status; the framebuffer is unbound again. `shape`: a key of the attachments' formats and
 * sizes; a shape already found complete on `gl` is not asked again.
 */
function colorFramebuffer(
  gl: WebGL2RenderingContext,
  n: number,
  attach: (k: number) => void,
  shape?: string,
): { fbo: WebGLFramebuffer; status: number } {
  const fbo = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  const buffers: number[] = [];
  for (let k = 0; k < n; k++) {
    attach(k);
    buffers.push(gl.COLOR_ATTACHMENT0 + k);
  }
  gl.drawBuffers(buffers);
  let known = completeShapes.get(gl);
  let status: number;
  if (shape !== undefined && known?.has(shape)) {
    status = gl.FRAMEBUFFER_COMPLETE;
  } else {
    status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    if (shape !== undefined && status === gl.FRAMEBUFFER_COMPLETE) {
      if (!known) completeShapes.set(gl, (known = new Set()));
      known.add(shape);
    }
  }
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  return { fbo, status };
}

/** A framebuffer with the 2D `textures` as COLOR_ATTACHMENT0..n-1 (all drawn), and its status. */
export function framebufferOf(
  gl: WebGL2RenderingContext,
  textures: readonly WebGLTexture[],
  shape?: string,
): { fbo: WebGLFramebuffer; status: number } {
  return colorFramebuffer(
    gl,
    textures.length,
    (k) =>
      gl.framebufferTexture2D(
        gl.FRAMEBUFFER,
        gl.COLOR_ATTACHMENT0 + k,
        gl.TEXTURE_2D,
        textures[k]!,
        0,
      ),
    shape,
  );
}

/** Textures of one layout bound as COLOR_ATTACHMENT0..n-1 of one framebuffer. */
export interface Target {
  readonly fbo: WebGLFramebuffer;
  readonly textures: readonly WebGLTexture[];
  readonly layout: TexLayout;
}

/**
 * A framebuffer with one new texture per entry of `formats` (e.g. [RGBA32F, RGBA32F]).
 * @throws Error naming the framebuffer status when the attachments are not renderable.
 */
export function createTarget(
  gl: WebGL2RenderingContext,
  layout: TexLayout,
  formats: readonly number[],
  label: string,
): Target {
  const textures = formats.map((f) => createDataTexture(gl, f, layout));
  const shape = `2d ${formats.join(',')} ${layout.width}x${layout.height}`;
  const { fbo, status } = framebufferOf(gl, textures, shape);
  const target = { fbo, textures, layout };
  if (status !== gl.FRAMEBUFFER_COMPLETE && !gl.isContextLost()) {
    deleteTarget(gl, target);
    throw new Error(
      `${label}: framebuffer incomplete (0x${status.toString(16)}) for ${layout.width}x${layout.height}`,
    );
  }
  return target;
}

/**
 * A framebuffer whose COLOR_ATTACHMENTk is layer k of one new `layers`-layer TEXTURE_2D_ARRAY of
 * `internalFormat` (NEAREST, CLAMP_TO_EDGE): a fragment writes one texel of every layer.
 * `textures[0]` is the array. @throws Error naming the framebuffer status when not renderable.
 */
export function createArrayTarget(
  gl: WebGL2RenderingContext,
  layout: TexLayout,
  layers: number,
  internalFormat: number,
  label: string,
): Target {
  const tex = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D_ARRAY, tex);
  gl.texStorage3D(gl.TEXTURE_2D_ARRAY, 1, internalFormat, layout.width, layout.height, layers);
  nearestClamp(gl, gl.TEXTURE_2D_ARRAY);
  gl.bindTexture(gl.TEXTURE_2D_ARRAY, null);
  const { fbo, status } = colorFramebuffer(
    gl,
    layers,
    (k) => gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + k, tex, 0, k),
    `array ${internalFormat} ${layers} ${layout.width}x${layout.height}`,
  );
  const target = { fbo, textures: [tex], layout };
  if (status !== gl.FRAMEBUFFER_COMPLETE && !gl.isContextLost()) {
    deleteTarget(gl, target);
    throw new Error(
      `${label}: framebuffer incomplete (0x${status.toString(16)}) for ${layers} layers of ${layout.width}x${layout.height}`,
    );
  }
  return target;
}

/** Deletes a target's framebuffer and textures. */
export function deleteTarget(gl: WebGL2RenderingContext, t: Target | null | undefined): void {
  if (!t) return;
  gl.deleteFramebuffer(t.fbo);
  for (const tex of t.textures) gl.deleteTexture(tex);
}

/**
 * Runs `prog` over the first `rows` rows of `target` (all rows by default) with one full-screen
 * triangle; `vao` is an empty vertex array (the triangle comes from gl_VertexID).
 */
export function drawPass(
  gl: WebGL2RenderingContext,
  vao: WebGLVertexArrayObject,
  target: Target,
  prog: GLProgram,
  uniforms: UniformValues,
  rows = target.layout.height,
): void {
  gl.bindFramebuffer(gl.FRAMEBUFFER, target.fbo);
  gl.viewport(0, 0, target.layout.width, rows);
  gl.disable(gl.DEPTH_TEST);
  gl.disable(gl.BLEND);
  gl.disable(gl.SCISSOR_TEST);
  gl.disable(gl.CULL_FACE);
  useProgram(gl, prog, uniforms);
  gl.bindVertexArray(vao);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  gl.bindVertexArray(null);
}
