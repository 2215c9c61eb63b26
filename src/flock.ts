/**
 * The Flock: the public object behind createFlock (DESIGN.md section 4). It owns one backend at a
 * time, the canvas it draws into, the fixed-step frame loop, stats, state snapshots for context
 * loss, and the page listeners (resize, visibility, intersection). Backends see only src/backend.ts.
 */
import type { Backend, BackendKind, BackendTimings, PassTimes } from './backend';
import { BACKEND_LADDER, CPU_MAX_COUNT, NO_PASS_TIMES } from './backend';
import { backendEntry, planLadder, probeBackend } from './backends';
import { registerBuiltinBackends } from './builtin-backends';
import { FlockError, describeValue } from './core/errors';
import { FramePacer } from './core/frame-clock';
import { checkLimits, limitsDisable, type DeviceLimits } from './core/limits';
import {
  PARAM_SCHEMA,
  defaultParams,
  needsReinit,
  validateParams,
  type FlockParams,
  type Vec3,
} from './core/params';
import { parseCssColor } from './core/color';
import {
  boidSizeFor,
  cameraEye,
  defaultCamera,
  fitScale,
  unprojectToPlane,
  viewProjection,
  type OrbitCamera,
} from './core/render-math';
import { buildScene, predatorScene, viewStatic, type ViewStatic } from './core/scene';
import { cloneState, initialState, validateState, type FlockState } from './core/state';
import { defaultView, validateView, type ViewOptions } from './core/view';

/** Capability names `disable` accepts, to force any rung of the ladder on any machine. */
export const DISABLE_NAMES = [
  'webgpu',
  'webgl2',
  'EXT_color_buffer_float',
  'webgl2-tf',
  'cpu',
  'worker',
  'timestamp-query',
  'EXT_disjoint_timer_query_webgl2',
] as const;

export type BackendChoice = 'auto' | BackendKind;

/** |attractorStrength| flock.pointer() uses while the parameters' is 0, world units/s². */
export const POINTER_STRENGTH = 8;

export interface FlockOptions {
  /** 'auto' (default) walks the ladder webgpu -> webgl2 -> webgl2-tf -> cpu; an explicit kind must run or createFlock rejects. */
  backend?: BackendChoice;
  /** Parameters over the defaults; seed and count are parameters. */
  params?: Partial<FlockParams>;
  /** View options over the defaults (src/core/view.ts VIEW_SCHEMA): background, colours, framing, ... */
  view?: Partial<ViewOptions>;
  /** Start from this state instead of the seed's (its count wins over params.count). */
  initialState?: FlockState;
  /** Start the frame loop at once (default true). */
  autoStart?: boolean;
  /** Hide capabilities, e.g. ['webgpu', 'EXT_color_buffer_float', 'webgl2'], to force a rung. */
  disable?: string[];
  /**
   * Cap the device limits every backend sees, to run as on a phone: 'phone' (PHONE_LIMITS:
   * MAX_TEXTURE_SIZE 4096, MAX_VERTEX_TEXTURE_IMAGE_UNITS 16, MAX_DRAW_BUFFERS 4, no GPU timer,
   * a WebGPU compatibility-mode adapter and limits) or a DeviceLimits object. Count caps under
   * 'phone': webgpu 4,194,304 (128 MiB bindings), webgl2 and webgl2-tf 4,194,304 (4096^2 / 4),
   * cpu 4,096. Caps only lower limits; they never raise one.
   */
  limits?: 'phone' | DeviceLimits;
}

export interface FlockStats {
  /** Frames drawn per second (0 while stopped). */
  fps: number;
  /** Milliseconds per simulation step, from GPU timers or a CPU clock around work that waited for the GPU. */
  stepMs: number;
  /** How stepMs and passes were measured; 'none' when not measured yet. */
  timing: 'gpu' | 'cpu-wait' | 'none';
  /** Per-pass ms per step, or null where not measured. */
  passes: PassTimes;
  /** GPU timer granularity in ms where known (Chrome rounds WebGPU timestamps to 0.1 ms), else null. */
  resolutionMs: number | null;
  /**
   * Simulated seconds per real second over about the last second of the frame loop: 1 keeps real
   * time; e.g. 0.4 when even one step per frame does not fit the frame budget (slow motion, the
   * step stays params.timeStep).
   */
  timeScale: number;
  /** Mean fixed steps per drawn frame over about the last second (0 before the loop ran). */
  stepsPerFrame: number;
  /** Milliseconds a frame's steps may take: a share of the display refresh interval measured from rAF. */
  frameBudgetMs: number;
}

const OPTION_KEYS = ['backend', 'params', 'view', 'initialState', 'autoStart', 'disable', 'limits'];
const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', ...BACKEND_LADDER];
/** Seconds between asynchronous state snapshots (used to resume after context or device loss). */
const SNAPSHOT_INTERVAL_S = 3;
/** The most steps one step() call takes (about 4.6 hours of simulated time at 1/60 s). */
export const MAX_STEPS_PER_CALL = 1_000_000;
/** step(n) submits this many steps, then lets the page run. */
const STEP_CHUNK = 8;

