// The command queue, the epoch and the journal of the Flock (src/flock/, issue 18 item 2), alone
// and in a Flock on a fake backend that steps with the CPU reference.
import { describe, expect, test } from 'vitest';
import type { Backend, BackendInit } from '../../src/backend';
import { defaultParams, type FlockParams } from '../../src/core/params';
import { CommandQueue, type QueueBackends } from '../../src/flock/command-queue';
import { stepCommand, type Command } from '../../src/flock/commands';
import { Epoch } from '../../src/flock/epoch';
import { disposedError } from '../../src/flock/run-errors';
import { Journal } from '../../src/flock/journal';
import { snapshotFor } from '../../src/flock/recovery';
import { FlockError, initialState } from '../../src/index';
import { FakeBackend, gate } from '../../src/testing/fake-backend';
import { fakeFlock, flush, settle, stepped } from '../support/fake-flock';

function fakeBackend(p: FlockParams, kind: 'webgl2' | 'cpu' = 'webgl2'): FakeBackend {
  const init: BackendInit = {
    canvas: {} as HTMLCanvasElement,
    params: p,
    state: initialState(p),
    disable: new Set(),
  };
  return new FakeBackend(init, kind, 100_000);
}

describe('Epoch', () => {
  test('guard passes a value through while the epoch lasts', async () => {
    const e = new Epoch();
    expect(await e.guard(Promise.resolve(7))).toBe(7);
    expect(e.value).toBe(0);
  });

  test('a loss (bump) rejects what was guarded in the epoch with "lost"; dispose with "disposed"', async () => {
    const e = new Epoch();
    const held = e.guard(new Promise(() => undefined));
    e.bump();
    expect(e.value).toBe(1);
    const lost = await settle(held);
    expect(lost[1]).toBeInstanceOf(FlockError);
    expect((lost[1] as FlockError).field).toBe('flock');
    expect((lost[1] as FlockError).message).toMatch(/lost \(epoch 0\)/);
    const later = e.guard(new Promise(() => undefined));
    e.dispose();
    e.dispose(); // idempotent
    expect(e.value).toBe(2);
    expect(e.disposed).toBe(true);
    expect(((await settle(later))[1] as FlockError).message).toMatch(/disposed/);
  });
});

/** A command that applies `apply` on the backend it meets (a reported one fires 'error' when it fails). */
function command<R>(apply: (b: Backend) => R | Promise<R>, reported = false): Command<R> {
  return { name: 'test', reported, check: () => undefined, apply, undo: () => undefined };
}

/** A stand-in for Recovery: `b` always up (`live` at the call: `live`), reads done once. */
function backendsOf(b: Backend, live: Backend | null): QueueBackends {
  return {
    live,
    backendUp: () => Promise.resolve(b),
    noticeLoss: () => undefined,
    readSettled: (x, read) => read(x),
    refreshSnapshot: () => undefined,
  };
}

describe('CommandQueue', () => {
  const p = { ...defaultParams(), count: 40, seed: 5 };

  test('calls run one after the other in call order, each on the backend that is up', async () => {
    const up = gate();
    const log: string[] = [];
    let idle = 0;
    const B = fakeBackend(p);
    const epoch = new Epoch();
    const q = new CommandQueue(
      {
        ...backendsOf(B, null),
        backendUp: async () => {
          await up.promise;
          return B;
        },
        refreshSnapshot: () => idle++,
      },
      new Journal(p, epoch),
      epoch,
      () => undefined,
    );
    const slow = gate();
    const a = q.submit(
      command(async (b) => {
        log.push(`a start ${b.kind}`);
        await slow.promise;
        log.push('a end');
      }),
    );
    const b = q.submit(command((x) => log.push(`b ${x.kind}`)));
    expect(q.pending).toBe(2);
    await flush();
    expect(log).toEqual([]); // waiting for the backend
    up.open();
    await flush();
    expect(log).toEqual(['a start webgl2']);
    slow.open();
    await a;
    await b;
    await flush();
    expect(log).toEqual(['a start webgl2', 'a end', 'b webgl2']);
    expect(q.pending).toBe(0);
    expect(idle).toBe(1);
  });

  test('a failed call rejects, is reported unless cut short, and the queue goes on', async () => {
    const failed: unknown[] = [];
    const epoch = new Epoch();
    const B = fakeBackend(p);
    const q = new CommandQueue(backendsOf(B, B), new Journal(p, epoch), epoch, (e) =>
      failed.push(e),
    );
    const boom = new Error('boom');
    const r1 = settle(
      q.submit(
        command(() => {
          throw boom;
        }, true),
      ),
    );
    const r2 = settle(
      q.submit(
        command(() => {
          throw disposedError();
        }, true),
      ),
    );
    const r3 = q.submit(command((b) => b.maxCount + 1));
    expect(await r1).toEqual(['err', boom]);
    expect((await r2)[0]).toBe('err');
    expect(await r3).toBe(100_001);
    expect(failed).toEqual([boom]);
  });
});

