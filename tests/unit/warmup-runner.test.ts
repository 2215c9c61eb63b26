// The unseen warm-up (src/core/warmup-runner.ts): its step, its plan, the runner's chunks and wall
// bound (driven by a fake flock on a fake clock), and which start warms up before the first frame.
import { describe, expect, test } from 'vitest';
import { defaultParams, validateParams } from '../../src/core/params';
import {
  defaultWarmupSeconds,
  runWarmup,
  warmsUpBeforeFirstFrame,
  warmupPlan,
  warmupTimeStep,
  type WarmupTarget,
} from '../../src/core/warmup-runner';

/** A flock whose steps cost `msPerStep` on a fake clock; it records its calls. */
function fakeFlock(msPerStep: number) {
  const clock = { t: 0 };
  const calls: string[] = [];
  const params = { timeStep: 1 / 60 };
  let steps = 0;
  const flock: WarmupTarget & { steps: () => number } = {
    get params() {
      return params;
    },
    setParams(p) {
      calls.push(`setParams ${p.timeStep}`);
      params.timeStep = p.timeStep;
      return Promise.resolve();
    },
    step(n) {
      calls.push(`step ${n}`);
      steps += n;
      clock.t += n * msPerStep;
      return Promise.resolve();
    },
    finish() {
      return Promise.resolve();
    },
    steps: () => steps,
  };
  return { flock, clock, calls };
}

describe('warmupTimeStep and warmupPlan', () => {
  test('half the separation distance at maxSpeed, within [timeStep, 0.1]', () => {
    // min(1, 2) / (2 * 5) = 0.1.
    expect(warmupTimeStep(defaultParams())).toBe(0.1);
    // min(1, 2) / (2 * 20) = 0.025.
    expect(warmupTimeStep(validateParams({ maxSpeed: 20 }))).toBe(0.025);
    // 0.5 / 60 would be below the flock's own step of 1/60: the flock's step.
    expect(warmupTimeStep(validateParams({ separationRadius: 0.5, maxSpeed: 60 }))).toBe(1 / 60);
  });

  test('2 s from 0 is 20 steps of 0.1 s; from 0.5 s, 15; past it, none', () => {
    expect(warmupPlan(defaultParams(), 2)).toEqual({ timeStep: 0.1, steps: 20 });
    expect(warmupPlan(defaultParams(), 2, 0.5)).toEqual({ timeStep: 0.1, steps: 15 });
    expect(warmupPlan(defaultParams(), 2, 3).steps).toBe(0);
    expect(warmupPlan(defaultParams(), 0).steps).toBe(0);
    // 1.05 s: 10.5 steps, rounded up.
    expect(warmupPlan(defaultParams(), 1.05).steps).toBe(11);
  });
});

describe('runWarmup', () => {
  test('a plan that fits: every step, in growing chunks, the step restored', async () => {
    const { flock, clock, calls } = fakeFlock(10);
    const r = await runWarmup(
      flock,
      { timeStep: 0.1, steps: 20 },
      { budgetMs: 1000, now: () => clock.t },
    );
    expect(r).toEqual({ steps: 20, ms: 200, cut: false, stopped: false });
    // First chunk 2; then min(1000/8, 980)/10 = 12 steps; then the 6 left.
    expect(calls).toEqual(['setParams 0.1', 'step 2', 'step 12', 'step 6', `setParams ${1 / 60}`]);
    expect(flock.params.timeStep).toBe(1 / 60);
  });

  test('the wall bound cuts it: the state reached is kept, nothing flown later', async () => {
    const { flock, clock, calls } = fakeFlock(40);
    const r = await runWarmup(
      flock,
      { timeStep: 0.1, steps: 20 },
      { budgetMs: 150, now: () => clock.t },
    );
    // 2 steps (80 ms), then min(18.75, 70)/40 -> 1 step a chunk: 120, 160 ms >= 150: cut at 4.
    expect(r).toEqual({ steps: 4, ms: 160, cut: true, stopped: false });
    expect(calls.filter((c) => c.startsWith('step'))).toEqual(['step 2', 'step 1', 'step 1']);
    expect(flock.steps()).toBe(4);
  });

  test('keepGoing false stops before the next chunk; yieldToPage runs between chunks', async () => {
    const { flock, clock } = fakeFlock(10);
    let yields = 0;
    let chunks = 0;
    const r = await runWarmup(
      flock,
      { timeStep: 0.1, steps: 20 },
      {
        budgetMs: 1000,
        now: () => clock.t,
        yieldToPage: () => {
          yields++;
          return Promise.resolve();
        },
        keepGoing: () => chunks++ < 2,
      },
    );
    expect(r).toMatchObject({ steps: 14, cut: false, stopped: true });
    expect(yields).toBe(2);
  });

  test("a plan of the flock's own step does not touch params; no steps, no calls", async () => {
    const { flock, clock, calls } = fakeFlock(10);
    await runWarmup(flock, { timeStep: 1 / 60, steps: 3 }, { budgetMs: 100, now: () => clock.t });
    expect(calls).toEqual(['step 2', 'step 1']);
    const empty = fakeFlock(10);
    expect(
      await runWarmup(empty.flock, { timeStep: 0.1, steps: 0 }, { budgetMs: 100, now: () => 0 }),
    ).toEqual({ steps: 0, ms: 0, cut: false, stopped: false });
    expect(empty.calls).toEqual([]);
  });
});

describe('the first frame (issue 27)', () => {
  test('the element and demo warm up 3 s in 2D, 2 s in 3D (DESIGN section 7)', () => {
    expect(defaultWarmupSeconds(2)).toBe(3);
    expect(defaultWarmupSeconds(3)).toBe(2);
  });

  test('a formed start is drawn before any step; a uniform start flies its warm-up first', () => {
    expect(warmsUpBeforeFirstFrame('groups')).toBe(false);
    expect(warmsUpBeforeFirstFrame('uniform')).toBe(true);
  });
});