/** Resolves after the page has had a turn (a message task: not clamped like setTimeout). */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/** Steps a backend may have queued before the frame loop stops adding more. */
const MAX_PENDING_STEPS = 4;
/** Seconds between CPU-clock step timings when no GPU timer exists. */
const TIMING_INTERVAL_S = 1;

interface CanvasOwnership {
  /** We created the canvas (inside a container element, or detached) and remove it on dispose. */
  owned: boolean;
  container: HTMLElement | null;
}

function checkOptions(options: unknown): Required<Pick<FlockOptions, 'backend' | 'autoStart'>> & {
  disable: Set<string>;
  limits: DeviceLimits | null;
} {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new FlockError('options', options, 'an object with keys ' + OPTION_KEYS.join(', '));
  }
  for (const k of Object.keys(options)) {
    if (!OPTION_KEYS.includes(k)) {
      throw new FlockError(
        k,
        (options as Record<string, unknown>)[k],
        `a known option: ${OPTION_KEYS.join(', ')}`,
        'unknown option',
      );
    }
  }
  const o = options as FlockOptions;
  const backend = o.backend ?? 'auto';
  if (!BACKEND_CHOICES.includes(backend)) {
    throw new FlockError(
      'backend',
      backend,
      `one of ${BACKEND_CHOICES.map((b) => `"${b}"`).join(', ')}`,
    );
  }
  const autoStart = o.autoStart ?? true;
  if (typeof autoStart !== 'boolean') throw new FlockError('autoStart', autoStart, 'true or false');
  const disable = o.disable ?? [];
  if (
    !Array.isArray(disable) ||
    disable.some((d) => !(DISABLE_NAMES as readonly string[]).includes(d))
  ) {
    throw new FlockError(
      'disable',
      disable,
      `an array of ${DISABLE_NAMES.map((d) => `"${d}"`).join(', ')}`,
    );
  }
  const limits = checkLimits(o.limits);
  // No timer query under the caps: the timers are hidden like disable hides them.
  return { backend, autoStart, disable: new Set([...disable, ...limitsDisable(limits)]), limits };
}

function makeCanvas(like?: HTMLCanvasElement): HTMLCanvasElement {
  const c = document.createElement('canvas');
  if (like) {
    for (const attr of Array.from(like.attributes)) c.setAttribute(attr.name, attr.value);
    c.width = like.width;
    c.height = like.height;
  } else {
    c.width = 640;
    c.height = 480;
  }
  return c;
}

/**
 * Creates a flock that simulates and draws into `target`.
 * @param target a canvas to draw into, or an element in which the flock makes and manages its own
 *   full-size canvas; without one, a detached 640x480 canvas (`flock.canvas`) is made.
 * @throws FlockError (as a rejection) for bad options/params/state, or when an explicit backend
 *   cannot run here (field 'backend', the reason in the message). Only 'auto' falls back.
 */
export async function createFlock(
  target?: HTMLCanvasElement | HTMLElement | null,
  options: FlockOptions = {},
): Promise<Flock> {
  if (typeof document === 'undefined') {
    // Node or server rendering: the schema and the CPU reference work there, a flock does not.
    throw new Error(
      'gpu-flock: createFlock needs a browser page (document, canvas, WebGPU or WebGL2) and none is here. ' +
        'In Node or server rendering use the schema and the CPU reference (PARAM_SCHEMA, referenceStep); create flocks in the browser.',
    );
  }
  registerBuiltinBackends();
  const opts = checkOptions(options);
  if (target !== undefined && target !== null && !(target instanceof HTMLElement)) {
    throw new FlockError('target', target, 'an HTMLCanvasElement, another HTMLElement, or nothing');
  }
  if (
    options.params !== undefined &&
    (options.params === null || typeof options.params !== 'object')
  ) {
    throw new FlockError('params', options.params, 'an object of parameter names to values');
  }
  let params = validateParams(options.params ?? {}, defaultParams());
  const view = validateView(options.view ?? {}, defaultView());
  let state: FlockState | null = null;
  if (options.initialState !== undefined) {
    state = validateState(options.initialState, params.dimensions, undefined, params.species);
    params = { ...params, count: state.count };
  }
  let canvas: HTMLCanvasElement;
  const own: CanvasOwnership = { owned: false, container: null };
  if (target instanceof HTMLCanvasElement) {
    canvas = target;
  } else {
    canvas = makeCanvas();
    own.owned = true;
    if (target) {
      own.container = target;
      canvas.style.width = '100%';
      canvas.style.height = '100%';
      canvas.style.display = 'block';
      target.appendChild(canvas);
    }
  }
  const flock = new Flock(canvas, own, params, view, opts.disable, opts.limits);
  try {
    await flock._init(opts.backend, state);
  } catch (e) {
    flock.dispose();
    throw e;
  }
  if (opts.autoStart) flock.start();
  return flock;
}

