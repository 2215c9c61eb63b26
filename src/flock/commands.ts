/**
 * Calls as values (issue 28): every public Flock call that reaches the backend is a Command, and
 * the command queue (command-queue.ts) runs one protocol for all of them:
 *
 * 1. at the call, the Flock validates the input and makes the command; when a backend is up
 *    then, `check` runs against it at once (a FlockError is thrown to the caller, nothing
 *    queued), and `asks` (when given) become the parameters the caller sees (Journal.params);
 * 2. a command queued right behind one it can `merge` with (nothing else between them, the
 *    earlier one not started) joins it: one run, one promise for both callers;
 * 3. at its turn, on the backend that is up then (the queue waits while a loss is recovered),
 *    `check` runs again, told whether a loss (or a start) came between the call and now
 *    (`Rung.fresh` false: check against what that rung holds and allows);
 * 4. `apply` gives it to the backend through the journal (so a recovery can replay it);
 * 5. when check or apply fails (but not for dispose()), `undo` puts back what the caller sees
 *    and, for a `reported` call, the flock fires 'error' (a caller who never awaits it learns).
 *
 * Not commands, on purpose: render() draws the state as it is now (it never waits behind queued
 * work); the frame loop's own steps go to the journal between queued calls (animation.ts);
 * timings() and drawMode read or set the live backend at once; setView and pointer() reach no
 * backend (pointer() changes attractor parameters through setParams).
 *
 * To add a call: docs/how-to-add-a-call.md.
 */
import type { Backend } from '../backend';
import { validateParams, type FlockParams } from '../core/params';
import { assignSpecies, cloneState, initialState, type FlockState } from '../core/state';
import { yieldToPage, type Epoch } from './epoch';
import { countError, disposedError } from './run-errors';
import type { Journal } from './journal';

/** The rung a command meets: at the call (when a backend is up then) and at its turn. */
export interface Rung {
  /** The backend up now. */
  readonly backend: Backend;
  /**
   * True when the backend was up at the call and no loss came since: what the call validated
   * still holds. False: check the call again against `applied` and this backend's limits.
   */
  readonly fresh: boolean;
  /** The parameters this backend holds (Journal.applied). */
  readonly applied: FlockParams;
}

/** One public call that reaches the backend, as a value (see the protocol above). */
export interface Command<R = void> {
  /** The public method's name (for messages and the docs). */
  readonly name: string;
  /** The parameters the caller sees once the call is accepted; absent when it changes none. */
  readonly asks?: FlockParams;
  /** True: a failure also fires 'error' (calls a caller may fire and forget: setParams, ...). */
  readonly reported: boolean;
  /** @throws FlockError when `rung` cannot take the call (nothing of it applies then). */
  check(rung: Rung): void;
  /** Gives the call to `backend`, through `journal`. @returns what the public call resolves with. */
  apply(backend: Backend, journal: Journal): R | Promise<R>;
  /** This call and `next` (queued right after it, not started) as one call, or null when they do not merge. */
  merge?(next: Command<unknown>): Command<R> | null;
  /** The call failed: what the caller sees goes back to what the backend holds. */
  undo(journal: Journal): void;
}

/** What commands need from the flock besides the backend and the journal. */
export interface CommandContext {
  readonly epoch: Epoch;
  /** The backend once it is up (waits while a loss is recovered). @throws when disposed or no rung runs. */
  backendUp(): Promise<Backend>;
  /** Starts recovering when `b` says it is lost before its event came. */
  noticeLoss(b: Backend): void;
  /** Runs `read` on `b`; when a loss cuts it, again on the recovered backend (Recovery.readSettled). */
  readSettled<T>(b: Backend, read: (b: Backend) => Promise<T>): Promise<T>;
  /** +1: the frame loop takes no steps (a state read back for a species change); -1: it may again. */
  holdSteps(delta: 1 | -1): void;
}

/** step(n) submits this many steps, then lets the page run. */
const STEP_CHUNK = 8;
/** step(n) waits for the device after this many steps (a multiple of STEP_CHUNK). */
const STEP_SYNC = 64;

const forget = (j: Journal): void => j.forgetAsks();
const nothing = (): void => undefined;

/**
 * setParams: `given` (the defined fields, in call order) validated at the call into `next`.
 * `mode` 'reinit' (count, dimensions or seed: the seed's state again), 'species' (positions.w
 * re-assigned from the state read back), else 'keep'. Calls other than 'reinit' merge in call
 * order (issue 21: a burst of species changes is one read-back and upload).
 */
export function setParamsCommand(
  ctx: CommandContext,
  given: Record<string, unknown>,
  next: FlockParams,
  mode: 'reinit' | 'species' | 'keep',
): Command {
  /** The parameters the rung takes (set by check). */
  let p = next;
  let rechecked = false;
  const cmd: Command & { readonly given: Record<string, unknown>; readonly mode: string } = {
    name: 'setParams',
    given,
    mode,
    asks: next,
    reported: true,
    check(rung) {
      const b = rung.backend;
      rechecked = !rung.fresh;
      // After a loss the rung came up with the journal's snapshot (its count): `given` is
      // validated again against what it holds (issue 21).
      p = rung.fresh ? next : validateParams(given, rung.applied);
      if (p.count > b.maxCount) throw countError(p.count, b);
    },
    apply(b, journal) {
      if (rechecked) journal.ask(p);
      if (mode === 'reinit') return journal.setState(b, initialState(p), p);
      if (mode === 'keep') return journal.setParams(b, p);
      return reassignSpecies(ctx, b, journal, p);
    },
    merge(later) {
      const z = later as Partial<typeof cmd>;
      if (mode === 'reinit' || z.name !== 'setParams' || z.mode === 'reinit') return null;
      const both = z.mode === 'species' ? 'species' : mode;
      return setParamsCommand(ctx, { ...given, ...z.given }, z.asks!, both);
    },
    undo: forget,
  };
  return cmd;
}

