// Every rung under a phone's limits (FlockOptions.limits: 'phone'): MAX_TEXTURE_SIZE 4096,
// MAX_VERTEX_TEXTURE_IMAGE_UNITS 16, MAX_DRAW_BUFFERS 4, no GPU timer, a WebGPU adapter in
// compatibility mode. Each still matches the CPU reference (1 and 10 steps) and holds the count
// cap stated here. Runs in Chromium and (the WebGL2 rungs and cpu) in Firefox ESR.
import { describe, expect, test } from 'vitest';
import { createFlock, FlockError, PHONE_LIMITS, type BackendKind } from '../../src/index';
import { capWebGL2 } from '../../src/core/limits-apply';
import { referenceSteps } from '../../src/core/reference';
import { initialState } from '../../src/core/state';
import { addCanvas, catchError } from '../support/browser';
import { allFinite, checkTolerance, parityParams } from '../support/compare';

/** The largest count each rung holds under PHONE_LIMITS. */
const PHONE_COUNT_CAP: Record<BackendKind, number> = {
  // 128 MiB storage bindings (compatibility mode's default) / 32-byte boid records.
  webgpu: 4_194_304,
  // 4096 x 4096 state textures, a quarter of them for boids (the cell table needs the rest).
  webgl2: 4_194_304,
  'webgl2-tf': 4_194_304,
  cpu: 4096,
};

const hasWebGPU = typeof navigator !== 'undefined' && 'gpu' in navigator;
const RUNGS: BackendKind[] = hasWebGPU
  ? ['webgpu', 'webgl2', 'webgl2-tf', 'cpu']
  : ['webgl2', 'webgl2-tf', 'cpu'];

describe.each(RUNGS)('%s under phone limits', (backend) => {
  test('matches the reference for 1 and 10 steps, with the stated count cap', async () => {
    const params = parityParams({ count: 2001 });
    const f = await createFlock(undefined, { backend, params, autoStart: false, limits: 'phone' });
    try {
      expect(f.backend).toBe(backend);
      expect(f.maxCount).toBe(PHONE_COUNT_CAP[backend]);
      let want = initialState(params);
      let done = 0;
      for (const n of [1, 10]) {
        await f.step(n - done);
        want = referenceSteps(want, params, n - done);
        done = n;
        const got = await f.readState();
        expect(allFinite(got)).toBe(true);
        const report = checkTolerance(got, want, params, n);
        expect(report.ok, report.message).toBe(true);
      }
      // No GPU timer on a phone: step times come from the CPU clock, if at all.
      expect(f.timings().timing).not.toBe('gpu');
      const err = await catchError(
        Promise.resolve().then(() => f.setParams({ count: PHONE_COUNT_CAP[backend] + 1 })),
      );
      expect(err).toBeInstanceOf(FlockError);
      expect((err as FlockError).field).toBe('count');

      const b = (f as unknown as { _backend: Record<string, unknown> })._backend;
      if (backend === 'webgl2' || backend === 'webgl2-tf') {
        const gl = b.gl as WebGL2RenderingContext;
        expect(gl.getParameter(gl.MAX_TEXTURE_SIZE)).toBeLessThanOrEqual(4096);
        expect(gl.getParameter(gl.MAX_VERTEX_TEXTURE_IMAGE_UNITS)).toBeLessThanOrEqual(16);
        expect(gl.getParameter(gl.MAX_DRAW_BUFFERS)).toBeLessThanOrEqual(4);
        expect(b.maxTextureSize).toBeLessThanOrEqual(4096);
      }
      if (backend === 'webgpu') {
        const lim = (b.device as GPUDevice).limits;
        expect(lim.maxStorageBuffersPerShaderStage).toBeLessThanOrEqual(4);
        expect(lim.maxComputeInvocationsPerWorkgroup).toBeLessThanOrEqual(128);
        expect(lim.maxStorageBufferBindingSize).toBeLessThanOrEqual(134_217_728);
        expect((b.device as GPUDevice).features.has('timestamp-query')).toBe(false);
        // No storage buffers in the vertex stage: instanced drawing only.
        expect(f.drawMode).toBe('instanced');
      }
    } finally {
      f.dispose();
    }
  });
});

describe('phone caps on a WebGL2 context', () => {
  test('getParameter answers the caps; larger textures and more draw buffers are refused', () => {
    const canvas = addCanvas(8);
    const gl = canvas.getContext('webgl2')!;
    try {
      const deviceMax = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
      capWebGL2(gl, PHONE_LIMITS);
      expect(gl.getParameter(gl.MAX_TEXTURE_SIZE)).toBe(Math.min(deviceMax, 4096));
      expect(gl.getParameter(gl.MAX_DRAW_BUFFERS)).toBeLessThanOrEqual(4);
      const tex = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, tex);
      expect(() => gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, 4097, 16)).toThrow(/4096/);
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, 4096, 16);
      expect(gl.getError()).toBe(gl.NO_ERROR);
      const five = [0, 1, 2, 3, 4].map((k) => gl.COLOR_ATTACHMENT0 + k);
      expect(() => gl.drawBuffers(five)).toThrow(/MAX_DRAW_BUFFERS 4/);
      gl.deleteTexture(tex);
    } finally {
      gl.getExtension('WEBGL_lose_context')?.loseContext();
      canvas.remove();
    }
  });
});
