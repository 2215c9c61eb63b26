// Issue 21, reproduction 2: a WebGL context that comes back after its flock moved on (fell back to
// the next rung, or was disposed while the context was lost) is released at once, so no orphan
// counts against the browser's ~16 live contexts; dispose() leaves no live context.
import { afterEach, describe, expect, test } from 'vitest';
import { createFlock, type Flock } from '../../src/index';
import { boxMaker, once, sleep, until } from '../support/browser';
import { trackContexts } from '../support/contexts';

const box = boxMaker();
let track: ReturnType<typeof trackContexts> | null = null;
const flocks: Flock[] = [];
afterEach(() => {
  for (const f of flocks.splice(0)) f.dispose();
  track?.restore();
  track = null;
});

/** The flock's context and its WEBGL_lose_context, and a counter of its restores. */
function contextOf(f: Flock) {
  const canvas = f.canvas;
  const gl = canvas.getContext('webgl2') as WebGL2RenderingContext;
  const ext = gl.getExtension('WEBGL_lose_context')!;
  const seen = { restored: 0 };
  canvas.addEventListener('webglcontextrestored', () => seen.restored++);
  return { canvas, gl, ext, seen };
}

describe('late restores are released (issue 21, reproduction 2)', () => {
  for (const [backend, next] of [
    ['webgl2', 'webgl2-tf'],
    ['webgl2-tf', 'cpu'],
  ] as const) {
    test(`${backend}: a context restored after the fallback to ${next} is lost again at once; dispose leaves none live`, async () => {
      track = trackContexts();
      const f = await createFlock(box(96, 64), {
        backend,
        params: { count: 1000, seed: 3 },
        autoStart: false,
      });
      flocks.push(f);
      await f.step(2);
      const old = contextOf(f);
      const fell = once<CustomEvent>(f, 'fallback', 60_000);
      old.ext.loseContext();
      const ev = await fell;
      expect(ev.detail.reason).toMatch(/not restored within/);
      expect(f.backend).toBe(next);
      // The page (or the browser) restores the old context after the flock moved on.
      old.ext.restoreContext();
      await until(() => old.seen.restored > 0, 20_000);
      await sleep(50);
      expect(old.gl.isContextLost()).toBe(true);
      expect(track.liveGL()).toBe(next === 'cpu' ? 0 : 1);
      // The flock still steps on its new rung, and dispose() leaves no live context.
      await f.step(2);
      expect((await f.readState()).count).toBe(1000);
      f.dispose();
      await sleep(50);
      expect(track.liveGL()).toBe(0);
    });
  }

  test('webgl2: disposed while its context is lost, then restored: no live context', async () => {
    track = trackContexts();
    const f = await createFlock(box(96, 64), { backend: 'webgl2', params: { count: 1000 } });
    flocks.push(f);
    const old = contextOf(f);
    const lost = once(f, 'contextlost');
    old.ext.loseContext();
    await lost;
    f.dispose();
    old.ext.restoreContext();
    // Chromium may not restore a context whose canvas left the page; when it does, the context
    // must be lost again at once. Either way none is live.
    await sleep(3000);
    expect(old.gl.isContextLost()).toBe(true);
    expect(track.liveGL()).toBe(0);
  });
});