/** A running flock. See DESIGN.md section 4 for the contract; events: 'fallback', 'contextlost', 'contextrestored', 'error'. */
export class Flock extends EventTarget {
  private _backend: Backend | null = null;
  private _canvas: HTMLCanvasElement;
  private _params: FlockParams;
  private _view: ViewOptions;
  private _viewStatic: ViewStatic;
  /** |attractorStrength| the pointer uses (the last non-zero one seen). */
  private _pointerStrength = POINTER_STRENGTH;
  /** The canvas CSS background this flock set (shown before the first frame), or null. */
  private _cssBackground: string | null = null;
  private readonly _disable: ReadonlySet<string>;
  private readonly _own: CanvasOwnership;
  private _fallbackReasons: Partial<Record<BackendKind, string>> = {};
  private _running = false;
  private _disposed = false;
  private _hidden = false;
  private _offscreen = false;
  private _contextLost = false;
  private _resumeAfterRestore: (() => void) | null = null;
  /** Resolves when a backend replacement (fallback) in progress is done; every operation waits on it. */
  private _ready: Promise<void> = Promise.resolve();
  private _raf = 0;
  private readonly _clock: FramePacer;
  private _snapshot: FlockState | null = null;
  private _snapshotAt = 0;
  private _snapshotBusy = false;
  private _timingAt = 0;
  private _timingBusy = false;
  private _frames = 0;
  /** The chosen rung's probe description (renderer / adapter), when the backend gives none. */
  private _probeInfo = '';
  private _fpsAt = 0;
  private readonly _cleanups: (() => void)[] = [];
  /** The orbit camera; mutate it freely, the next render uses it. Reset by bounds/dimension changes. */
  camera: OrbitCamera;
  /** Latest measurements; see FlockStats. */
  readonly stats: FlockStats = {
    fps: 0,
    stepMs: 0,
    timing: 'none',
    passes: { ...NO_PASS_TIMES },
    resolutionMs: null,
    timeScale: 1,
    stepsPerFrame: 0,
    frameBudgetMs: 0,
  };

  /** @internal use createFlock */
  constructor(
    canvas: HTMLCanvasElement,
    own: CanvasOwnership,
    params: FlockParams,
    view: ViewOptions,
    disable: ReadonlySet<string>,
    private readonly _limits: DeviceLimits | null = null,
  ) {
    super();
    this._canvas = canvas;
    this._own = own;
    this._params = params;
    this._view = view;
    this._viewStatic = viewStatic(view);
    this._showBackgroundUntilDrawn();
    this._disable = disable;
    this.camera = defaultCamera(params);
    this._clock = new FramePacer(params.timeStep);
  }

  /** The backend in use. */
  get backend(): BackendKind {
    return this._backend?.kind ?? 'cpu';
  }
  /** The canvas drawn into now (a run-time fallback replaces it in the page: listen to 'fallback'). */
  get canvas(): HTMLCanvasElement {
    return this._canvas;
  }
  /** Why each rung above the chosen backend was skipped (and, on cpu, the count cap). */
  get fallbackReasons(): Partial<Record<BackendKind, string>> {
    return { ...this._fallbackReasons };
  }
  /** A copy of the current parameters. */
  get params(): FlockParams {
    return {
      ...this._params,
      boundsMin: [...this._params.boundsMin],
      boundsMax: [...this._params.boundsMax],
    };
  }
  /** A copy of the current view options (how the flock is drawn). */
  get view(): ViewOptions {
    return { ...this._view };
  }
  /** True while the frame loop is on (it still idles while the page is hidden or the canvas off-screen). */
  get running(): boolean {
    return this._running;
  }
  /** The largest count the current backend can hold. */
  get maxCount(): number {
    return this._backend?.maxCount ?? 0;
  }
  /**
   * How the GPU backends draw: 'instanced' (one instance per boid) or 'vertex-id' (one draw of
   * 12 vertices per boid, the boid index from the vertex index: same pixels, and much faster
   * where tiny instances are slow). The default is 'vertex-id' on a software rasteriser
   * (SwiftShader, llvmpipe: the probe says so), else 'instanced'. The cpu backend ignores it.
   * @throws FlockError when the value is neither, or the backend cannot draw that way.
   */
  get drawMode(): 'instanced' | 'vertex-id' {
    return (
      (this._backend as { drawMode?: 'instanced' | 'vertex-id' } | null)?.drawMode ?? 'instanced'
    );
  }
  set drawMode(mode: 'instanced' | 'vertex-id') {
    const b = this._backend as { drawMode?: string; drawModes?: readonly string[] } | null;
    const allowed = b?.drawModes ?? ['instanced', 'vertex-id'];
    if (!allowed.includes(mode)) {
      throw new FlockError('drawMode', mode, allowed.map((m) => `"${m}"`).join(' or '));
    }
    if (b && 'drawMode' in b) b.drawMode = mode;
  }
  /** Renderer or adapter description of the current backend. */
  get deviceInfo(): string {
    return this._backend?.deviceInfo || this._probeInfo;
  }
  /** @internal test hooks of the current backend (neighbour counts, sorted keys). */
  get _debug(): Pick<Backend, 'debugNeighborCounts' | 'debugSortedKeys'> | null {
    const b = this._backend;
    if (!b) return null;
    return {
      debugNeighborCounts: b.debugNeighborCounts?.bind(b),
      debugSortedKeys: b.debugSortedKeys?.bind(b),
    };
  }

