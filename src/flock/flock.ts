/**
 * The Flock: the public object behind createFlock (DESIGN.md section 4). It checks each call,
 * queues it, journals it, and emits events; the parts beside it own one job each and talk to it
 * through small hook interfaces (none imports this file):
 * - options.ts: the checks of options, partials and the camera;
 * - epoch.ts: the counter that cuts work short at a loss or dispose();
 * - command-queue.ts: every call that works on the backend, in call order;
 * - journal.ts: a snapshot of the state plus a log of what the backend was given since;
 * - backend-host.ts: the ladder, loss, restore, fallback and their reasons;
 * - surface.ts: the canvas, its sizing, CSS background and page observers;
 * - frame-loop.ts + step-timer.ts: the fixed-step frame loop and its stats;
 * - page-input.ts: the pointer as the attractor and the view.pointer / view.autoBounds listeners;
 * - warmup.ts: view.warmup before the first frame.
 *
 * Lifecycle rules (nothing lost at a loss, a call applies whole or not at all, every promise
 * settles, no event after dispose()): docs/guide.md, section Lifecycle.
 */
import type { Backend, BackendKind, BackendTimings } from '../backend';
import { NO_PASS_TIMES } from '../backend';
import { FlockError } from '../core/errors';
import type { DeviceLimits } from '../core/limits';
import { MAX_COUNT, validateParams, type FlockParams, type Vec3 } from '../core/params';
import { pointerToWorld as worldUnderPointer } from '../core/pointer';
import { defaultCamera, type OrbitCamera } from '../core/render-math';
import { viewStatic, type ViewStatic } from '../core/scene';
import { cloneState, initialState, validateState, type FlockState } from '../core/state';
import { resolvedShape, validateView, viewBackground, type ViewOptions } from '../core/view';
import type { WarmupResult } from '../core/warmup';
import { BackendHost, DEFAULT_MAX_CANVAS, type BackendProvider } from './backend-host';
import type { DebugHooks } from './backend-host';
import { CommandQueue, type Coalescing } from './command-queue';
import { Epoch } from './epoch';
import { countError, disposedError } from './errors';
import { FrameLoop, type FrameSource } from './frame-loop';
import { Journal } from './journal';
import {
  checkCamera,
  definedEntries,
  noStats,
  paramChanges,
  type BackendChoice,
  type FlockStats,
} from './options';
import { frameView } from './frame-view';
import { PageInput } from './page-input';
import { StepTimer } from './step-timer';
import type { FlockSurface } from './surface';
import { warmUp } from './warmup';

/** The most steps one step() call takes (about 4.6 hours of simulated time at 1/60 s). */
export const MAX_STEPS_PER_CALL = 1_000_000;
/** Steps a backend may have queued before the frame loop stops adding more. */
const MAX_PENDING_STEPS = 4;
/** Seconds between state snapshots while the loop runs (explicit work is snapshotted when the queue is idle). */
const SNAPSHOT_INTERVAL_S = 1;

/** A queued setParams call (merged ones: a burst, see Flock.setParams). */
interface ParamsCall {
  /** The fields given (defined ones), in call order. */
  given: Record<string, unknown>;
  /** The parameters validated at the call. */
  next: FlockParams;
  /**
   * The epoch at the call when the backend was up then, else null: `given` is validated again on
   * the rung when it is null or a loss came since (issue 21).
   */
  upAt: number | null;
  /** Whether species changed (a state read-back, re-assignment and upload). */
  respecies: boolean;
}

/** @internal What the Flock is built from (createFlockWith in create.ts assembles it) besides its surface, parameters and view. */
export interface FlockSetup {
  backends: BackendProvider;
  frames: FrameSource;
  disable: ReadonlySet<string>;
  limits: DeviceLimits | null;
  restoreTimeoutMs: number;
}

/**
 * A running flock. See DESIGN.md section 4 for the contract.
 * Events (CustomEvent, none after dispose()):
 * - 'contextlost' {reason}: a WebGL context was lost; calls wait for it to come back.
 * - 'contextrestored' RecoveryDetail: the context is back with the state replayed.
 * - 'fallback' {from, to, reason} & RecoveryDetail: the flock moved to the next rung.
 * - 'error' {error}: something went wrong outside a call the caller can catch (a WebGPU
 *   validation error, a queued call that failed on the rung started meanwhile, every rung failed).
 */
