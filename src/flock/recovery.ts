/**
 * Recovery: what happens when a context or device is lost, decided here and nowhere else.
 * Backends only report (BackendInit.onLost / onRestored / isLost(); the WebGL rungs rebuild their
 * own GL objects when the context comes back, src/webgl2/shared-context.ts hands the shared
 * context's events to each of them); this file decides:
 *
 * 1. loss: the epoch ends (work guarded in it rejects, queued calls wait), and for a WebGL rung
 *    'contextlost' fires and a restore is waited for, at most restoreWaitMs;
 * 2. snapshot: the journal's snapshot, capped to the rung's count limit when it holds fewer
 *    (the cpu rung's CPU_MAX_COUNT, a GPU device's limit learnt when it refused the count);
 * 3. replay: the snapshot and the journal's log since it given to the restored context
 *    ('contextrestored') or to the new rung;
 * 4. fallback: a lost WebGPU device, a context not restored in time or a replay that failed
 *    moves to the next rung of the ladder that runs here ('fallback'; `fallbackReasons` says why).
 *
 * The same ladder walk (the first rung of an order that runs, started from the journal) starts
 * the flock under backend 'auto'. Reads a loss cuts short are done again on the recovered backend
 * (readSettled); calls wait for the recovery (backendUp).
 */
import type { Backend, BackendKind } from '../backend';
import { BACKEND_LADDER, CPU_MAX_COUNT } from '../backend';
import { FlockError, describeValue } from '../core/errors';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import { BackendHost, type BackendProvider, type HostOptions } from './backend-host';
import type { Epoch } from './epoch';
import { disposedError, lostError, messageOf, safeDispose } from './run-errors';
import type { Journal, Snapshot } from './journal';
import type { BackendChoice, RecoveryDetail } from './options';
import type { FlockSurface } from './surface';

/**
 * Milliseconds a lost WebGL context may take to be restored, at least; after that the flock falls
 * back to the next rung of the ladder with its state (the 'fallback' event says so).
 */
export const RESTORE_TIMEOUT_MS = 3000;
/**
 * The wait for a restore is also at least this many times the time the lost rung took to start:
 * a restore rebuilds the same context, so a device (or a loaded machine) that started it slowly
 * restores it slowly too, and a fixed timeout would fall back only because the machine is busy.
 */
const RESTORE_PER_START = 3;
/** Milliseconds a failed read waits for its backend to report a loss before it counts as a failure. */
const LOSS_NOTICE_MS = 500;
/** Tries of one read cut short by losses (readSettled). */
const READ_TRIES = 3;
/** Seconds between state snapshots while the frame loop runs (explicit work is snapshotted when the queue is idle). */
const SNAPSHOT_INTERVAL_S = 1;

/** Resolves after `ms` milliseconds. */
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What recovery needs from the flock. */
export interface RecoveryHooks {
  /** Dispatches an event (none after dispose()). */
  emit(type: 'contextlost' | 'contextrestored' | 'fallback', detail: unknown): void;
  /** Reports an error the caller cannot catch ('error' event). */
  emitError(error: unknown): void;
  /** A rung came up (at creation through the ladder, after a loss): the frame pacer starts afresh. */
  rungUp(): void;
  /** A recovery ended (well or not): the frame loop goes on. */
  recoveryEnded(): void;
  /** Sizes the canvas's drawing buffer to at most `limit` pixels per side (before a rung is created). */
  fitCanvas(limit: number): void;
}

/**
 * The journal's snapshot as rung `kind` takes it: at most `limit` boids (the cpu rung:
 * CPU_MAX_COUNT; a GPU rung whose device holds fewer than the state has: its limit, learnt when
 * it refused them).
 * @returns the snapshot, and the note for fallbackReasons[kind] when it was capped.
 */
