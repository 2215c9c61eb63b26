// The page options in a Flock on fake parts (src/testing/fake-backend.ts, a frame source driven
// by hand): the warm-up createFlock flies before the first frame, the frame cap (maxFps) with
// steps that still follow real time, and autoBounds giving a new count its box.
import { describe, expect, test } from 'vitest';
import { FrameLoop, type FrameStats } from '../../src/flock/frame-loop';
import { FakeFrames } from '../../src/testing/fake-backend';
import { initialState, validateParams } from '../../src/index';
import { autoBoundsBox } from '../../src/core/page';
import { fakeFlock, stepped } from '../support/fake-flock';

describe('warmup (createFlock)', () => {
  test('1.5 s of simulated time flown in 0.1 s steps before the first frame, the step restored', async () => {
    const count = 300;
    const f = await fakeFlock({ params: { count, seed: 3 }, view: { warmup: 1.5 } });
    const b = f.backends.last;
    // 15 steps of 0.1 s (min(1, 2) / (2 * 5)), then the one render of createFlock.
    expect(b.stepsTaken).toBe(15);
    expect(f.flock.time).toBeCloseTo(1.5, 9);
    expect(f.flock.params.timeStep).toBe(1 / 60);
    const ops = b.calls.map((c) => c.op);
    expect(ops.lastIndexOf('step')).toBeLessThan(ops.indexOf('render'));
    expect(ops.filter((o) => o === 'render')).toHaveLength(1);
    // The state is the CPU reference's after 15 steps of 0.1 s from the seed's start.
    const p = validateParams({ count, seed: 3, timeStep: 0.1 });
    const want = stepped(initialState(p), p, 15);
    expect((await f.flock.readState()).positions).toEqual(want.positions);
  });

  test('createFlock without a warmup flies none (its default is 0)', async () => {
    const f = await fakeFlock({ params: { count: 200 } });
    expect(f.flock.view.warmup).toBe(0);
    expect(f.backends.last.stepsTaken).toBe(0);
  });
});

describe('maxFps', () => {
  function loop() {
    const frames = new FakeFrames();
    const stats: FrameStats = { fps: 0, timeScale: 1, stepsPerFrame: 0, frameBudgetMs: 0 };
    const taken: number[] = [];
    const l = new FrameLoop(
      frames,
      { ready: () => true, holdSteps: () => false, frame: (steps) => taken.push(steps) },
      stats,
      1 / 60,
    );
    l.pacer.reportStepCost(0.0005);
    return { l, frames, taken };
  }

  test('a 60 Hz display capped at 20: a third of the frames draw, each with the 3 steps real time asks', () => {
    const { l, frames, taken } = loop();
    l.setMaxFps(20);
    l.start();
    for (let k = 0; k < 600; k++) frames.frame(1000 / 60); // 10 s of display frames
    // 10 s at 20 fps: 200 frames (+1 for the first, which only sets the clock).
    expect(taken.length).toBeGreaterThanOrEqual(199);
    expect(taken.length).toBeLessThanOrEqual(201);
    const steps = taken.reduce((a, b) => a + b, 0);
    // Real time: 600 steps of 1/60 s in 10 s (a frame's worth at the start).
    expect(steps).toBeGreaterThanOrEqual(594);
    expect(steps).toBeLessThanOrEqual(600);
    // Back to the display's rate.
    l.setMaxFps(0);
    const n = taken.length;
    for (let k = 0; k < 60; k++) frames.frame(1000 / 60);
    expect(taken.length - n).toBe(60);
  });

  test("a Flock's view.maxFps caps its loop: frames drawn counted at 144 Hz", async () => {
    const f = await fakeFlock({ params: { count: 100 }, view: { maxFps: 30 } });
    const b = f.backends.last;
    const renders = () => b.calls.filter((c) => c.op === 'render').length;
    f.flock.start();
    const r0 = renders();
    for (let k = 0; k < 288; k++) f.frames.frame(1000 / 144); // 2 s
    expect(renders() - r0).toBeGreaterThanOrEqual(59);
    expect(renders() - r0).toBeLessThanOrEqual(61);
    f.flock.setView({ maxFps: 0 });
    const r1 = renders();
    for (let k = 0; k < 144; k++) f.frames.frame(1000 / 144);
    expect(renders() - r1).toBe(144);
    f.flock.stop();
  });
});

describe('autoBounds', () => {
  test('a new count under autoBounds gets its box in the same call (no canvas size: a cube)', async () => {
    const f = await fakeFlock({ params: { count: 1000 }, view: { autoBounds: true } });
    await f.flock.setParams({ count: 4096 });
    expect(f.flock.params.boundsMax).toEqual(autoBoundsBox(4096, 3, 0, 0).boundsMax);
    expect(f.flock.params.boundsMax).toEqual([20.16, 20.16, 20.16]);
    // Given bounds win.
    await f.flock.setParams({ count: 2000, boundsMin: [-9, -9, -9], boundsMax: [9, 9, 9] });
    expect(f.flock.params.boundsMax).toEqual([9, 9, 9]);
    // Off: the box stays.
    f.flock.setView({ autoBounds: false });
    await f.flock.setParams({ count: 3000 });
    expect(f.flock.params.boundsMax).toEqual([9, 9, 9]);
  });
});
