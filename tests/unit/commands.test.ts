// A call added by following docs/how-to-add-a-call.md (src/flock/commands.ts): _snapshotNow()
// makes the state after every earlier call the recovery snapshot, so a loss after it replays
// nothing. Fake backends step with the CPU reference: states are compared to the bit.
import { describe, expect, test } from 'vitest';
import { expectSeedStepped, fakeFlock, loseAndRecover, next } from '../support/fake-flock';

const PARAMS = { count: 61, seed: 11 };

describe('_snapshotNow', () => {
  test('37 steps logged: it resolves 37, and a loss after it replays none', async () => {
    const f = await fakeFlock({ backend: 'webgl2', params: PARAMS });
    void f.flock.step(37);
    expect(await f.flock._snapshotNow()).toBe(37);
    const ev = await loseAndRecover(f);
    expect(ev.detail.replayedSteps).toBe(0);
    await expectSeedStepped(f.flock, 37);
    f.flock.dispose();
  });

  test('without it, a loss before the idle snapshot comes back replays the 37 steps', async () => {
    const f = await fakeFlock({ backend: 'webgl2', params: PARAMS });
    const held = f.backends.last.slow('readState'); // the idle snapshot's read waits
    await f.flock.step(37);
    const ev = await loseAndRecover(f);
    expect(ev.detail.replayedSteps).toBe(37);
    held.open();
    await expectSeedStepped(f.flock, 37);
    f.flock.dispose();
  });

  test('queued while the context is lost, it waits for the restore and takes the replayed state', async () => {
    const f = await fakeFlock({ backend: 'webgl2', params: PARAMS });
    void f.flock.step(20);
    const lost = next(f.flock, 'contextlost');
    f.backends.last.loseContext();
    await lost;
    void f.flock.step(5);
    const snap = f.flock._snapshotNow();
    f.backends.last.restoreContext();
    // 20 steps replayed, 5 given after the restore: 25 logged since the start, now the snapshot.
    expect(await snap).toBe(25);
    const ev = await loseAndRecover(f);
    expect(ev.detail.replayedSteps).toBe(0);
    await expectSeedStepped(f.flock, 25);
    f.flock.dispose();
  });
});
