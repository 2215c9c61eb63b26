/**
 * The backend host: which backend is up (or which rung is being started), how a rung is created
 * (its BackendInit, whose loss and restore reports go to recovery.ts, which decides what follows),
 * why each rung was skipped or left (`fallbackReasons`), the draw mode and the test hooks.
 */
import type { Backend, BackendInit, BackendKind } from '../backend';
import { CPU_MAX_COUNT } from '../backend';
import {
  backendEntry,
  planLadder,
  probeBackend,
  type BackendEntry,
  type ProbeResult,
} from '../backend-ladder';
import { FlockError } from '../core/errors';
import type { DeviceLimits } from '../core/limits';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import type { Epoch } from './epoch';
import { messageOf, safeDispose } from './run-errors';
import type { Journal } from './journal';
import type { FlockSurface } from './surface';

/** The drawing-buffer side used before a backend says its own limit (WebGPU's default limit). */
export const DEFAULT_MAX_CANVAS = 8192;

/** Where backends come from: the registry of src/backend-ladder.ts, or a test's fake. */
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

/** The backends registered in src/backend-ladder.ts (src/builtin-backends.ts registers the ladder). */
export const REGISTERED_BACKENDS: BackendProvider = {
  plan: (disable) => planLadder(disable),
  probe: probeBackend,
  entry: backendEntry,
};

/** What the host needs from the flock. */
export interface HostHooks {
  /** Reports an error the caller cannot catch ('error' event). */
  emitError(error: unknown): void;
  /** Sizes the canvas's drawing buffer to at most `limit` pixels per side. */
  fitCanvas(limit: number): void;
  /** Backend `b` (rung `kind`) reports its context or device lost (Recovery.lost decides). */
  lost(b: Backend, kind: BackendKind, reason: string): void;
  /** Backend `b` reports its WebGL context restored and rebuilt (Recovery.restored). */
  restored(b: Backend): void;
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
  /** The rung being started (at creation, in a fallback, or waiting for a restore), null when none is. */
  private _starting: BackendKind | null = null;
  /** Why each rung above the one in use was skipped or left (recovery.ts adds to it). */
  readonly reasons: Partial<Record<BackendKind, string>> = {};
  /** The chosen rung's probe description (renderer / adapter), when the backend gives none. */
  private _probeInfo = '';
  private readonly _errorMessages = new Set<string>();
  /** Milliseconds the backend in use took to be created (the machine's measured speed). */
  private _startMs = 0;

  constructor(
    readonly provider: BackendProvider,
    readonly options: HostOptions,
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
  get fallbackReasons(): Partial<Record<BackendKind, string>> {
    return { ...this.reasons };
  }
  get probeInfo(): string {
    return this._probeInfo;
  }
  /** Milliseconds the backend in use took to be created. */
  get startMs(): number {
    return this._startMs;
  }

  /** `b` is the live backend now (null: none is); `starting`: the rung being started meanwhile. */
  setBackend(b: Backend | null, starting: BackendKind | null = null): void {
    this._backend = b;
    this._starting = b ? null : starting;
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
   * Starts the explicitly chosen rung `choice` with `state`: it must run.
   * @throws FlockError on 'backend' when it cannot run here, on 'count' when the cpu backend
   *   cannot hold the state.
   */
  async startExplicit(choice: BackendKind, state: FlockState, params: FlockParams): Promise<void> {
    const probe = await this.provider.probe(choice, this.options.disable);
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
      this._backend = await this.create(choice, state, params);
    } finally {
      this._starting = null;
    }
  }

  /** Frees the live backend (dispose()). */
  dispose(): void {
    safeDispose(this._backend);
    this._backend = null;
    this._starting = null;
  }

  /** A non-fatal backend error (e.g. a WebGPU validation error): reported once per message, never a loss. */
  private _backendError(b: Backend, error: unknown): void {
    if (this._epoch.disposed || b !== this._backend) return;
    const msg = messageOf(error);
    if (this._errorMessages.has(msg)) return;
    this._errorMessages.add(msg);
    this._hooks.emitError(error);
  }

  /**
   * Creates rung `kind` holding `state` and `params` (at the journal snapshot's time) on the
   * surface's canvas; its loss and restore reports go to the hooks (recovery.ts).
   * @throws what the backend's factory throws (FlockError on 'count' with a limit when the
   *   device holds fewer boids, on 'target' when the canvas cannot take the rung).
   */
  async create(kind: BackendKind, state: FlockState, params: FlockParams): Promise<Backend> {
    const entry = this.provider.entry(kind);
    if (!entry) throw new FlockError('backend', kind, 'a backend available in this build');
    this._hooks.fitCanvas(DEFAULT_MAX_CANVAS);
    const probe = await this.provider.probe(kind, this.options.disable);
    this._probeInfo = probe.info ?? '';
    let backend: Backend | null = null;
    const init: BackendInit = {
      canvas: this._surface.canvas,
      params,
      state,
      disable: this.options.disable,
      time: this._journal.snapshot.time,
      limits: this.options.limits,
      ownsCanvas: !this._surface.onCallerCanvas,
      shareContext: 'auto',
      // A software rasteriser draws tiny instances slowly (SwiftShader: ~500 ms for 16,384): draw
      // by vertex id there (same pixels), which also brings the first frame in sooner. Asked at
      // creation so the start links that draw program (set after, each flock linked it again,
      // blocking, on its first draw).
      ...(probe.software ? { drawMode: 'vertex-id' as const } : {}),
      onLost: (reason) => {
        if (backend) this._hooks.lost(backend, kind, reason);
      },
      onRestored: () => {
        if (backend) this._hooks.restored(backend);
      },
      onError: (error) => {
        if (backend) this._backendError(backend, error);
      },
      onDegraded: (reason) => {
        if (this._epoch.disposed) return;
        const had = this.reasons[kind];
        this.reasons[kind] = had ? `${had}; ${reason}` : reason;
      },
    };
    const t0 = performance.now();
    const b = await entry.create(init);
    this._startMs = performance.now() - t0;
    backend = b;
    // A backend that ignores init.drawMode is switched here.
    const drawable = b as { drawMode?: string; drawModes?: readonly string[] };
    if (
      probe.software &&
      'drawMode' in drawable &&
      (drawable.drawModes ?? ['vertex-id']).includes('vertex-id')
    ) {
      drawable.drawMode = 'vertex-id';
    }
    this._journal.rungHolds(params);
    return b;
  }
}
