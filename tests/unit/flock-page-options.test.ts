// The page options in a Flock on fake parts (src/testing/fake-backend.ts, a frame source driven
// by hand): the warm-up createFlock flies before the first frame, the frame cap (maxFps) with
// steps that still follow real time, and autoBounds: the seed's state made in the canvas's box,
// a new count given its box, and a rung that caps the count at start (the box follows the count
// run, under density too).
import { describe, expect, test } from 'vitest';
import { FrameLoop, type FrameStats } from '../../src/flock/frame-loop';
import { FakeBackends, FakeFrames, FakeSurface } from '../../src/testing/fake-backend';
import { createFlockWith } from '../../src/flock/create';
import type { FlockOptions } from '../../src/flock';
import { initialState, validateParams, type FlockParams } from '../../src/index';
import type { FlockState } from '../../src/core/state';
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

/** A flock on fake parts whose canvas is `width` x `height` CSS px (autoStart off). */
async function flockOn(
  width: number,
  height: number,
  options: FlockOptions,
  setup: (backends: FakeBackends) => void = () => undefined,
) {
  const backends = new FakeBackends();
  setup(backends);
  const surface = new FakeSurface(width, height);
  const flock = await createFlockWith(
    undefined,
    { autoStart: false, ...options },
    { backends, surface, frames: new FakeFrames() },
  );
  return { flock, backends, surface };
}

/** The bits of a Float32Array (equal bits: equal to the last bit, -0 and NaN included). */
const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);

/** Every position inside params' box, and the share of each side the positions span. */
function spread(s: FlockState, p: FlockParams): number[] {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < s.count; i++) {
    for (let k = 0; k < 3; k++) {
      const x = s.positions[4 * i + k]!;
      expect(x).toBeGreaterThanOrEqual(p.boundsMin[k]!);
      expect(x).toBeLessThanOrEqual(p.boundsMax[k]!);
      lo[k] = Math.min(lo[k]!, x);
      hi[k] = Math.max(hi[k]!, x);
    }
  }
  return [0, 1, 2].map((k) => (hi[k]! - lo[k]!) / (p.boundsMax[k]! - p.boundsMin[k]!));
}

describe('autoBounds', () => {
  test("createFlock seeds the state in the canvas's box: 1280 x 560 CSS px, 20,000 and 3,001 boids", async () => {
    for (const count of [20000, 3001]) {
      const f = await flockOn(1280, 560, {
        params: { count, seed: 11 },
        view: { autoBounds: true },
      });
      const box = autoBoundsBox(count, 3, 1280, 560);
      if (count === 20000) expect(box.boundsMax).toEqual([59.35, 25.97, 25.97]);
      expect(f.flock.params.boundsMin).toEqual(box.boundsMin);
      expect(f.flock.params.boundsMax).toEqual(box.boundsMax);
      const s = await f.flock.readState();
      expect(s.count).toBe(count);
      // Spread over the box (DESIGN's default cube would fill x only to 32 of 59.35, 0.54): the
      // default groups start spans 0.85-0.87 of each side here, the uniform start 0.99.
      for (const share of spread(s, f.flock.params)) expect(share).toBeGreaterThan(0.75);
      // The CPU reference's initial state in the auto box, to the bit.
      const want = initialState(validateParams({ count, seed: 11, ...box }));
      expect(bits(s.positions)).toEqual(bits(want.positions));
      expect(bits(s.velocities)).toEqual(bits(want.velocities));
      f.flock.dispose();
    }
  });

  test('a state given to createFlock is kept as it is (the box is not fitted before it)', async () => {
    const state = initialState(validateParams({ count: 500, seed: 4 }));
    const f = await flockOn(1280, 560, {
      params: { count: 500 },
      initialState: state,
      view: { autoBounds: true },
    });
    expect(f.flock.params.boundsMax).toEqual([32, 32, 32]);
    expect(bits((await f.flock.readState()).positions)).toEqual(bits(state.positions));
  });

  test('a new count or seed re-initialises inside the auto box of the canvas', async () => {
    const f = await flockOn(1280, 560, { params: { count: 20000 }, view: { autoBounds: true } });
    await f.flock.setParams({ count: 5001 });
    const box = autoBoundsBox(5001, 3, 1280, 560);
    expect(f.flock.params.boundsMax).toEqual(box.boundsMax);
    let s = await f.flock.readState();
    for (const share of spread(s, f.flock.params)) expect(share).toBeGreaterThan(0.75);
    const p = validateParams({ count: 5001, ...box });
    expect(bits(s.positions)).toEqual(bits(initialState(p).positions));
    await f.flock.setParams({ seed: 9 });
    expect(f.flock.params.boundsMax).toEqual(box.boundsMax);
    s = await f.flock.readState();
    expect(bits(s.positions)).toEqual(bits(initialState({ ...p, seed: 9 }).positions));
  });

  test('a new count under autoBounds gets its box in the same call (the 640 x 480 surface)', async () => {
    const f = await fakeFlock({ params: { count: 1000 }, view: { autoBounds: true } });
    expect(f.flock.params.boundsMax).toEqual(autoBoundsBox(1000, 3, 640, 480).boundsMax);
    await f.flock.setParams({ count: 4096 });
    expect(f.flock.params.boundsMax).toEqual(autoBoundsBox(4096, 3, 640, 480).boundsMax);
    // Volume 4096 / 0.0625 = 65,536 unit³ in 640:480:480: half sides 24.4206 -> 24.43 and 18.3154 -> 18.32 (rounded up).
    expect(f.flock.params.boundsMax).toEqual([24.43, 18.32, 18.32]);
    // Given bounds win.
    await f.flock.setParams({ count: 2000, boundsMin: [-9, -9, -9], boundsMax: [9, 9, 9] });
    expect(f.flock.params.boundsMax).toEqual([9, 9, 9]);
    // Off: the box stays.
    f.flock.setView({ autoBounds: false });
    await f.flock.setParams({ count: 3000 });
    expect(f.flock.params.boundsMax).toEqual([9, 9, 9]);
  });
});

