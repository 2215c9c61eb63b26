/**
 * The Flock: the public object behind createFlock (DESIGN.md section 4). It checks each call,
 * queues it, journals it, and emits events; the parts beside it own one job each and talk to it
 * through small hook interfaces (none imports this file):
 * - options.ts: the checks of options, partials and the camera;
 * - epoch.ts: the counter that cuts work short at a loss or dispose();
 * - commands.ts: each call that reaches the backend as a value (check, apply, merge, undo);
 * - command-queue.ts: runs those commands in call order, one protocol for all of them;
 * - journal.ts: the parameters (the one owner), a snapshot of the state plus a log since;
 * - backend-host.ts: the backend up now, how a rung is created, the reasons rungs were left;
 * - recovery.ts: loss -> snapshot -> replay -> fallback, and the ladder walk at the start;
 * - surface.ts: the canvas, its sizing, CSS background and page observers;
 * - animation.ts: the view, the camera, the frame loop (frame-loop.ts, step-timer.ts) and the draw;
 * - page-input.ts: the pointer as the attractor and the view.pointer / view.autoBounds listeners;
 * - warmup.ts: view.warmup before the first frame.
 *
 * Lifecycle rules (nothing lost at a loss, a call applies whole or not at all, every promise
 * settles, no event after dispose()): docs/guide.md, section Lifecycle.
 */
import type { Backend, BackendKind, BackendTimings } from '../backend';
import { NO_PASS_TIMES } from '../backend';
import { FlockError } from '../core/errors';
import { MAX_COUNT, validateParams, type FlockParams, type Vec3 } from '../core/params';
import { defaultCamera, type OrbitCamera } from '../core/render-math';
import { validateState, type FlockState } from '../core/state';
import { resolvedShape, validateView, type ViewInput, type ViewOptions } from '../core/view';
import type { WarmupResult } from '../core/warmup-runner';
import { Animation } from './animation';
import type { BackendHost, BackendProvider, DebugHooks, HostOptions } from './backend-host';
import { CommandQueue } from './command-queue';
import * as calls from './commands';
import { Epoch } from './epoch';
import { disposedError } from './run-errors';
import type { FrameSource } from './frame-loop';
import { Journal } from './journal';
import { checkCamera, definedEntries, noStats, paramChanges } from './options';
import type { BackendChoice, FlockStats } from './options';
import { PageInput } from './page-input';
import { Recovery } from './recovery';
import type { FlockSurface } from './surface';
import { warmUp } from './warmup';

/** The most steps one step() call takes (about 4.6 hours of simulated time at 1/60 s). */
export const MAX_STEPS_PER_CALL = 1_000_000;

