// The cpu backend against the CPU reference (same code, so bit-exact), request ordering, the count
// cap, timings and disposal; with the Web Worker and with the main-thread fallback.
import { describe, expect, test } from 'vitest';
import type { Backend } from '../../src/backend';
import { CPU_MAX_COUNT, createCpuBackend } from '../../src/cpu/cpu-backend';
import { FlockError } from '../../src/core/errors';
import type { FlockParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { initialState, type FlockState } from '../../src/core/state';
import { allFinite, parityParams } from '../support/compare';

function maxAbsDiff(a: FlockState, b: FlockState): number {
  expect(a.count).toBe(b.count);
  let m = 0;
  for (const [x, y] of [
    [a.positions, b.positions],
    [a.velocities, b.velocities],
  ] as const) {
    for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]! - y[i]!));
  }
  return m;
}

function make(params: FlockParams, state: FlockState, disable: string[] = []): Promise<Backend> {
  return createCpuBackend({
    canvas: document.createElement('canvas'),
    params,
    state,
    disable: new Set(disable),
  });
}

for (const where of ['worker', 'main thread'] as const) {
  const disable = where === 'worker' ? [] : ['worker'];
  describe(`cpu backend (${where})`, () => {
    test('1 and 10 steps equal the reference grid step exactly (3,000 boids)', async () => {
      const params = parityParams({ count: 3000 });
      const s0 = initialState(params);
      const b = await make(params, s0, disable);
      expect(b.kind).toBe('cpu');
      expect(b.deviceInfo).toContain(where);
      b.step(1);
      const one = await b.readState();
      expect(maxAbsDiff(one, referenceSteps(s0, params, 1, 'grid'))).toBeLessThan(1e-6);
      b.step(4);
      b.step(5);
      const ten = await b.readState();
      expect(allFinite(ten)).toBe(true);
      expect(maxAbsDiff(ten, referenceSteps(s0, params, 10, 'grid'))).toBeLessThan(1e-6);
      const t = b.timings();
      expect(t.timing).toBe('cpu-wait');
      expect(t.passes.steer).toBeGreaterThan(0);
      expect(t.passes.sort).toBeNull();
      b.dispose();
    });

    test('step, setState, setParams and readState keep their order', async () => {
      const p1 = parityParams({ count: 1000, seed: 7 });
      const p2 = { ...p1, separationWeight: 3, boundary: 'wrap' as const };
      const a = initialState(p1);
      const bState = initialState({ ...p1, seed: 99 });
      const b = await make(p1, a, disable);
      // Submitted back to back, without awaiting in between.
      b.step(2);
      const r1 = b.readState();
      b.setState(bState);
      const r2 = b.readState();
      b.step(1);
      b.setParams(p2);
      b.step(2);
      const r3 = b.readState();
      b.setState(a);
      b.setParams(p1);
      const r4 = b.readState();
      const [s1, s2, s3, s4] = await Promise.all([r1, r2, r3, r4]);
      expect(maxAbsDiff(s1, referenceSteps(a, p1, 2))).toBeLessThan(1e-6);
      expect(maxAbsDiff(s2, bState)).toBe(0);
      const want3 = referenceSteps(referenceSteps(bState, p1, 1), p2, 2);
      expect(maxAbsDiff(s3, want3)).toBeLessThan(1e-6);
      expect(maxAbsDiff(s4, a)).toBe(0);
      // The caller owns what readState gives: changing it does not reach the backend.
      s4.positions.fill(0);
      expect(maxAbsDiff(await b.readState(), a)).toBe(0);
      b.dispose();
    });

    test('a count change comes as setParams + setState', async () => {
      const p1 = parityParams({ count: 500 });
      const b = await make(p1, initialState(p1), disable);
      const p2 = { ...p1, count: 777 };
      const s2 = initialState(p2);
      b.setParams(p2);
      b.setState(s2);
      b.step(1);
      const got = await b.readState();
      expect(got.count).toBe(777);
      expect(maxAbsDiff(got, referenceSteps(s2, p2, 1))).toBeLessThan(1e-6);
      b.dispose();
    });
  });
}

test('counts above the cap are a FlockError naming count and the cap', async () => {
  const big = parityParams({ count: CPU_MAX_COUNT + 1 });
  const err = await make(big, initialState(big)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FlockError);
  expect((err as FlockError).field).toBe('count');
  expect((err as FlockError).value).toBe(CPU_MAX_COUNT + 1);
  expect((err as FlockError).message).toContain('4096');

  const ok = parityParams({ count: CPU_MAX_COUNT });
  const b = await make(ok, initialState(ok));
  expect(b.maxCount).toBe(4096);
  expect(() => b.setParams(big)).toThrow(FlockError);
  expect(() => b.setState(initialState(big))).toThrow(/cpu backend's cap/);
  b.dispose();
});

test('dispose is idempotent and rejects outstanding reads', async () => {
  const p = parityParams({ count: 2000 });
  const b = await make(p, initialState(p));
  b.step(20);
  const pending = b.readState();
  b.dispose();
  b.dispose();
  await expect(pending).rejects.toThrow(/disposed/);
  await expect(b.readState()).rejects.toThrow(/disposed/);
});

test('the page stays responsive while the worker steps', async () => {
  const p = parityParams({ count: 4096 });
  const b = await make(p, initialState(p));
  b.step(30);
  // Timers keep firing on the main thread while 30 steps of 4096 boids run in the worker.
  const t0 = performance.now();
  let ticks = 0;
  const done = b.readState();
  const timer = setInterval(() => ticks++, 5);
  await done;
  clearInterval(timer);
  const elapsed = performance.now() - t0;
  if (elapsed > 100) expect(ticks).toBeGreaterThan(elapsed / 5 / 4);
  b.dispose();
});

test('a worker that fails to load: the steps carry on on the main thread, in order', async () => {
  const Original = globalThis.Worker;
  // A worker whose script never loads: it fires 'error' a moment after construction.
  class BrokenWorker {
    onmessage: unknown = null;
    onmessageerror: unknown = null;
    onerror: ((e: ErrorEvent) => void) | null = null;
    constructor() {
      setTimeout(() => this.onerror?.(new ErrorEvent('error', { message: 'boom' })), 20);
    }
    postMessage(): void {}
    terminate(): void {}
  }
  globalThis.Worker = BrokenWorker as unknown as typeof Worker;
  try {
    const p = parityParams({ count: 800 });
    const s0 = initialState(p);
    const b = await make(p, s0);
    expect(b.deviceInfo).toContain('worker');
    b.step(3);
    const got = await b.readState();
    expect(b.deviceInfo).toContain('main thread');
    expect(maxAbsDiff(got, referenceSteps(s0, p, 3))).toBeLessThan(1e-6);
    b.dispose();
  } finally {
    globalThis.Worker = Original;
  }
});
