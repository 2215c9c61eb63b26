// The auto ladder as the browser offers it, run in Chromium (Vitest's browser project) and in
// Firefox ESR (tests/e2e/firefox.test.ts). Where they differ the test says which and why:
// Chromium here has WebGPU (SwiftShader), Firefox ESR 153 has no navigator.gpu at all.
import { describe, expect, test } from 'vitest';
import { createFlock } from '../../src/index';
import { referenceSteps } from '../../src/core/reference';
import { initialState } from '../../src/core/state';
import { checkTolerance, parityParams } from '../support/compare';

const hasWebGPU = typeof navigator !== 'undefined' && 'gpu' in navigator;

describe('auto ladder in this browser', () => {
  test('no capability hidden: webgpu where the browser has it (Chromium), else webgl2 saying why (Firefox ESR)', async () => {
    const f = await createFlock(undefined, { params: { count: 700 }, autoStart: false });
    try {
      if (hasWebGPU) {
        expect(f.backend).toBe('webgpu');
        expect(f.fallbackReasons).toEqual({});
      } else {
        expect(f.backend).toBe('webgl2');
        expect(f.fallbackReasons.webgpu).toMatch(/navigator\.gpu is missing/);
      }
      await f.step(2);
      expect((await f.readState()).count).toBe(700);
    } finally {
      f.dispose();
    }
  });

  test('forced: without a float render target auto takes webgl2-tf, which matches the reference', async () => {
    const params = parityParams({ count: 1301 });
    const f = await createFlock(undefined, {
      params,
      autoStart: false,
      disable: ['webgpu', 'EXT_color_buffer_float'],
    });
    try {
      expect(f.backend).toBe('webgl2-tf');
      expect(Object.keys(f.fallbackReasons).sort()).toEqual(['webgl2', 'webgpu']);
      expect(f.fallbackReasons.webgl2).toMatch(/EXT_color_buffer_float/);
      await f.step(10);
      const report = checkTolerance(
        await f.readState(),
        referenceSteps(initialState(params), params, 10),
        params,
        10,
      );
      expect(report.ok, report.message).toBe(true);
    } finally {
      f.dispose();
    }
  });

  test('forced: without WebGL2 auto takes cpu with the count capped at 4096, bit-exact', async () => {
    const params = parityParams({ count: 5000 });
    const f = await createFlock(undefined, {
      params,
      autoStart: false,
      disable: ['webgpu', 'webgl2'],
    });
    try {
      expect(f.backend).toBe('cpu');
      expect(f.params.count).toBe(4096);
      expect(f.fallbackReasons['webgl2-tf']).toMatch(/webgl2/i);
      expect(f.fallbackReasons.cpu).toMatch(/4096/);
      await f.step(1);
      const got = await f.readState();
      const start = initialState(params);
      const want = referenceSteps(
        {
          count: 4096,
          positions: start.positions.slice(0, 4 * 4096),
          velocities: start.velocities.slice(0, 4 * 4096),
        },
        { ...params, count: 4096 },
        1,
      );
      expect(got.positions).toEqual(want.positions);
      expect(got.velocities).toEqual(want.velocities);
    } finally {
      f.dispose();
    }
  });
});
