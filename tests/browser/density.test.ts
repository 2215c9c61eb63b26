// view.density through createFlock in a page (DESIGN section 7): the count from the container's
// CSS area (boids per 10,000 CSS px²), at most params.count and the rung's limit, refitted when a
// ResizeObserver reports a new size (DENSITY_REFIT_MS after the last one), the box following
// the canvas under autoBounds; autoBounds alone: the seed's state made in the canvas's box.
// Numbers worked by hand in the comments.
import { describe, expect, test } from 'vitest';
import { autoBoundsBox } from '../../src/core/page';
import { initialState } from '../../src/core/state';
import { boxMaker, flockMaker, sleep, until } from '../support/browser';

const box = boxMaker();
const make = flockMaker();

describe('view.density in createFlock', () => {
  test('400 x 300 px at 5 per 10,000 px²: 60 boids; 800 x 300: 120, one re-initialisation', async () => {
    const div = box(400, 300);
    const f = await make(div, {
      backend: 'webgl2',
      params: { count: 5000, seed: 2 },
      view: { density: 5, autoBounds: true },
      autoStart: false,
    });
    // 5 x 400 x 300 / 10,000 = 60, under params.count (5,000) and the rung's limit.
    expect(f.params.count).toBe(60);
    expect((await f.readState()).count).toBe(60);
    expect(f.params.boundsMax).toEqual(autoBoundsBox(60, 3, 400, 300).boundsMax);
    f.step(5);
    await f.finish();
    const t = f.time;
    div.style.width = '800px';
    // 5 x 800 x 300 / 10,000 = 120 (a re-initialisation: the time goes back to 0).
    await until(() => f.params.count === 120);
    expect(f.params.boundsMax).toEqual(autoBoundsBox(120, 3, 800, 300).boundsMax);
    const s = await f.readState();
    expect(s.count).toBe(120);
    expect(t).toBeGreaterThan(0);
    expect(f.time).toBe(0);
    // The maximum wins over the area: count 90 asked for, 90 kept.
    await f.setParams({ count: 90 });
    expect(f.params.count).toBe(90);
  });
});

describe('view.autoBounds in createFlock', () => {
  test("README's snippet on 1280 x 560 px: 20,000 boids start spread over the canvas's box", async () => {
    const div = box(1280, 560);
    const f = await make(div, {
      backend: 'webgl2',
      params: { count: 20000, seed: 3 },
      view: { autoBounds: true, fit: 'cover', palette: 'dusk' },
      autoStart: false,
    });
    // Volume 20,000 / 0.0625 = 320,000 unit³ in 1280:560:560: half sides 59.35, 25.97.
    expect(f.params.boundsMin).toEqual([-59.35, -25.97, -25.97]);
    expect(f.params.boundsMax).toEqual([59.35, 25.97, 25.97]);
    const s = await f.readState();
    // The seed's state in that box (not DESIGN's 64-unit cube pressed onto its walls).
    expect(s.positions).toEqual(initialState(f.params).positions);
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < s.count; i++) {
      lo = Math.min(lo, s.positions[4 * i]!);
      hi = Math.max(hi, s.positions[4 * i]!);
    }
    expect((hi - lo) / (2 * 59.35)).toBeGreaterThan(0.9);
  });

  test('20,000 asked on the forced cpu rung (4,096): the box of 4,096 boids, the state made in it', async () => {
    const div = box(1280, 560);
    const f = await make(div, {
      disable: ['webgpu', 'webgl2'],
      params: { count: 20000, seed: 3 },
      view: { autoBounds: true },
      autoStart: false,
    });
    expect([f.backend, f.params.count]).toEqual(['cpu', 4096]);
    await sleep(100); // the follower's first ResizeObserver callback: the same box, kept
    // Volume 4,096 / 0.0625 = 65,536 unit³ in 1280:560:560: half sides 34.98, 15.31 (not the
    // 59.35, 25.97 of 20,000 boids: a box of 5 times the volume, the boids as sparse dust).
    expect(f.params.boundsMin).toEqual([-34.98, -15.31, -15.31]);
    expect(f.params.boundsMax).toEqual([34.98, 15.31, 15.31]);
    const s = await f.readState();
    expect(s.count).toBe(4096);
    expect(s.positions).toEqual(initialState(f.params).positions);
  });
});