export class Flock extends EventTarget {
  private readonly _surface: FlockSurface;
  private readonly _frameSource: FrameSource;
  /** Flock.pointer, and the view.pointer / view.autoBounds listeners on the canvas. */
  private readonly _pageInput: PageInput;
  private readonly _epoch = new Epoch();
  private readonly _journal: Journal;
  private readonly _queue: CommandQueue<Backend>;
  private readonly _host: BackendHost;
  private readonly _loop: FrameLoop;
  private readonly _stepTimer: StepTimer;
  /** The parameters as the caller sees them (the backend's: journal.applied). */
  private _params: FlockParams;
  private _view: ViewOptions;
  private _viewStatic: ViewStatic;
  private _camera: OrbitCamera;
  /** Species changes reading the state back: the frame loop takes no steps meanwhile. */
  private _holdSteps = 0;
  /** When the frame loop last refreshed the snapshot, seconds. */
  private _snapshotAt = 0;
  /** Latest measurements; see FlockStats. */
  readonly stats: FlockStats = noStats();

  /** @internal use createFlock */
  constructor(surface: FlockSurface, params: FlockParams, view: ViewOptions, setup: FlockSetup) {
    super();
    this._surface = surface;
    this._frameSource = setup.frames;
    this._params = params;
    this._view = view;
    this._viewStatic = viewStatic(view);
    surface.showBackground(viewBackground(view));
    this._camera = defaultCamera(params);
    this._pageInput = new PageInput(this, {
      view: () => this._view,
      params: () => this._params,
      disposed: () => this._epoch.disposed,
      error: (e) => this._emitError(e),
      cssSize: () => this._surface.clientRect(),
    });
    this._journal = new Journal(params, this._epoch);
    this._loop = new FrameLoop(
      setup.frames,
      {
        ready: () => this._host.readyForFrame(),
        holdSteps: () =>
          (this._host.backend?.pendingSteps ?? 0) > MAX_PENDING_STEPS || this._holdSteps > 0,
        frame: (steps, now) => this._frame(steps, now),
      },
      this.stats,
      params.timeStep,
    );
    this._loop.setMaxFps(view.maxFps);
    this._stepTimer = new StepTimer(this._journal, this._epoch, this._loop.pacer, this.stats, {
      isCurrent: (b) => b === this._host.backend,
      failed: (e) => this._emitError(e),
      nowMs: () => setup.frames.now(),
    });
    this._host = new BackendHost(setup.backends, setup, this._journal, this._epoch, surface, {
      emit: (type, detail) => this._emit(type, detail),
      emitError: (e) => this._emitError(e),
      fitCanvas: (limit) => this._fitCanvas(limit),
      backendUp: (count) => {
        if (count !== null && this._params.count !== count) {
          this._params = { ...this._params, count };
        }
        this._loop.pacer.reset();
      },
      recoveryEnded: () => this._loop.schedule(),
    });
    this._queue = new CommandQueue<Backend>({
      backendUp: () => this._host.backendUp(),
      // Explicit work done and nothing else asked for: snapshot it while the page is idle.
      idle: () => {
        const b = this._host.backend;
        if (b && !this._epoch.disposed) this._refreshSnapshot(b);
      },
      failed: (e) => this._emitError(e),
    });
  }