  /** @internal picks and builds the backend. */
  async _init(choice: BackendChoice, state: FlockState | null): Promise<void> {
    const startState = state ?? initialState(this._params);
    if (choice !== 'auto') {
      const probe = await probeBackend(choice, this._disable);
      if (!probe.ok) {
        throw new FlockError('backend', choice, 'a backend this device can run', probe.reason);
      }
      if (choice === 'cpu' && this._params.count > CPU_MAX_COUNT) {
        throw new FlockError(
          'count',
          this._params.count,
          `an integer from 1 to ${CPU_MAX_COUNT} (the cpu backend's cap)`,
        );
      }
      this._backend = await this._create(choice, startState);
    } else {
      const plan = await planLadder(this._disable);
      this._fallbackReasons = plan.reasons;
      await this._descend(plan.order, startState, null);
    }
    this._attachPageListeners();
  }

  /** Builds the first rung of `order` that works, on a fresh canvas after a failure. */
  private async _descend(
    order: BackendKind[],
    state: FlockState,
    from: BackendKind | null,
  ): Promise<void> {
    let firstTry = true;
    for (const kind of order) {
      let s = state;
      if (kind === 'cpu' && s.count > CPU_MAX_COUNT) {
        this._fallbackReasons.cpu = `count capped from ${s.count} to ${CPU_MAX_COUNT}, the cpu backend's limit`;
        s = {
          count: CPU_MAX_COUNT,
          positions: s.positions.slice(0, 4 * CPU_MAX_COUNT),
          velocities: s.velocities.slice(0, 4 * CPU_MAX_COUNT),
        };
      }
      if (!firstTry || from !== null) this._replaceCanvas();
      firstTry = false;
      try {
        this._params = { ...this._params, count: s.count };
        this._backend = await this._create(kind, s);
        // Keep only the reasons of rungs above the one taken (and the cpu count cap).
        const at = BACKEND_LADDER.indexOf(kind);
        for (const k of BACKEND_LADDER) {
          if (BACKEND_LADDER.indexOf(k) > at) delete this._fallbackReasons[k];
        }
        if (from !== null) {
          this.dispatchEvent(
            new CustomEvent('fallback', {
              detail: { from, to: kind, reason: this._fallbackReasons[from] },
            }),
          );
        }
        return;
      } catch (e) {
        this._fallbackReasons[kind] = e instanceof Error ? e.message : String(e);
      }
    }
    throw new FlockError(
      'backend',
      'auto',
      'a device with WebGPU, WebGL2 or a CPU fallback',
      describeValue(this._fallbackReasons),
    );
  }

  private async _create(kind: BackendKind, state: FlockState): Promise<Backend> {
    const entry = backendEntry(kind);
    if (!entry) throw new FlockError('backend', kind, 'a backend available in this build');
    const params = { ...this._params, count: state.count };
    this._resize();
    const probe = await probeBackend(kind, this._disable);
    this._probeInfo = probe.info ?? '';
    const backend = await entry.create({
      canvas: this._canvas,
      params,
      state,
      disable: this._disable,
      limits: this._limits,
      onLost: (reason) => this._onLost(kind, reason),
      onRestored: () => this._onRestored(),
      onDegraded: (reason) => {
        const had = this._fallbackReasons[kind];
        this._fallbackReasons[kind] = had ? `${had}; ${reason}` : reason;
      },
    });
    // A software rasteriser draws tiny instances slowly (SwiftShader: ~500 ms for 16,384): draw
    // by vertex id there (same pixels), which also brings the first frame in sooner.
    const drawable = backend as { drawMode?: string; drawModes?: readonly string[] };
    if (
      probe.software &&
      'drawMode' in drawable &&
      (drawable.drawModes ?? ['vertex-id']).includes('vertex-id')
    ) {
      drawable.drawMode = 'vertex-id';
    }
    this._params = params;
    this._snapshot = cloneState(state);
    return backend;
  }

  private _replaceCanvas(): void {
    const old = this._canvas;
    const fresh = makeCanvas(old);
    if (old.parentNode) old.replaceWith(fresh);
    this._canvas = fresh;
    this._cssBackground = null;
    this._showBackgroundUntilDrawn();
    this._observeCanvas();
  }

  /**
   * Until the first frame, a canvas shows what is behind it (WebGPU pipelines can take seconds to
   * build): give it the view's background as a CSS background, unless the page styled one itself.
   * A translucent one is removed once a frame is drawn (the frame carries it); an opaque one stays
   * (it shows while a lost context comes back).
   */
  private _showBackgroundUntilDrawn(): void {
    const style = this._canvas.style;
    if (style.backgroundColor !== '' && style.backgroundColor !== this._cssBackground) return;
    const c = parseCssColor(this._view.background);
    const css = c && c[3] > 0 ? this._view.background : '';
    style.backgroundColor = css;
    this._cssBackground = style.backgroundColor || null;
  }