describe('Journal', () => {
  const p = { ...defaultParams(), count: 40, seed: 5 };

  test('replaying the log into a backend holding the snapshot rebuilds the state exactly', async () => {
    const epoch = new Epoch();
    const j = new Journal(p, epoch);
    const live = fakeBackend(p);
    j.restart(initialState(p), p);
    j.step(live, 3);
    const p2 = { ...p, alignmentWeight: 2.5 };
    j.setParams(live, p2);
    j.step(live, 4);
    expect(j.length).toBe(3);
    const fresh = fakeBackend(p);
    expect(await j.replay(fresh, j.snapshot)).toBe(7);
    expect(fresh.state.positions).toEqual(live.state.positions);
    expect(fresh.params).toEqual(p2);
    expect(j.applied).toEqual(p2);
    expect(fresh.calls.map((c) => c.op)).toEqual(['step', 'setParams', 'step']);
  });

  test('a state read at a mark becomes the snapshot and drops the log up to the mark', () => {
    const j = new Journal(p, new Epoch());
    const b = fakeBackend(p);
    j.restart(initialState(p), p);
    j.step(b, 2);
    const mark = j.markBeforeRead(b);
    j.step(b, 1);
    j.adoptAsSnapshot(initialState({ ...p, seed: 1 }), mark);
    expect(j.length).toBe(1);
    expect(j.snapshot.time).toBeCloseTo(2 * p.timeStep, 12);
    expect(j.snapshot.state.positions).toEqual(initialState({ ...p, seed: 1 }).positions);
  });

  test('a read from before a state given outright, or before a loss, is not adopted', () => {
    const epoch = new Epoch();
    const j = new Journal(p, epoch);
    const b = fakeBackend(p);
    j.restart(initialState(p), p);
    j.step(b, 2);
    const m1 = j.markBeforeRead(b);
    j.setState(b, initialState({ ...p, seed: 9 }), p);
    j.step(b, 1);
    j.adoptAsSnapshot(initialState({ ...p, seed: 1 }), m1);
    expect(j.snapshot.state.positions).toEqual(initialState({ ...p, seed: 9 }).positions);
    j.step(b, 1);
    const m2 = j.markBeforeRead(b);
    epoch.bump();
    j.adoptAsSnapshot(initialState({ ...p, seed: 1 }), m2);
    expect(j.length).toBe(2);
  });

  test('a loss does not cut the step() call in flight: its steps stay logged and the rest go to the backend that is up then (issue 21)', async () => {
    const epoch = new Epoch();
    const j = new Journal(p, epoch);
    const b = fakeBackend(p);
    const next = fakeBackend(p);
    j.restart(initialState(p), p);
    j.step(b, 5);
    let lost = false;
    const step100 = stepCommand(
      {
        epoch,
        noticeLoss: () => undefined,
        backendUp: async () => {
          lost = true;
          return next;
        },
        readSettled: (x, read) => read(x),
        holdSteps: () => undefined,
      },
      100,
    );
    const call = settle(Promise.resolve(step100.apply(b, j)));
    await flush();
    const given = j.length - 1;
    expect(given).toBeGreaterThan(0);
    epoch.bump();
    const got = await call;
    expect(got[0]).toBe('ok');
    expect(lost).toBe(true);
    const steps = (x: { calls: { op: string; n?: number }[] }) =>
      x.calls.filter((c) => c.op === 'step').reduce((s, c) => s + (c.n ?? 0), 0);
    // 5 + 100 steps in the log in all: the ones given before the loss (replayed by a recovery)
    // and the rest, given to the next backend.
    expect(steps(b) + steps(next)).toBe(105);
    expect(steps(next)).toBeGreaterThan(0);
  });

  test('the cpu rung takes the snapshot capped at its 4096 boids, and says so', () => {
    const big = { ...p, count: 5000 };
    const j = new Journal(big, new Epoch());
    j.restart(initialState(big), big);
    expect(snapshotFor(j.snapshot, 'webgl2').capped).toBeNull();
    const { snapshot, capped } = snapshotFor(j.snapshot, 'cpu');
    expect(snapshot.state.count).toBe(4096);
    expect(snapshot.params.count).toBe(4096);
    expect(snapshot.state.positions).toEqual(initialState(big).positions.slice(0, 4 * 4096));
    expect(capped).toBe("count capped from 5000 to 4096, the cpu backend's limit");
  });
});

