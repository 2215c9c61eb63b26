// Issue 21 ("bursts of parameter changes are coalesced"), on fake backends: a storm of setParams
// calls that change species is one state read-back and one upload of the last species, not one
// per call (which froze a 2,000-boid webgl2 flock for over 15 s), and the result is the CPU
// reference's for the final species alone.
import { describe, expect, test } from 'vitest';
import { validateParams } from '../../src/core/params';
import { assignSpecies, cloneState } from '../../src/core/state';
import type { FakeBackend } from '../../src/testing/fake-backend';
import { fakeFlock, flush, settle, stepped } from '../support/fake-flock';

const PARAMS = { count: 203, seed: 7, species: 2 };

/** The number of `op` calls `b` recorded from call index `from` on. */
function callsOf(b: FakeBackend, op: 'readState' | 'setState', from: number): number {
  return b.calls.slice(from).filter((c) => c.op === op).length;
}

describe('a burst of species changes is coalesced (issue 21)', () => {
  test.each(['webgpu', 'webgl2'] as const)(
    '%s: 200 setParams cycling species: at most 2 read-backs and uploads, the last call wins, steps go on',
    async (backend) => {
      const f = await fakeFlock({ backend, params: PARAMS });
      await f.flock.step(3);
      await flush(); // the idle snapshot read after step() is not the burst's
      const b = f.backends.last;
      const before = cloneState(b.state);
      const t0 = b.time;
      const from = b.calls.length;

      const calls = [];
      for (let i = 0; i < 200; i++) {
        calls.push(settle(f.flock.setParams({ species: 1 + (i % 4), alignmentWeight: i / 100 })));
      }
      const results = await Promise.all(calls);
      expect(results.filter((r) => r[0] !== 'ok')).toEqual([]);

      expect(callsOf(b, 'readState', from)).toBeLessThanOrEqual(2);
      expect(callsOf(b, 'setState', from)).toBeLessThanOrEqual(2);
      // Params: the last call's, merged over the ones before, in the flock and in the backend.
      const last = validateParams({ ...PARAMS, species: 4, alignmentWeight: 1.99 });
      expect(f.flock.params).toEqual(last);
      expect(b.params).toEqual(last);
      // State: the CPU reference's for the final species alone; positions, velocities and time kept.
      const expected = assignSpecies(cloneState(before), 4);
      const s = await f.flock.readState();
      expect(s.positions).toEqual(expected.positions);
      expect(s.velocities).toEqual(expected.velocities);
      expect(f.flock.time).toBe(t0);

      // Steps go on right after, from that state with those params.
      await f.flock.step(5);
      const after = await f.flock.readState();
      const ref = stepped(expected, last, 5, t0);
      expect(after.positions).toEqual(ref.positions);
      expect(after.velocities).toEqual(ref.velocities);
      expect(f.flock.time).toBeGreaterThan(t0);
      f.flock.dispose();
    },
  );

  test('a step between species changes ends the burst: each change applies where it was asked', async () => {
    const f = await fakeFlock({ backend: 'webgpu', params: PARAMS });
    const b = f.backends.last;
    const s0 = cloneState(b.state);
    const p3 = validateParams({ ...PARAMS, species: 3 });
    const p4 = validateParams({ ...PARAMS, species: 4 });
    const calls = [
      f.flock.setParams({ species: 4 }),
      f.flock.setParams({ species: 3 }), // coalesced with the one before
      f.flock.step(2),
      f.flock.setParams({ species: 1 }),
      f.flock.setParams({ species: 4 }), // coalesced with the one before
    ];
    await Promise.all(calls);
    const expected = assignSpecies(stepped(assignSpecies(cloneState(s0), 3), p3, 2), 4);
    const s = await f.flock.readState();
    expect(s.positions).toEqual(expected.positions);
    expect(s.velocities).toEqual(expected.velocities);
    expect(f.flock.params).toEqual(p4);
    f.flock.dispose();
  });
});
