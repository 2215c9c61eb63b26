// Errors a user or developer can act on, on both WebGL2 paths: shader errors name the file and line
// being edited, a count beyond the texture limit is a FlockError on 'count', a missing float
// render target (texture path) or WebGL2 a FlockError on 'backend'; the capability probe itself.
// The transform-feedback rung: its shaders compile, it runs (and never enables
// EXT_color_buffer_float) where the float render target is hidden, and `auto` lands on it when
// WebGPU and the float render target are hidden.
import { afterEach, describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import { resolveShader, ShaderError } from '../../src/core/shader-source';
import { validateParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { initialState } from '../../src/core/state';
import { createFlock, type Flock } from '../../src/index';
import { probeInWorker, probeWebGL2, probeWebGL2Here } from '../../src/webgl2/capabilities';
import { createProgram } from '../../src/webgl2/program';
import { GLSL_FILES } from '../../src/webgl2/shaders';
import type { WebGL2PathBackend } from '../../src/webgl2/webgl2-path-base';
import { createWebGL2TFBackend } from '../../src/webgl2/webgl2-tf-backend';
import { catchError } from '../support/browser';
import { checkTolerance, parityParams } from '../support/compare';
import { WEBGL2_PATHS } from '../support/webgl2-paths';
import { float32Framebuffer } from '../support/gl-target';

let backend: WebGL2PathBackend | null = null;
let flock: Flock | null = null;
afterEach(() => {
  backend?.dispose();
  backend = null;
  flock?.dispose();
  flock = null;
});

function context(): WebGL2RenderingContext {
  return document.createElement('canvas').getContext('webgl2')!;
}

/** Capabilities that, hidden, make each path's factory reject on 'backend'. */
const REJECTED_WITHOUT = {
  webgl2: ['EXT_color_buffer_float', 'webgl2'],
  'webgl2-tf': ['webgl2', 'webgl2-tf'],
} as const;

describe('shader errors', () => {
  test('an error in the shader file names that file and its 1-based line', () => {
    const files = {
      ...GLSL_FILES,
      'broken.frag.glsl': [
        '#version 300 es',
        '#include "gpgpu.glsl"',
        'out vec4 outColor;',
        'void main() {',
        '  outColor = vec4(undefinedThing);',
        '}',
      ].join('\n'),
    };
    let err: unknown;
    try {
      createProgram(context(), 'fullscreen.vert.glsl', 'broken.frag.glsl', {}, files);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ShaderError);
    const se = err as ShaderError;
    expect(se.file).toBe('broken.frag.glsl');
    expect(se.line).toBe(5);
    expect(se.message).toContain('broken.frag.glsl:5');
    expect(se.message).toContain('undefinedThing');
  });

  test('every compiler error is kept, each at its own file:line (a chunk and the shader)', () => {
    const files = {
      ...GLSL_FILES,
      'two-bad.glsl': ['// a chunk', 'float helper() {', '  return missingOne;', '}'].join('\n'),
      'two-errors.frag.glsl': [
        '#version 300 es',
        'precision highp float;',
        '#include "two-bad.glsl"',
        'out vec4 outColor;',
        'void main() {',
        '  outColor = vec4(helper() + missingTwo);',
        '}',
      ].join('\n'),
    };
    let err: unknown;
    try {
      createProgram(context(), 'fullscreen.vert.glsl', 'two-errors.frag.glsl', {}, files);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ShaderError);
    const se = err as ShaderError;
    expect([se.file, se.line]).toEqual(['two-bad.glsl', 3]);
    const errors = se.messages.filter((m) => m.type === 'error');
    expect(errors.map((m) => `${m.file}:${m.line}`)).toEqual([
      'two-bad.glsl:3',
      'two-errors.frag.glsl:6',
    ]);
    expect(errors[0]!.text).toContain('missingOne');
    expect(errors[1]!.text).toContain('missingTwo');
  });

  test('an error in an included chunk names the chunk and its line, with defines inserted', () => {
    const files = {
      ...GLSL_FILES,
      'bad-chunk.glsl': ['// a chunk', 'float helper() {', '  return 1.0 +;', '}'].join('\n'),
      'uses-chunk.frag.glsl': [
        '#version 300 es',
        '#include "common.glsl"',
        '#include "bad-chunk.glsl"',
        'out vec4 outColor;',
        'void main() { outColor = vec4(helper()); }',
      ].join('\n'),
    };
    let err: unknown;
    try {
      createProgram(
        context(),
        'fullscreen.vert.glsl',
        'uses-chunk.frag.glsl',
        { A: 1, B: 2 },
        files,
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ShaderError);
    expect((err as ShaderError).file).toBe('bad-chunk.glsl');
    expect((err as ShaderError).line).toBe(3);
  });

  test('every shipped program compiles and links', () => {
    const gl = context();
    const fs = Object.keys(GLSL_FILES).filter((f) => f.endsWith('.frag.glsl'));
    expect(fs.length).toBeGreaterThanOrEqual(7);
    for (const f of fs) {
      for (const defines of [
        { DIMS: 3, WRAP: 0, GRID: 1, UINT_TARGET: 0, BLOCK_LOG2: 4, STAGES: 4 },
        { DIMS: 2, WRAP: 1, GRID: 0, UINT_TARGET: 1, BLOCK_LOG2: 3, STAGES: 1 },
      ]) {
        // The scene's shaders pair with their own vertex stages (src/webgl2/renderer.ts).
        const vert =
          (
            {
              'boid.frag.glsl': 'boid.vert.glsl',
              'sphere.frag.glsl': 'billboard.vert.glsl',
              'marker.frag.glsl': 'billboard.vert.glsl',
              'flat.frag.glsl': 'bounds.vert.glsl',
            } as Record<string, string>
          )[f] ?? 'fullscreen.vert.glsl';
        const p = createProgram(gl, vert, f, {
          ...defines,
          DRAW_VERTEX_ID: defines.GRID,
          PREDATORS: defines.WRAP,
        });
        gl.deleteProgram(p.program);
      }
    }
  });

  test('a failed compile or link leaves no GL error (no detachShader on a deleted program)', () => {
    const head = '#version 300 es\nprecision highp float;\nout vec4 o;\n';
    const files = {
      ...GLSL_FILES,
      'no-compile.frag.glsl': `${head}void main() { o = vec4(nope); }`,
      // Compiles, but no vertex stage writes the input it reads: a link error.
      'no-link.frag.glsl': `${head}in vec3 vUnwritten;\nvoid main() { o = vec4(vUnwritten, 1.0); }`,
    };
    const gl = context();
    for (const [frag, kind] of [
      ['no-compile.frag.glsl', /nope/],
      ['no-link.frag.glsl', /link error/],
    ] as const) {
      let err: unknown;
      try {
        createProgram(gl, 'fullscreen.vert.glsl', frag, {}, files);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ShaderError);
      expect((err as ShaderError).message).toMatch(kind);
      // Chrome logs "WebGL: INVALID_VALUE: detachShader: attempt to use a deleted object" for each.
      expect(gl.getError()).toBe(gl.NO_ERROR);
    }
  });
});

describe('webgl2-tf shaders', () => {
  test('every feedback program compiles and links, in each variant', () => {
    const gl = document.createElement('canvas').getContext('webgl2')!;
    const programs: [string, string[]][] = [
      ['tf-steer.vert.glsl', ['tfPos', 'tfVel']],
      ['tf-reorder.vert.glsl', ['tfPos', 'tfVel']],
      ['tf-neighbor-count.vert.glsl', ['tfCount']],
    ];
    for (const [vert, outputs] of programs) {
      for (const defines of [
        { DIMS: 3, WRAP: 0, GRID: 1 },
        { DIMS: 2, WRAP: 1, GRID: 0 },
        { DIMS: 3, WRAP: 1, GRID: 1 },
      ]) {
        const p = createProgram(gl, vert, 'tf-discard.frag.glsl', defines, undefined, outputs);
        expect(gl.getProgramParameter(p.program, gl.TRANSFORM_FEEDBACK_VARYINGS)).toBe(
          outputs.length,
        );
        gl.deleteProgram(p.program);
      }
    }
    expect(gl.getError()).toBe(gl.NO_ERROR);
  });

  test('every feedback shader declares highp floats, ints and samplers before any code', () => {
    const tf = Object.keys(GLSL_FILES).filter((f) => f.startsWith('tf-'));
    expect(tf.length).toBeGreaterThanOrEqual(4);
    for (const f of tf) {
      const code = resolveShader(f, GLSL_FILES, { DIMS: 3, WRAP: 0, GRID: 1 }).code;
      const body = code.search(/\buniform\b|\bout\b|\bvoid\b/);
      for (const type of ['float', 'int', 'sampler2D', 'usampler2D']) {
        const at = code.indexOf(`precision highp ${type};`);
        expect(at, `${f}: precision highp ${type}`).toBeGreaterThanOrEqual(0);
        expect(at, `${f}: precision highp ${type} before the first declaration`).toBeLessThan(body);
      }
    }
  });
});

describe.each(WEBGL2_PATHS)('$kind backend errors', (path) => {
  test('a count beyond the texture limit is a FlockError on count', async () => {
    // A small box keeps the grid (8^3 cells) inside the 64 x 64 limit too.
    const box = { boundsMin: [-8, -8, -8], boundsMax: [8, 8, 8] } as const;
    const params = validateParams({ count: 1000, ...box });
    backend = await path.create({
      canvas: document.createElement('canvas'),
      params,
      state: initialState(params),
      maxTextureSize: 64,
    });
    // 64 x 64 texels: a quarter of them for boids, the rest left for the cell table.
    expect(backend.maxCount).toBe(1024);
    expect(backend.maxTextureSize).toBe(64);
    const big = validateParams({ count: 1025, ...box });
    let err: unknown;
    try {
      backend.setState(initialState(big));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FlockError);
    expect((err as FlockError).field).toBe('count');
    expect((err as FlockError).value).toBe(1025);
    expect((err as FlockError).allowed).toContain('1 to 1024');
    expect((err as FlockError).allowed).toContain('MAX_TEXTURE_SIZE = 64');
    // The backend still holds its old state, and the largest count that fits works.
    expect((await backend.readState()).count).toBe(1000);
    const max = validateParams({ count: 1024, ...box });
    backend.setState(initialState(max));
    backend.step(1);
    const report = checkTolerance(
      await backend.readState(),
      referenceSteps(initialState(max), max, 1),
      max,
      1,
    );
    expect(report.ok, report.message).toBe(true);

    const err2 = await catchError(
      path.create({
        canvas: document.createElement('canvas'),
        params: big,
        state: initialState(big),
        maxTextureSize: 64,
      }),
    );
    expect(err2).toBeInstanceOf(FlockError);
    expect((err2 as FlockError).field).toBe('count');
  });

  test('the device limit: maxCount from MAX_TEXTURE_SIZE', async () => {
    const params = validateParams({ count: 10 });
    backend = await path.create({
      canvas: document.createElement('canvas'),
      params,
      state: initialState(params),
    });
    const max = backend.gl.getParameter(backend.gl.MAX_TEXTURE_SIZE) as number;
    expect(backend.maxTextureSize).toBe(max);
    expect(backend.maxCount).toBe(Math.min(2 ** 24, (max * max) / 4));
    expect(() => backend!.setState({ ...initialState(params), count: 2 ** 24 + 1 })).toThrow(
      FlockError,
    );
  });

  for (const hidden of REJECTED_WITHOUT[path.kind]) {
    test(`disable ${hidden}: rejects with a FlockError on backend`, async () => {
      const params = validateParams({ count: 100 });
      const err = await catchError(
        path.create(
          { canvas: document.createElement('canvas'), params, state: initialState(params) },
          [hidden],
        ),
      );
      expect(err).toBeInstanceOf(FlockError);
      expect((err as FlockError).field).toBe('backend');
      expect((err as FlockError).message).toContain(hidden);
    });
  }

  test('a canvas that already holds another context type', async () => {
    const canvas = document.createElement('canvas');
    expect(canvas.getContext('2d')).not.toBeNull();
    const params = validateParams({ count: 100 });
    const err = await catchError(path.create({ canvas, params, state: initialState(params) }));
    expect(err).toBeInstanceOf(FlockError);
    // A context conflict is the caller's canvas at fault (issue 11 item 8).
    expect((err as FlockError).field).toBe('target');
  });
});

describe('webgl2-tf without a float render target', () => {
  test('runs without ever enabling EXT_color_buffer_float: no float target exists on its context', async () => {
    const asked: string[] = [];
    const orig = WebGL2RenderingContext.prototype.getExtension;
    WebGL2RenderingContext.prototype.getExtension = function (this: WebGL2RenderingContext, name) {
      asked.push(name);
      return orig.call(this, name);
    } as typeof orig;
    try {
      const params = parityParams({ count: 1500 });
      backend = await createWebGL2TFBackend({
        canvas: document.createElement('canvas'),
        params,
        state: initialState(params),
        disable: new Set(),
      });
      backend.step(2);
      backend.render({
        viewProj: new Float32Array([0.05, 0, 0, 0, 0, 0.05, 0, 0, 0, 0, -0.05, 0, 0, 0, 0, 1]),
        width: 32,
        height: 32,
        boidSize: 1,
      });
      await backend.readState();
      await backend.debugNeighborCounts!();
      await backend.debugSortedKeys!();
    } finally {
      WebGL2RenderingContext.prototype.getExtension = orig;
    }
    const gl = backend.gl;
    expect(gl.getError()).toBe(gl.NO_ERROR);
    // Only the probe's throwaway context asked for it, if any (the probe runs in a worker, or
    // here before the backend's own).
    const own = asked.slice(asked.lastIndexOf('WEBGL_lose_context') + 1);
    expect(own).not.toContain('EXT_color_buffer_float');
    // So an RGBA32F colour attachment is incomplete on this context: every pass ran without one.
    const { tex, fbo } = float32Framebuffer(gl, 4, 4);
    expect(gl.checkFramebufferStatus(gl.FRAMEBUFFER)).not.toBe(gl.FRAMEBUFFER_COMPLETE);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(fbo);
    gl.deleteTexture(tex);
    gl.getError();
  });
});

describe('probeWebGL2', () => {
  test('finds float and integer render targets here, and honours disable', async () => {
    const p = await probeWebGL2(new Set());
    expect(p.ok).toBe(true);
    expect(p.floatRenderTarget).toBe(true);
    expect(p.maxTextureSize).toBeGreaterThanOrEqual(2048);
    expect(p.reason).toBeUndefined();
    const noFloat = await probeWebGL2(new Set(['EXT_color_buffer_float']));
    expect(noFloat.ok).toBe(true);
    expect(noFloat.floatRenderTarget).toBe(false);
    expect(noFloat.reason).toContain('EXT_color_buffer_float');
    const none = await probeWebGL2(new Set(['webgl2']));
    expect(none.ok).toBe(false);
    expect(none.maxTextureSize).toBe(0);
  });

  test('probes by doing: a float target that reads back rounded values (float16-like) is not verified', async () => {
    const proto = WebGL2RenderingContext.prototype;
    const origRead = proto.readPixels;
    const origGet = proto.getBufferSubData;
    const calls: number[] = [];
    proto.readPixels = function (this: WebGL2RenderingContext, ...args: unknown[]) {
      (origRead as (...a: unknown[]) => void).apply(this, args);
      calls.push(args[5] as number);
    } as typeof origRead;
    proto.getBufferSubData = function (this: WebGL2RenderingContext, ...args: unknown[]) {
      (origGet as (...a: unknown[]) => void).apply(this, args);
      // What a half-float target would keep of probe.frag.glsl's 1.0001, -2.5e5, pi, 0.125.
      if (args[2] instanceof Float32Array) args[2].set([1, -249984, 3.140625, 0.125]);
    } as typeof origGet;
    try {
      const p = await probeWebGL2Here(new Set(['probe-readback-test']));
      // The float texel through a pixel-pack buffer, then the RG32UI one into memory (packing
      // RG32UI into a buffer makes ANGLE log "GPU stall due to ReadPixels").
      expect(calls).toEqual([WebGL2RenderingContext.FLOAT, WebGL2RenderingContext.UNSIGNED_INT]);
      expect(p.ok).toBe(true); // the RG32UI target read back its exact values
      expect(p.floatRenderTarget).toBe(false);
      expect(p.reason).toBe('RGBA32F read back [1,-249984,3.140625,0.125], not float32');
    } finally {
      proto.readPixels = origRead;
      proto.getBufferSubData = origGet;
    }
  });

  test('holds the page for no wait on the GPU: a timer runs between the links and their status, and between the draws and the read into memory', async () => {
    // Issue 31 item 1: the probe linked, drew and read back in one task (a link status and a
    // readPixels that each waited for the GPU process: 100-400 ms on SwiftShader).
    const proto = WebGL2RenderingContext.prototype;
    const orig = {
      linkProgram: proto.linkProgram,
      getProgramParameter: proto.getProgramParameter,
      readPixels: proto.readPixels,
    };
    const log: string[] = [];
    proto.linkProgram = function (this: WebGL2RenderingContext, p: WebGLProgram) {
      log.push('link');
      orig.linkProgram.call(this, p);
    };
    proto.getProgramParameter = function (
      this: WebGL2RenderingContext,
      p: WebGLProgram,
      n: GLenum,
    ) {
      if (n === this.LINK_STATUS) log.push('status');
      return orig.getProgramParameter.call(this, p, n) as unknown;
    };
    proto.readPixels = function (this: WebGL2RenderingContext, ...args: unknown[]) {
      log.push(typeof args[6] === 'number' ? 'read-to-buffer' : 'read-to-memory');
      (orig.readPixels as (...a: unknown[]) => void).apply(this, args);
    } as typeof orig.readPixels;
    const ticker = setInterval(() => log.push('tick'), 0);
    try {
      const p = await probeWebGL2Here(new Set(['probe-yield-test']));
      expect(p.floatRenderTarget).toBe(true);
    } finally {
      clearInterval(ticker);
      Object.assign(proto, orig);
    }
    const events = log.filter((e, i) => e !== 'tick' || log[i - 1] !== 'tick');
    const lastLink = events.lastIndexOf('link');
    const firstStatus = events.indexOf('status');
    expect(events.filter((e) => e === 'link').length).toBe(2);
    expect(firstStatus).toBeGreaterThan(lastLink);
    expect(events.slice(lastLink, firstStatus), 'a timer ran while the links ran').toContain(
      'tick',
    );
    // The RGBA32F texel through a pixel-pack buffer; the RG32UI one into memory once the fence
    // of that read has passed (the draws are done: readPixels does not wait).
    expect(events.filter((e) => e.startsWith('read'))).toEqual([
      'read-to-buffer',
      'read-to-memory',
    ]);
    const toBuffer = events.indexOf('read-to-buffer');
    const toMemory = events.indexOf('read-to-memory');
    expect(events.slice(toBuffer, toMemory), 'a timer ran before the read into memory').toContain(
      'tick',
    );
  });

  test('cached per disable set, and made in a worker: the page makes no context for it', async () => {
    // Issue 31 item 7: a context's creation waits for the GPU process's running task to end
    // (100-470 ms measured here), on the thread that asks for it.
    const made = countContexts();
    try {
      const disable = new Set(['some-unrelated-capability']);
      const first = await probeWebGL2(disable);
      const again = await probeWebGL2(new Set(['some-unrelated-capability']));
      expect(again).toEqual(first);
      expect(first.ok && first.floatRenderTarget).toBe(true);
      expect(made.list).toEqual([]);
    } finally {
      made.restore();
    }
  });

  test('without a worker, or one whose script fails to load, it probes on the page and loses its context', async () => {
    const RealWorker = globalThis.Worker;
    const made = countContexts();
    try {
      // The worker file not found (or blocked by a CSP): the worker's error, no answer.
      globalThis.Worker = class extends RealWorker {
        constructor(_url: string | URL, options?: WorkerOptions) {
          super(new URL('/no-such-worker.js', location.href), options);
        }
      };
      expect(await probeInWorker(new Set())).toBeNull();
      const p = await probeWebGL2(new Set(['no-worker-file']));
      expect(p.ok && p.floatRenderTarget).toBe(true);
      expect(made.list.length).toBe(1);
      expect((made.list[0] as WebGL2RenderingContext).isContextLost()).toBe(true);
      // No Worker at all.
      globalThis.Worker = undefined as unknown as typeof Worker;
      expect(await probeInWorker(new Set())).toBeNull();
      expect((await probeWebGL2(new Set(['no-worker']))).floatRenderTarget).toBe(true);
      expect(made.list.length).toBe(2);
    } finally {
      globalThis.Worker = RealWorker;
      made.restore();
    }
  });
});

/** The WebGL2 contexts the page's thread makes on canvases from now on. */
function countContexts(): { list: unknown[]; restore: () => void } {
  const list: unknown[] = [];
  const orig = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (
    this: HTMLCanvasElement,
    ...args: Parameters<HTMLCanvasElement['getContext']>
  ) {
    const ctx = orig.apply(this, args);
    if ((args[0] as string) === 'webgl2') list.push(ctx);
    return ctx;
  } as typeof orig;
  return { list, restore: () => (HTMLCanvasElement.prototype.getContext = orig) };
}

describe('webgl2-tf on the ladder', () => {
  test("auto without WebGPU and without a float render target lands on 'webgl2-tf'", async () => {
    const params = parityParams({ count: 1200 });
    flock = await createFlock(undefined, {
      params,
      autoStart: false,
      disable: ['EXT_color_buffer_float', 'webgpu'],
    });
    expect(flock.backend).toBe('webgl2-tf');
    expect(flock.fallbackReasons.webgl2).toMatch(/EXT_color_buffer_float|float/);
    expect(flock.fallbackReasons.webgpu).toMatch(/webgpu/);
    expect(flock.fallbackReasons['webgl2-tf']).toBeUndefined();
    expect(flock.deviceInfo).not.toBe('');
    await flock.step(1);
    const report = checkTolerance(
      await flock.readState(),
      referenceSteps(initialState(params), params, 1),
      params,
      1,
    );
    expect(report.ok, report.message).toBe(true);
  });

  test("an explicit 'webgl2' without the float render target rejects on 'backend'", async () => {
    const err = await catchError(
      createFlock(undefined, {
        backend: 'webgl2',
        params: { count: 100 },
        autoStart: false,
        disable: ['EXT_color_buffer_float'],
      }),
    );
    expect(err).toBeInstanceOf(FlockError);
    expect((err as FlockError).field).toBe('backend');
    expect((err as FlockError).message).toContain('EXT_color_buffer_float');
  });

  test("an explicit 'webgl2-tf' runs with or without the float render target", async () => {
    for (const disable of [[], ['EXT_color_buffer_float']]) {
      flock = await createFlock(undefined, {
        backend: 'webgl2-tf',
        params: { count: 300 },
        autoStart: false,
        disable,
      });
      expect(flock.backend).toBe('webgl2-tf');
      await flock.step(2);
      expect((await flock.readState()).count).toBe(300);
      flock.dispose();
      flock = null;
    }
  });
});