export function snapshotFor(
  snapshot: Snapshot,
  kind: BackendKind,
  limit = kind === 'cpu' ? CPU_MAX_COUNT : Infinity,
): { snapshot: Snapshot; capped: string | null } {
  const { state, params, time } = snapshot;
  if (state.count <= limit) return { snapshot, capped: null };
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

export class Recovery {
  /** The backend up now and how rungs are made; its backends' loss reports come here. */
  readonly host: BackendHost;
  /** A lost WebGL backend waiting for 'webglcontextrestored'. */
  private _lostBackend: Backend | null = null;
  private _restoreWaiter: ((restored: boolean) => void) | null = null;
  /** Set while a loss is recovered (restore or fallback); queued calls wait for it. */
  private _recovery: Promise<void> | null = null;
  /** Milliseconds the restore being waited for may take. */
  private _restoreWaitMs = 0;
  /** When the frame loop last refreshed the snapshot, seconds. */
  private _snapshotAt = 0;
  private readonly _host: BackendHost;

  constructor(
    backends: { provider: BackendProvider; options: HostOptions },
    private readonly _journal: Journal,
    private readonly _epoch: Epoch,
    private readonly _surface: FlockSurface,
    private readonly _hooks: RecoveryHooks,
  ) {
    this._host = this.host = new BackendHost(
      backends.provider,
      backends.options,
      _journal,
      _epoch,
      _surface,
      {
        emitError: (e) => _hooks.emitError(e),
        fitCanvas: (limit) => _hooks.fitCanvas(limit),
        lost: (b, kind, reason) => this.lost(b, kind, reason),
        restored: (b) => this.restored(b),
      },
    );
  }

  /** True when calls run at once on a live backend (else they wait for the rung being started). */
  get upNow(): boolean {
    return this._host.backend !== null && !this._recovery;
  }
  /** The backend when calls run on it at once now; null while none is up or a loss is recovered. */
  get live(): Backend | null {
    return this._recovery ? null : this._host.backend;
  }
  /** True while a loss is recovered. */
  get recovering(): boolean {
    return this._recovery !== null;
  }

  /**
   * Starts the first backend with `state`: `choice` exactly, or the first rung of the ladder that
   * runs. @throws FlockError on 'backend' when an explicit backend (or every rung) cannot run, on
   * 'count' when the cpu backend cannot hold the state.
   */
  async start(choice: BackendChoice, state: FlockState, params: FlockParams): Promise<void> {
    this._journal.restart(state, params);
    if (choice !== 'auto') return this._host.startExplicit(choice, state, params);
    const plan = await this._host.provider.plan(this._host.options.disable);
    Object.assign(this._host.reasons, plan.reasons);
    await this._descend(plan.order, null);
  }

  /** The backend once it is up: waits while a loss is recovered. @throws FlockError when disposed or no rung runs. */
  async backendUp(): Promise<Backend> {
    for (;;) {
      if (this._epoch.disposed) throw disposedError();
      if (this._recovery) {
        await Promise.race([this._recovery, this._epoch.ended]);
        continue;
      }
      const b = this._host.backend;
      if (!b) {
        throw new FlockError(
          'backend',
          'none',
          'a running backend',
          `every rung failed: ${describeValue(this._host.reasons)}`,
        );
      }
      if (b.isLost?.()) {
        this.lost(b, b.kind, b.kind === 'webgpu' ? 'WebGPU device lost' : 'WebGL context lost');
        continue;
      }
      return b;
    }
  }

  /** Runs `read` on `b`; when a loss cuts it, again on the recovered backend (3 tries). Always settles. */
  async readSettled<T>(b: Backend, read: (b: Backend) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const epoch = this._epoch.value;
      let out: T;
      try {
        out = await this._epoch.guard(read(b));
      } catch (e) {
        if (this._epoch.disposed) throw disposedError();
        this.noticeLoss(b);
        if (this._epoch.value === epoch && !(e instanceof FlockError)) {
          // A read on a device being lost can fail before the loss is reported (a destroyed
          // WebGPU device rejects mapAsync a moment before device.lost resolves): give the
          // report that moment, then retry on the recovered backend (issue 21).
          await Promise.race([this._epoch.ended, delay(LOSS_NOTICE_MS)]);
          if (this._epoch.disposed) throw disposedError();
          this.noticeLoss(b);
        }
        if (this._epoch.value === epoch) {
          throw e instanceof FlockError
            ? e
            : lostError(`the ${b.kind} read failed: ${messageOf(e)}`);
        }
        if (attempt >= READ_TRIES) throw lostError(`lost ${attempt} times during one read`);
        b = await this.backendUp();
        continue;
      }
      this.noticeLoss(b);
      if (this._epoch.value === epoch) return out;
      if (this._epoch.disposed) throw disposedError();
      if (attempt >= READ_TRIES) throw lostError(`lost ${attempt} times during one read`);
      b = await this.backendUp();
    }
  }

  /** True when the frame loop may step and draw: a backend is up (a loss it reports starts recovery). */
  readyForFrame(): boolean {
    const b = this._host.backend;
    if (!b || this._recovery) return false;
    if (b.isLost?.()) {
      this.lost(b, b.kind, 'context lost');
      return false;
    }
    return true;
  }

  /** Starts recovering when `b` says it is lost before its event came (WebGL knows at once). */
  noticeLoss(b: Backend): void {
    if (b.isLost?.()) this.lost(b, b.kind, 'context lost');
  }

  /**
   * `b` lost its context or device (its report, or isLost() found it): ends the epoch, and
   * recovers (restore, or the next rung) in the background; queued calls wait for it.
   */
  lost(b: Backend, kind: BackendKind, reason: string): void {
    if (this._epoch.disposed) return;
    if (b === this._lostBackend) {
      // Reported again while lost (the event after an isContextLost() check found it), or the
      // restored context could not be rebuilt: then stop waiting and fall back now.
      if (this._restoreWaiter && !b.isLost?.()) this._restoreWaiter(false);
      return;
    }
    if (b !== this._host.backend) return;
    this._epoch.bump();
    this._host.setBackend(null, kind);
    let restored: Promise<boolean> | null = null;
    if (kind === 'webgl2' || kind === 'webgl2-tf') {
      this._lostBackend = b;
      restored = new Promise<boolean>((resolve) => {
        this._restoreWaitMs = Math.max(
          this._host.options.restoreTimeoutMs,
          Math.round(RESTORE_PER_START * this._host.startMs),
        );
        const timer = setTimeout(() => resolve(false), this._restoreWaitMs);
        this._restoreWaiter = (ok) => {
          clearTimeout(timer);
          resolve(ok);
        };
      });
      this._hooks.emit('contextlost', { reason });
    }
    const recovery = this._recover(b, kind, reason, restored)
      .catch((e: unknown) => {
        this._host.setBackend(null);
        this._hooks.emitError(e);
      })
      .finally(() => {
        if (this._recovery === recovery) this._recovery = null;
        this._hooks.recoveryEnded();
      });
    this._recovery = recovery;
  }

  /** Backend `b` reports its context restored and rebuilt: the restore waited for goes on. */
  restored(b: Backend): void {
    if (this._epoch.disposed) return;
    if (b === this._lostBackend && this._restoreWaiter) this._restoreWaiter(true);
  }

  /**
   * Makes the state of `b` the journal's snapshot when `b` is the backend up now (read
   * asynchronously), which keeps a replay short. @param now seconds: the frame loop's time, then
   * at most once a SNAPSHOT_INTERVAL_S; absent (the queue ran dry after explicit work): now.
   */
  refreshSnapshot(b: Backend | null, now?: number): void {
    if (now !== undefined) {
      if (now - this._snapshotAt < SNAPSHOT_INTERVAL_S) return;
      this._snapshotAt = now;
    }
    if (!b || this._epoch.disposed || !this.upNow || b !== this._host.backend) return;
    this._journal.refreshSnapshot(b, () => b === this._host.backend);
  }

  /** dispose(): a restore being waited for ends, and every backend is freed. */
  dispose(): void {
    this._restoreWaiter?.(false);
    this._restoreWaiter = null;
    safeDispose(this._lostBackend);
    this._lostBackend = null;
    this._host.dispose();
  }

  /** Loss -> (restore + replay) or (fallback: the rungs below that run, from the snapshot). */
  private async _recover(
    dead: Backend,
    kind: BackendKind,
    reason: string,
    restored: Promise<boolean> | null,
  ): Promise<void> {
    if (restored) {
      const ok = await restored;
      this._restoreWaiter = null;
      if (this._epoch.disposed) return;
      if (ok) {
        try {
          const snap = this._journal.snapshot;
          dead.setParams(snap.params);
          dead.setState(snap.state, snap.time);
          const replayed = await this._journal.replay(dead, snap);
          if (this._epoch.disposed) return;
          this._lostBackend = null;
          this._host.setBackend(dead);
          this._hooks.rungUp();
          const detail: RecoveryDetail = {
            count: snap.state.count,
            replayedSteps: replayed,
            lostSteps: 0,
          };
          this._hooks.emit('contextrestored', detail);
          return;
        } catch (e) {
          reason = `context restored, but replaying the state failed: ${messageOf(e)}`;
        }
      } else {
        reason = `${reason}; not restored within ${this._restoreWaitMs / 1000} s`;
      }
      this._lostBackend = null;
    }
    safeDispose(dead);
    if (this._epoch.disposed) return;
    const reasons = this._host.reasons;
    reasons[kind] = `lost at run time: ${reason}`;
    const below = BACKEND_LADDER.slice(BACKEND_LADDER.indexOf(kind) + 1);
    const order: BackendKind[] = [];
    for (const k of below) {
      const probe = await this._host.provider.probe(k, this._host.options.disable);
      if (probe.ok) order.push(k);
      else reasons[k] ??= probe.reason ?? 'unavailable';
    }
    await this._descend(order, kind);
  }

  /** Builds the first rung of `order` that works (after a loss of `from`, or at creation) and replays the journal into it. */
  private async _descend(order: BackendKind[], from: BackendKind | null): Promise<void> {
    const disposed = () => this._epoch.disposed;
    const host = this._host;
    const reasons = host.reasons;
    let firstTry = true;
    for (const kind of order) {
      if (disposed()) return;
      // planLadder leaves the rungs below the first usable one unprobed (cached once probed).
      const probe = await host.provider.probe(kind, host.options.disable);
      if (disposed()) return;
      if (!probe.ok) {
        reasons[kind] ??= probe.reason ?? 'unavailable';
        continue;
      }
      let { snapshot: snap, capped } = snapshotFor(this._journal.snapshot, kind);
      if (capped) reasons[kind] = capped;
      if (!firstTry || from !== null) this._surface.nextCanvas();
      const onCallerCanvas = this._surface.onCallerCanvas;
      const first = firstTry;
      firstTry = false;
      host.setBackend(null, kind);
      let b: Backend | null = null;
      for (let attempt = 0; attempt < 2 && !b; attempt++) {
        try {
          b = await host.create(kind, snap.state, snap.params);
        } catch (e) {
          if (e instanceof FlockError && e.field === 'target' && onCallerCanvas && first && !from) {
            host.setBackend(null);
            throw e;
          }
          reasons[kind] = messageOf(e);
          // More boids than this rung's device holds: the rung at its limit beats a lower rung
          // (auto with 5,000,000 boids under phone limits: webgl2 at 4,194,304, not cpu at 4,096).
          const limit = e instanceof FlockError && e.field === 'count' ? e.limit : undefined;
          if (attempt > 0 || limit === undefined || !(limit >= 1 && limit < snap.state.count)) {
            break;
          }
          ({ snapshot: snap, capped } = snapshotFor(this._journal.snapshot, kind, limit));
          reasons[kind] = capped!;
          if (disposed()) return;
        }
      }
      if (!b) continue;
      if (disposed()) {
        safeDispose(b);
        return;
      }
      let replayed: number;
      try {
        replayed = await this._journal.replay(b, snap);
      } catch (e) {
        safeDispose(b);
        if (disposed()) return;
        reasons[kind] = `replaying the state failed: ${messageOf(e)}`;
        continue;
      }
      if (disposed()) {
        safeDispose(b);
        return;
      }
      host.setBackend(b);
      // The caller sees the count the rung holds (the cpu rung, a device limit may cap it).
      this._journal.askCount(snap.state.count);
      this._hooks.rungUp();
      // Keep only the reasons of rungs above the one taken (and the cpu count cap).
      const at = BACKEND_LADDER.indexOf(kind);
      for (const k of BACKEND_LADDER) {
        if (BACKEND_LADDER.indexOf(k) > at) delete reasons[k];
      }
      if (from !== null) {
        const detail: RecoveryDetail & { from: BackendKind; to: BackendKind; reason?: string } = {
          from,
          to: kind,
          reason: reasons[from],
          count: snap.state.count,
          replayedSteps: replayed,
          lostSteps: 0,
        };
        this._hooks.emit('fallback', detail);
      }
      return;
    }
    host.setBackend(null);
    throw new FlockError(
      'backend',
      from ?? 'auto',
      'a device with WebGPU, WebGL2 or a CPU fallback',
      describeValue(reasons),
    );
  }
}
