// The auto ladder at creation and at run time: WebGPU device loss falls back with the flock's state.
import { describe, expect, test } from 'vitest';
import { createFlock } from '../../src/index';
import { once } from '../support/browser';
import { parityParams } from '../support/compare';

describe('auto ladder', () => {
  test('picks webgpu first when an adapter and a device exist (both paths are software here)', async () => {
    const f = await createFlock(undefined, { params: { count: 600 }, autoStart: false });
    try {
      expect(f.backend).toBe('webgpu');
      expect(f.fallbackReasons).toEqual({});
      expect(f.deviceInfo).toMatch(/swiftshader/i);
    } finally {
      f.dispose();
    }
  });

  test('a lost WebGPU device falls back to the next rung on a fresh canvas and keeps moving', async () => {
    const params = parityParams({ count: 1234 });
    const f = await createFlock(undefined, { params, autoStart: false });
    try {
      expect(f.backend).toBe('webgpu');
      const old = f.canvas;
      document.body.appendChild(old);
      await f.step(3);
      const before = await f.readState();
      // Snapshots are taken by the running loop; readState above leaves the flock's own copy.
      const fell = once<CustomEvent>(f, 'fallback', 60_000);
      (f as unknown as { _backend: { device: GPUDevice } })._backend.device.destroy();
      const e = await fell;
      expect(e.detail.from).toBe('webgpu');
      expect(e.detail.to).toBe('webgl2');
      expect(f.backend).toBe('webgl2');
      expect(f.fallbackReasons.webgpu).toMatch(/lost/);
      expect(f.canvas).not.toBe(old);
      expect(f.canvas.isConnected).toBe(true);
      expect(old.isConnected).toBe(false);
      const after = await f.readState();
      expect(after.count).toBe(1234);
      expect(f.params.count).toBe(1234);
      await f.step(4);
      const moved = await f.readState();
      let d = 0;
      for (let i = 0; i < moved.positions.length; i++)
        d = Math.max(d, Math.abs(moved.positions[i]! - after.positions[i]!));
      expect(d).toBeGreaterThan(1e-3);
      // The state carried over is the last one the flock could read (not the seed's).
      expect(before.count).toBe(after.count);
    } finally {
      f.canvas.remove();
      f.dispose();
    }
  });
});
