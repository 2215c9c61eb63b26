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
 * shader of both paths. It runs in a worker where it can (probeInWorker), and nothing in it waits
 * for the GPU process on the page's thread (see probeWebGL2Here).
 */
import { finishLink, startLink, type PendingLink } from './link';
import { AsyncReader, gpuDone, type ReadRequest } from './readback';
import { probeContext, rendererOf } from './probe-context';
import { workerAnswer } from '../core/worker-answer';
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

const cache = new Map<string, Promise<WebGL2Probe>>();

/** Values that only a true 32-bit target keeps (src/webgl2/probe.frag.glsl writes the same). */
const FLOAT_EXPECTED = [1.0001, -2.5e5, 3.1415927, 0.125].map(Math.fround);
const UINT_EXPECTED = [0xffffffff, 123456789];

/** One render target of the probe: a 1x1 texture of `format`, its framebuffer and its program. */
interface ProbeTarget {
  tex: WebGLTexture | null;
  fbo: WebGLFramebuffer | null;
  complete: boolean;
  link: PendingLink | null;
}

function makeTarget(gl: WebGL2RenderingContext, format: number, uint: boolean): ProbeTarget {
  const tex = gl.createTexture();
  const fbo = gl.createFramebuffer();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texStorage2D(gl.TEXTURE_2D, 1, format, 1, 1);
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  const complete = gl.checkFramebufferStatus(gl.FRAMEBUFFER) === gl.FRAMEBUFFER_COMPLETE;
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.bindTexture(gl.TEXTURE_2D, null);
  const link = complete
    ? startLink(
        gl,
        'fullscreen.vert.glsl',
        'probe.frag.glsl',
        { UINT_TARGET: uint ? 1 : 0 },
        PROBE_FILES,
      )
    : null;
  return { tex, fbo, complete, link };
}

function freeTarget(gl: WebGL2RenderingContext, t: ProbeTarget): void {
  if (t.link) {
    gl.deleteProgram(t.link.program);
    gl.deleteShader(t.link.vs);
    gl.deleteShader(t.link.fs);
  }
  gl.deleteFramebuffer(t.fbo);
  gl.deleteTexture(t.tex);
}

/**
 * Draws probe.frag.glsl into `t` (its link checked: the caller waited for the GPU first) and
 * queues the read of its texel into `out` through a pixel-pack buffer (AsyncReader).
 */