  private _clearTranslucentCssBackground(): void {
    if (this._cssBackground === null || this._viewStatic.background[3] >= 1) return;
    if (this._canvas.style.backgroundColor === this._cssBackground) {
      this._canvas.style.backgroundColor = '';
    }
    this._cssBackground = null;
  }

  private _onLost(kind: BackendKind, reason: string): void {
    if (this._disposed) return;
    if (kind === 'webgl2' || kind === 'webgl2-tf') {
      // WebGL: wait for 'webglcontextrestored'; the backend rebuilds, we re-upload the snapshot.
      // Operations asked for while lost wait until the context is back and the state re-uploaded.
      if (!this._contextLost) {
        this._contextLost = true;
        const restored = new Promise<void>((resolve) => (this._resumeAfterRestore = resolve));
        this._ready = this._ready.then(() => restored);
      }
      this.dispatchEvent(new CustomEvent('contextlost', { detail: { reason } }));
      return;
    }
    // WebGPU device lost or broken: fall back to the next rung with the last readable state.
    this._fallbackReasons[kind] = `lost at run time: ${reason}`;
    const state = this._snapshot ?? initialState(this._params);
    const dead = this._backend;
    this._backend = null;
    this._ready = this._ready.then(async () => {
      try {
        dead?.dispose();
      } catch {
        // a lost device may throw on teardown; nothing is left to free
      }
      const below = BACKEND_LADDER.slice(BACKEND_LADDER.indexOf(kind) + 1);
      const order: BackendKind[] = [];
      for (const k of below) {
        const probe = await probeBackend(k, this._disable);
        if (probe.ok) order.push(k);
        else this._fallbackReasons[k] ??= probe.reason ?? 'unavailable';
      }
      try {
        await this._descend(order, state, kind);
      } catch (e) {
        this._emitError(e);
      }
    });
  }

  private _onRestored(): void {
    if (this._disposed || !this._backend) return;
    this._contextLost = false;
    const state = this._snapshot ?? initialState(this._params);
    this._backend.setParams(this._params);
    this._backend.setState(state);
    this._clock.reset();
    this._resumeAfterRestore?.();
    this._resumeAfterRestore = null;
    this.dispatchEvent(new CustomEvent('contextrestored', { detail: { count: state.count } }));
  }

  private _emitError(e: unknown): void {
    this.dispatchEvent(new CustomEvent('error', { detail: { error: e } }));
  }

  /** @throws FlockError once dispose() has run. */
  private _checkNotDisposed(): void {
    if (this._disposed) {
      throw new FlockError('flock', 'disposed', 'a flock that has not been disposed');
    }
  }

  private _live(): Backend {
    this._checkNotDisposed();
    if (!this._backend)
      throw new FlockError('backend', 'none', 'a running backend (a fallback is in progress)');
    return this._backend;
  }

