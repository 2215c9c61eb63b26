/**
 * WebGL2 capability probes, by doing (DESIGN.md section 2): on a throwaway canvas, make the render
 * targets the texture path needs (RGBA32F with EXT_color_buffer_float, RG32UI), render known
 * values, read them back and compare. Results are cached per page and per disable set; the probe
 * context is lost afterwards (WEBGL_lose_context) so probes do not pile up contexts.
 *
 * The `auto` ladder probes this rung on WebGPU pages too when their adapter is software (it
 * yields to a hardware WebGL2; SwiftShader here), so the probe is small: its own 1x1 target and
 * its one program linked by link.ts from the three shader files it needs (fullscreen.vert.glsl,
 * probe.frag.glsl and their common.glsl), not program.ts (twgl.js) and textures.ts with every
 * shader of both paths.
 */
import { linkProgram } from './link';
import commonGlsl from './common.glsl?raw';
import fullscreenVert from './fullscreen.vert.glsl?raw';
import probeFrag from './probe.frag.glsl?raw';

/** The probe's shader files, by name, as resolveShader takes them. */
const PROBE_FILES: Readonly<Record<string, string>> = {
  'common.glsl': commonGlsl,
  'fullscreen.vert.glsl': fullscreenVert,
  'probe.frag.glsl': probeFrag,
};

export interface WebGL2Probe {
  /** A WebGL2 context exists and renders to an RG32UI integer target. */
  ok: boolean;
  /** An RGBA32F texture is a complete colour attachment that stores float32 exactly. */
  floatRenderTarget: boolean;
  /** Why `ok` or `floatRenderTarget` is false. */
  reason?: string;
  /** gl.MAX_TEXTURE_SIZE (0 without WebGL2). */
  maxTextureSize: number;
  /** The renderer string, when the browser tells it. */
  renderer?: string;
}

const cache = new Map<string, WebGL2Probe>();

/** Values that only a true 32-bit target keeps (src/webgl2/probe.frag.glsl writes the same). */
const FLOAT_EXPECTED = [1.0001, -2.5e5, 3.1415927, 0.125].map(Math.fround);
const UINT_EXPECTED = [0xffffffff, 123456789];

/**
 * Renders probe.frag.glsl into a 1x1 texture of `format` and reads the texel back; `complete` is
 * false when that texture is not a complete colour attachment.
 */
function renderAndRead(
  gl: WebGL2RenderingContext,
  vao: WebGLVertexArrayObject,
  format: number,
  uint: boolean,
): { complete: boolean; values: number[] } {
  const tex = gl.createTexture();
  const fbo = gl.createFramebuffer();
  let prog: WebGLProgram | null = null;
  try {
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texStorage2D(gl.TEXTURE_2D, 1, format, 1, 1);
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) {
      return { complete: false, values: [] };
    }
    prog = linkProgram(
      gl,
      'fullscreen.vert.glsl',
      'probe.frag.glsl',
      { UINT_TARGET: uint ? 1 : 0 },
      PROBE_FILES,
    ).program;
    gl.viewport(0, 0, 1, 1);
    gl.useProgram(prog);
    gl.bindVertexArray(vao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    const out = uint ? new Uint32Array(4) : new Float32Array(4);
    gl.readPixels(
      0,
      0,
      1,
      1,
      uint ? gl.RGBA_INTEGER : gl.RGBA,
      uint ? gl.UNSIGNED_INT : gl.FLOAT,
      out,
    );
    return { complete: true, values: [...out] };
  } finally {
    gl.useProgram(null);
    gl.bindVertexArray(null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.deleteProgram(prog);
    gl.deleteFramebuffer(fbo);
    gl.deleteTexture(tex);
  }
}

function probe(disable: ReadonlySet<string>): WebGL2Probe {
  if (disable.has('webgl2')) {
    return { ok: false, floatRenderTarget: false, reason: 'webgl2 is disabled', maxTextureSize: 0 };
  }
  const canvas =
    typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(1, 1);
  canvas.width = 1;
  canvas.height = 1;
  const gl = canvas.getContext('webgl2', {
    antialias: false,
    depth: false,
  }) as WebGL2RenderingContext | null;
  if (!gl) {
    return { ok: false, floatRenderTarget: false, reason: 'no WebGL2 context', maxTextureSize: 0 };
  }
  const vao = gl.createVertexArray()!;
  try {
    const maxTextureSize = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(
      gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '',
    );
    const result: WebGL2Probe = { ok: true, floatRenderTarget: false, maxTextureSize, renderer };
    const uintRead = renderAndRead(gl, vao, gl.RG32UI, true);
    if (!uintRead.complete) {
      return { ...result, ok: false, reason: 'RG32UI framebuffer incomplete' };
    }
    if (UINT_EXPECTED.some((v, k) => uintRead.values[k] !== v)) {
      return { ...result, ok: false, reason: `RG32UI read back [${uintRead.values}]` };
    }
    if (disable.has('EXT_color_buffer_float')) {
      return { ...result, reason: 'EXT_color_buffer_float is disabled' };
    }
    if (!gl.getExtension('EXT_color_buffer_float')) {
      return { ...result, reason: 'EXT_color_buffer_float is not supported' };
    }
    const floatRead = renderAndRead(gl, vao, gl.RGBA32F, false);
    if (!floatRead.complete) return { ...result, reason: 'RGBA32F framebuffer incomplete' };
    if (FLOAT_EXPECTED.some((v, k) => floatRead.values[k] !== v)) {
      return { ...result, reason: `RGBA32F read back [${floatRead.values}], not float32` };
    }
    const err = gl.getError();
    if (err !== gl.NO_ERROR) return { ...result, reason: `GL error 0x${err.toString(16)}` };
    return { ...result, floatRenderTarget: true };
  } catch (e) {
    return {
      ok: false,
      floatRenderTarget: false,
      reason: `probe failed: ${(e as Error).message}`,
      maxTextureSize: 0,
    };
  } finally {
    gl.deleteVertexArray(vao);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

/**
 * Whether this page can run the WebGL2 texture path, probed by rendering and reading back.
 * `disable` hides capabilities on purpose: 'webgl2', 'EXT_color_buffer_float'.
 * Cached per page and per disable set.
 */
export function probeWebGL2(disable: ReadonlySet<string>): WebGL2Probe {
  const key = [...disable].sort().join(',');
  let r = cache.get(key);
  if (!r) {
    r = probe(disable);
    cache.set(key, r);
  }
  return { ...r };
}
