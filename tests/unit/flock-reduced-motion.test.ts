// createFlock follows prefers-reduced-motion as the <gpu-flock> element does (issue 31 item 6):
// under `reduce` the flock forms unseen (stillPlan's simulated seconds), draws one still frame and
// holds its loop (stepping on demand still works) until the preference changes; motion: 'always'
// animates anyway. A Flock on fake parts (Node) with a hand-set preference.
import { describe, expect, test } from 'vitest';
import { createFlockWith } from '../../src/flock/create';
import type { MotionPreference } from '../../src/flock/frame-loop';
import type { FlockOptions } from '../../src/flock';
import { FlockError } from '../../src/index';
import { defaultParams, type FlockParams } from '../../src/core/params';
import { stillPlan } from '../../src/element/still';
import { FakeBackends, FakeFrames, FakeSurface } from '../../src/testing/fake-backend';

/** A preference set by hand; `set` calls the watchers as a MediaQueryList 'change' does. */
class HandMotion implements MotionPreference {
  private readonly cbs = new Set<() => void>();
  constructor(public reduce: boolean) {}
  watch(cb: () => void): () => void {
    this.cbs.add(cb);
    return () => this.cbs.delete(cb);
  }
  set(reduce: boolean): void {
    this.reduce = reduce;
    for (const cb of [...this.cbs]) cb();
  }
  get watchers(): number {
    return this.cbs.size;
  }
}

class MotionFrames extends FakeFrames {
  constructor(readonly motion: MotionPreference | null) {
    super();
  }
}

// 700 boids in a 40-unit box: a plan of a few dozen steps of the CPU reference.
const params: Partial<FlockParams> = {
  count: 700,
  seed: 3,
  boundsMin: [-20, -20, -20],
  boundsMax: [20, 20, 20],
};

async function make(reduce: boolean, options: FlockOptions = {}) {
  const motion = new HandMotion(reduce);
  const frames = new MotionFrames(motion);
  const flock = await createFlockWith(
    undefined,
    { autoStart: true, params: { ...params }, ...options },
    { backends: new FakeBackends(), surface: new FakeSurface(), frames },
  );
  return { flock, frames, motion };
}

describe('createFlock and prefers-reduced-motion', () => {
  const plan = stillPlan({ ...defaultParams(), ...params });

  test('reduce: the flock is flown to its still plan, the loop held; the preference changing starts and stops it', async () => {
    expect(plan.steps).toBeGreaterThan(10);
    const { flock, frames, motion } = await make(true);
    // Flown unseen to the plan's simulated time (steps of the plan's timeStep).
    expect(flock.time).toBeCloseTo(plan.steps * plan.timeStep, 6);
    expect(flock.params.timeStep).toBe(defaultParams().timeStep); // restored after the warm-up
    expect(flock.running).toBe(false);
    expect(frames.pending).toBe(false);
    flock.start(); // asked again: still held
    expect(flock.running).toBe(false);
    expect(frames.pending).toBe(false);
    // Stepping on demand.
    const t0 = flock.time;
    await flock.step(3);
    expect(flock.time).toBeCloseTo(t0 + 3 * flock.params.timeStep, 9);
    // The page turns to motion: the held loop starts; back to reduce: it stops.
    motion.set(false);
    expect(flock.running).toBe(true);
    expect(frames.pending).toBe(true);
    motion.set(true);
    expect(flock.running).toBe(false);
    expect(frames.pending).toBe(false);
    // stop() while held: motion no longer starts it.
    flock.stop();
    motion.set(false);
    expect(flock.running).toBe(false);
    flock.dispose();
    expect(motion.watchers).toBe(0);
  });

  test("motion: 'always' animates under reduce: no still warm-up, the loop runs", async () => {
    const { flock, frames, motion } = await make(true, { motion: 'always' });
    expect(flock.time).toBe(0);
    expect(flock.running).toBe(true);
    expect(frames.pending).toBe(true);
    expect(motion.watchers).toBe(0);
    flock.dispose();
  });

  test('no reduce: as before (no warm-up with view.warmup 0, the loop runs)', async () => {
    const { flock, frames } = await make(false);
    expect(flock.time).toBe(0);
    expect(flock.running).toBe(true);
    expect(frames.pending).toBe(true);
    flock.dispose();
  });

  test('a bad motion option is a FlockError naming it', async () => {
    const e = await make(false, { motion: 'never' as 'auto' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FlockError);
    expect((e as FlockError).field).toBe('motion');
    expect((e as FlockError).allowed).toBe('"auto" or "always"');
  });
});
