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

/** Loses the flock's context (restored 30 ms later) or destroys its WebGPU device. */
function lose(f: Flock): void {
  if (f.backend === 'webgpu') {
    (backendOf(f) as unknown as { device: GPUDevice }).device.destroy();
    return;
  }
  const gl = f.canvas.getContext('webgl2') as WebGL2RenderingContext;
  const ext = gl.getExtension('WEBGL_lose_context')!;
  ext.loseContext();
  setTimeout(() => ext.restoreContext(), 30);
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
