/**
 * The command queue: every call that works on the backend (a Command, commands.ts) runs after
 * the one before, in call order, on the backend that is up when its turn comes (while a loss is
 * recovered, queued calls wait and then run on the restored backend or the next rung). One
 * protocol for every call (check at the call, merge, check at the turn, apply, undo and report):
 * see commands.ts. Whether a loss came between a call and its turn is decided here, once, from
 * the epoch at the call.
 */
import type { Backend } from '../backend';
import type { Command, CommandContext, Rung } from './commands';
import type { Epoch } from './epoch';
import { isDisposed } from './run-errors';
import type { Journal } from './journal';

/** What the queue needs of recovery (recovery.ts's Recovery; a test's stand-in). */
export interface QueueBackends extends Omit<CommandContext, 'epoch' | 'holdSteps'> {
  /** The backend when calls run on it at once now; null while none is up or a loss is recovered. */
  readonly live: Backend | null;
  /** The queue ran dry after explicit work: the state of `b` (the backend up) becomes the snapshot. */
  refreshSnapshot(b: Backend | null): void;
}

/** A command queued and not finished: its epoch stamp, and whether its turn has come. */
interface Entry {
  command: Command<unknown>;
  /** The epoch at the call when a backend was up then, else null (checked again at its turn). */
  stamp: number | null;
  started: boolean;
  promise: Promise<unknown>;
}

export class CommandQueue {
  /** The queue's tail: the next call runs after it. */
  private _tail: Promise<unknown> = Promise.resolve();
  private _pending = 0;
  /** The entry queued last while it has not started: a command that merges joins it. */
  private _open: Entry | null = null;
  private _heldSteps = 0;
  /** What commands are made with (commands.ts) besides the backend and the journal. */
  readonly context: CommandContext;

  /** @param failed reports a reported call that failed (not by dispose()), after its undo. */
  constructor(
    private readonly _backends: QueueBackends,
    private readonly _journal: Journal,
    private readonly _epoch: Epoch,
    private readonly _failed: (error: unknown) => void,
  ) {
    this.context = {
      epoch: _epoch,
      backendUp: () => _backends.backendUp(),
      noticeLoss: (b) => _backends.noticeLoss(b),
      readSettled: (b, read) => _backends.readSettled(b, read),
      holdSteps: (delta) => (this._heldSteps += delta),
    };
  }

  /** True while a call holds the frame loop's steps (a species change reads the state back). */
  get holdingSteps(): boolean {
    return this._heldSteps > 0;
  }

  /** Calls queued and not finished yet. */
  get pending(): number {
    return this._pending;
  }

  /**
   * Queues `command` (the protocol in commands.ts).
   * @returns a promise of its result; it rejects with what check or apply threw (and a reported
   *   call also fires 'error' through QueueHooks.failed), or with FlockError 'flock' on dispose().
   * @throws FlockError from `check` when a backend is up at the call and cannot take it; nothing
   *   is queued and what the caller sees does not change.
   */
  submit<R>(command: Command<R>): Promise<R> {
    const up = this._backends.live;
    if (up) command.check({ backend: up, fresh: true, applied: this._journal.applied });
    if (command.asks) this._journal.ask(command.asks);
    const stamp = up ? this._epoch.value : null;
    const open = this._open;
    const merged = open && !open.started ? open.command.merge?.(command) : null;
    if (open && merged) {
      open.command = merged;
      // The earlier stamp: a loss between the calls (or after them) checks the merged call again.
      open.stamp = open.stamp === null || stamp === null ? null : Math.min(open.stamp, stamp);
      return open.promise as Promise<R>;
    }
    const entry: Entry = { command, stamp, started: false, promise: Promise.resolve() };
    const run = this._tail.then(() => this._turn(entry));
    entry.promise = run;
    this._open = command.merge ? entry : null;
    this._pending++;
    this._tail = run
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this._pending--;
        // Explicit work done and nothing else asked for: snapshot it while the page is idle.
        if (this._pending === 0) this._backends.refreshSnapshot(this._backends.live);
      });
    run.catch((e: unknown) => {
      if (isDisposed(e) || this._epoch.disposed) return;
      entry.command.undo(this._journal);
      if (entry.command.reported) this._failed(e);
    });
    return run as Promise<R>;
  }

  /** An entry's turn: on the backend up now, checked again when a loss came since its call. */
  private async _turn(entry: Entry): Promise<unknown> {
    const b = await this._backends.backendUp();
    entry.started = true;
    if (this._open === entry) this._open = null; // started: later calls queue after it
    const { command, stamp } = entry;
    const rung: Rung = {
      backend: b,
      fresh: stamp !== null && stamp === this._epoch.value,
      applied: this._journal.applied,
    };
    command.check(rung);
    return command.apply(b, this._journal);
  }
}
