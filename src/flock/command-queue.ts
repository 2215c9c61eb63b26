/**
 * The command queue: every call that works on the backend runs after the one before, in call
 * order, on the backend that is up when its turn comes (while a loss is recovered, queued calls
 * wait and then run on the restored backend or the next rung).
 */
import { isDisposed } from './errors';

/** What the queue needs from the flock. */
export interface QueueHooks<B> {
  /** The backend once it is up (waits while a loss is recovered). @throws when disposed or no rung runs. */
  backendUp(): Promise<B>;
  /** The queue ran dry after explicit work (the flock snapshots the state while the page is idle). */
  idle(): void;
  /** A call made with `call` failed for a reason of its own (not cut short): report it. */
  failed(error: unknown): void;
}

/**
 * Calls that coalesce (call `coalesce`): a burst of them queued one after another runs once,
 * with their data merged in call order (issue 21: a storm of setParams is one backend change).
 */
export interface Coalescing<B, D> {
  /** `queued` and the call after it as one call (the later one's fields win). */
  merge(queued: D, next: D): D;
  /** Runs the merged call on the backend that is up. */
  run(b: B, data: D): void | Promise<void>;
}

/** A coalescing call queued and not started: the data merged so far, the promise of its run. */
interface OpenCall<B> {
  kind: Coalescing<B, unknown>;
  data: unknown;
  promise: Promise<void>;
}

export class CommandQueue<B> {
  /** The queue's tail: the next call runs after it. */
  private _tail: Promise<unknown> = Promise.resolve();
  private _pending = 0;
  /** The call queued last when it coalesces and has not started: the next one of its kind joins it. */
  private _open: OpenCall<B> | null = null;

  constructor(private readonly _hooks: QueueHooks<B>) {}

  /** Calls queued and not finished yet. */
  get pending(): number {
    return this._pending;
  }

  /** Runs `op` on the backend that is up, after every call queued before, in order. */
  run<T>(op: (b: B) => T | Promise<T>): Promise<T> {
    this._open = null; // a call queued after a burst ends it: the order of calls holds
    this._pending++;
    const run = this._tail.then(async () => op(await this._hooks.backendUp()));
    this._tail = run
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this._pending--;
        if (this._pending === 0) this._hooks.idle();
      });
    return run;
  }

  /**
   * Runs a call the caller need not wait for: the promise is returned (it rejects with the error
   * when the call fails), and every failure but dispose() is also reported through `failed`, so
   * fire-and-forget callers (the element, the GUI) see it: a call a loss cut short too.
   * @param undo runs first when the call fails (before the report), whatever failed: the call on
   *   the backend, or waiting for one (every rung failed).
   */
  call(op: (b: B) => void | Promise<void>, undo?: () => void): Promise<void> {
    const p = this.run(op);
    p.catch((e: unknown) => {
      if (isDisposed(e)) return;
      undo?.();
      this._hooks.failed(e);
    });
    return p;
  }

  /**
   * A call() that coalesces: when the call queued last is of the same `kind` and has not started
   * (it waits behind others, or for a recovery), `data` merges into it and its promise is
   * returned; so a burst queued behind other work runs once, with every caller's promise settled
   * by that one run (resolved once it is applied, rejected as it is).
   * @param undo as for call(): runs when the merged call fails.
   */
  coalesce<D>(kind: Coalescing<B, D>, data: D, undo?: () => void): Promise<void> {
    const open = this._open;
    if (open?.kind === kind) {
      open.data = kind.merge(open.data as D, data);
      return open.promise;
    }
    const entry: OpenCall<B> = {
      kind: kind as Coalescing<B, unknown>,
      data,
      promise: Promise.resolve(),
    };
    entry.promise = this.call((b) => {
      if (this._open === entry) this._open = null; // started: later calls queue after it
      return kind.run(b, entry.data as D);
    }, undo);
    this._open = entry;
    return entry.promise;
  }
}
