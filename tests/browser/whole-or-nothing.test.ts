// Issue 21, reproduction 1: a call cut by a context or device loss applies whole or not at all.
// setParams({species}) , setState and step(n) are issued, then the context is lost (loseContext,
// restored 30 ms later) or the WebGPU device destroyed (a fallback to webgl2) after a swept delay.
// Afterwards either the change is in params AND in the state (replayed by the journal), or in
// neither and the call rejected; a rejected call fires 'error' even when nobody awaits it.
import { describe, expect, test } from 'vitest';
import { initialState, type Flock, type FlockState } from '../../src/index';
import type { Backend } from '../../src/backend';
import { ballisticError, ballisticParams } from '../support/ballistic';
import { flockMaker, sleep } from '../support/browser';

const make = flockMaker();
const hasWebGPU = typeof navigator !== 'undefined' && 'gpu' in navigator;
const RUNGS = (hasWebGPU ? ['webgpu', 'webgl2', 'webgl2-tf'] : ['webgl2', 'webgl2-tf']) as (
  'webgpu' | 'webgl2' | 'webgl2-tf'
)[];
/** Milliseconds between the call and the loss. */
const DELAYS = [0, 1, 2, 4, 7, 12];

const backendOf = (f: Flock) => (f as unknown as { _backend: Backend | null })._backend;

/**
 * Loses the flock's context (restored 30 ms later, or never with `restore` false: a fallback
 * after RESTORE_TIMEOUT_MS) or destroys its WebGPU device.
 */
function lose(f: Flock, restore = true): void {
  if (f.backend === 'webgpu') {
    (backendOf(f) as unknown as { device: GPUDevice }).device.destroy();
    return;
  }
  const gl = f.canvas.getContext('webgl2') as WebGL2RenderingContext;
  const ext = gl.getExtension('WEBGL_lose_context')!;
  ext.loseContext();
  if (restore) setTimeout(() => ext.restoreContext(), 30);
}

/** The largest difference between two Float32Arrays of one length (Infinity when they differ in length). */
function maxDiff(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return Infinity;
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

/** The 'error' events of `f`, as they come. */
function errorsOf(f: Flock): unknown[] {
  const seen: unknown[] = [];
  f.addEventListener('error', (e) =>
    seen.push((e as CustomEvent<{ error: unknown }>).detail.error),
  );
  return seen;
}

/** Waits until the flock is up again (restored or fallen back) and settled. */
async function recovered(f: Flock): Promise<FlockState> {
  for (let i = 0; i < 3; i++) {
    try {
      return await f.readState();
    } catch {
      await sleep(200);
    }
  }
  return f.readState();
}

describe.each(RUNGS)('%s: a call cut by a loss applies whole or not at all', (backend) => {
  test('setParams({species: 4}): species in params and in every boid, or in neither', async () => {
    const outcomes: string[] = [];
    for (const delay of DELAYS) {
      const params = ballisticParams({ count: 300 });
      const f = await make(undefined, { backend, params, autoStart: false });
      const errors = errorsOf(f);
      await f.step(2);
      // Nobody awaits the call (the element and the GUI never do): it is watched only here.
      let rejected: unknown = null;
      f.setParams({ species: 4 }).catch((e: unknown) => (rejected = e));
      await sleep(delay);
      lose(f);
      const s = await recovered(f);
      await sleep(20);
      const species = f.params.species;
      const ws = new Set<number>();
      let wrong = 0;
      for (let i = 0; i < s.count; i++) {
        const w = s.positions[4 * i + 3]!;
        ws.add(w);
        if (w !== i % species) wrong++;
      }
      outcomes.push(`${delay} ms: species ${species}, ${rejected ? 'rejected' : 'applied'}`);
      expect(wrong, `delay ${delay} ms: ${wrong} boids do not carry species ${species}`).toBe(0);
      if (rejected) {
        expect(species).toBe(1);
        expect(errors).toContain(rejected);
      } else {
        expect(species).toBe(4);
      }
      f.dispose();
    }
    console.log(`${backend} setParams species: ${outcomes.join('; ')}`);
  });

  // The outside tester's reproduction: a count change (after another, or after a species change)
  // cut by a loss left params.count at the snapshot's count while the state had the new one.
  test.each([false, true])(
    "setParams({count}) cut by a loss (after a species change: %s): params.count and the state agree, and the state is the seed's",
    async (afterSpecies) => {
      // Restored after 30 ms, then not restored (a fallback: the rung started with the snapshot).
      for (const [delay, restore] of [
        [0, true],
        [0, false],
        [4, false],
      ] as const) {
        const params = ballisticParams({ count: 1200 });
        const f = await make(undefined, { backend, params, autoStart: false });
        const errors = errorsOf(f);
        if (afterSpecies) await f.setParams({ species: 3 });
        else await f.setParams({ count: 2000 });
        let rejected: unknown = null;
        const call = f.setParams({ count: 2500 }).catch((e: unknown) => (rejected = e));
        if (delay > 0) await sleep(delay); // 0: at once, before the call's turn (the report)
        lose(f, restore);
        await call;
        const s = await recovered(f);
        await sleep(20);
        const count = f.params.count;
        expect(s.count, `delay ${delay} ms: params.count ${count}, state ${s.count}`).toBe(count);
        if (rejected) expect(errors).toContain(rejected);
        else expect(count).toBe(2500);
        const want = initialState({ ...params, species: afterSpecies ? 3 : 1, count });
        expect(maxDiff(s.positions, want.positions), `delay ${delay} ms`).toBeLessThan(1e-5);
        expect(maxDiff(s.velocities, want.velocities), `delay ${delay} ms`).toBeLessThan(1e-5);
        f.dispose();
      }
    },
  );

  test('setState(s) and step(n): the state given (or the one before) and all n steps or none', async () => {
    for (const delay of DELAYS) {
      const params = ballisticParams({ count: 500 });
      const f = await make(undefined, { backend, params, autoStart: false });
      const errors = errorsOf(f);
      await f.step(3);
      // A state of its own (another seed): unmistakable after the loss.
      const given = initialState({ ...params, seed: 99 });
      let stateRejected: unknown = null;
      let stepRejected: unknown = null;
      f.setState(given).catch((e: unknown) => (stateRejected = e));
      const stepped = f.step(6).catch((e: unknown) => (stepRejected = e));
      await sleep(delay);
      lose(f);
      await stepped;
      const s = await recovered(f);
      if (stateRejected) {
        expect(errors).toContain(stateRejected);
        // Not applied: the old state, 3 steps in (and the 6 steps, or none of them).
        const start = initialState(params);
        const e = Math.min(
          ballisticError(s, start, params, 3),
          ballisticError(s, start, params, 9),
        );
        expect(e, `delay ${delay} ms`).toBeLessThan(2e-3);
      } else {
        // Applied: the given state, then all 6 steps, or (step rejected) none.
        const want = stepRejected ? 0 : 6;
        expect(ballisticError(s, given, params, want), `delay ${delay} ms`).toBeLessThan(2e-3);
      }
      if (stepRejected) expect(errors).toContain(stepRejected);
      f.dispose();
    }
  });
});
