// Errors a user or developer can act on: shader errors name the file and line being edited, a
// count beyond the texture limit is a FlockError on 'count', a missing float render target or
// WebGL2 a FlockError on 'backend'; and the capability probe itself.
import { afterEach, describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import { ShaderError } from '../../src/core/shader-source';
import { validateParams } from '../../src/core/params';
import { initialState } from '../../src/core/state';
import { probeWebGL2 } from '../../src/webgl2/capabilities';
import { createProgram } from '../../src/webgl2/program';
import { GLSL_FILES } from '../../src/webgl2/shaders';
import { createWebGL2Backend, type WebGL2Backend } from '../../src/webgl2/webgl2-backend';

let backend: WebGL2Backend | null = null;
afterEach(() => {
  backend?.dispose();
  backend = null;
});

function context(): WebGL2RenderingContext {
  return document.createElement('canvas').getContext('webgl2')!;
}

async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

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
        { DIMS: 3, WRAP: 0, GRID: 1, UINT_TARGET: 0 },
        { DIMS: 2, WRAP: 1, GRID: 0, UINT_TARGET: 1 },
      ]) {
        const vert = f === 'boid.frag.glsl' ? 'boid.vert.glsl' : 'fullscreen.vert.glsl';
        const p = createProgram(gl, vert, f, { ...defines, DRAW_VERTEX_ID: defines.GRID });
        gl.deleteProgram(p.program);
      }
    }
  });
});

describe('backend errors', () => {
  test('a count beyond the texture limit is a FlockError on count', async () => {
    const canvas = document.createElement('canvas');
    // A small box keeps the grid (8^3 cells) inside the 64 x 64 limit too.
    const box = { boundsMin: [-8, -8, -8], boundsMax: [8, 8, 8] } as const;
    const params = validateParams({ count: 1000, ...box });
    backend = await createWebGL2Backend({
      canvas,
      params,
      state: initialState(params),
      disable: new Set(),
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
    // The backend still holds its old state.
    expect((await backend.readState()).count).toBe(1000);

    const err2 = await catchError(
      createWebGL2Backend({
        canvas: document.createElement('canvas'),
        params: big,
        state: initialState(big),
        disable: new Set(),
        maxTextureSize: 64,
      }),
    );
    expect(err2).toBeInstanceOf(FlockError);
    expect((err2 as FlockError).field).toBe('count');
  });

  test('the device limit: maxCount from MAX_TEXTURE_SIZE', async () => {
    const canvas = document.createElement('canvas');
    const params = validateParams({ count: 10 });
    backend = await createWebGL2Backend({
      canvas,
      params,
      state: initialState(params),
      disable: new Set(),
    });
    const max = backend.gl.getParameter(backend.gl.MAX_TEXTURE_SIZE) as number;
    expect(backend.maxTextureSize).toBe(max);
    expect(backend.maxCount).toBe(Math.min(2 ** 24, (max * max) / 4));
    expect(() => backend!.setState({ ...initialState(params), count: 2 ** 24 + 1 })).toThrow(
      FlockError,
    );
  });

  for (const hidden of ['EXT_color_buffer_float', 'webgl2']) {
    test(`disable ${hidden}: rejects with a FlockError on backend`, async () => {
      const params = validateParams({ count: 100 });
      const err = await catchError(
        createWebGL2Backend({
          canvas: document.createElement('canvas'),
          params,
          state: initialState(params),
          disable: new Set([hidden]),
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
      createWebGL2Backend({ canvas, params, state: initialState(params), disable: new Set() }),
    );
    expect(err).toBeInstanceOf(FlockError);
    expect((err as FlockError).field).toBe('backend');
  });
});

describe('probeWebGL2', () => {
  test('finds float and integer render targets here, and honours disable', () => {
    const p = probeWebGL2(new Set());
    expect(p.ok).toBe(true);
    expect(p.floatRenderTarget).toBe(true);
    expect(p.maxTextureSize).toBeGreaterThanOrEqual(2048);
    expect(p.reason).toBeUndefined();
    const noFloat = probeWebGL2(new Set(['EXT_color_buffer_float']));
    expect(noFloat.ok).toBe(true);
    expect(noFloat.floatRenderTarget).toBe(false);
    expect(noFloat.reason).toContain('EXT_color_buffer_float');
    const none = probeWebGL2(new Set(['webgl2']));
    expect(none.ok).toBe(false);
    expect(none.maxTextureSize).toBe(0);
  });

  test('cached per disable set, and the probe context is lost afterwards', () => {
    const made: unknown[] = [];
    const orig = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (
      this: HTMLCanvasElement,
      ...args: Parameters<HTMLCanvasElement['getContext']>
    ) {
      const ctx = orig.apply(this, args);
      made.push(ctx);
      return ctx;
    } as typeof orig;
    try {
      const disable = new Set(['some-unrelated-capability']);
      const first = probeWebGL2(disable);
      const again = probeWebGL2(new Set(['some-unrelated-capability']));
      expect(again).toEqual(first);
      expect(made.length).toBe(1);
      expect((made[0] as WebGL2RenderingContext).isContextLost()).toBe(true);
    } finally {
      HTMLCanvasElement.prototype.getContext = orig;
    }
  });
});
