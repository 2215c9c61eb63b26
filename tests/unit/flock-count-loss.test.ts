// A count change a context or device loss cuts (issue 21, "a call applies whole or not at all";
// found by an outside tester): after the recovery, params.count and the state's count agree, and
// the state is the CPU reference's for the change applied (the next rung holds it) or not applied
// (the next rung cannot: the call rejects and 'error' fires). The loss comes at each point of the
// call: before it runs (its event at once, or later as after WEBGL_lose_context), at the
// backend's setParams or setState, and, after a species change, during that change's read-back.
import { describe, expect, test } from 'vitest';
import { FlockError, initialState } from '../../src/index';
import { validateParams } from '../../src/core/params';
import type { FakeBackend, FakeOp } from '../../src/testing/fake-backend';
import { fakeFlock, next, settle } from '../support/fake-flock';

const SEED = 11;
type Cut = 'event now' | 'event later' | FakeOp;

/** Makes the loss happen at `cut` of the next call on `b` (or now, for the first two). */
function cutAt(b: FakeBackend, cut: Cut): void {
  if (cut === 'event now') b.loseContext();
  else if (cut === 'event later') b.loseContext('lost', { silent: true });
  // A loss inside a call is reported after it (a device's lost promise, a context's event).
  else b.loseAt(cut, { silent: true });
}

describe.each(['webgl2', 'webgpu'] as const)('%s: a count change cut by a loss', (backend) => {
  const nextRung = backend === 'webgpu' ? 'webgl2' : 'webgl2-tf';
  describe.each([
    ['alone', 'none'],
    ['after a species change', 'species done'],
    ['right after a species change whose read the loss cuts', 'species in flight'],
  ] as const)('%s', (_name, before) => {
    const cuts: Cut[] =
      before === 'species in flight'
        ? ['readState']
        : ['event now', 'event later', 'setParams', 'setState'];
    describe.each(cuts)('loss: %s', (cut) => {
      test.each([
        ['applies to params and state (the next rung holds it)', 100_000],
        ['applies to neither and fires error (the next rung cannot hold it)', 220],
      ] as const)('%s', async (_what, limit) => {
        const f = await fakeFlock(
          { backend, params: { count: 120, seed: SEED } },
          (bs) => {
            bs.maxCount[nextRung] = limit;
          },
          40,
        );
        const errors: unknown[] = [];
        f.flock.addEventListener('error', (e) =>
          errors.push((e as CustomEvent<{ error: unknown }>).detail.error),
        );
        await f.flock.setParams({ count: 200 });
        const species = before === 'none' ? 1 : 3;
        let speciesCall: Promise<['ok', void] | ['err', unknown]> | null = null;
        if (before === 'species done') await f.flock.setParams({ species });
        const b = f.backends.last;
        const fell = next<CustomEvent>(f.flock, 'fallback');
        if (before === 'species in flight') {
          cutAt(b, cut);
          speciesCall = settle(f.flock.setParams({ species }));
        }
        const call = settle(f.flock.setParams({ count: 250 }));
        if (before !== 'species in flight') cutAt(b, cut);
        const got = await call;
        const s = await f.flock.readState();
        const ev = await fell;
        expect(ev.detail.to).toBe(nextRung);
        if (speciesCall) expect((await speciesCall)[0]).toBe('ok');
        // A loss inside the call on the backend comes after the call applied there (and was
        // journaled): the next rung takes it as any state, at its limit when it holds fewer.
        const inCall = cut === 'setParams' || cut === 'setState';
        const applied = limit >= 250 || inCall;
        const count = applied ? Math.min(250, limit) : 200;
        if (applied) {
          expect(got[0]).toBe('ok');
          expect(errors).toEqual([]);
        } else {
          expect(got[0]).toBe('err');
          expect(got[1]).toBeInstanceOf(FlockError);
          expect((got[1] as FlockError).field).toBe('count');
          expect(errors).toHaveLength(1);
          expect(errors[0]).toBe(got[1]);
        }
        expect(f.flock.params.count).toBe(count);
        expect(f.flock.params.species).toBe(species);
        expect(s.count).toBe(count);
        const want = initialState(
          validateParams({ count: applied ? 250 : 200, seed: SEED, species }),
        );
        expect(s.positions).toEqual(want.positions.slice(0, 4 * count));
        expect(s.velocities).toEqual(want.velocities.slice(0, 4 * count));
        expect(ev.detail.count).toBe(inCall ? count : 200);
        // And it stays so: the backend holds those parameters.
        expect(f.backends.last.params.count).toBe(count);
        expect(f.backends.last.params.species).toBe(species);
        f.flock.dispose();
      });
    });
  });
});