  /** @internal starts the backend (createFlock), then the page observers. */
  async _startBackend(choice: BackendChoice, state: FlockState | null): Promise<void> {
    // view.density's count, view.autoBounds' box: the seed's initial state is made in them.
    const p = this._pageInput.startParams(this._params, state !== null);
    if (p !== this._params) [this._params, this._camera] = [p, defaultCamera(p)];
    await this._host.start(choice, state ?? initialState(this._params), this._params);
    // The rung holds fewer boids than asked (backendUp capped params.count): under density or
    // autoBounds the box follows the count run, and the seed's state is made in it again (before
    // the warm-up and the first frame, so no frame shows the few boids in the box of the many).
    const b = this._host.backend;
    if (state === null && b && this._params.count !== p.count) {
      const q = this._pageInput.cappedStartParams(this._params, this._params.count);
      if (q !== this._params) {
        [this._params, this._camera] = [q, defaultCamera(q)];
        this._journal.setState(b, initialState(q), q);
      }
    }
    this._pageInput.sync();
    // Errors in the page's handlers the flock installs become 'error' events, never uncaught.
    this._surface.watch({
      idleChanged: (idle) => this._guarded(() => this._loop.setIdle(idle)),
      resized: () =>
        this._guarded(() => {
          this._pageInput.resized();
          if (!this._loop.running) this.render();
        }),
    });
  }

  /**
   * The backend in use; while a loss is recovered, the rung being started (the lost WebGL rung
   * while it waits to be restored); 'none' between rungs and when every rung failed.
   */
  get backend(): BackendKind | 'none' {
    return this._host.kind;
  }
  /** The canvas drawn into now (a run-time fallback may move to a new one: listen to 'fallback'). */
  get canvas(): HTMLCanvasElement {
    return this._surface.canvas;
  }
  /** Why each rung above the chosen backend was skipped (and, on cpu, the count cap). */
  get fallbackReasons(): Partial<Record<BackendKind, string>> {
    return this._host.fallbackReasons;
  }
  /** A copy of the current parameters. */
  get params(): FlockParams {
    return {
      ...this._params,
      boundsMin: [...this._params.boundsMin],
      boundsMax: [...this._params.boundsMax],
    };
  }
  /** A copy of the current view options (how the flock is drawn; `shape` the mesh drawn, never `auto`). */
  get view(): ViewOptions {
    return { ...this._view, shape: resolvedShape(this._view.shape, this._params.dimensions) };
  }
  /**
   * Simulated time t, seconds (DESIGN.md section 1): 0 at creation, reset() and setState() (and
   * when count, dimensions or seed re-initialise), + timeStep per step given to the backend.
   */
  get time(): number {
    return this._host.backend?.time ?? this._journal.snapshot.time;
  }
  /** True while the frame loop is on (it still idles while the page is hidden or the canvas off-screen). */
  get running(): boolean {
    return this._loop.running;
  }
  /**
   * The largest count the current backend can hold; while a loss is recovered, the schema's
   * MAX_COUNT (calls are checked against the new backend once it is up).
   */
  get maxCount(): number {
    if (this._host.upNow) return this._host.backend!.maxCount;
    return MAX_COUNT;
  }
  /**
   * The orbit camera; mutate its fields or assign a new one; the next render uses it. Reset by
   * bounds/dimension changes.
   * @throws FlockError (field 'camera' or 'camera.distance', ...) when assigned something that is
   *   not { target: 3 finite numbers, distance > 0, yaw, pitch finite, fovY in (0, pi) }.
   */
  get camera(): OrbitCamera {
    return this._camera;
  }
  /** Moves the camera; checked at once (FlockError on `camera` or `camera.distance`, ...). */
  set camera(c: OrbitCamera) {
    this._camera = checkCamera(c);
  }
  /**
   * How the GPU backends draw: 'instanced' (one instance per boid) or 'vertex-id' (one draw of
   * 12 vertices per boid, the boid index from the vertex index: same pixels, and much faster
   * where tiny instances are slow). The default is 'vertex-id' on a software rasteriser
   * (SwiftShader, llvmpipe: the probe says so), else 'instanced'. The cpu backend ignores it.
   * @throws FlockError when the value is neither, or the backend cannot draw that way.
   */
  get drawMode(): 'instanced' | 'vertex-id' {
    return this._host.drawMode;
  }
  /** Chooses how boids are drawn (the same pixels either way). */
  set drawMode(mode: 'instanced' | 'vertex-id') {
    this._host.drawMode = mode;
  }
  /** Renderer or adapter description of the current backend. */
  get deviceInfo(): string {
    return this._host.backend?.deviceInfo || this._host.probeInfo;
  }
  /** @internal test hooks of the current backend (BackendHost.debugHooks). */
  get _debug(): DebugHooks | null {
    return this._host.debugHooks();
  }

