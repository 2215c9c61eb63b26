// Context loss, disposal, idling and the frame loop, through the public API (issue: runs everywhere).
import { describe, expect, test } from 'vitest';
import { createFlock, type Flock } from '../../src/index';
import { liveGLObjectCount } from '../../src/webgl2/gl-tracker';
import { once, sleep } from '../support/browser';
import { parityParams } from '../support/compare';

/** Fakes the page's visibility and fires the real event the flock listens to. */
function setVisibility(state: 'hidden' | 'visible'): void {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

function attach(f: Flock): void {
  f.canvas.style.width = '160px';
  f.canvas.style.height = '120px';
  document.body.appendChild(f.canvas);
}

describe.each(['webgl2', 'webgl2-tf'] as const)('%s lifecycle', (backend) => {
  test('context loss: no uncaught error, every resource rebuilt, the flock resumes with the same count and params', async () => {
    const errors: unknown[] = [];
    const onError = (e: ErrorEvent) => errors.push(e.error ?? e.message);
    const onRejection = (e: PromiseRejectionEvent) => errors.push(e.reason);
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    const params = parityParams({ count: 1500 });
    const f = await createFlock(undefined, { backend, params, autoStart: false });
    try {
      attach(f);
      f.start();
      await sleep(300);
      await f.step(2);
      const before = await f.readState();
      const gl = f.canvas.getContext('webgl2')!;
      const ext = gl.getExtension('WEBGL_lose_context')!;
      const lost = once(f, 'contextlost');
      ext.loseContext();
      await lost;
      // Asked for while lost: waits for the restore instead of failing.
      const pending = f.readState();
      await sleep(200);
      const restored = once(f, 'contextrestored');
      ext.restoreContext();
      await restored;
      const afterRestore = await pending;
      expect(afterRestore.count).toBe(before.count);
      expect(f.params).toEqual({ ...params });
      await f.step(5);
      const moved = await f.readState();
      let diff = 0;
      for (let i = 0; i < moved.positions.length; i++)
        diff = Math.max(diff, Math.abs(moved.positions[i]! - afterRestore.positions[i]!));
      expect(diff).toBeGreaterThan(1e-3);
      expect(moved.positions.every(Number.isFinite)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
      f.dispose();
      f.canvas.remove();
    }
  });

  test('creating and disposing 20 flocks leaves no GL object alive', async () => {
    for (let k = 0; k < 20; k++) {
      const f = await createFlock(undefined, {
        backend,
        params: { count: 300 + k, seed: k },
        autoStart: k % 2 === 0,
      });
      await f.step(1);
      f.render();
      const gl = f.canvas.getContext('webgl2')!;
      expect(liveGLObjectCount(gl)).toBeGreaterThan(5);
      f.dispose();
      expect(liveGLObjectCount(gl)).toBe(0);
      f.dispose();
    }
  });
});

describe('frame loop', () => {
  test('the loop steps while running, idles while the page is hidden and resumes', async () => {
    const f = await createFlock(undefined, {
      backend: 'webgl2',
      params: { count: 400 },
      autoStart: true,
    });
    try {
      attach(f);
      expect(f.running).toBe(true);
      await sleep(500);
      const a = await f.readState();
      setVisibility('hidden');
      await sleep(100);
      const b = await f.readState();
      await sleep(400);
      const c = await f.readState();
      expect(c.positions).toEqual(b.positions); // hidden: no steps
      let moved = 0;
      for (let i = 0; i < a.positions.length; i++)
        moved = Math.max(moved, Math.abs(b.positions[i]! - a.positions[i]!));
      expect(moved).toBeGreaterThan(0);
      setVisibility('visible');
      await sleep(500);
      const d = await f.readState();
      expect(d.positions).not.toEqual(c.positions);
      expect(f._idle).toBe(false);
      f.stop();
      expect(f.running).toBe(false);
      const e = await f.readState();
      await sleep(300);
      expect((await f.readState()).positions).toEqual(e.positions);
    } finally {
      f.dispose();
      f.canvas.remove();
    }
  });

  test('the loop idles while the canvas is off-screen (IntersectionObserver) and resumes', async () => {
    const f = await createFlock(undefined, {
      backend: 'webgl2',
      params: { count: 300 },
      autoStart: true,
    });
    try {
      attach(f);
      f.canvas.style.position = 'absolute';
      f.canvas.style.top = '5000px';
      await sleep(400);
      expect(f._idle).toBe(true);
      const a = await f.readState();
      await sleep(400);
      expect((await f.readState()).positions).toEqual(a.positions);
      f.canvas.style.top = '0px';
      await sleep(600);
      expect(f._idle).toBe(false);
      expect((await f.readState()).positions).not.toEqual(a.positions);
    } finally {
      f.dispose();
      f.canvas.remove();
    }
  });
});