describe('the queue and the journal in a Flock', () => {
  test('calls reach the backend in call order, with the real state after them', async () => {
    const { flock, backends } = await fakeFlock({ params: { count: 50, seed: 2 } });
    const b = backends.last;
    const p = flock.params;
    b.calls.length = 0;
    const given = initialState({ ...p, seed: 77 });
    void flock.setParams({ alignmentWeight: 1.5 });
    void flock.step(3);
    void flock.setState(given);
    void flock.step(2);
    const s = await flock.readState();
    expect(b.calls.map((c) => c.op)).toEqual([
      'setParams',
      'step',
      'setParams',
      'setState',
      'step',
      'readState',
    ]);
    const p2 = { ...p, alignmentWeight: 1.5 };
    expect(s.positions).toEqual(stepped(given, p2, 2).positions);
    flock.dispose();
  });

  test('bad input throws at once and reaches no backend; the flock keeps its state', async () => {
    const { flock, backends } = await fakeFlock({ params: { count: 50 } });
    const b = backends.last;
    await flock.step(1);
    const n = b.calls.length;
    const params = flock.params;
    expect(() => flock.setParams({ maxSpeed: -1 })).toThrow(FlockError);
    expect(() =>
      flock.setState({ count: 2, positions: new Float32Array(3), velocities: new Float32Array(8) }),
    ).toThrow(FlockError);
    const stepErr = await settle(flock.step(-1));
    expect((stepErr[1] as FlockError).field).toBe('n');
    expect(flock.setParams({ maxSpeed: params.maxSpeed })).toBeInstanceOf(Promise); // no change
    await flush();
    expect(b.calls.slice(n).filter((c) => c.op !== 'readState')).toEqual([]);
    expect(flock.params).toEqual(params);
    flock.dispose();
  });

  test('a call the backend fails rejects and fires "error"; the next call runs', async () => {
    const { flock, backends } = await fakeFlock({ params: { count: 50 } });
    const errors: unknown[] = [];
    flock.addEventListener('error', (e) => errors.push((e as CustomEvent).detail.error));
    const boom = new Error('device said no');
    backends.last.failNext('setParams', boom);
    const r = await settle(flock.setParams({ cohesionWeight: 0.5 }));
    expect(r).toEqual(['err', boom]);
    expect(errors).toEqual([boom]);
    await flock.step(2);
    expect(backends.last.stepsTaken).toBe(2);
    flock.dispose();
  });

  test('when the queue runs dry after explicit work, the state is read back as the snapshot', async () => {
    const { flock, backends } = await fakeFlock({ params: { count: 50 } });
    const b = backends.last;
    void flock.step(3);
    await flush();
    await flush();
    expect(b.calls.filter((c) => c.op === 'readState')).toHaveLength(1);
    // Nothing new given: no read again.
    void flock.finish();
    await flush();
    await flush();
    expect(b.calls.filter((c) => c.op === 'readState')).toHaveLength(1);
    flock.dispose();
  });

  test('after dispose() every call rejects or throws "disposed", and the backend is freed', async () => {
    const { flock, backends, surface } = await fakeFlock({ params: { count: 50 } });
    flock.dispose();
    flock.dispose();
    expect(backends.last.disposed).toBe(true);
    expect(surface.disposed).toBe(true);
    expect(() => flock.setParams({ count: 60 })).toThrow(/disposed/);
    expect(() => flock.reset()).toThrow(/disposed/);
    expect(((await settle(flock.step(1)))[1] as FlockError).message).toMatch(/disposed/);
    expect(((await settle(flock.readState()))[1] as FlockError).message).toMatch(/disposed/);
    expect(flock.backend).toBe('none');
  });
});
