/**
 * The backend host: which backend is up, the `auto` ladder that picks it, and what happens when a
 * context or device is lost: a lost WebGL context waits RESTORE_TIMEOUT_MS to be restored, then
 * the journal's snapshot + log are replayed into it; otherwise (a lost WebGPU device, a context
 * not restored in time, a replay that failed) the next rung of the ladder that runs here is
 * started with them. Why each rung was skipped or left is kept in `fallbackReasons`.
 */
import type { Backend, BackendInit, BackendKind } from '../backend';
import { BACKEND_LADDER, CPU_MAX_COUNT } from '../backend';
import {
  backendEntry,
  planLadder,
  probeBackend,
  type BackendEntry,
  type ProbeResult,
} from '../backends';
import { FlockError, describeValue } from '../core/errors';
import type { DeviceLimits } from '../core/limits';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import type { Epoch } from './epoch';
import { disposedError, lostError, messageOf, safeDispose } from './errors';
import type { Journal } from './journal';
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

/** Resolves after `ms` milliseconds. */
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The drawing-buffer side used before a backend says its own limit (WebGPU's default limit). */
export const DEFAULT_MAX_CANVAS = 8192;

/** Where backends come from: the registry of src/backends.ts, or a test's fake. */
export interface BackendProvider {
  /** The rungs `auto` tries, in order, and why the others were skipped (planLadder). */
  plan(
    disable: ReadonlySet<string>,
  ): Promise<{ order: BackendKind[]; reasons: Partial<Record<BackendKind, string>> }>;
  /** Whether rung `kind` runs here (cached). */
  probe(kind: BackendKind, disable: ReadonlySet<string>): Promise<ProbeResult>;
  /** The factory of rung `kind`, or undefined when this build has none. */
  entry(kind: BackendKind): Pick<BackendEntry, 'create'> | undefined;
}

/** The backends registered in src/backends.ts (src/builtin-backends.ts registers the ladder). */
export const REGISTERED_BACKENDS: BackendProvider = {
  plan: (disable) => planLadder(disable),
  probe: probeBackend,
  entry: backendEntry,
};

/** What the host needs from the flock. */
export interface HostHooks {
  /** Dispatches an event (none after dispose()). */
  emit(type: 'contextlost' | 'contextrestored' | 'fallback', detail: unknown): void;
  /** Reports an error the caller cannot catch ('error' event). */
  emitError(error: unknown): void;
  /** Sizes the canvas's drawing buffer to at most `limit` pixels per side. */
  fitCanvas(limit: number): void;
  /**
   * A rung came up after a loss (or at creation through the ladder): the frame pacer starts
   * afresh. @param count the boids the new rung holds (the cpu rung may cap them), or null after
   *   a restore into the same context (the count is the one it had).
   */
  backendUp(count: number | null): void;
  /** A recovery ended (well or not): the frame loop goes on. */
  recoveryEnded(): void;
}

export interface HostOptions {
  disable: ReadonlySet<string>;
  limits: DeviceLimits | null;
  /** Milliseconds a lost WebGL context may take to come back (RESTORE_TIMEOUT_MS). */
  restoreTimeoutMs: number;
}

/** A backend's test hooks: neighbour counts, sorted keys, sort passes, program variants. */
export type DebugHooks = Pick<
  Backend,
  'debugNeighborCounts' | 'debugSortedKeys' | 'sortPasses' | 'variants'
>;

export class BackendHost {
  private _backend: Backend | null = null;
  /** The rung being started (at creation or in a fallback), null when none is. */
  private _starting: BackendKind | null = null;
  /** A lost WebGL backend waiting for 'webglcontextrestored'. */
  private _lostBackend: Backend | null = null;
  private _restoreWaiter: ((restored: boolean) => void) | null = null;
  /** Set while a loss is recovered (restore or fallback); queued calls wait for it. */
  private _recovery: Promise<void> | null = null;
  private _fallbackReasons: Partial<Record<BackendKind, string>> = {};
  /** The chosen rung's probe description (renderer / adapter), when the backend gives none. */
  private _probeInfo = '';
  private readonly _errorMessages = new Set<string>();
  /** Milliseconds the backend in use took to be created (the machine's measured speed). */
  private _startMs = 0;
  /** Milliseconds the restore being waited for may take (restoreWaitMs()). */
  private _restoreWaitMs = 0;

  constructor(
    private readonly _provider: BackendProvider,
    private readonly _options: HostOptions,
    private readonly _journal: Journal,
    private readonly _epoch: Epoch,
    private readonly _surface: FlockSurface,
    private readonly _hooks: HostHooks,
  ) {}

  /** The live backend, or null while none is up (between rungs, waiting for a restore). */
  get backend(): Backend | null {
    return this._backend;
  }
  /** The rung in use, or the one being started; 'none' between rungs and when every rung failed. */
  get kind(): BackendKind | 'none' {
    return this._backend?.kind ?? this._starting ?? 'none';
  }
  /** True when calls run at once on a live backend (else they wait for the rung being started). */
  get upNow(): boolean {
    return this._backend !== null && !this._recovery;
  }
  /** True while a loss is recovered. */
  get recovering(): boolean {
    return this._recovery !== null;
  }
  get fallbackReasons(): Partial<Record<BackendKind, string>> {
    return { ...this._fallbackReasons };
  }
  get probeInfo(): string {
    return this._probeInfo;
  }

  /** How the backend draws (Flock.drawMode): 'instanced' where it has no choice. */
  get drawMode(): 'instanced' | 'vertex-id' {
    return (
      (this._backend as { drawMode?: 'instanced' | 'vertex-id' } | null)?.drawMode ?? 'instanced'
    );
  }
  /** @throws FlockError when the value is neither, or the backend cannot draw that way. */
  set drawMode(mode: 'instanced' | 'vertex-id') {
    const b = this._backend as { drawMode?: string; drawModes?: readonly string[] } | null;
    const allowed = b?.drawModes ?? ['instanced', 'vertex-id'];
    if (!allowed.includes(mode)) {
      throw new FlockError('drawMode', mode, allowed.map((m) => `"${m}"`).join(' or '));
    }
    if (b && 'drawMode' in b) b.drawMode = mode;
  }

  /** The backend's test hooks, or null without one. */
  debugHooks(): DebugHooks | null {
    const b = this._backend;
    if (!b) return null;
    return {
      debugNeighborCounts: b.debugNeighborCounts?.bind(b),
      debugSortedKeys: b.debugSortedKeys?.bind(b),
      sortPasses: b.sortPasses ?? null,
      variants: b.variants,
    };
  }

  /**
   * Starts the first backend with `state`: `choice` exactly, or the first rung of the ladder that
   * runs. @throws FlockError on 'backend' when an explicit backend (or every rung) cannot run, on
   * 'count' when the cpu backend cannot hold the state.
   */
  async start(choice: BackendChoice, state: FlockState, params: FlockParams): Promise<void> {
    this._journal.restart(state, params);
    if (choice === 'auto') {
      const plan = await this._provider.plan(this._options.disable);
      this._fallbackReasons = plan.reasons;
      await this._descend(plan.order, null);
      return;
    }
    const probe = await this._provider.probe(choice, this._options.disable);
    if (!probe.ok) {
      throw new FlockError('backend', choice, 'a backend this device can run', probe.reason);
    }
    if (choice === 'cpu' && params.count > CPU_MAX_COUNT) {
      throw new FlockError(
        'count',
        params.count,
        `an integer from 1 to ${CPU_MAX_COUNT} (the cpu backend's cap)`,
      );
    }
    this._starting = choice;
    try {
      this._backend = await this._create(choice, state, params);
    } finally {
      this._starting = null;
    }
  }

  /** The backend once it is up: waits while a loss is recovered. @throws FlockError when disposed or no rung runs. */
  async backendUp(): Promise<Backend> {
    for (;;) {
      if (this._epoch.disposed) throw disposedError();
      if (this._recovery) {
        await Promise.race([this._recovery, this._epoch.ended]);
        continue;
      }
      const b = this._backend;
      if (!b) {
        throw new FlockError(
          'backend',
          'none',
          'a running backend',
          `every rung failed: ${describeValue(this._fallbackReasons)}`,
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
    for (let attempt = 0; ; attempt++) {
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
        if (attempt >= 2) throw lostError(`lost ${attempt + 1} times during one read`);
        b = await this.backendUp();
        continue;
      }
      this.noticeLoss(b);
      if (this._epoch.value === epoch) return out;
      if (this._epoch.disposed) throw disposedError();
      if (attempt >= 2) throw lostError(`lost ${attempt + 1} times during one read`);
      b = await this.backendUp();
    }
  }

  /** True when the frame loop may step and draw: a backend is up (a loss it reports starts recovery). */
  readyForFrame(): boolean {
    const b = this._backend;
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
   * `b` lost its context or device: cuts a step() call in flight short, ends the epoch, and
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
    if (b !== this._backend) return;
    this._epoch.bump();
    this._backend = null;
    this._starting = kind;
    let restored: Promise<boolean> | null = null;
    if (kind === 'webgl2' || kind === 'webgl2-tf') {
      this._lostBackend = b;
      restored = new Promise<boolean>((resolve) => {
        this._restoreWaitMs = Math.max(
          this._options.restoreTimeoutMs,
          Math.round(RESTORE_PER_START * this._startMs),
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
        this._backend = null;
        this._starting = null;
        this._hooks.emitError(e);
      })
      .finally(() => {
        if (this._recovery === recovery) this._recovery = null;
        this._hooks.recoveryEnded();
      });
    this._recovery = recovery;
  }

  /** Frees every backend (dispose()); a restore being waited for ends. */
  dispose(): void {
    this._restoreWaiter?.(false);
    this._restoreWaiter = null;
    safeDispose(this._backend);
    safeDispose(this._lostBackend);
    this._backend = null;
    this._lostBackend = null;
    this._starting = null;
  }

  private _restored(b: Backend): void {
    if (this._epoch.disposed) return;
    if (b === this._lostBackend && this._restoreWaiter) this._restoreWaiter(true);
  }

  /** A non-fatal backend error (e.g. a WebGPU validation error): reported once per message, never a loss. */
  private _backendError(b: Backend, error: unknown): void {
    if (this._epoch.disposed || b !== this._backend) return;
    const msg = messageOf(error);
    if (this._errorMessages.has(msg)) return;
    this._errorMessages.add(msg);
    this._hooks.emitError(error);
  }

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
          const { state, params, time } = this._journal.snapshot;
          dead.setParams(params);
          dead.setState(state, time);
          const replayed = await this._journal.replay(dead, state.count);
          if (this._epoch.disposed) return;
          this._lostBackend = null;
          this._backend = dead;
          this._starting = null;
          this._hooks.backendUp(null);
          const detail: RecoveryDetail = {
            count: state.count,
            replayedSteps: replayed,
            lostSteps: this._journal.takeCutSteps(),
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
    this._fallbackReasons[kind] = `lost at run time: ${reason}`;
    const below = BACKEND_LADDER.slice(BACKEND_LADDER.indexOf(kind) + 1);
    const order: BackendKind[] = [];
    for (const k of below) {
      const probe = await this._provider.probe(k, this._options.disable);
      if (probe.ok) order.push(k);
      else this._fallbackReasons[k] ??= probe.reason ?? 'unavailable';
    }
    await this._descend(order, kind);
  }

  /** Builds the first rung of `order` that works (after a loss of `from`, or at creation) and replays the journal into it. */
  private async _descend(order: BackendKind[], from: BackendKind | null): Promise<void> {
    const disposed = () => this._epoch.disposed;
    let firstTry = true;
    for (const kind of order) {
      if (disposed()) return;
      // planLadder leaves the rungs below the first usable one unprobed (cached once probed).
      const probe = await this._provider.probe(kind, this._options.disable);
      if (disposed()) return;
      if (!probe.ok) {
        this._fallbackReasons[kind] ??= probe.reason ?? 'unavailable';
        continue;
      }
      let { snapshot: snap, capped } = this._journal.snapshotFor(kind);
      if (capped) this._fallbackReasons[kind] = capped;
      if (!firstTry || from !== null) this._surface.nextCanvas();
      const onCallerCanvas = this._surface.onCallerCanvas;
      const first = firstTry;
      firstTry = false;
      this._starting = kind;
      let b: Backend | null = null;
      for (let attempt = 0; attempt < 2 && !b; attempt++) {
        try {
          b = await this._create(kind, snap.state, snap.params);
        } catch (e) {
          if (e instanceof FlockError && e.field === 'target' && onCallerCanvas && first && !from) {
            this._starting = null;
            throw e;
          }
          this._fallbackReasons[kind] = messageOf(e);
          // More boids than this rung's device holds: the rung at its limit beats a lower rung
          // (auto with 5,000,000 boids under phone limits: webgl2 at 4,194,304, not cpu at 4,096).
          const limit = e instanceof FlockError && e.field === 'count' ? e.limit : undefined;
          if (attempt > 0 || limit === undefined || !(limit >= 1 && limit < snap.state.count)) {
            break;
          }
          ({ snapshot: snap, capped } = this._journal.snapshotFor(kind, limit));
          this._fallbackReasons[kind] = capped!;
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
        replayed = await this._journal.replay(b, snap.state.count);
      } catch (e) {
        safeDispose(b);
        if (disposed()) return;
        this._fallbackReasons[kind] = `replaying the state failed: ${messageOf(e)}`;
        continue;
      }
      if (disposed()) {
        safeDispose(b);
        return;
      }
      this._backend = b;
      this._starting = null;
      this._hooks.backendUp(snap.state.count);
      // Keep only the reasons of rungs above the one taken (and the cpu count cap).
      const at = BACKEND_LADDER.indexOf(kind);
      for (const k of BACKEND_LADDER) {
        if (BACKEND_LADDER.indexOf(k) > at) delete this._fallbackReasons[k];
      }
      if (from !== null) {
        const detail: RecoveryDetail & { from: BackendKind; to: BackendKind; reason?: string } = {
          from,
          to: kind,
          reason: this._fallbackReasons[from],
          count: snap.state.count,
          replayedSteps: replayed,
          lostSteps: this._journal.takeCutSteps(),
        };
        this._hooks.emit('fallback', detail);
      }
      return;
    }
    this._starting = null;
    throw new FlockError(
      'backend',
      from ?? 'auto',
      'a device with WebGPU, WebGL2 or a CPU fallback',
      describeValue(this._fallbackReasons),
    );
  }

  private async _create(
    kind: BackendKind,
    state: FlockState,
    params: FlockParams,
  ): Promise<Backend> {
    const entry = this._provider.entry(kind);
    if (!entry) throw new FlockError('backend', kind, 'a backend available in this build');
    this._hooks.fitCanvas(DEFAULT_MAX_CANVAS);
    const probe = await this._provider.probe(kind, this._options.disable);
    this._probeInfo = probe.info ?? '';
    let backend: Backend | null = null;
    const init: BackendInit = {
      canvas: this._surface.canvas,
      params,
      state,
      disable: this._options.disable,
      time: this._journal.snapshot.time,
      limits: this._options.limits,
      ownsCanvas: !this._surface.onCallerCanvas,
      shareContext: 'auto',
      onLost: (reason) => {
        if (backend) this.lost(backend, kind, reason);
      },
      onRestored: () => {
        if (backend) this._restored(backend);
      },
      onError: (error) => {
        if (backend) this._backendError(backend, error);
      },
      onDegraded: (reason) => {
        if (this._epoch.disposed) return;
        const had = this._fallbackReasons[kind];
        this._fallbackReasons[kind] = had ? `${had}; ${reason}` : reason;
      },
    };
    const t0 = performance.now();
    const b = await entry.create(init);
    this._startMs = performance.now() - t0;
    backend = b;
    // A software rasteriser draws tiny instances slowly (SwiftShader: ~500 ms for 16,384): draw
    // by vertex id there (same pixels), which also brings the first frame in sooner.
    const drawable = b as { drawMode?: string; drawModes?: readonly string[] };
    if (
      probe.software &&
      'drawMode' in drawable &&
      (drawable.drawModes ?? ['vertex-id']).includes('vertex-id')
    ) {
      drawable.drawMode = 'vertex-id';
    }
    this._journal.applied = params;
    return b;
  }
}
