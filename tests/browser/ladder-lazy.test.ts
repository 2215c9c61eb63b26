// The auto ladder on a hardware WebGPU adapter (faked here: this machine's adapter is SwiftShader):
// the rungs below are not probed, so the page makes no WebGL2 probe, and when the WebGPU backend
// then fails to start, the rungs below are probed one by one and the first usable one taken.
import { afterEach, describe, expect, test } from 'vitest';
import {
  backendEntry,
  clearProbeCache,
  registerBackend,
  type BackendEntry,
} from '../../src/backend-ladder';
import { registerBuiltinBackends } from '../../src/builtin-backends';
import { flockMaker } from '../support/browser';

const make = flockMaker();
let real: BackendEntry | undefined;

/** Replaces the webgpu rung with one that probes as hardware and whose backend `create` makes. */
function hardwareWebGPU(create: BackendEntry['create']): void {
  real ??= backendEntry('webgpu');
  registerBackend('webgpu', {
    probe: async () => ({ ok: true, software: false, info: 'a hardware adapter (faked)' }),
    create,
  });
  clearProbeCache();
}

/** Counts the WebGL2 contexts the page asks for from now on. */
function countWebGL2(): { count: () => number; restore: () => void } {
  const orig = HTMLCanvasElement.prototype.getContext;
  let n = 0;
  HTMLCanvasElement.prototype.getContext = function (
    this: HTMLCanvasElement,
    ...args: Parameters<HTMLCanvasElement['getContext']>
  ) {
    if ((args[0] as string) === 'webgl2') n++;
    return orig.apply(this, args);
  } as typeof orig;
  return { count: () => n, restore: () => (HTMLCanvasElement.prototype.getContext = orig) };
}

describe('auto ladder on a hardware WebGPU adapter', () => {
  afterEach(() => {
    if (real) registerBackend('webgpu', real);
    real = undefined;
    clearProbeCache();
  });

  test('webgpu is taken without a WebGL2 probe', async () => {
    registerBuiltinBackends();
    hardwareWebGPU((init) => real!.create(init));
    const gl = countWebGL2();
    try {
      const f = await make(undefined, { params: { count: 700 }, autoStart: false });
      expect(f.backend).toBe('webgpu');
      expect(f.fallbackReasons).toEqual({});
      expect(gl.count()).toBe(0);
    } finally {
      gl.restore();
    }
  });

  test('a WebGPU backend that fails to start falls down the rungs, probed only then', async () => {
    registerBuiltinBackends();
    hardwareWebGPU(async () => {
      throw new Error('requestDevice failed (faked)');
    });
    // Without a float render target the webgl2 rung's probe says no: webgl2-tf runs.
    const f = await make(undefined, {
      params: { count: 700 },
      autoStart: false,
      disable: ['EXT_color_buffer_float'],
    });
    expect(f.backend).toBe('webgl2-tf');
    expect(f.fallbackReasons).toEqual({
      webgpu: 'requestDevice failed (faked)',
      webgl2: 'EXT_color_buffer_float is disabled',
    });
    await f.step(2);
    expect((await f.readState()).count).toBe(700);
  });
});

// Beside a software WebGPU adapter (this machine's) the ladder asks WebGL2 only whether its
// renderer is software (issue 27: the full probe, 40-370 ms here, left off the first frame's
// path): one context, its renderer string, dropped.
describe("the webgl2 rung's quick software check", () => {
  test('SwiftShader is software; a hidden rung or no context cannot tell', async () => {
    registerBuiltinBackends();
    const quick = backendEntry('webgl2')!.quickSoftware!;
    const gl = countWebGL2();
    try {
      expect(await quick(new Set())).toBe(true);
      expect(gl.count()).toBe(1);
      expect(await quick(new Set(['webgl2']))).toBeNull();
      expect(gl.count()).toBe(1);
    } finally {
      gl.restore();
    }
  });

  test('the auto ladder on this machine runs webgpu, its reasons empty', async () => {
    registerBuiltinBackends();
    clearProbeCache();
    const f = await make(undefined, { params: { count: 700 }, autoStart: false });
    expect(f.backend).toBe('webgpu');
    expect(f.fallbackReasons).toEqual({});
  });
});
