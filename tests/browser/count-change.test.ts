// A count change on a flock that is on screen (src/element/count-plan.ts resizeCount, issue 27):
// the state is kept and resized, and the simulated time goes on from the read state's, so the
// wing phase (a function of id and t, DESIGN section 7) does not jump. setState's `time`.
import { describe, expect, test } from 'vitest';
import { FlockError } from '../../src/index';
import { resizeCount, type CountPlan } from '../../src/element/count-plan';
import { resizeState } from '../../src/core/resize-state';
import { addCanvas, flockMaker } from '../support/browser';

const make = flockMaker();

const plan: CountPlan = { probe: true, cap: 5000, density: 0, autoBounds: false, scaleBox: true };

describe('resizeCount keeps the simulated time', () => {
  for (const backend of ['webgl2', 'cpu'] as const) {
    test(`${backend}: 45 steps (t = 0.75 s), 1,000 -> 1,531 boids: t stays 0.75, then goes on`, async () => {
      const canvas = addCanvas(320, 200);
      const f = await make(canvas, {
        backend,
        params: { count: 1000, seed: 7 },
        autoStart: false,
      });
      await f.step(45);
      await f.finish();
      const t = f.time;
      expect(t).toBeCloseTo(0.75, 12);
      const before = await f.readState();
      const prev = f.params;
      await resizeCount(f, 1531, plan, canvas);
      expect(f.params.count).toBe(1531);
      // Before the fix setState restarted t at 0 here.
      expect(f.time).toBe(t);
      const after = await f.readState();
      expect(after.count).toBe(1531);
      // The state is the resized read (rescaleForCount's box: the same density).
      expect(after.positions).toEqual(resizeState(before, prev, f.params).positions);
      await f.step(3);
      expect(f.time).toBeCloseTo(0.75 + 3 / 60, 12);
    });
  }

  test('setState: time given is the time; a bad time is a FlockError naming it', async () => {
    const f = await make(addCanvas(64, 64), {
      backend: 'cpu',
      params: { count: 301, seed: 2 },
      autoStart: false,
    });
    const s = await f.readState();
    await f.setState(s, { time: 12.5 });
    expect(f.time).toBe(12.5);
    await f.setState(s);
    expect(f.time).toBe(0);
    for (const bad of [-1, Number.NaN, Infinity]) {
      let err: unknown;
      try {
        await f.setState(s, { time: bad });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FlockError);
      expect((err as FlockError).field).toBe('time');
      expect((err as FlockError).allowed).toBe('a finite number of seconds >= 0');
    }
    expect(f.time).toBe(0);
  });
});