  /**
   * Changes parameters. The merged result is validated at once, before anything changes;
   * undefined fields are ignored. count, dimensions and seed re-initialise the flock from the
   * seed; the rest keep the state. A change of `species` re-assigns every boid's species,
   * positions.w = id mod species, and keeps positions and velocities (DESIGN.md section 1): the
   * state is read back once, re-assigned and uploaded, after the steps asked before. Calls
   * without count, dimensions or seed queued one after another (nothing else queued between
   * them) coalesce into one change with the last call's values: a burst of species changes is
   * one read-back and upload, and every call's promise settles with it. While a loss is
   * recovered the call waits for the new rung and is checked against its limits then.
   * @returns a promise of the call done on the backend (it rejects with a FlockError, and fires
   *   'error', when the rung started meanwhile cannot take it; nothing of the call applies then).
   * @throws FlockError naming the field, the value and the allowed range; the flock keeps its previous parameters and state.
   */
  setParams(partial: Partial<FlockParams>): Promise<void> {
    this._checkNotDisposed();
    const given = definedEntries(partial, 'params');
    // view.density's maximum and count; under view.autoBounds a new count, dimensions or radius
    // gets its box in the same call.
    this._pageInput.noteAsked(given, this._params);
    this._pageInput.addAutoBox(given, this._params);
    const next = validateParams(given, this._params);
    const up = this._host.upNow;
    if (up && next.count > this._host.backend!.maxCount) {
      throw countError(next.count, this._host.backend!);
    }
    const { changed, reinit, respecies, reframe } = paramChanges(given, this._params);
    if (changed.length === 0) return Promise.resolve();
    this._params = next;
    this._loop.pacer.timeStep = next.timeStep;
    if (reinit) this._stepTimer.forgetStepCost();
    if (reframe) this._camera = defaultCamera(next);
    const upAt = up ? this._epoch.value : null;
    if (reinit) {
      return this._call((b) => {
        const p = this._paramsOnRung(b, given, next, upAt);
        this._journal.setState(b, initialState(p), p);
      });
    }
    // A burst of changes queued behind other work is one change (issue 21): one read-back and
    // upload for any number of species changes, the last one's species.
    return this._queue.coalesce(this._paramsBurst, { given, next, upAt, respecies }, () =>
      this._undoCall(),
    );
  }

  /** setParams calls (no re-initialisation) merged in call order: see setParams. */
  private readonly _paramsBurst: Coalescing<Backend, ParamsCall> = {
    merge: (a, z) => ({
      given: { ...a.given, ...z.given },
      next: z.next,
      // The earlier epoch: a loss between the calls (or after them) checks the burst again.
      upAt: a.upAt === null || z.upAt === null ? null : Math.min(a.upAt, z.upAt),
      respecies: a.respecies || z.respecies,
    }),
    run: (b, c) => {
      const p = this._paramsOnRung(b, c.given, c.next, c.upAt);
      if (!c.respecies) return this._journal.setParams(b, p);
      // positions.w is each boid's species in every backend's state (Journal.reassignSpecies).
      this._holdSteps++;
      const asked = p;
      return this._journal
        .reassignSpecies(
          asked,
          () =>
            this._host.readSettled(b, (x) =>
              x.readState().then((s) => ({ state: s, time: x.time })),
            ),
          () => this._host.backendUp(),
        )
        .then((count) => {
          // A loss during the read-back: the rung that took the call capped the count.
          if (count !== asked.count) this._params = { ...this._params, count };
        })
        .finally(() => this._holdSteps--);
    },
  };

  /**
   * The parameters a queued setParams gives `b`: `next`, or when the backend was not up at the
   * call, or a loss came between the call and its turn, `given` validated again against what the
   * rung up now holds and allows. (After a loss the rung comes up with the journal's snapshot and
   * backendUp puts its count into params: a call merged before it would apply its count to the
   * state but leave params at the snapshot's, issue 21.)
   * @param upAt the epoch at the call when the backend was up then, else null.
   * @throws FlockError when that rung cannot take them (the caller's params go back to the backend's).
   */
  private _paramsOnRung(
    b: Backend,
    given: Record<string, unknown>,
    next: FlockParams,
    upAt: number | null,
  ): FlockParams {
    if (upAt !== null && upAt === this._epoch.value) return next;
    try {
      const p = validateParams(given, this._journal.applied);
      if (p.count > b.maxCount) throw countError(p.count, b);
      this._params = p;
      return p;
    } catch (e) {
      this._params = { ...this._journal.applied };
      throw e;
    }
  }

