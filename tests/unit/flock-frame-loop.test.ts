// The frame loop (src/flock/frame-loop.ts) over a frame source driven by hand, alone and in a
// Flock on a fake backend (issue 18 item 2): start/stop, idling, steps per frame from the
// FramePacer, backpressure, the snapshots it takes while running.
import { describe, expect, test } from 'vitest';
import { FrameLoop, type FrameStats } from '../../src/flock/frame-loop';
import { FakeFrames } from '../../src/testing/fake-backend';
import { expectSeedStepped, fakeFlock, flush, loseAndRecover, next } from '../support/fake-flock';

function loop(ready = () => true, hold = () => false) {
  const frames = new FakeFrames();
  const stats: FrameStats = { fps: 0, timeScale: 1, stepsPerFrame: 0, frameBudgetMs: 0 };
  const taken: number[] = [];
  const l = new FrameLoop(
    frames,
    { ready, holdSteps: hold, frame: (steps) => taken.push(steps) },
    stats,
    1 / 60,
  );
  return { l, frames, stats, taken };
}

describe('FrameLoop', () => {
  test('start asks for a frame, each frame asks for the next, stop cancels and zeroes fps', () => {
    const { l, frames, stats, taken } = loop();
    expect(frames.pending).toBe(false);
    l.start();
    expect(l.running).toBe(true);
    expect(frames.pending).toBe(true);
    for (let k = 0; k < 61; k++) frames.frame(1000 / 60);
    expect(taken).toHaveLength(61);
    // One step per frame at 60 Hz with timeStep 1/60 (the first frame only sets the clock).
    expect(taken.slice(1).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(59);
    expect(taken.slice(1).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(61);
    expect(stats.fps).toBeCloseTo(60, 0);
    l.stop();
    expect(frames.pending).toBe(false);
    expect(stats.fps).toBe(0);
    frames.frame(16);
    expect(taken).toHaveLength(61);
  });

  test('idle: no frames are asked for; leaving it asks again', () => {
    const { l, frames, taken } = loop();
    l.start();
    l.setIdle(true);
    frames.frame(16); // the frame asked for before going idle runs, and asks for none after
    expect(frames.pending).toBe(false);
    const n = taken.length;
    frames.frame(16);
    expect(taken).toHaveLength(n);
    l.setIdle(false);
    expect(frames.pending).toBe(true);
  });

  test('a frame without a backend up is skipped and the loop goes on; held steps are 0', () => {
    let up = false;
    let hold = false;
    const { l, frames, taken } = loop(
      () => up,
      () => hold,
    );
    l.start();
    for (let k = 0; k < 5; k++) frames.frame(1000 / 60);
    expect(taken).toEqual([]);
    expect(frames.pending).toBe(true);
    up = true;
    hold = true;
    for (let k = 0; k < 5; k++) frames.frame(1000 / 60);
    expect(taken).toEqual([0, 0, 0, 0, 0]);
    hold = false;
    for (let k = 0; k < 3; k++) frames.frame(1000 / 60);
    expect(taken.slice(5).every((n) => n === 1)).toBe(true);
  });

  test('dispose stops for good', () => {
    const { l, frames } = loop();
    l.dispose();
    l.start();
    expect(l.running).toBe(false);
    expect(frames.pending).toBe(false);
  });
});

describe('the frame loop of a Flock', () => {
  test('steps follow simulated time at any refresh rate, and a long gap is capped', async () => {
    const f = await fakeFlock({ params: { count: 30, timeStep: 1 / 60 } });
    const b = f.backends.last;
    // A fast device first: 1 ms a step by its GPU timers.
    b.gpuStepMs = 1;
    f.flock.start();
    // Warm-up: the pacer learns the step cost from the timers read at the first steps.
    for (let k = 0; k < 10; k++) f.frames.frame(1000 / 60);
    let mark = b.stepsTaken;
    const taken = () => {
      const n = b.stepsTaken - mark;
      mark = b.stepsTaken;
      return n;
    };
    for (const hz of [30, 60, 144]) {
      taken();
      for (let k = 0; k < hz * 2; k++) f.frames.frame(1000 / hz); // two simulated seconds
      expect(Math.abs(taken() - 120), `${hz} Hz`).toBeLessThanOrEqual(2);
    }
    f.frames.frame(10 * 60 * 1000); // ten minutes in a background tab
    expect(taken()).toBeLessThanOrEqual(4);
    // A slow device: 40 ms a step at 30 Hz. One step per frame instead of the two real time
    // asks: half of real time, and stats say so.
    b.gpuStepMs = 40;
    for (let k = 0; k < 150; k++) f.frames.frame(1000 / 30); // the 1 s averages forget the gap
    taken();
    for (let k = 0; k < 60; k++) f.frames.frame(1000 / 30);
    expect(taken()).toBe(60);
    expect(f.flock.stats.stepsPerFrame).toBeCloseTo(1, 2);
    expect(f.flock.stats.timeScale).toBeCloseTo(0.5, 2);
    expect(f.flock.stats.timing).toBe('gpu');
    expect(f.flock.stats.stepMs).toBe(40);
    f.flock.stop();
    f.frames.frame(1000);
    expect(taken()).toBe(0);
    f.flock.dispose();
  });

  test('a backend behind real time gets no new steps until it catches up (backpressure)', async () => {
    const f = await fakeFlock({ params: { count: 30 } });
    const b = f.backends.last;
    f.flock.start();
    for (let k = 0; k < 10; k++) f.frames.frame(1000 / 60);
    b.pendingSteps = 5;
    const before = b.stepsTaken;
    for (let k = 0; k < 30; k++) f.frames.frame(1000 / 60);
    expect(b.stepsTaken).toBe(before);
    // still drawn every frame
    expect(b.calls.slice(-30).filter((c) => c.op === 'render')).toHaveLength(30);
    b.pendingSteps = 0;
    for (let k = 0; k < 30; k++) f.frames.frame(1000 / 60);
    expect(b.stepsTaken - before).toBeGreaterThanOrEqual(28);
    f.flock.dispose();
  });

  test('the loop idles while the surface says so (hidden page, canvas off-screen)', async () => {
    const f = await fakeFlock({ params: { count: 30 } });
    f.flock.start();
    f.frames.frame(16);
    f.surface.setIdle(true);
    expect(f.flock._idle).toBe(true);
    f.frames.frame(16);
    expect(f.frames.pending).toBe(false);
    f.surface.setIdle(false);
    expect(f.frames.pending).toBe(true);
    expect(f.flock.running).toBe(true);
    f.flock.dispose();
  });

  test('a frame that finds the context lost starts the recovery; frames skip until it is back', async () => {
    const f = await fakeFlock({ backend: 'webgl2', params: { count: 30 } });
    const b = f.backends.last;
    f.flock.start();
    for (let k = 0; k < 5; k++) f.frames.frame(1000 / 60);
    const lost = next(f.flock, 'contextlost');
    b.loseContext('gone', { silent: true });
    f.frames.frame(1000 / 60);
    expect((await lost).detail.reason).toBe('context lost');
    const renders = b.calls.filter((c) => c.op === 'render').length;
    for (let k = 0; k < 5; k++) f.frames.frame(1000 / 60);
    expect(b.calls.filter((c) => c.op === 'render')).toHaveLength(renders);
    const back = next(f.flock, 'contextrestored');
    b.restoreContext();
    await back;
    await flush();
    f.frames.frame(1000 / 60);
    expect(b.calls.filter((c) => c.op === 'render').length).toBeGreaterThan(renders);
    f.flock.dispose();
  });

  test('while running, snapshots every second keep the replay after a loss short', async () => {
    const f = await fakeFlock({ backend: 'webgl2', params: { count: 30, seed: 8 } });
    const p = f.flock.params;
    f.flock.start();
    for (let k = 0; k < 200; k++) {
      f.frames.frame(1000 / 60);
      if (k % 20 === 0) await flush(); // the snapshot reads come back between frames
    }
    f.flock.stop();
    const total = Math.round(f.flock.time / p.timeStep);
    expect(total).toBeGreaterThan(190);
    const ev = await loseAndRecover(f);
    expect(ev.detail.replayedSteps).toBeLessThan(total / 2);
    await expectSeedStepped(f.flock, total);
    f.flock.dispose();
  });
});
