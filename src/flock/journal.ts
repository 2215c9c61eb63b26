/**
 * The recovery journal: a snapshot of the state at some point, and a log of everything given to
 * the backend since (steps, parameters), in order. Snapshot + replayed log rebuild the backend's
 * state exactly in a restored context or on the next rung, so a loss never rolls explicit work
 * back. Every state-changing call to the backend goes through here (step, setParams, setState),
 * so nothing reaches the backend unlogged.
 */
import type { Backend, BackendKind } from '../backend';
import { CPU_MAX_COUNT } from '../backend';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import { assignSpecies, cloneState, initialState } from '../core/state';
import { yieldToPage, type Epoch } from './epoch';
import { disposedError } from './errors';

/** What the backend was given since the snapshot, in order. */
export type LogEntry = { steps: number } | { params: FlockParams };

export interface Snapshot {
  state: FlockState;
  params: FlockParams;
  /** Simulated time of `state`, seconds. */
  time: number;
}

/** Where the log stood when a state read was started (to adopt that state as the snapshot). */
export interface LogMark {
  gen: number;
  at: number;
  params: FlockParams;
  epoch: number;
  time: number;
}

/** step(n) submits this many steps, then lets the page run. */
const STEP_CHUNK = 8;
/** step(n) waits for the device after this many steps (a multiple of STEP_CHUNK). */
const STEP_SYNC = 64;
/** Replays submit this many steps, then let the page run. */
const REPLAY_CHUNK = 64;

export class Journal {
  private _snapshot: Snapshot;
  private _log: LogEntry[] = [];
  /** Entries dropped from the front of the log so far (absolute log positions). */
  private _logBase = 0;
  /** Bumped when the snapshot is replaced by a state given outright (setState, re-init). */
  private _generation = 0;
  private _readingSnapshot = false;
  /** The step() call in flight: where its steps start in the log (not snapshotted meanwhile). */
  private _stepCall: { at: number; gen: number } | null = null;
  /** The parameters the backend holds (after every call given to it). */
  applied: FlockParams;

  constructor(
    params: FlockParams,
    private readonly _epoch: Epoch,
  ) {
    this.applied = params;
    this._snapshot = { state: initialState({ ...params, count: 1 }), params, time: 0 };
  }

  /** The state at the last snapshot, its parameters and time. */
  get snapshot(): Snapshot {
    return this._snapshot;
  }

  /** Entries logged since the snapshot. */
  get length(): number {
    return this._log.length;
  }

  /** A state given outright (creation, setState, reset, re-init): the snapshot, exactly. */
  restart(state: FlockState, params: FlockParams, time = 0): void {
    this._snapshot = { state, params, time };
    this._logBase += this._log.length;
    this._log = [];
    this._generation++;
  }

  /** Steps into `b`, logged for a replay; `live`: the frame loop's (Backend.step). */
  step(b: Backend, n: number, live = false): void {
    b.step(n, live);
    this._log.push({ steps: n });
  }

  /** Parameters into `b` (same count), logged for a replay. */
  setParams(b: Backend, p: FlockParams): void {
    b.setParams(p);
    this.applied = p;
    this._log.push({ params: p });
  }

  /**
   * A species change: positions.w = id mod p.species is re-assigned from the state as it stands
   * after the steps asked before (`read`; read again on the new rung after a loss), at the
   * simulated time it was read at (predators and the flow go on where they were), and given to
   * the backend that is up then (a loss after the read: the recovered one holds the same point
   * of the queue, since the journal replays up to here).
   * @returns the count applied: the state's, which a rung started during the read may have capped.
   */
  async reassignSpecies(
    p: FlockParams,
    read: () => Promise<{ state: FlockState; time: number }>,
    backendUp: () => Promise<Backend>,
  ): Promise<number> {
    const { state, time } = await read();
    const q = state.count === p.count ? p : { ...p, count: state.count };
    this.setState(await backendUp(), assignSpecies(cloneState(state), q.species), q, time);
    return q.count;
  }

  /** A whole state into `b` (with its params) at simulated time `time`, which becomes the snapshot. */
  setState(b: Backend, s: FlockState, p: FlockParams, time = 0): void {
    b.setParams(p);
    b.setState(s, time);
    this.applied = p;
    this.restart(s, p, time);
  }

  /** Where the log is now, to adopt a state read from `b` (or the snapshot's time without one). */
  markBeforeRead(b: Backend | null): LogMark {
    return {
      time: b?.time ?? this._snapshot.time,
      gen: this._generation,
      at: this._logBase + this._log.length,
      params: this.applied,
      epoch: this._epoch.value,
    };
  }

  /** Adopts `s`, read at `mark`, as the snapshot when nothing newer replaced it. */
  adoptAsSnapshot(s: FlockState, mark: LogMark): void {
    if (mark.gen !== this._generation || mark.epoch !== this._epoch.value) return;
    if (this._epoch.disposed) return;
    const drop = mark.at - this._logBase;
    if (drop <= 0) return;
    this._snapshot = { state: s, params: mark.params, time: mark.time };
    this._log = this._log.slice(drop);
    this._logBase = mark.at;
  }

