// The transform-feedback rung's limits and its place on the ladder: a count beyond the texture
// limit is a FlockError on 'count'; hidden WebGL2 a FlockError on 'backend'; it runs (and never
// enables EXT_color_buffer_float) where the float render target is hidden; its shaders compile;
// `auto` lands on it when WebGPU and the float render target are hidden.
import { afterEach, describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import { validateParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { initialState } from '../../src/core/state';
import { createFlock, type Flock } from '../../src/index';
import { resolveShader } from '../../src/core/shader-source';
import { createProgram } from '../../src/webgl2/program';
import { GLSL_FILES } from '../../src/webgl2/shaders';
import { createWebGL2TFBackend, type WebGL2TFBackend } from '../../src/webgl2/webgl2-tf-backend';
import { checkTolerance, parityParams } from '../support/compare';

const NO_FLOAT = new Set(['EXT_color_buffer_float']);

let backend: WebGL2TFBackend | null = null;
let flock: Flock | null = null;
afterEach(() => {
  backend?.dispose();
  backend = null;
  flock?.dispose();
  flock = null;
});

async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

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

describe('webgl2-tf backend errors', () => {
  test('a count beyond the texture limit is a FlockError on count', async () => {
    const box = { boundsMin: [-8, -8, -8], boundsMax: [8, 8, 8] } as const;
    const params = validateParams({ count: 1000, ...box });
    backend = await createWebGL2TFBackend({
      canvas: document.createElement('canvas'),
      params,
      state: initialState(params),
      disable: NO_FLOAT,
      maxTextureSize: 64,
    });
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
      createWebGL2TFBackend({
        canvas: document.createElement('canvas'),
        params: big,
        state: initialState(big),
        disable: NO_FLOAT,
        maxTextureSize: 64,
      }),
    );
    expect(err2).toBeInstanceOf(FlockError);
    expect((err2 as FlockError).field).toBe('count');
  });

  test('the device limit: maxCount from MAX_TEXTURE_SIZE', async () => {
    const params = validateParams({ count: 10 });
    backend = await createWebGL2TFBackend({
      canvas: document.createElement('canvas'),
      params,
      state: initialState(params),
      disable: NO_FLOAT,
    });
    const max = backend.gl.getParameter(backend.gl.MAX_TEXTURE_SIZE) as number;
    expect(backend.maxTextureSize).toBe(max);
    expect(backend.maxCount).toBe(Math.min(2 ** 24, (max * max) / 4));
    expect(() => backend!.setState({ ...initialState(params), count: 2 ** 24 + 1 })).toThrow(
      FlockError,
    );
  });

  for (const hidden of ['webgl2', 'webgl2-tf']) {
    test(`disable ${hidden}: rejects with a FlockError on backend`, async () => {
      const params = validateParams({ count: 100 });
      const err = await catchError(
        createWebGL2TFBackend({
          canvas: document.createElement('canvas'),
          params,
          state: initialState(params),
          disable: new Set([hidden, 'EXT_color_buffer_float']),
        }),
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
    const err = await catchError(
      createWebGL2TFBackend({ canvas, params, state: initialState(params), disable: NO_FLOAT }),
    );
    expect(err).toBeInstanceOf(FlockError);
    expect((err as FlockError).field).toBe('backend');
  });

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
    // Only the probe's throwaway context asked for it (the probe runs before the backend's own).
    const own = asked.slice(asked.lastIndexOf('WEBGL_lose_context') + 1);
    expect(own).not.toContain('EXT_color_buffer_float');
    // So an RGBA32F colour attachment is incomplete on this context: every pass ran without one.
    const tex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, 4, 4);
    const fbo = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
    expect(gl.checkFramebufferStatus(gl.FRAMEBUFFER)).not.toBe(gl.FRAMEBUFFER_COMPLETE);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(fbo);
    gl.deleteTexture(tex);
    gl.getError();
  });
});

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