  /** Runs `op` now, or after a backend replacement in progress, in call order. */
  private _enqueue<T>(op: (b: Backend) => T | Promise<T>): Promise<T> {
    const run = this._ready.then(() => op(this._live()));
    this._ready = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Changes parameters. The merged result is validated at once, before anything changes.
   * count, dimensions and seed re-initialise the flock from the seed; the rest keep the state.
   * @throws FlockError naming the field, the value and the allowed range; the flock keeps its previous parameters and state.
   */
  setParams(partial: Partial<FlockParams>): void {
    this._checkNotDisposed();
    const next = validateParams(partial, this._params);
    const max = this._backend?.maxCount ?? Infinity;
    if (next.count > max) {
      throw new FlockError(
        'count',
        next.count,
        `an integer from 1 to ${max} (the ${this.backend} backend's limit on this device)`,
      );
    }
    const changed = Object.keys(partial).filter(
      (k) =>
        JSON.stringify((partial as Record<string, unknown>)[k]) !==
        JSON.stringify((this._params as unknown as Record<string, unknown>)[k]),
    );
    if (changed.length === 0) return;
    const reinit = needsReinit(changed);
    const reframe = changed.some(
      (k) => k === 'boundsMin' || k === 'boundsMax' || k === 'dimensions',
    );
    this._params = next;
    this._clock.timeStep = next.timeStep;
    if (reinit) {
      // Another count or dimension costs differently: measure again before taking more steps.
      this._clock.forgetStepCost();
      this._timingAt = 0;
    }
    if (reframe) this.camera = defaultCamera(next);
    const state = reinit ? initialState(next) : null;
    if (state) this._snapshot = cloneState(state);
    void this._enqueue((b) => {
      b.setParams(next);
      if (state) b.setState(state);
    });
  }

  /**
   * Changes view options (VIEW_SCHEMA); the simulation is not touched. A stopped flock redraws.
   * @throws FlockError naming the field, the value and what is allowed; the view stays as it was.
   */
  setView(partial: Partial<ViewOptions>): void {
    this._checkNotDisposed();
    const next = validateView(partial, this._view);
    this._view = next;
    this._viewStatic = viewStatic(next);
    this._showBackgroundUntilDrawn();
    if (!this._running) this.render();
  }

  /** Back to the seed's initial state (same parameters). */
  reset(): void {
    this._checkNotDisposed();
    const state = initialState(this._params);
    this._snapshot = cloneState(state);
    void this._enqueue((b) => b.setState(state));
  }

  /**
   * Replaces the state; its count becomes params.count; ids become the array indices.
   * @param state positions and velocities Float32Array(4*count) (xyz + w), finite values; in 2D z = 0.
   * @throws FlockError naming the field (state.count, state.positions[i], ...), the value and what is allowed; nothing changes.
   */
  setState(state: FlockState): void {
    this._checkNotDisposed();
    const s = validateState(
      state,
      this._params.dimensions,
      this._backend?.maxCount,
      this._params.species,
    );
    const params = { ...this._params, count: s.count };
    if (s.count !== this._params.count) {
      this._clock.forgetStepCost();
      this._timingAt = 0;
    }
    this._params = params;
    this._snapshot = cloneState(s);
    void this._enqueue((b) => {
      b.setParams(params);
      b.setState(s);
    });
  }

  /**
   * Takes n fixed steps (params.timeStep seconds each) without drawing, after everything asked before.
   * @throws FlockError (as a rejection) when n is not an integer >= 0.
   */
  step(n = 1): Promise<void> {
    if (!Number.isInteger(n) || n < 0 || n > MAX_STEPS_PER_CALL) {
      return Promise.reject(new FlockError('n', n, `an integer from 0 to ${MAX_STEPS_PER_CALL}`));
    }
    if (n === 0) return this._enqueue(() => undefined);
    return this._enqueue(async (b) => {
      // Submit in chunks and let the page run between them: a long run of steps neither freezes
      // the tab nor outlives dispose().
      for (let left = n; left > 0;) {
        const k = Math.min(left, STEP_CHUNK);
        b.step(k);
        left -= k;
        if (left > 0) {
          await yieldToPage();
          if (this._disposed || b !== this._backend) return;
        }
      }
    });
  }

  /** Resolves once every step asked for so far has finished on the device (for timing and benchmarks). */
  finish(): Promise<void> {
    return this._enqueue((b) => (b.sync ? b.sync() : b.readState().then(() => undefined)));
  }

  /** Per-pass times of recent steps from the backend's GPU timers (ms per step; null where not measured). */
  timings(): BackendTimings {
    return this._backend?.timings() ?? { timing: 'none', passes: { ...NO_PASS_TIMES } };
  }

  /** The state after every earlier step, in boid-id order: positions and velocities Float32Array(4*count). */
  readState(): Promise<FlockState> {
    return this._enqueue((b) => b.readState());
  }

  /** The view-projection of the next frame for a drawing buffer of w x h (camera, fit). */
  private _viewProj(w: number, h: number): Float32Array {
    const aspect = w / Math.max(1, h);
    return viewProjection(
      this.camera,
      aspect,
      false,
      fitScale(this._params, this._view.fit, aspect),
    );
  }

  /** Simulated time of the backend's state, seconds (0 where the backend does not keep one). */
  private _simTime(): number {
    return (this._backend as { time?: number } | null)?.time ?? 0;
  }

  /**
   * Puts the attractor under the pointer: on the plane through the box centre facing the camera
   * (z = 0 in 2D), at the point under (clientX, clientY), and sets attractorStrength's sign from
   * `mode`: 'attract' +m, 'repel' -m, where m is the last non-zero |attractorStrength| this flock
   * had (POINTER_STRENGTH when it never had one); 'off' sets it to 0 (and keeps m for next time).
   * The point is clamped into the box grown by its own size on every side (a pointer far off the
   * box still pulls toward its edge). A stopped flock redraws.
   * @param clientX, clientY CSS pixels in the viewport, as PointerEvent.clientX/Y
   * @throws FlockError for a mode other than the three, or a non-finite coordinate
   */
  pointer(clientX: number, clientY: number, mode: 'attract' | 'repel' | 'off'): void {
    this._checkNotDisposed();
    if (mode !== 'attract' && mode !== 'repel' && mode !== 'off') {
      throw new FlockError('mode', mode, '"attract", "repel" or "off"');
    }
    const current = this._params.attractorStrength;
    if (current !== 0) this._pointerStrength = Math.abs(current);
    if (mode === 'off') {
      if (current !== 0) this.setParams({ attractorStrength: 0 });
      if (!this._running) this.render();
      return;
    }
    for (const [field, v] of [
      ['clientX', clientX],
      ['clientY', clientY],
    ] as const) {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new FlockError(field, v, 'a finite number (CSS pixels)');
      }
    }
    const point = this.pointerToWorld(clientX, clientY);
    if (!point) return;
    const m = this._pointerStrength;
    this.setParams({ attractor: point, attractorStrength: mode === 'attract' ? m : -m });
    if (!this._running) this.render();
  }

