/**
 * The epoch: a counter bumped at every context or device loss and at dispose(). Work started in
 * an older epoch was cut short; `guard` turns "cut short" into a prompt rejection, so no promise
 * of the flock waits on a device that is gone.
 */
import { disposedError, lostError } from './run-errors';

export class Epoch {
  private _value = 0;
  private _disposed = false;
  private _signal!: Promise<void>;
  private _fire!: () => void;

  constructor() {
    this._newSignal();
  }

  /** The current epoch: compare a saved value with it to see whether a loss or dispose() came since. */
  get value(): number {
    return this._value;
  }

  /** True once dispose() ended the last epoch. */
  get disposed(): boolean {
    return this._disposed;
  }

  /** Resolves when the current epoch ends (a loss or dispose()). */
  get ended(): Promise<void> {
    return this._signal;
  }

  /** Ends the current epoch (a loss): everything guarded in it rejects. */
  bump(): void {
    this._value++;
    this._fire();
    this._newSignal();
  }

  /** Ends the last epoch (dispose()): everything guarded rejects with 'disposed'; idempotent. */
  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this.bump();
  }

  /** `p`, or a FlockError on 'flock' as soon as the epoch it was started in ends (so nothing hangs). */
  guard<T>(p: Promise<T>): Promise<T> {
    p.catch(() => undefined);
    const epoch = this._value;
    const cut = this._signal.then((): never => {
      throw this._disposed ? disposedError() : lostError(`the backend was lost (epoch ${epoch})`);
    });
    cut.catch(() => undefined);
    return Promise.race([p, cut]);
  }

  private _newSignal(): void {
    this._signal = new Promise((resolve) => (this._fire = resolve));
  }
}

/** Resolves after the page has had a turn (a message task: not clamped like setTimeout). */
export function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
