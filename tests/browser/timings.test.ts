// Per-pass GPU timings through the public API: numbers where the device has timers, null (not
// zeros) where it does not.
import { describe, expect, test } from 'vitest';
import { createFlock } from '../../src/index';
import { sleep } from '../support/browser';

describe('stats and timings', () => {
  test('webgpu with timestamp-query: per-pass GPU times in stats while running', async () => {
    const f = await createFlock(undefined, {
      backend: 'webgpu',
      params: { count: 3000 },
      autoStart: true,
    });
    try {
      // Timestamps are read back in batches: null until the first batch is in.
      for (let k = 0; k < 60 && f.stats.passes.steer === null; k++) await sleep(100);
      expect(f.stats.timing).toBe('gpu');
      const p = f.stats.passes;
      for (const name of ['key', 'sort', 'reorder', 'steer'] as const) {
        expect(p[name], name).not.toBeNull();
        expect(p[name]!).toBeGreaterThan(0);
      }
      expect(p.cellTable).toBeNull(); // the counting sort has no cell-table pass
      expect(f.stats.stepMs).toBeGreaterThan(0);
      expect(f.stats.resolutionMs).not.toBeNull();
    } finally {
      f.dispose();
    }
  });

  test('webgpu with timestamp-query hidden: times are unavailable (null), not zeros', async () => {
    const f = await createFlock(undefined, {
      backend: 'webgpu',
      params: { count: 1000 },
      autoStart: false,
      disable: ['timestamp-query'],
    });
    try {
      await f.step(3);
      await f.finish();
      const t = f.timings();
      expect(t.timing).toBe('none');
      expect(Object.values(t.passes)).toEqual([null, null, null, null, null, null]);
      f.start();
      for (let k = 0; k < 40 && f.stats.timing === 'none'; k++) await sleep(100);
      // Without GPU timers the loop times whole steps with the CPU clock around a device wait.
      expect(f.stats.timing).toBe('cpu-wait');
      expect(f.stats.stepMs).toBeGreaterThan(0);
      expect(f.stats.passes.steer).toBeNull();
    } finally {
      f.dispose();
    }
  });

  test('the frame loop reports the steps per frame and the time scale it really ran at', async () => {
    const f = await createFlock(undefined, {
      backend: 'webgl2',
      params: { count: 3001 },
      autoStart: false,
    });
    try {
      // Count what the loop hands the backend and how many frames it draws.
      const b = (f as unknown as { _backend: { step(n: number): void } })._backend;
      const step = b.step.bind(b);
      let steps = 0;
      let maxPerFrame = 0;
      b.step = (n: number) => {
        steps += n;
        maxPerFrame = Math.max(maxPerFrame, n);
        step(n);
      };
      let frames = 0;
      let on = true;
      const tick = () => {
        frames++;
        if (on) requestAnimationFrame(tick);
      };
      f.start();
      requestAnimationFrame(tick);
      const t0 = performance.now();
      await sleep(2500);
      on = false;
      const seconds = (performance.now() - t0) / 1000;
      f.stop();
      expect(steps).toBeGreaterThan(0);
      expect(maxPerFrame).toBeLessThanOrEqual(4);
      const s = f.stats;
      // Averaged over about the last second, so within a quarter of the whole run's figures.
      const spf = steps / frames;
      expect(s.stepsPerFrame).toBeGreaterThan(0.75 * spf);
      expect(s.stepsPerFrame).toBeLessThan(1.25 * spf + 0.1);
      const scale = (steps * f.params.timeStep) / seconds;
      expect(s.timeScale).toBeGreaterThan(0.75 * scale);
      expect(s.timeScale).toBeLessThan(1.25 * scale + 0.05);
      expect(s.frameBudgetMs).toBeGreaterThan(0);
      expect(s.frameBudgetMs).toBeLessThanOrEqual(25); // 3/4 of at most 1/30 s
    } finally {
      f.dispose();
    }
  });
});