  /**
   * The world point under (clientX, clientY) on the plane through the box centre facing the
   * camera (z = 0 in 2D), clamped into the box grown by its size on every side; null when the
   * canvas has no size or the ray runs parallel to the plane.
   */
  pointerToWorld(clientX: number, clientY: number): Vec3 | null {
    const c = this._canvas;
    const rect = c.getBoundingClientRect();
    const box =
      rect.width > 0 && rect.height > 0
        ? rect
        : { left: 0, top: 0, width: c.width, height: c.height };
    if (!(box.width > 0 && box.height > 0)) return null;
    const ndcX = ((clientX - box.left) / box.width) * 2 - 1;
    const ndcY = 1 - ((clientY - box.top) / box.height) * 2;
    const p = this._params;
    const centre: Vec3 = [0, 1, 2].map((a) => (p.boundsMin[a]! + p.boundsMax[a]!) / 2) as Vec3;
    let normal: Vec3;
    if (p.dimensions === 2) {
      centre[2] = 0;
      normal = [0, 0, 1];
    } else {
      const eye = cameraEye(this.camera);
      normal = [0, 1, 2].map((a) => this.camera.target[a]! - eye[a]!) as Vec3;
    }
    // The aspect the picture is drawn with: the drawing buffer's (it follows the CSS size).
    const hit = unprojectToPlane(this._viewProj(c.width, c.height), ndcX, ndcY, centre, normal);
    if (!hit) return null;
    for (let a = 0; a < 3; a++) {
      const size = p.boundsMax[a]! - p.boundsMin[a]!;
      hit[a] = Math.min(p.boundsMax[a]! + size, Math.max(p.boundsMin[a]! - size, hit[a]!));
    }
    if (p.dimensions === 2) hit[2] = 0;
    return hit;
  }

  /** Boid length in world units: view.boidSize, or one from the box when that is 0. */
  private _boidSize(): number {
    return this._view.boidSize > 0 ? this._view.boidSize : boidSizeFor(this._params);
  }

  /** Draws the current state now (the loop does this every frame while running). */
  render(): void {
    const b = this._backend;
    if (!b || this._disposed || this._contextLost) return;
    this._resize();
    const w = this._canvas.width;
    const h = this._canvas.height;
    const boidSize = this._boidSize();
    b.render({
      viewProj: this._viewProj(w, h),
      width: w,
      height: h,
      boidSize,
      scene: buildScene(
        this._params,
        this._view,
        this._viewStatic,
        boidSize,
        this._view.showPredators && this._params.predators > 0
          ? predatorScene(this._params, this._simTime())
          : undefined,
      ),
    });
    this._clearTranslucentCssBackground();
  }

  /**
   * @internal the frame pacing: 'adaptive' (default: as many fixed steps as fit the frame budget,
   * at least one, never more than real time asks; slow motion when one does not fit) or
   * 'catch-up' (every step real time asks, up to 4 a frame, whatever they cost: the old loop, kept
   * for before/after measurements in scripts/pacing.mjs).
   */
  get _pacing(): 'adaptive' | 'catch-up' {
    return this._clock.adaptive ? 'adaptive' : 'catch-up';
  }
  set _pacing(mode: 'adaptive' | 'catch-up') {
    this._clock.adaptive = mode !== 'catch-up';
    this._clock.reset();
  }

  /**
   * Starts the frame loop: each frame takes as many fixed steps as real time asks and the frame
   * budget allows (at least one, at most 4; see FramePacer and stats.timeScale), then draws.
   */
  start(): void {
    if (this._disposed || this._running) return;
    this._running = true;
    this._clock.reset();
    this._schedule();
  }

  /** Stops the frame loop; the state stays. */
  stop(): void {
    this._running = false;
    if (this._raf) cancelAnimationFrame(this._raf);
    this._raf = 0;
    this.stats.fps = 0;
  }

  private _schedule(): void {
    if (!this._running || this._raf || this._hidden || this._offscreen || this._disposed) return;
    this._raf = requestAnimationFrame((t) => this._frame(t));
  }

  private _frame(timeMs: number): void {
    this._raf = 0;
    if (!this._running || this._disposed) return;
    const b = this._backend;
    if (b && !this._contextLost) {
      const now = timeMs / 1000;
      // Backpressure: a backend that runs behind real time (the cpu worker on a slow phone)
      // gets no new steps until it catches up; the time is dropped, not queued.
      const n = this._clock.advance(now, (b.pendingSteps ?? 0) > MAX_PENDING_STEPS);
      this.stats.timeScale = this._clock.timeScale;
      this.stats.stepsPerFrame = this._clock.stepsPerFrame;
      this.stats.frameBudgetMs = this._clock.frameBudget * 1000;
      try {
        if (n > 0) this._stepTimed(b, n, now);
        this.render();
      } catch (e) {
        this._emitError(e);
      }
      this._frames++;
      if (now - this._fpsAt >= 0.5) {
        if (this._fpsAt > 0) this.stats.fps = this._frames / (now - this._fpsAt);
        this._fpsAt = now;
        this._frames = 0;
      }
      this._maybeSnapshot(b, now);
    }
    this._schedule();
  }