function drawAndQueueRead(
  gl: WebGL2RenderingContext,
  vao: WebGLVertexArrayObject,
  t: ProbeTarget,
  uint: boolean,
  out: Float32Array | Uint32Array,
): ReadRequest {
  const link = t.link!;
  t.link = null; // finishLink frees it, even when it throws
  const { program } = finishLink(gl, link);
  try {
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbo);
    gl.viewport(0, 0, 1, 1);
    gl.useProgram(program);
    gl.bindVertexArray(vao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  } finally {
    gl.useProgram(null);
    gl.bindVertexArray(null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteProgram(program);
  }
  return {
    fbo: t.fbo!,
    attachment: gl.COLOR_ATTACHMENT0,
    width: 1,
    rows: 1,
    format: uint ? gl.RGBA_INTEGER : gl.RGBA,
    type: uint ? gl.UNSIGNED_INT : gl.FLOAT,
    dst: out,
  };
}

/**
 * The probe on this thread, uncached (the worker runs it there; probeWebGL2 otherwise), without
 * one call that waits for the GPU process on its thread but the context's creation: both targets
 * and both programs are made and their links started at once, the page waits for the GPU by a
 * fence polled from timers (gpuDone) before it asks for the link status, and the texels come back
 * through a pixel-pack buffer and a fence (AsyncReader) instead of readPixels into memory.
 * Before (issue 31): the link status and readPixels each waited, 100-400 ms of one task on
 * SwiftShader beside a busy GPU process.
 */
export async function probeWebGL2Here(disable: ReadonlySet<string>): Promise<WebGL2Probe> {
  if (disable.has('webgl2')) {
    return { ok: false, floatRenderTarget: false, reason: 'webgl2 is disabled', maxTextureSize: 0 };
  }
  const gl = probeContext();
  if (!gl) {
    return { ok: false, floatRenderTarget: false, reason: 'no WebGL2 context', maxTextureSize: 0 };
  }
  const vao = gl.createVertexArray()!;
  const reader = new AsyncReader(gl);
  const targets: ProbeTarget[] = [];
  try {
    const maxTextureSize = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    const renderer = rendererOf(gl);
    const result: WebGL2Probe = { ok: true, floatRenderTarget: false, maxTextureSize, renderer };
    const uintTarget = makeTarget(gl, gl.RG32UI, true);
    targets.push(uintTarget);
    let floatWhyNot: string | null = null;
    if (disable.has('EXT_color_buffer_float')) floatWhyNot = 'EXT_color_buffer_float is disabled';
    else if (!gl.getExtension('EXT_color_buffer_float'))
      floatWhyNot = 'EXT_color_buffer_float is not supported';
    const floatTarget = floatWhyNot === null ? makeTarget(gl, gl.RGBA32F, false) : null;
    if (floatTarget) targets.push(floatTarget);
    if (!uintTarget.complete) {
      return { ...result, ok: false, reason: 'RG32UI framebuffer incomplete' };
    }
    // The links run in the GPU process while the page goes on.
    await gpuDone(gl);
    const uintValues = new Uint32Array(4);
    const floatValues = new Float32Array(4);
    drawAndQueueRead(gl, vao, uintTarget, true, uintValues);
    const reads: ReadRequest[] = [];
    if (floatTarget?.complete)
      reads.push(drawAndQueueRead(gl, vao, floatTarget, false, floatValues));
    // The fence of the float read (or, without one, of all work so far) comes after both draws.
    await reader.read(reads);
    // The RG32UI texel is read into memory, not through a pixel-pack buffer: packing RG32UI as
    // RGBA_INTEGER into a buffer makes ANGLE convert on the CPU, and Chromium logs "GPU stall due
    // to ReadPixels" (tests/e2e/quiet-console.test.ts). The draw has finished: nothing waits.
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, uintTarget.fbo!);
    gl.readBuffer(gl.COLOR_ATTACHMENT0);
    gl.readPixels(0, 0, 1, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, uintValues);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
    if (UINT_EXPECTED.some((v, k) => uintValues[k] !== v)) {
      return { ...result, ok: false, reason: `RG32UI read back [${[...uintValues]}]` };
    }
    if (floatWhyNot !== null) return { ...result, reason: floatWhyNot };
    if (!floatTarget!.complete) return { ...result, reason: 'RGBA32F framebuffer incomplete' };
    if (FLOAT_EXPECTED.some((v, k) => floatValues[k] !== v)) {
      return { ...result, reason: `RGBA32F read back [${[...floatValues]}], not float32` };
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
    reader.dispose();
    for (const t of targets) freeTarget(gl, t);
    gl.deleteVertexArray(vao);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

/** The longest the page waits for the worker's answer before it probes on its own thread. */
const WORKER_WAIT_MS = 20_000;

/**
 * The probe in a worker, on an OffscreenCanvas (issue 31 item 7): a WebGL2 context is made by a
 * synchronous call to the GPU process, which answers once the task it is running ends (another
 * page's frame, a WebGPU submit: 100-470 ms measured on SwiftShader beside a busy GPU process),
 * and the page's first context waited so on its main thread. The worker is the library's one
 * worker file (src/cpu/cpu-worker.ts, shipped as gpu-flock.cpu-worker.js: found by bundlers and
 * allowed by a strict CSP's 'self'). Null where it cannot answer (no Worker or OffscreenCanvas,
 * the file not found or blocked, no WebGL2 context there, or no answer in WORKER_WAIT_MS): the
 * caller then probes on its own thread, so an answer of no WebGL2 is always this thread's.
 */
export async function probeInWorker(disable: ReadonlySet<string>): Promise<WebGL2Probe | null> {
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return null;
  const reply = await workerAnswer<{ webgl2Probe?: WebGL2Probe | null }>(
    // The package build (scripts/build-lib.mjs) points this at dist/gpu-flock.cpu-worker.js.
    () => new Worker(new URL('../cpu/cpu-worker.ts', import.meta.url), { type: 'module' }),
    { webgl2Probe: [...disable] },
    WORKER_WAIT_MS,
  );
  return reply?.webgl2Probe?.ok ? reply.webgl2Probe : null;
}

/**
 * Whether this page can run the WebGL2 texture path, probed by rendering and reading back
 * (without holding the page: see probeWebGL2Here and probeInWorker), in a worker where one
 * answers, else on this thread. `disable` hides capabilities on purpose: 'webgl2',
 * 'EXT_color_buffer_float'. Cached per page and per disable set (calls made while a probe runs
 * share it).
 */
export async function probeWebGL2(disable: ReadonlySet<string>): Promise<WebGL2Probe> {
  const key = [...disable].sort().join(',');
  let r = cache.get(key);
  if (!r) {
    r = disable.has('webgl2')
      ? probeWebGL2Here(disable)
      : probeInWorker(disable).then((answer) => answer ?? probeWebGL2Here(disable));
    cache.set(key, r);
  }
  return { ...(await r) };
}