describe("a rung's count cap at start: the page's box follows the count run", () => {
  /** Only the cpu rung (the fake ladder's cpu holds 4,096, as the real one). */
  const cpuOnly = (b: FakeBackends) => {
    for (const k of ['webgpu', 'webgl2', 'webgl2-tf'] as const) b.unavailable[k] = 'off here';
  };
  const volume = (p: FlockParams) =>
    [0, 1, 2].reduce((v, k) => v * (p.boundsMax[k]! - p.boundsMin[k]!), 1);

  test('autoBounds, 20,000 asked on cpu: 4,096 boids in the box of 4,096 at the default density', async () => {
    const f = await flockOn(
      1280,
      560,
      { params: { count: 20000, seed: 11 }, view: { autoBounds: true } },
      cpuOnly,
    );
    expect([f.flock.backend, f.flock.params.count]).toEqual(['cpu', 4096]);
    const p = f.flock.params;
    // 4,096 / (16,384 / 64³) = 65,536 unit³ with sides 1280 : 560 : 560: s = cbrt(65536 /
    // (1280 * 560²)) = 0.054655, half sides 69.959 / 2 and 30.607 / 2, rounded up to 1/100.
    expect(p.boundsMax).toEqual([34.98, 15.31, 15.31]);
    expect(p.boundsMin).toEqual([-34.98, -15.31, -15.31]);
    expect(volume(p)).toBeCloseTo(65593.4, 1); // 4,096 boids' 65,536 (not 20,000's 320,000)
    // The seed's state made in that box, to the bit, spread over it.
    const s = await f.flock.readState();
    const want = initialState(
      validateParams({ count: 4096, seed: 11, ...autoBoundsBox(4096, 3, 1280, 560) }),
    );
    expect(bits(s.positions)).toEqual(bits(want.positions));
    expect(bits(s.velocities)).toEqual(bits(want.velocities));
    for (const share of spread(s, p)) expect(share).toBeGreaterThan(0.75);
    expect(f.flock.fallbackReasons.cpu).toBe(
      "count capped from 20000 to 4096, the cpu backend's limit",
    );
    f.flock.dispose();
  });

  test('density 100 on 1280 x 560 (7,168 wanted), 20,000 asked on cpu: the box scaled for 4,096', async () => {
    const f = await flockOn(
      1280,
      560,
      { params: { count: 20000, seed: 5 }, view: { density: 100 } },
      cpuOnly,
    );
    const p = f.flock.params;
    expect(p.count).toBe(4096);
    // The default 64-unit cube given for 20,000 boids, scaled by cbrt(4096 / 20000) = 0.589445:
    // half side 18.86, volume 37.72³ = 53,668 unit³ (4,096 * 64³ / 20,000 = 53,687).
    expect(p.boundsMax).toEqual([18.86, 18.86, 18.86]);
    expect(volume(p)).toBeCloseTo(53667.96, 1);
    const s = await f.flock.readState();
    const want = initialState(
      validateParams({
        count: 4096,
        seed: 5,
        boundsMin: [-18.86, -18.86, -18.86],
        boundsMax: [18.86, 18.86, 18.86],
      }),
    );
    expect(bits(s.positions)).toEqual(bits(want.positions));
    f.flock.dispose();
  });

  test('neither option: the box given stays (the caller chose it), the first 4,096 boids of the seed run', async () => {
    const f = await flockOn(1280, 560, { params: { count: 20000, seed: 5 } }, cpuOnly);
    expect(f.flock.params.count).toBe(4096);
    expect(f.flock.params.boundsMax).toEqual([32, 32, 32]);
    const s = await f.flock.readState();
    const all = initialState(validateParams({ count: 20000, seed: 5 }));
    expect(bits(s.positions)).toEqual(bits(all.positions.slice(0, 4 * 4096)));
    f.flock.dispose();
  });
});