  /** Steps, and now and then times the steps with the CPU clock around a wait for the device. */
  private _stepTimed(b: Backend, n: number, now: number): void {
    const t = b.timings();
    if (t.timing === 'gpu') {
      b.step(n);
      this.stats.timing = 'gpu';
      this.stats.passes = { ...t.passes };
      this.stats.resolutionMs = t.resolutionMs ?? null;
      const p = t.passes;
      this.stats.stepMs =
        (p.key ?? 0) + (p.sort ?? 0) + (p.cellTable ?? 0) + (p.reorder ?? 0) + (p.steer ?? 0);
      this._clock.reportStepCost(this.stats.stepMs / 1000);
      return;
    }
    if (this._timingBusy || now - this._timingAt < TIMING_INTERVAL_S) {
      b.step(n);
      return;
    }
    this._timingBusy = true;
    this._timingAt = now;
    // The step is submitted now, in order with everything else; the clock runs from its
    // submission to a completed wait for the device (work of the previous frame may still be in
    // flight, so this is an upper bound).
    const t0 = performance.now();
    b.step(n);
    const sync = b.sync ? b.sync() : b.readState().then(() => undefined);
    sync
      .then(() => {
        if (b !== this._backend) return;
        this.stats.stepMs = (performance.now() - t0) / n;
        this._clock.reportStepCost(this.stats.stepMs / 1000);
        this.stats.timing = 'cpu-wait';
        this.stats.passes = { ...b.timings().passes };
      })
      .catch((e: unknown) => this._emitError(e))
      .finally(() => {
        this._timingBusy = false;
      });
  }

  private _maybeSnapshot(b: Backend, now: number): void {
    if (this._snapshotBusy || now - this._snapshotAt < SNAPSHOT_INTERVAL_S) return;
    this._snapshotBusy = true;
    this._snapshotAt = now;
    b.readState()
      .then((s) => {
        if (b === this._backend && !this._contextLost) this._snapshot = s;
      })
      .catch(() => undefined)
      .finally(() => {
        this._snapshotBusy = false;
      });
  }

  /** Matches the drawing buffer to the canvas's CSS size times devicePixelRatio (owned or sized canvases). */
  private _resize(): void {
    const c = this._canvas;
    const cw = c.clientWidth;
    const ch = c.clientHeight;
    if (cw === 0 || ch === 0) return;
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const w = Math.max(1, Math.round(cw * dpr));
    const h = Math.max(1, Math.round(ch * dpr));
    if (c.width !== w || c.height !== h) {
      c.width = w;
      c.height = h;
    }
  }

  private _canvasObserver: IntersectionObserver | null = null;
  private _resizeObserver: ResizeObserver | null = null;

  private _observeCanvas(): void {
    this._canvasObserver?.disconnect();
    if (typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      const e = entries[entries.length - 1];
      if (!e) return;
      // A detached canvas is never "intersecting"; only pause canvases that are in the page.
      this._offscreen = this._canvas.isConnected && !e.isIntersecting;
      if (!this._offscreen) {
        this._clock.reset();
        this._schedule();
      }
    });
    io.observe(this._canvas);
    this._canvasObserver = io;
    // A paused flock redraws when its canvas changes size (the loop redraws every frame anyway).
    this._resizeObserver?.disconnect();
    if (typeof ResizeObserver !== 'undefined') {
      this._resizeObserver = new ResizeObserver(() => {
        if (!this._running) this.render();
      });
      this._resizeObserver.observe(this._canvas);
    }
  }

  private _attachPageListeners(): void {
    const onVisibility = () => {
      this._hidden = document.visibilityState === 'hidden';
      if (!this._hidden) {
        this._clock.reset();
        this._schedule();
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    this._cleanups.push(() => document.removeEventListener('visibilitychange', onVisibility));
    this._observeCanvas();
    this._cleanups.push(() => {
      this._canvasObserver?.disconnect();
      this._resizeObserver?.disconnect();
    });
  }

  /** @internal whether the loop is idling (hidden page or off-screen canvas). */
  get _idle(): boolean {
    return this._hidden || this._offscreen;
  }

  /** Stops the loop, frees every GPU object and listener, and removes a canvas the flock made. Idempotent. */
  dispose(): void {
    if (this._disposed) return;
    this.stop();
    this._disposed = true;
    for (const c of this._cleanups.splice(0)) c();
    this._resumeAfterRestore?.();
    this._resumeAfterRestore = null;
    this._backend?.dispose();
    this._backend = null;
    this._snapshot = null;
    if (this._own.owned) this._canvas.remove();
  }
}

/** The names of every parameter, for embedders building their own UI. */
export const PARAM_NAMES = PARAM_SCHEMA.map((s) => s.name);
