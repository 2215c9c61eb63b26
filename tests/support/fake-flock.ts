// A Flock in Node on fake parts (src/testing/fake-backend.ts): fake backends on every rung, a
// surface without a page and a frame source driven by hand.
import { createFlockWith } from '../../src/flock/create';
import type { Flock, FlockOptions } from '../../src/flock';
import { FakeBackends, FakeFrames, FakeSurface } from '../../src/testing/fake-backend';
import type { FlockParams } from '../../src/core/params';
import { referenceStep } from '../../src/core/reference';
import { initialState, type FlockState } from '../../src/core/state';
import { expect } from 'vitest';

export interface FakeFlock {
  flock: Flock;
  backends: FakeBackends;
  surface: FakeSurface;
  frames: FakeFrames;
}

/**
 * A flock on fake backends (autoStart off unless given).
 * @param setup changes the fake ladder before creation (rungs unavailable, failing, capped).
 */
export async function fakeFlock(
  options: FlockOptions = {},
  setup: (backends: FakeBackends) => void = () => undefined,
  restoreTimeoutMs = 200,
): Promise<FakeFlock> {
  const backends = new FakeBackends();
  setup(backends);
  const surface = new FakeSurface();
  const frames = new FakeFrames();
  const flock = await createFlockWith(
    undefined,
    { autoStart: false, ...options },
    { backends, surface, frames, restoreTimeoutMs },
  );
  return { flock, backends, surface, frames };
}

/** The first event of `type` on `target`, as a promise. */
export function next<T = CustomEvent>(target: EventTarget, type: string): Promise<T> {
  return new Promise((resolve) =>
    target.addEventListener(type, (e) => resolve(e as T), { once: true }),
  );
}

/** What a promise settled with: ['ok', value] or ['err', error]; never throws. */
export function settle<T>(p: Promise<T>): Promise<['ok', T] | ['err', unknown]> {
  return p.then(
    (v): ['ok', T] => ['ok', v],
    (e: unknown): ['err', unknown] => ['err', e],
  );
}

/** Lets queued promise jobs and message tasks run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The state after `n` steps from `s` at time `t0`, stepped as the fake backend steps (the CPU
 * reference, the time accumulated step by step), so equal states are equal to the bit.
 */
export function stepped(s: FlockState, p: FlockParams, n: number, t0 = 0): FlockState {
  let t = t0;
  for (let k = 0; k < n; k++) {
    s = referenceStep(s, p, undefined, t);
    t += p.timeStep;
  }
  return s;
}

/** Loses the backend's context or device and waits until the flock is back (restored or fallen back). */
export async function loseAndRecover(f: FakeFlock): Promise<CustomEvent> {
  const b = f.backends.last;
  if (b.kind === 'webgpu') {
    const fell = next(f.flock, 'fallback');
    b.loseContext();
    return fell;
  }
  const lost = next(f.flock, 'contextlost');
  b.loseContext();
  await lost;
  const back = next(f.flock, 'contextrestored');
  b.restoreContext();
  return back;
}

/**
 * Expects `flock`'s positions, read now, to be its seed's initial state stepped `n` times by the
 * CPU reference with its current parameters, to the bit.
 */
export async function expectSeedStepped(flock: Flock, n: number): Promise<void> {
  const p = flock.params;
  expect((await flock.readState()).positions).toEqual(stepped(initialState(p), p, n).positions);
}
