import { describe, expect, test } from 'vitest';
import { FrameCap, FramePacer } from '../../src/core/frame-clock';

/**
 * A fake device behind a fake clock: each frame the pacer is asked for n steps, the device
 * reports what one step cost (as a GPU timer would), and the next frame comes at the first vsync
 * after the work (n * cost + drawMs) is done.
 */
function runDevice(
  pacer: FramePacer,
  opts: {
    seconds: number;
    hz?: number;
    /** ms per step at simulated real time t (seconds). */
    stepMs: (t: number) => number;
    drawMs?: number;
    t0?: number;
  },
): { t: number; n: number; interval: number }[] {
  const refresh = 1 / (opts.hz ?? 60);
  const frames: { t: number; n: number; interval: number }[] = [];
  let t = opts.t0 ?? 0;
  const end = t + opts.seconds;
  while (t < end) {
    const n = pacer.advance(t);
    const cost = opts.stepMs(t) / 1000;
    if (n > 0) pacer.reportStepCost(cost);
    const work = n * cost + (opts.drawMs ?? 1) / 1000;
    // The next frame: the first vsync after the work (a frame never takes less than one refresh).
    const interval = refresh * Math.max(1, Math.ceil(work / refresh - 1e-9));
    frames.push({ t, n, interval });
    t += interval;
  }
  return frames;
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('frame pacer: fixed steps, as many as fit', () => {
  test('fast device: real time kept at 30, 60, 144 and 240 Hz (600 steps in 10 s)', () => {
    for (const hz of [30, 60, 144, 240]) {
      const p = new FramePacer(1 / 60);
      const frames = runDevice(p, { seconds: 10, hz, stepMs: () => 0.5 });
      const steps = sum(frames.map((f) => f.n));
      // The first frame only starts the clock; the first stepping frame takes one step while
      // the cost is unknown, so a 30 Hz display loses at most one step.
      expect(Math.abs(steps - 600), `${hz} Hz: ${steps} steps`).toBeLessThanOrEqual(2);
      // Averaged over ~1 s: at 144 Hz a frame takes 0 or 1 steps, so the last window is within 2%.
      expect(Math.abs(p.timeScale - 1)).toBeLessThan(0.02);
      expect(Math.abs(p.stepsPerFrame - 60 / hz)).toBeLessThan(0.02 * (60 / hz));
      expect(p.refreshInterval).toBeCloseTo(1 / hz, 6);
    }
  });

  test('slow device (50 ms a step at 60 Hz): one step per frame, time scale 1/4 reported', () => {
    const p = new FramePacer(1 / 60);
    const frames = runDevice(p, { seconds: 10, stepMs: () => 50 });
    expect(frames.slice(1).every((f) => f.n === 1)).toBe(true);
    // Each frame: one step (50 ms) + draw (1 ms) -> the vsync at 66.7 ms: 1/60 s simulated per
    // 1/15 s real, a quarter of real time.
    expect(frames[frames.length - 1]!.interval).toBeCloseTo(4 / 60, 9);
    expect(p.stepsPerFrame).toBeCloseTo(1, 6);
    expect(p.timeScale).toBeCloseTo(0.25, 3);
    // Every frame interval was long: the budget falls back to the 30 Hz one (3/4 of 33.3 ms).
    expect(p.frameBudget).toBeCloseTo(0.75 / 30, 9);
  });

  test('the old catch-up loop on the same slow device: 4 steps a frame and 4x longer frames', () => {
    const p = new FramePacer(1 / 60);
    p.adaptive = false;
    const frames = runDevice(p, { seconds: 10, stepMs: () => 50 });
    const late = frames.slice(5);
    expect(late.every((f) => f.n === 4)).toBe(true);
    expect(late[late.length - 1]!.interval).toBeCloseTo(13 / 60, 9); // 201 ms -> 13 vsyncs
    expect(p.timeScale).toBeCloseTo(4 / 13, 3); // no closer to real time, at 1/3 the frame rate
  });

  test('medium device (6 ms a step): two steps fit a 60 Hz frame, so a 30 Hz display keeps real time', () => {
    const p = new FramePacer(1 / 60);
    runDevice(p, { seconds: 5, hz: 30, stepMs: () => 6 });
    expect(p.stepsThatFit).toBe(4); // 0.75 * 33.3 ms / 6 ms = 4.2
    expect(p.stepsPerFrame).toBeCloseTo(2, 2);
    expect(p.timeScale).toBeCloseTo(1, 2);
    const q = new FramePacer(1 / 60);
    runDevice(q, { seconds: 5, hz: 30, stepMs: () => 15 });
    // 25 ms of budget fits one 15 ms step: 1 step per 33 ms frame, half of real time.
    expect(q.stepsThatFit).toBe(1);
    expect(q.stepsPerFrame).toBeCloseTo(1, 2);
    expect(q.timeScale).toBeCloseTo(0.5, 2);
  });

  test('a device that speeds up again goes back to real time within a second, never over the cap', () => {
    const p = new FramePacer(1 / 60);
    const slow = runDevice(p, { seconds: 3, stepMs: () => 50 });
    expect(p.timeScale).toBeLessThan(0.3);
    const t0 = slow[slow.length - 1]!.t + slow[slow.length - 1]!.interval;
    const fast = runDevice(p, { seconds: 3, t0, stepMs: () => 2 });
    expect(Math.max(...fast.map((f) => f.n))).toBeLessThanOrEqual(p.maxStepsPerFrame);
    // After one second at the new speed: one step per 60 Hz frame, real time (averaged over ~1 s).
    const after1s = fast.filter((f) => f.t >= t0 + 1);
    expect(after1s.every((f) => f.n === 1 && Math.abs(f.interval - 1 / 60) < 1e-9)).toBe(true);
    expect(p.timeScale).toBeGreaterThan(0.95);
    expect(p.refreshInterval).toBeCloseTo(1 / 60, 9);
  });

  test('a hiccup on a fast device is caught up, at most maxStepsPerFrame at once', () => {
    const p = new FramePacer(1 / 60, { maxStepsPerFrame: 4, maxFrameGap: 0.25 });
    p.reportStepCost(0.001);
    p.advance(0);
    expect(p.advance(1 / 60)).toBe(1);
    expect(p.advance(1 / 60 + 0.05)).toBe(3); // 50 ms: three steps owed, all fit
    expect(p.advance(1 / 60 + 0.05 + 0.1)).toBe(4); // 100 ms: six owed, four taken, two dropped
    expect(p.advance(1 / 60 + 0.05 + 0.1 + 1 / 60)).toBe(1);
    expect(p.advance(600)).toBe(4); // tab back after ten minutes: the gap counts 0.25 s, capped
    expect(p.advance(600 + 1 / 60)).toBe(1);
  });

  test('unknown cost: one step per frame; hold: none, and the time is dropped', () => {
    const p = new FramePacer(1 / 60);
    p.advance(0);
    expect(p.stepCost).toBeNull();
    expect(p.advance(0.05)).toBe(1); // three asked, one taken until a cost is known
    p.reportStepCost(0.002);
    expect(p.advance(0.1)).toBe(3);
    expect(p.advance(0.15, true)).toBe(0); // the backend is behind
    expect(p.advance(0.15 + 1 / 60)).toBe(1); // the held time is not owed
    p.forgetStepCost();
    expect(p.advance(0.15 + 4 / 60)).toBe(1);
    p.reportStepCost(Number.NaN);
    p.reportStepCost(0);
    expect(p.stepCost).toBeNull();
  });

  test('reset forgets the last frame and the averages, not the cost', () => {
    const p = new FramePacer(0.01);
    p.reportStepCost(0.001);
    p.advance(0);
    p.advance(0.05);
    p.reset();
    expect(p.advance(100)).toBe(0);
    expect(p.advance(100.02)).toBe(2);
    expect(p.stepsPerFrame).toBe(2);
    expect(p.timeScale).toBeCloseTo(1, 9);
    expect(p.stepCost).toBe(0.001);
  });
});

describe('FrameCap (view.maxFps)', () => {
  /** Display frames at `hz` for `seconds`, with rAF-like jitter of up to ±`jitterMs` (a fixed pattern). */
  function drawn(cap: FrameCap, hz: number, seconds: number, jitterMs = 0): number {
    let n = 0;
    const frames = Math.round(hz * seconds);
    for (let k = 0; k < frames; k++) {
      const jitter = (((k * 7) % 5) - 2) / 2; // -1, -0.5, 0, 0.5, 1 (times jitterMs)
      if (cap.due(k / hz + (jitter * jitterMs) / 1000)) n++;
    }
    return n;
  }

  test('0 draws every display frame', () => {
    expect(drawn(new FrameCap(0), 60, 10)).toBe(600);
  });

  test('a 60 Hz display capped at 30 draws every second frame, jitter or not', () => {
    expect(drawn(new FrameCap(30), 60, 10)).toBe(300);
    expect(drawn(new FrameCap(30), 60, 10, 2)).toBe(300);
  });

  test('caps that do not divide the display rate average to the cap', () => {
    // 60 Hz at 24: frames 3, 2, 3, 2 display frames apart.
    expect(drawn(new FrameCap(24), 60, 10)).toBe(240);
    const at144 = drawn(new FrameCap(60), 144, 10, 1);
    expect(at144).toBeGreaterThanOrEqual(590);
    expect(at144).toBeLessThanOrEqual(601);
  });

  test('a display slower than the cap draws every frame; a stall does not burst after', () => {
    expect(drawn(new FrameCap(60), 30, 10)).toBe(300);
    const cap = new FrameCap(30);
    expect(cap.due(0)).toBe(true);
    expect(cap.due(2)).toBe(true); // two seconds later (a stall)
    expect(cap.due(2 + 1 / 60)).toBe(false); // no catching up
    expect(cap.due(2 + 2 / 60)).toBe(true);
  });
});

describe('FramePacer under a frame cap', () => {
  test('capped at 10 fps, each frame takes the 6 steps real time asks (not 4: slow motion)', () => {
    const pacer = new FramePacer(1 / 60);
    pacer.minFrameInterval = 1 / 10;
    pacer.reportStepCost(0.001);
    const ns: number[] = [];
    for (let k = 0; k <= 30; k++) ns.push(pacer.advance(k / 10));
    expect(ns.slice(1).every((n) => n === 6)).toBe(true);
    expect(pacer.timeScale).toBeCloseTo(1, 6);
    // Without the cap the same frames take 4 (maxStepsPerFrame) and run at 0.67x.
    const plain = new FramePacer(1 / 60);
    plain.reportStepCost(0.001);
    for (let k = 0; k <= 30; k++) plain.advance(k / 10);
    expect(plain.timeScale).toBeCloseTo(4 / 6, 6);
  });
});
