/**
 * Step timing for the frame loop: with GPU timers the backend's per-pass times are read every
 * frame; without them, now and then (every TIMING_INTERVAL_S) the CPU clock runs from a step's
 * submission to a completed wait for the device. Either cost goes to the FramePacer (how many
 * steps fit a frame) and to stats.
 */
import type { Backend } from '../backend';
import { FlockError } from '../core/errors';
import type { FramePacer } from '../core/frame-clock';
import type { Epoch } from './epoch';
import type { Journal } from './journal';
import type { FlockStats } from './options';

/** Seconds between CPU-clock step timings when no GPU timer exists. */
const TIMING_INTERVAL_S = 1;

export interface StepTimerHooks {
  /** Whether `b` is still the live backend (a measurement of a lost one is dropped). */
  isCurrent(b: Backend): boolean;
  /** Reports an error of a timing read that was not cut short by a loss or dispose(). */
  failed(error: unknown): void;
  /** A clock in milliseconds. */
  nowMs(): number;
}

export type StepStats = Pick<FlockStats, 'timing' | 'passes' | 'resolutionMs' | 'stepMs'>;

export class StepTimer {
  private _timedAt = 0;
  private _reading = false;

  constructor(
    private readonly _journal: Journal,
    private readonly _epoch: Epoch,
    private readonly _pacer: FramePacer,
    private readonly _stats: StepStats,
    private readonly _hooks: StepTimerHooks,
  ) {}

  /** True while a CPU-clock timing read is in flight. */
  get reading(): boolean {
    return this._reading;
  }

  /** Another count or dimension costs differently: measure again before taking more steps. */
  forgetStepCost(): void {
    this._pacer.forgetStepCost();
    this._timedAt = 0;
  }

  /**
   * Takes `n` live steps (the frame loop's: Backend.step) on `b` through the journal at `now`
   * seconds, timing them now and then.
   */
  step(b: Backend, n: number, now: number): void {
    const stats = this._stats;
    const t = b.timings();
    if (t.timing === 'gpu') {
      this._journal.step(b, n, true);
      stats.timing = 'gpu';
      stats.passes = { ...t.passes };
      stats.resolutionMs = t.resolutionMs ?? null;
      const p = t.passes;
      stats.stepMs =
        (p.key ?? 0) + (p.sort ?? 0) + (p.cellTable ?? 0) + (p.reorder ?? 0) + (p.steer ?? 0);
      this._pacer.reportStepCost(stats.stepMs / 1000);
      return;
    }
    if (this._reading || now - this._timedAt < TIMING_INTERVAL_S) {
      this._journal.step(b, n, true);
      return;
    }
    this._reading = true;
    this._timedAt = now;
    // The step is submitted now, in order with everything else; the clock runs from its
    // submission to a completed wait for the device (work of the previous frame may still be in
    // flight, so this is an upper bound).
    const t0 = this._hooks.nowMs();
    this._journal.step(b, n, true);
    const sync = b.sync ? b.sync() : b.readState().then(() => undefined);
    this._epoch
      .guard(sync)
      .then(() => {
        if (!this._hooks.isCurrent(b)) return;
        stats.stepMs = (this._hooks.nowMs() - t0) / n;
        this._pacer.reportStepCost(stats.stepMs / 1000);
        stats.timing = 'cpu-wait';
        stats.passes = { ...b.timings().passes };
      })
      .catch((e: unknown) => {
        // A read cut by a loss or by dispose() is not an error of its own.
        if (this._hooks.isCurrent(b) && !b.isLost?.() && !(e instanceof FlockError)) {
          this._hooks.failed(e);
        }
      })
      .finally(() => {
        this._reading = false;
      });
  }
}
