// The WebGPU backend through createWebGPUBackend on a canvas: parity with the CPU reference,
// drawing (not blank, changes, both draw modes), adapter facts, errors, device loss -> onLost.
import { describe, expect, test } from 'vitest';
import type { RenderView } from '../../src/backend';
import { FlockError } from '../../src/core/errors';
import { validateParams, type FlockParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { boidSizeFor, defaultCamera, viewProjection } from '../../src/core/render-math';
import { initialState } from '../../src/core/state';
import { createWebGPUBackend, type WebGPUBackendInit } from '../../src/webgpu/webgpu-backend';
import { checkTolerance, parityParams } from '../support/compare';
import { expectMovedAndBlue, grabFrame as grab, type Frame } from '../support/frames';
import { useGpuErrorScopes } from '../support/gpu-error-scopes';

const W = 320;
const H = 240;

function makeInit(params: FlockParams, extra: Partial<WebGPUBackendInit> = {}): WebGPUBackendInit {
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  return { canvas, params, state: initialState(params), disable: new Set(), ...extra };
}

function viewFor(params: FlockParams): RenderView {
  return {
    viewProj: viewProjection(defaultCamera(params), W / H),
    width: W,
    height: H,
    boidSize: boidSizeFor(params),
  };
}

describe('createWebGPUBackend', () => {
  useGpuErrorScopes();

  test('steps match the CPU reference after 1 and 10 steps (bounce and wrap)', async () => {
    for (const boundary of ['bounce', 'wrap'] as const) {
      const params = parityParams({ boundary });
      const init = makeInit(params);
      const b = await createWebGPUBackend(init);
      expect(b.kind).toBe('webgpu');
      b.step(1);
      const one = await b.readState();
      let r = checkTolerance(one, referenceSteps(init.state, params, 1), params, 1);
      expect(r.ok, r.message).toBe(true);
      b.step(9);
      const ten = await b.readState();
      r = checkTolerance(ten, referenceSteps(init.state, params, 10), params, 10);
      expect(r.ok, r.message).toBe(true);
      const counts = await b.debugNeighborCounts!();
      expect(counts.length).toBe(params.count);
      b.dispose();
      b.dispose(); // idempotent
    }
  });

  test('reports the adapter and whether it is a fallback adapter', async () => {
    const b = await createWebGPUBackend(makeInit(parityParams({ count: 100 })));
    const adapter = await navigator.gpu.requestAdapter();
    const info = adapter!.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
    expect(b.isFallbackAdapter).toBe(Boolean(info.isFallbackAdapter));
    // The test browser's adapter is SwiftShader.
    expect(b.adapterInfo.architecture).toBe(info.architecture);
    expect(b.adapterName).toMatch(/swiftshader/i);
    expect(b.maxCount).toBeGreaterThanOrEqual(1 << 20);
    const t = b.timings();
    expect(['gpu', 'none']).toContain(t.timing);
    b.dispose();
  });

  for (const dimensions of [3, 2] as const) {
    test(`renders ~2,000 boids: not blank, colours from the ramp, changes between frames (${dimensions}D)`, async () => {
      const params = validateParams({ count: 2000, dimensions, seed: 3 });
      const init = makeInit(params);
      const b = await createWebGPUBackend(init);
      const view = viewFor(params);
      const modes = b.drawModes;
      expect(modes).toContain('instanced');
      const frames: Frame[] = [];
      for (const mode of modes) {
        b.drawMode = mode;
        b.render(view);
        await b.device.queue.onSubmittedWorkDone();
        frames.push(grab(init.canvas));
      }
      const a = frames[0]!;
      expect(a.lit).toBeGreaterThan(500);
      expect(a.lit).toBeLessThan(W * H * 0.9);
      // Both draw modes draw the same picture.
      for (const f of frames.slice(1)) {
        let diff = 0;
        for (let i = 0; i < a.data.length; i += 4)
          if (Math.abs(a.data[i]! - f.data[i]!) > 8) diff++;
        expect(diff).toBeLessThan(a.lit * 0.02);
      }
      b.step(30);
      await b.readState();
      b.drawMode = 'instanced';
      b.render(view);
      await b.device.queue.onSubmittedWorkDone();
      expectMovedAndBlue(a, grab(init.canvas));
      b.dispose();
    });
  }

  test('device.destroy() from outside calls onLost once; our own dispose() does not', async () => {
    const reasons: string[] = [];
    const lost = new Promise<string>((resolve) => {
      void createWebGPUBackend(
        makeInit(parityParams({ count: 500 }), {
          onLost: (r) => {
            reasons.push(r);
            resolve(r);
          },
        }),
      ).then((b) => {
        b.step(2);
        b.device.destroy();
      });
    });
    const reason = await lost;
    expect(reason).toMatch(/lost/i);
    const quiet: string[] = [];
    const b2 = await createWebGPUBackend(
      makeInit(parityParams({ count: 500 }), { onLost: (r) => quiet.push(r) }),
    );
    b2.dispose();
    await b2.device.lost;
    await new Promise((r) => setTimeout(r, 50));
    expect(quiet).toEqual([]);
    expect(reasons).toHaveLength(1);
  });

  test('disable: webgpu and counts above the device limit reject with FlockError', async () => {
    const params = parityParams({ count: 100 });
    const hidden = createWebGPUBackend(makeInit(params, { disable: new Set(['webgpu']) }));
    await expect(hidden).rejects.toBeInstanceOf(FlockError);
    await expect(hidden).rejects.toMatchObject({ field: 'backend' });
    // Storage bindings capped at 1,000 boid records (as a small device would be).
    const capped = { maxBufferBytes: 32 * 1000 };
    const err = await createWebGPUBackend(makeInit(parityParams({ count: 1001 }), capped)).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FlockError);
    expect((err as FlockError).field).toBe('count');
    expect((err as FlockError).message).toContain('1 to 1000');
    expect((err as FlockError).message).toMatch(/maxStorageBufferBindingSize/);
    const ok = await createWebGPUBackend(makeInit(parityParams({ count: 1000 }), capped));
    expect(ok.maxCount).toBe(1000);
    expect(() => ok.setState(initialState(parityParams({ count: 1001 })))).toThrow(FlockError);
    ok.dispose();
  });
});