  /**
   * Reads the state of `b` asynchronously and makes it the snapshot, which keeps the replay short
   * (one read at a time; none while a step() call is in flight or nothing was logged).
   * @param isCurrent whether `b` is still the live backend when the read comes back.
   */
  refreshSnapshot(b: Backend, isCurrent: () => boolean): void {
    if (this._readingSnapshot || this._stepCall || this._log.length === 0) return;
    this._readingSnapshot = true;
    const mark = this.markBeforeRead(b);
    let read: Promise<FlockState>;
    try {
      read = b.readState();
    } catch {
      this._readingSnapshot = false;
      return;
    }
    void this._epoch
      .guard(read)
      .then((s) => {
        if (isCurrent() && !b.isLost?.()) this.adoptAsSnapshot(s, mark);
      })
      .catch(() => undefined)
      .finally(() => {
        this._readingSnapshot = false;
      });
  }

  /**
   * A step(n) call: n steps into `b`, logged, submitted in chunks with the page running between
   * them, so a long run neither freezes the tab nor outlives dispose(). Its steps stay out of
   * snapshots until it ends. A loss does not cut it: the steps given so far are in the log and are
   * replayed into the restored context or the next rung, and the rest are given there, so the
   * call applies whole (issue 21).
   * @param noticeLoss starts recovering when `b` says it is lost (ending the epoch).
   * @param backendUp the backend once the loss is recovered.
   * @throws FlockError on 'flock' when dispose() cuts it short; what backendUp throws (every rung
   *   failed).
   */
  async stepCall(
    b: Backend,
    n: number,
    noticeLoss: (b: Backend) => void,
    backendUp: () => Promise<Backend>,
  ): Promise<void> {
    let epoch = this._epoch.value;
    let done = 0;
    this._stepCall = { at: this._logBase + this._log.length, gen: this._generation };
    try {
      while (done < n) {
        if (this._epoch.disposed) throw disposedError(`dispose() ran after ${done} of ${n} steps`);
        noticeLoss(b);
        if (this._epoch.value !== epoch) {
          b = await backendUp();
          epoch = this._epoch.value;
          continue;
        }
        const k = Math.min(n - done, STEP_CHUNK);
        this.step(b, k);
        done += k;
        if (done >= n) break;
        if (done % STEP_SYNC === 0 && b.sync) {
          // Backpressure: never more than STEP_SYNC steps queued on the device, so a loss or
          // dispose() is noticed within one batch, not after a backlog of seconds.
          await this._epoch.guard(b.sync()).catch(() => undefined);
        } else {
          await yieldToPage();
        }
      }
    } finally {
      this._stepCall = null;
    }
  }

  /**
   * Steps lost to losses since the last call (RecoveryDetail.lostSteps): always 0, since a step()
   * call a loss interrupts goes on after the recovery (stepCall).
   */
  takeCutSteps(): number {
    return 0;
  }

  /**
   * The snapshot as rung `kind` takes it: at most `limit` boids (the cpu rung: CPU_MAX_COUNT; a
   * GPU rung whose device holds fewer than the state has: its limit, learnt when it refused them).
   * @returns the snapshot, and the note for fallbackReasons[kind] when it was capped.
   */
  snapshotFor(
    kind: BackendKind,
    limit = kind === 'cpu' ? CPU_MAX_COUNT : Infinity,
  ): { snapshot: Snapshot; capped: string | null } {
    const { state, params, time } = this._snapshot;
    if (state.count <= limit) return { snapshot: this._snapshot, capped: null };
    const s = {
      count: limit,
      positions: state.positions.slice(0, 4 * limit),
      velocities: state.velocities.slice(0, 4 * limit),
    };
    const whose =
      kind === 'cpu' ? "the cpu backend's limit" : `the ${kind} backend's limit on this device`;
    return {
      snapshot: { state: s, params: { ...params, count: limit }, time },
      capped: `count capped from ${state.count} to ${limit}, ${whose}`,
    };
  }

  /**
   * Gives the log since the snapshot to `b`, which holds the snapshot (its count `count`);
   * submits REPLAY_CHUNK steps, then lets the page run.
   * @returns the steps replayed (fewer when dispose() came meanwhile).
   */
  async replay(b: Backend, count: number): Promise<number> {
    let applied = { ...this._snapshot.params, count };
    let steps = 0;
    let sinceYield = 0;
    for (const e of this._log.slice()) {
      if ('steps' in e) {
        b.step(e.steps);
        steps += e.steps;
        sinceYield += e.steps;
        if (sinceYield >= REPLAY_CHUNK) {
          sinceYield = 0;
          await yieldToPage();
          if (this._epoch.disposed) return steps;
        }
      } else {
        applied = { ...e.params, count };
        b.setParams(applied);
      }
    }
    this.applied = applied;
    if (count < this._snapshot.state.count) {
      // The rung capped the count: the capped state is the snapshot from now on.
      this._snapshot = this.snapshotFor(b.kind, count).snapshot;
      this._log = this._log.map((e) => ('steps' in e ? e : { params: { ...e.params, count } }));
    }
    return steps;
  }

  /** Forgets the log (dispose()). */
  clear(): void {
    this._log = [];
  }
}
