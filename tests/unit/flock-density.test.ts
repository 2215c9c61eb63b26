// view.density in a Flock on fake parts (src/testing/fake-backend.ts): the count from the canvas's
// CSS area (boids per 10,000 CSS px², DESIGN section 7), capped by params.count as a maximum and
// by the rung's limit, refitted DENSITY_REFIT_MS after the last resize (one re-initialisation per
// drag), with the box that goes with it. The fake surface is 640 x 480 CSS px: 30.72 x 10,000 px².
import { afterEach, describe, expect, test, vi } from 'vitest';
import { autoBoundsBox } from '../../src/core/page';
import { DENSITY_REFIT_MS } from '../../src/flock/page-input';
import { fakeFlock, type FakeFlock } from '../support/fake-flock';

/** How many times the backend was given a new state (a count change re-initialises). */
function reinits(f: FakeFlock): number {
  return f.backends.created.reduce(
    (n, b) => n + b.calls.filter((c) => c.op === 'setState').length,
    0,
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('view.density in createFlock', () => {
  test('the count is the area times the density, at most params.count; the box scales with it', async () => {
    // 10 per 10,000 px² of 640 x 480: 307.2 -> 307 boids (params.count 5,000 is the maximum).
    const f = await fakeFlock({ params: { count: 5000 }, view: { density: 10 } });
    expect(f.flock.params.count).toBe(307);
    expect(f.backends.last.state.count).toBe(307);
    // The default 64-unit cube scaled by (307 / 5000)^(1/3) = 0.3945: half side 12.62.
    expect(f.flock.params.boundsMax).toEqual([12.62, 12.62, 12.62]);
    expect(f.flock.params.boundsMin).toEqual([-12.62, -12.62, -12.62]);
    expect(f.flock.view.density).toBe(10);

    // params.count below the area's count wins.
    const g = await fakeFlock({ params: { count: 200 }, view: { density: 10 } });
    expect(g.flock.params.count).toBe(200);
    expect(g.flock.params.boundsMax).toEqual([32, 32, 32]);
  });

  test('under autoBounds the box is the canvas shape for the density count', async () => {
    const f = await fakeFlock({ params: { count: 5000 }, view: { density: 10, autoBounds: true } });
    expect(f.flock.params.count).toBe(307);
    // Volume 307 / 0.0625 = 4,912 unit³ in 640:480:480: half sides 10.296 -> 10.3 and 7.722 -> 7.73.
    expect(f.flock.params.boundsMax).toEqual([10.3, 7.73, 7.73]);
    expect(f.flock.params.boundsMax).toEqual(autoBoundsBox(307, 3, 640, 480).boundsMax);
  });

  test("the rung's limit caps it: 250 on webgpu", async () => {
    const f = await fakeFlock({ params: { count: 5000 }, view: { density: 10 } }, (b) => {
      b.maxCount.webgpu = 250;
    });
    expect(f.flock.backend).toBe('webgpu');
    expect(f.flock.params.count).toBe(250);
    // A larger canvas still stops at the rung's 250.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    f.surface.resize(1280, 960);
    vi.advanceTimersByTime(DENSITY_REFIT_MS);
    expect(f.flock.params.count).toBe(250);
  });

  test('a drag-resize re-initialises once, DENSITY_REFIT_MS after the last resize', async () => {
    const f = await fakeFlock({ params: { count: 5000 }, view: { density: 10 } });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const r0 = reinits(f);
    // A drag: a resize every 16 ms for 0.5 s, ending at 1280 x 960.
    for (let k = 1; k <= 30; k++) {
      f.surface.resize(640 + (640 * k) / 30, 480 + (480 * k) / 30);
      vi.advanceTimersByTime(16);
    }
    expect(f.flock.params.count).toBe(307);
    expect(reinits(f)).toBe(r0);
    vi.advanceTimersByTime(DENSITY_REFIT_MS);
    // 10 x 1280 x 960 / 10,000 = 1,228.8 -> 1,229.
    expect(f.flock.params.count).toBe(1229);
    await f.flock.finish();
    expect(reinits(f)).toBe(r0 + 1);
    expect(f.backends.last.state.count).toBe(1229);
    // The same area on its side: the same count, no re-initialisation.
    f.surface.resize(960, 1280);
    vi.advanceTimersByTime(DENSITY_REFIT_MS);
    await f.flock.finish();
    expect(reinits(f)).toBe(r0 + 1);
    // Smaller: 10 x 300 x 200 / 10,000 = 60.
    f.surface.resize(300, 200);
    vi.advanceTimersByTime(DENSITY_REFIT_MS);
    expect(f.flock.params.count).toBe(60);
    // The 64-unit box of 5,000 scaled by (60 / 5000)^(1/3) = 0.2289: half side 32 x 0.2289 =
    // 7.33 (from the box asked for, not the 1,229 boids' box: no drift over resizes).
    expect(f.flock.params.boundsMax).toEqual([7.33, 7.33, 7.33]);
  });

  test('setParams({count}) is the new maximum; the same count again (a spread of params) is not', async () => {
    const f = await fakeFlock({ params: { count: 5000 }, view: { density: 10 } });
    await f.flock.setParams({ count: 100 });
    expect(f.flock.params.count).toBe(100);
    await f.flock.setParams({ count: 3000 });
    expect(f.flock.params.count).toBe(307);
    // Sending back every current parameter keeps the maximum (3,000).
    await f.flock.setParams({ ...f.flock.params, maxSpeed: 6 });
    expect(f.flock.params.count).toBe(307);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    f.surface.resize(1280, 960);
    vi.advanceTimersByTime(DENSITY_REFIT_MS);
    expect(f.flock.params.count).toBe(1229);
    // A bad count is still a FlockError naming count, and nothing changes.
    expect(() => f.flock.setParams({ count: -4 })).toThrow(/count/);
    expect(f.flock.params.count).toBe(1229);
  });

  test('setView: a density turned on refits at once; off goes back to the count asked for', async () => {
    const f = await fakeFlock({ params: { count: 2000 } });
    expect(f.flock.params.count).toBe(2000);
    f.flock.setView({ density: 5 });
    // 5 x 30.72 = 153.6 -> 154.
    expect(f.flock.params.count).toBe(154);
    f.flock.setView({ density: 0 });
    expect(f.flock.params.count).toBe(2000);
    expect(f.flock.params.boundsMax).toEqual([32, 32, 32]);
    await f.flock.finish();
    expect(f.backends.last.state.count).toBe(2000);
  });

  test('an initial state wins over the density', async () => {
    const g = await fakeFlock({ params: { count: 400 } });
    const state = await g.flock.readState();
    const f = await fakeFlock({
      params: { count: 5000 },
      view: { density: 10 },
      initialState: state,
    });
    expect(f.flock.params.count).toBe(400);
  });
});
