/**
 * The journal: the one owner of the flock's parameters (those the backend holds, `applied`, and
 * those the caller sees, `params`: applied plus the calls queued), a snapshot of the state at
 * some point, and a log of everything given to the backend since (steps, parameters), in order.
 * Snapshot + replayed log rebuild the backend's state exactly in a restored context or on the
 * next rung (recovery.ts decides when and where), so a loss never rolls explicit work back.
 * Every state-changing call to the backend goes through here (step, setParams, setState), so
 * nothing reaches the backend unlogged.
 */
import type { Backend } from '../backend';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import { initialState } from '../core/state';
import { yieldToPage, type Epoch } from './epoch';

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
  /** step() calls in flight: their steps stay out of snapshots until they end. */
  private _stepCalls = 0;
  /** The parameters the backend holds (after every call given to it). */
  private _applied: FlockParams;
  /** The parameters the caller sees: `_applied` and every call queued after it. */
  private _asked: FlockParams;

  constructor(
    params: FlockParams,
    private readonly _epoch: Epoch,
  ) {
    this._applied = params;
    this._asked = params;
    this._snapshot = { state: initialState({ ...params, count: 1 }), params, time: 0 };
  }

  /** The parameters the backend holds: every call given to it, none of those still queued. */
  get applied(): FlockParams {
    return this._applied;
  }

  /** The parameters the caller sees (Flock.params): `applied` and every call queued since. */
  get params(): FlockParams {
    return this._asked;
  }

  /** A call was accepted (queued, or the flock's start): the caller sees `p` from now on. */
  ask(p: FlockParams): void {
    this._asked = p;
  }

  /** The rung up now holds `count` boids (a rung that capped them, a state read back capped). */
  askCount(count: number): void {
    if (this._asked.count !== count) this._asked = { ...this._asked, count };
  }

  /** A queued call failed: the caller sees the backend's parameters again. */
  forgetAsks(): void {
    this._asked = { ...this._applied };
  }

  /** A rung was created holding `p` (before the log is replayed into it). */
  rungHolds(p: FlockParams): void {
    this._applied = p;
  }

  /** A step() call starts: its steps stay out of snapshots until `endStepCall`. */
  beginStepCall(): void {
    this._stepCalls++;
  }

  /** The step() call begun last ended (done, failed or cut short by dispose()). */
  endStepCall(): void {
    this._stepCalls--;
  }

  /** The state at the last snapshot, its parameters and time. */
  get snapshot(): Snapshot {
    return this._snapshot;
  }

  /** Entries logged since the snapshot. */
  get length(): number {
    return this._log.length;
  }

  /** Steps logged since the snapshot: what a loss now would replay. */
  get loggedSteps(): number {
    return this._log.reduce((n, e) => n + ('steps' in e ? e.steps : 0), 0);
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
    this._applied = p;
    this._log.push({ params: p });
  }

  /** A whole state into `b` (with its params) at simulated time `time`, which becomes the snapshot. */
  setState(b: Backend, s: FlockState, p: FlockParams, time = 0): void {
    b.setParams(p);
    b.setState(s, time);
    this._applied = p;
    this.restart(s, p, time);
  }

  /** Where the log is now, to adopt a state read from `b` (or the snapshot's time without one). */
  markBeforeRead(b: Backend | null): LogMark {
    return {
      time: b?.time ?? this._snapshot.time,
      gen: this._generation,
      at: this._logBase + this._log.length,
      params: this._applied,
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
    if (this._readingSnapshot || this._stepCalls > 0 || this._log.length === 0) return;
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
   * Gives the log since the snapshot to `b`, which holds `snap`: the snapshot, or the snapshot
   * capped to fewer boids for that rung (then the capped one is the snapshot from now on, and
   * the logged parameters take its count). Submits REPLAY_CHUNK steps, then lets the page run.
   * @returns the steps replayed (fewer when dispose() came meanwhile).
   */
  async replay(b: Backend, snap: Snapshot): Promise<number> {
    const count = snap.state.count;
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
    this._applied = applied;
    if (count < this._snapshot.state.count) {
      this._snapshot = snap;
      this._log = this._log.map((e) => ('steps' in e ? e : { params: { ...e.params, count } }));
    }
    return steps;
  }

  /** Forgets the log (dispose()). */
  clear(): void {
    this._log = [];
  }
}