/**
 * A species change: positions.w = id mod p.species is re-assigned from the state as it stands
 * after the steps asked before (read again on the new rung after a loss), at the simulated time
 * it was read at (predators and the flow go on where they were), and given to the backend that
 * is up then (a loss after the read: the recovered one holds the same point of the queue, since
 * the journal replays up to here). A rung started during the read may have capped the count.
 */
async function reassignSpecies(
  ctx: CommandContext,
  b: Backend,
  journal: Journal,
  p: FlockParams,
): Promise<void> {
  ctx.holdSteps(1);
  try {
    const { state, time } = await ctx.readSettled(b, (x) =>
      x.readState().then((s) => ({ state: s, time: x.time })),
    );
    const q = state.count === p.count ? p : { ...p, count: state.count };
    const up = await ctx.backendUp();
    journal.setState(up, assignSpecies(cloneState(state), q.species), q, time);
    if (q !== p) journal.askCount(q.count);
  } finally {
    ctx.holdSteps(-1);
  }
}

/** reset: the seed's initial state again, with the parameters the backend holds. */
export function resetCommand(): Command {
  return {
    name: 'reset',
    reported: true,
    check: nothing,
    apply(b, journal) {
      const p = journal.applied;
      journal.setState(b, initialState(p), p);
    },
    undo: forget,
  };
}

/** setState: `s` (validated at the call) at simulated time `time`; the caller sees `asks` (its count in params). */
export function setStateCommand(s: FlockState, asks: FlockParams, time = 0): Command {
  let p = asks;
  let rechecked = false;
  return {
    name: 'setState',
    asks,
    reported: true,
    check(rung) {
      if (s.count > rung.backend.maxCount) throw countError(s.count, rung.backend);
      // As in setParams: a loss before its turn may have put the snapshot's count into params.
      rechecked = !rung.fresh;
      p = rung.fresh ? asks : { ...rung.applied, count: s.count };
    },
    apply(b, journal) {
      if (rechecked) journal.askCount(s.count);
      journal.setState(b, s, p, time);
    },
    undo: forget,
  };
}

/**
 * step(n): n steps into the backend, logged, submitted in chunks with the page running between
 * them, so a long run neither freezes the tab nor outlives dispose(). Its steps stay out of
 * snapshots until it ends. A loss does not cut it: the steps given so far are in the log and are
 * replayed into the restored context or the next rung, and the rest are given there, so the
 * call applies whole (issue 21).
 */
export function stepCommand(ctx: CommandContext, n: number): Command {
  return {
    name: 'step',
    reported: false,
    check: nothing,
    async apply(b, journal) {
      const epochs = ctx.epoch;
      let epoch = epochs.value;
      let done = 0;
      journal.beginStepCall();
      try {
        while (done < n) {
          if (epochs.disposed) throw disposedError(`dispose() ran after ${done} of ${n} steps`);
          ctx.noticeLoss(b);
          if (epochs.value !== epoch) {
            b = await ctx.backendUp();
            epoch = epochs.value;
            continue;
          }
          const k = Math.min(n - done, STEP_CHUNK);
          journal.step(b, k);
          done += k;
          if (done >= n) break;
          if (done % STEP_SYNC === 0 && b.sync) {
            // Backpressure: never more than STEP_SYNC steps queued on the device, so a loss or
            // dispose() is noticed within one batch, not after a backlog of seconds.
            await epochs.guard(b.sync()).catch(() => undefined);
          } else {
            await yieldToPage();
          }
        }
      } finally {
        journal.endStepCall();
      }
    },
    undo: nothing,
  };
}

/** finish(): resolves once every step given so far has finished on the device. */
export function finishCommand(ctx: CommandContext): Command {
  return {
    name: 'finish',
    reported: false,
    check: nothing,
    apply: (b) =>
      ctx.readSettled(b, (x) => (x.sync ? x.sync() : x.readState().then(() => undefined))),
    undo: nothing,
  };
}

/** readState(): the state after every earlier step; it becomes the journal's snapshot. */
export function readStateCommand(ctx: CommandContext): Command<FlockState> {
  return {
    name: 'readState',
    reported: false,
    check: nothing,
    apply: (b, journal) =>
      ctx.readSettled(b, (x) => {
        const mark = journal.markBeforeRead(x);
        return x.readState().then((s) => {
          journal.adoptAsSnapshot(cloneState(s), mark);
          return s;
        });
      }),
    undo: nothing,
  };
}

/**
 * _snapshotNow(): the state after every earlier call becomes the journal's snapshot (a loss
 * after it replays nothing). Resolves with the steps the log held before (what a loss would have
 * replayed).
 */
export function snapshotNowCommand(ctx: CommandContext): Command<number> {
  return {
    name: '_snapshotNow',
    reported: false,
    check: nothing,
    apply: (b, journal) =>
      ctx.readSettled(b, (x) => {
        const mark = journal.markBeforeRead(x);
        const held = journal.loggedSteps;
        return x.readState().then((s) => {
          journal.adoptAsSnapshot(cloneState(s), mark);
          return held;
        });
      }),
    undo: nothing,
  };
}

/** A call with nothing to give the backend (step(0)): it settles in queue order. */
export function noopCommand(name: string): Command {
  return { name, reported: false, check: nothing, apply: nothing, undo: nothing };
}