  /**
   * Changes view options (VIEW_SCHEMA); the simulation is not touched. A stopped flock redraws.
   * @throws FlockError naming the field, the value and what is allowed; the view stays as it was.
   */
  setView(partial: Partial<ViewOptions>): void {
    this._checkNotDisposed();
    const given = definedEntries(partial, 'view') as Partial<ViewOptions>;
    // The default shape read back (a spread of flock.view) is not a choice: it still follows the dimensions.
    if (given.shape === this.view.shape && this._view.shape === 'auto') delete given.shape;
    const next = validateView(given, this._view);
    this._view = next;
    this._viewStatic = viewStatic(next);
    this._loop.setMaxFps(next.maxFps);
    this._pageInput.sync();
    this._surface.showBackground(viewBackground(next));
    if (!this._loop.running) this.render();
  }

  /**
   * Back to the seed's initial state (same parameters).
   * @returns a promise of the reset done on the backend.
   * @throws FlockError once disposed.
   */
  reset(): Promise<void> {
    this._checkNotDisposed();
    return this._call((b) => {
      const p = this._journal.applied;
      this._journal.setState(b, initialState(p), p);
    });
  }

  /**
   * Replaces the state; its count becomes params.count; ids become the array indices.
   * @param state positions and velocities Float32Array(4*count) (xyz + w), finite values; in 2D z = 0.
   * @returns a promise of the state given to the backend (while a loss is recovered, it rejects
   *   with a FlockError on 'count' when the new rung cannot hold that many).
   * @throws FlockError naming the field (state.count, state.positions[i], ...), the value and what is allowed; nothing changes.
   */
  setState(state: FlockState): Promise<void> {
    this._checkNotDisposed();
    const up = this._host.upNow;
    const s = validateState(
      state,
      this._params.dimensions,
      up ? this._host.backend!.maxCount : MAX_COUNT,
      this._params.species,
    );
    if (s.count !== this._params.count) this._stepTimer.forgetStepCost();
    const atCall = { ...this._params, count: s.count };
    this._params = atCall;
    const epoch = this._epoch.value;
    return this._call((b) => {
      if (s.count > b.maxCount) {
        this._params = { ...this._journal.applied };
        throw countError(s.count, b);
      }
      // As in setParams: a loss before its turn may have put the snapshot's count into params.
      const same = up && this._epoch.value === epoch;
      const p = same ? atCall : { ...this._journal.applied, count: s.count };
      if (!same) this._params = { ...this._params, count: s.count };
      this._journal.setState(b, s, p);
    });
  }