/** @internal What the Flock is built from (createFlockWith in create.ts assembles it) besides its surface, parameters and view. */
export type FlockSetup = HostOptions & { backends: BackendProvider; frames: FrameSource };

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
  /** Flock.pointer, and the view.pointer / view.autoBounds listeners on the canvas. */
  private readonly _pageInput: PageInput;
  private readonly _epoch = new Epoch();
  private readonly _journal: Journal;
  private readonly _queue: CommandQueue;
  private readonly _host: BackendHost;
  private readonly _recovery: Recovery;
  /** The view, the camera, the frame loop and the draw. */
  private readonly _anim: Animation;
  /** Latest measurements; see FlockStats. */
  readonly stats: FlockStats = noStats();

  /** @internal use createFlock */
  constructor(surface: FlockSurface, params: FlockParams, view: ViewOptions, setup: FlockSetup) {
    super();
    this._surface = surface;
    const j = (this._journal = new Journal(params, this._epoch));
    this._anim = new Animation(surface, setup.frames, j, this._epoch, this.stats, view, params, {
      backend: () => this._host.backend,
      ready: () => this._recovery.readyForFrame(),
      drawable: () => !this._epoch.disposed && !this._recovery.recovering,
      holdSteps: () => this._queue.holdingSteps,
      snapshot: (b, now) => this._recovery.refreshSnapshot(b, now),
      error: (e) => this._emitError(e),
    });
    this._pageInput = new PageInput(this, {
      view: () => this._anim.view,
      params: () => j.params,
      disposed: () => this._epoch.disposed,
      error: (e) => this._emitError(e),
      cssSize: () => this._surface.clientRect(),
    });
    const loop = this._anim.loop;
    this._recovery = new Recovery(
      { provider: setup.backends, options: setup },
      this._journal,
      this._epoch,
      surface,
      {
        emit: (type, detail) => this._emit(type, detail),
        emitError: (e) => this._emitError(e),
        fitCanvas: (limit) => this._anim.fitCanvas(limit),
        rungUp: () => loop.pacer.reset(),
        recoveryEnded: () => loop.schedule(),
      },
    );
    this._host = this._recovery.host;
    this._queue = new CommandQueue(this._recovery, j, this._epoch, (e) => {
      // A call failed (its undo ran: params are the backend's again): 'error' tells the caller.
      loop.pacer.timeStep = j.params.timeStep;
      this._emitError(e);
    });
  }

  /** @internal starts the backend (createFlock) under view.density / autoBounds, then the page observers. */
  async _startBackend(choice: BackendChoice, state: FlockState | null): Promise<void> {
    const asked = (p: FlockParams) => {
      this._journal.ask(p);
      this._anim.camera = defaultCamera(p);
    };
    await this._pageInput.start(this._journal, state, asked, async (s, p) => {
      await this._recovery.start(choice, s, p);
      return this._host.backend;
    });
    this._pageInput.sync();
    this._anim.watchPage(() => this._pageInput.resized());
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
    const p = this._journal.params;
    return { ...p, boundsMin: [...p.boundsMin], boundsMax: [...p.boundsMax] };
  }
  /** A copy of the current view options (how the flock is drawn; `shape` the mesh drawn, never `auto`). */
  get view(): ViewOptions {
    const v = this._anim.view;
    return { ...v, shape: resolvedShape(v.shape, this._journal.params.dimensions) };
  }
  /**
   * Simulated time t, seconds (DESIGN.md section 1): 0 at creation, reset() and setState() (the
   * time given to setState, when given; and 0 when count, dimensions or seed re-initialise), +
   * timeStep per step given to the backend.
   */
  get time(): number {
    return this._host.backend?.time ?? this._journal.snapshot.time;
  }
  /** True while the frame loop is on (it still idles while the page is hidden or the canvas off-screen). */
  get running(): boolean {
    return this._anim.loop.running;
  }
  /**
   * The largest count the current backend can hold; while a loss is recovered, the schema's
   * MAX_COUNT (calls are checked against the new backend once it is up).
   */
  get maxCount(): number {
    return this._recovery.upNow ? this._host.backend!.maxCount : MAX_COUNT;
  }
  /**
   * The orbit camera; mutate its fields or assign a new one; the next render uses it. Reset by
   * bounds/dimension changes.
   * @throws FlockError (field 'camera' or 'camera.distance', ...) when assigned something that is
   *   not { target: 3 finite numbers, distance > 0, yaw, pitch finite, fovY in (0, pi) }.
   */
  get camera(): OrbitCamera {
    return this._anim.camera;
  }
  /** Moves the camera; checked at once (FlockError on `camera` or `camera.distance`, ...). */
  set camera(c: OrbitCamera) {
    this._anim.camera = checkCamera(c);
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
    const was = this._journal.params;
    const given = definedEntries(partial, 'params');
    // view.density's maximum and count; under view.autoBounds a new count, dimensions or radius
    // gets its box in the same call.
    this._pageInput.noteAsked(given, was);
    this._pageInput.addAutoBox(given, was);
    const next = validateParams(given, was);
    const { changed, reinit, respecies, reframe } = paramChanges(given, was);
    if (changed.length === 0) return Promise.resolve();
    const mode = reinit ? 'reinit' : respecies ? 'species' : 'keep';
    // A count the rung up now cannot hold throws here (the command's check at the call).
    const done = this._queue.submit(calls.setParamsCommand(this._queue.context, given, next, mode));
    this._anim.paramsAsked(next, reframe);
    if (reinit) this._anim.stepTimer.forgetStepCost();
    return done;
  }

  /**
   * Changes view options (VIEW_SCHEMA); the simulation is not touched. A stopped flock redraws.
   * @throws FlockError naming the field, the value and what is allowed; the view stays as it was.
   */
  setView(partial: ViewInput): void {
    this._checkNotDisposed();
    const given = definedEntries(partial, 'view') as Partial<ViewOptions>;
    // The default shape read back (a spread of flock.view) is not a choice: it still follows the dimensions.
    if (given.shape === this.view.shape && this._anim.view.shape === 'auto') delete given.shape;
    this._anim.setView(validateView(given, this._anim.view));
    this._pageInput.sync();
  }

  /**
   * Back to the seed's initial state (same parameters).
   * @returns a promise of the reset done on the backend.
   * @throws FlockError once disposed.
   */
  reset(): Promise<void> {
    this._checkNotDisposed();
    return this._queue.submit(calls.resetCommand());
  }

  /**
   * Replaces the state; its count becomes params.count; ids become the array indices.
   * @param state positions and velocities Float32Array(4*count) (xyz + w), finite values; in 2D z = 0.
   * @param options.time the simulated time t of `state`, seconds (default 0, DESIGN.md section 1):
   *   a caller that replaces the state of a flying flock (a count change) passes the time it read
   *   (`flock.time`), so the wing and tail phases, predators and flow go on without a jump.
   * @returns a promise of the state given to the backend (while a loss is recovered, it rejects
   *   with a FlockError on 'count' when the new rung cannot hold that many).
   * @throws FlockError naming the field (state.count, state.positions[i], ..., or time: a finite
   *   number >= 0), the value and what is allowed; nothing changes.
   */
  setState(state: FlockState, options: { time?: number } = {}): Promise<void> {
    this._checkNotDisposed();
    const time = options.time ?? 0;
    if (typeof time !== 'number' || !Number.isFinite(time) || time < 0) {
      throw new FlockError('time', time, 'a finite number of seconds >= 0');
    }
    const p = this._journal.params;
    const s = validateState(state, p.dimensions, this.maxCount, p.species);
    if (s.count !== p.count) this._anim.stepTimer.forgetStepCost();
    return this._queue.submit(calls.setStateCommand(s, { ...p, count: s.count }, time));
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
    const q = this._queue;
    return q.submit(n === 0 ? calls.noopCommand('step') : calls.stepCommand(q.context, n));
  }

  /**
   * Resolves once every step asked for so far has finished on the device (for timing and benchmarks).
   * @throws FlockError (as a rejection) on 'flock' when disposed meanwhile.
   */
  finish(): Promise<void> {
    return this._queue.submit(calls.finishCommand(this._queue.context));
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
    return this._queue.submit(calls.readStateCommand(this._queue.context));
  }

  /**
   * @internal the state after every earlier call becomes the recovery snapshot now (a loss after
   * it replays nothing). @returns the steps the replay log held before.
   */
  _snapshotNow(): Promise<number> {
    return this._queue.submit(calls.snapshotNowCommand(this._queue.context));
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
    return this._anim.pointerToWorld(clientX, clientY);
  }

  /** Draws the current state now (the loop does this every frame while running). */
  render(): void {
    this._anim.render();
  }

  /**
   * @internal the frame pacing: 'adaptive' (default: as many fixed steps as fit the frame budget,
   * at least one, never more than real time asks; slow motion when one does not fit) or
   * 'catch-up' (every step real time asks, up to 4 a frame, whatever they cost: the old loop, kept
   * for before/after measurements in scripts/pacing.mjs).
   */
  get _pacing(): 'adaptive' | 'catch-up' {
    return this._anim.loop.pacer.adaptive ? 'adaptive' : 'catch-up';
  }
  /** @internal see the getter */
  set _pacing(mode: 'adaptive' | 'catch-up') {
    this._anim.loop.pacer.adaptive = mode !== 'catch-up';
    this._anim.loop.pacer.reset();
  }

  /**
   * Starts the frame loop: each frame takes as many fixed steps as real time asks and the frame
   * budget allows (at least one, at most 4; see FramePacer and stats.timeScale), then draws.
   */
  start(): void {
    this._anim.loop.start();
  }

  /** Stops the frame loop; the state stays. */
  stop(): void {
    this._anim.loop.stop();
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
    return this._anim.stepTimer.reading;
  }

  /**
   * @internal view.warmup before the first frame (createFlock): flown unseen in chunks that yield
   * to the page, bounded by WARMUP_BUDGET_MS of wall time, then shown as reached (runWarmup,
   * src/core/warmup-runner.ts).
   */
  _warmUp(): Promise<WarmupResult> {
    const keepGoing = () => !this._epoch.disposed;
    return warmUp(this, this._anim.view.warmup, this._anim.now, keepGoing);
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
    this._anim.loop.dispose();
    this._epoch.dispose();
    this._recovery.dispose(); // and the host: every backend
    this._journal.clear();
    this._surface.dispose();
  }
}