  /**
   * Takes n fixed steps (params.timeStep seconds each) without drawing, after everything asked before.
   * Resolves once the steps are given to the device (they survive a later loss: they are replayed).
   * A loss during the call does not cut it: the steps given before it are replayed into the
   * recovered rung and the rest given there, so the call applies whole.
   * @throws FlockError (as a rejection) when n is not an integer from 0 to MAX_STEPS_PER_CALL;
   *   field 'flock' when dispose() cuts the run short; field 'backend' when no rung runs after a loss.
   */
  step(n = 1): Promise<void> {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_STEPS_PER_CALL) {
      return Promise.reject(new FlockError('n', n, `an integer from 0 to ${MAX_STEPS_PER_CALL}`));
    }
    if (n === 0) return this._queue.run(() => undefined);
    return this._queue.run((b) =>
      this._journal.stepCall(
        b,
        n,
        (x) => this._host.noticeLoss(x),
        () => this._host.backendUp(),
      ),
    );
  }

  /**
   * Resolves once every step asked for so far has finished on the device (for timing and benchmarks).
   * @throws FlockError (as a rejection) on 'flock' when disposed meanwhile.
   */
  finish(): Promise<void> {
    return this._queue.run((b) =>
      this._host.readSettled(b, (x) => (x.sync ? x.sync() : x.readState().then(() => undefined))),
    );
  }

  /** Per-pass times of recent steps from the backend's GPU timers (ms per step; null where not measured). */
  timings(): BackendTimings {
    return this._host.backend?.timings() ?? { timing: 'none', passes: { ...NO_PASS_TIMES } };
  }

  /**
   * The state after every earlier step, in boid-id order: positions and velocities Float32Array(4*count).
   * A read cut by a loss is done again on the restored or new backend.
   * @throws FlockError (as a rejection) on 'flock' when disposed meanwhile.
   */
  readState(): Promise<FlockState> {
    return this._queue.run((b) =>
      this._host.readSettled(b, (x) => {
        const mark = this._journal.markBeforeRead(this._host.backend);
        return x.readState().then((s) => {
          this._journal.adoptAsSnapshot(cloneState(s), mark);
          return s;
        });
      }),
    );
  }

  /**
   * Puts the attractor under the pointer: on the plane through the box centre facing the camera
   * (z = 0 in 2D), at the point under (clientX, clientY), and sets attractorStrength's sign from
   * `mode`: 'attract' +m, 'repel' -m, where m is the last non-zero |attractorStrength| this flock
   * had (POINTER_STRENGTH when it never had one); 'off' sets it to 0 (and keeps m for next time).
   * The point is clamped into the box grown by its own size on every side (a pointer far off the
   * box still pulls toward its edge). A stopped flock redraws.
   * @param clientX CSS pixels from the viewport's left, as PointerEvent.clientX
   * @param clientY CSS pixels from the viewport's top, as PointerEvent.clientY
   * @throws FlockError for a mode other than the three, or a non-finite coordinate
   */
  pointer(clientX: number, clientY: number, mode: 'attract' | 'repel' | 'off'): void {
    this._checkNotDisposed();
    this._pageInput.pointer(clientX, clientY, mode);
  }

  /**
   * The world point under (clientX, clientY) on the plane through the box centre facing the
   * camera (z = 0 in 2D), clamped into the box grown by its size on every side; null when the
   * canvas has no size or the ray runs parallel to the plane.
   */
  pointerToWorld(clientX: number, clientY: number): Vec3 | null {
    const c = this._surface.canvas;
    const canvas = { rect: this._surface.clientRect(), width: c.width, height: c.height };
    return worldUnderPointer(clientX, clientY, canvas, this._camera, this._params, this._view.fit);
  }

  /** Draws the current state now (the loop does this every frame while running). */
  render(): void {
    const b = this._host.backend;
    if (!b || this._epoch.disposed || this._host.recovering) return;
    this._fitCanvas(b.maxCanvasSize ?? DEFAULT_MAX_CANVAS);
    const c = this._surface.canvas;
    const time = (b as { time?: number }).time ?? 0;
    b.render(
      frameView(c.width, c.height, this._camera, this._params, this._view, this._viewStatic, time),
    );
    this._surface.frameDrawn(this._viewStatic.background[3] >= 1);
  }

  /**
   * @internal the frame pacing: 'adaptive' (default: as many fixed steps as fit the frame budget,
   * at least one, never more than real time asks; slow motion when one does not fit) or
   * 'catch-up' (every step real time asks, up to 4 a frame, whatever they cost: the old loop, kept
   * for before/after measurements in scripts/pacing.mjs).
   */
  get _pacing(): 'adaptive' | 'catch-up' {
    return this._loop.pacer.adaptive ? 'adaptive' : 'catch-up';
  }
  /** @internal see the getter */
  set _pacing(mode: 'adaptive' | 'catch-up') {
    this._loop.pacer.adaptive = mode !== 'catch-up';
    this._loop.pacer.reset();
  }

  /**
   * Starts the frame loop: each frame takes as many fixed steps as real time asks and the frame
   * budget allows (at least one, at most 4; see FramePacer and stats.timeScale), then draws.
   */
  start(): void {
    this._loop.start();
  }

  /** Stops the frame loop; the state stays. */
  stop(): void {
    this._loop.stop();
  }

  /** @internal whether the loop is idling (hidden page or off-screen canvas). */
  get _idle(): boolean {
    return this._surface.idle;
  }

  /** @internal the backend in use (null between rungs): scripts and browser tests reach it. */
  get _backend(): Backend | null {
    return this._host.backend;
  }

  /** @internal true while a CPU-clock timing read of the frame loop is in flight. */
  get _timingBusy(): boolean {
    return this._stepTimer.reading;
  }

  // ---- the parts' hooks --------------------------------------------------------------------

  /**
   * A call that changes parameters or state, queued: it applies whole or not at all. When it
   * fails (a rung started meanwhile cannot take it, every read retried after losses failed),
   * the parameters the caller sees go back to those the backend holds, and 'error' fires (the
   * queue reports every failure but dispose()), so a caller who never awaits it still learns.
   */
  private _call(op: (b: Backend) => void | Promise<void>): Promise<void> {
    return this._queue.call(op, () => this._undoCall());
  }

  /** A queued call failed: the parameters the caller sees go back to those the backend holds. */
  private _undoCall(): void {
    if (this._epoch.disposed) return;
    this._params = { ...this._journal.applied };
    this._loop.pacer.timeStep = this._params.timeStep;
  }

  /** One frame of the loop: `steps` fixed steps, a draw, and now and then a snapshot. */
  private _frame(steps: number, now: number): void {
    const b = this._host.backend!;
    try {
      if (steps > 0) this._stepTimer.step(b, steps, now);
      this.render();
    } catch (e) {
      if (b === this._host.backend && !b.isLost?.()) this._emitError(e);
    }
    if (now - this._snapshotAt >= SNAPSHOT_INTERVAL_S) {
      this._snapshotAt = now;
      this._refreshSnapshot(b);
    }
  }

  /** Runs `f` from a page event handler: what it throws becomes an 'error' event. */
  private _guarded(f: () => void): void {
    try {
      f();
    } catch (e) {
      this._emitError(e);
    }
  }

  /** Makes the state of `b` the journal's snapshot when `b` is up (asynchronously). */
  private _refreshSnapshot(b: Backend): void {
    if (!this._host.upNow || b !== this._host.backend) return;
    this._journal.refreshSnapshot(b, () => b === this._host.backend);
  }

  /**
   * @internal view.warmup before the first frame (createFlock): flown unseen in chunks that yield
   * to the page, bounded by WARMUP_BUDGET_MS of wall time, then shown as reached (runWarmup,
   * src/core/warmup.ts).
   */
  _warmUp(): Promise<WarmupResult> {
    const keepGoing = () => !this._epoch.disposed;
    return warmUp(this, this._view.warmup, () => this._frameSource.now(), keepGoing);
  }

  /** Sizes the drawing buffer to at most `limit` pixels per side; stats.notes says when clamped. */
  private _fitCanvas(limit: number): void {
    const note = this._surface.fitDrawingBuffer(limit, this._view.resolutionScale);
    if (note) this.stats.notes.push(note);
  }

  private _emit(type: string, detail: unknown): void {
    if (this._epoch.disposed) return;
    // A run-time fallback draws into a new canvas: the page listeners move to it.
    if (type === 'fallback') this._pageInput.sync();
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  private _emitError(e: unknown): void {
    this._emit('error', { error: e });
  }

  /** @throws FlockError once dispose() has run. */
  private _checkNotDisposed(): void {
    if (this._epoch.disposed) throw disposedError();
  }

  /**
   * Stops the loop, frees every GPU object and listener, gives back the WebGL context of a canvas
   * the flock made (WEBGL_lose_context) and its share of the WebGPU device, and removes a canvas
   * the flock made. Calls in flight reject with FlockError field 'flock'; no event fires after
   * this. The caller's canvas stays (shown again if a 'sibling' fallback hid it). Idempotent.
   */
  dispose(): void {
    if (this._epoch.disposed) return;
    this._pageInput.dispose(true);
    this._loop.dispose();
    this._epoch.dispose();
    this._host.dispose();
    this._journal.clear();
    this._surface.dispose();
  }
}
