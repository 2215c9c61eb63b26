/**
 * The Flock: the public object behind createFlock (DESIGN.md section 4). It owns one backend at a
 * time, the canvas it draws into, the fixed-step frame loop, stats, the page listeners (resize,
 * visibility, intersection) and what it needs to survive a context or device loss: a snapshot of
 * the state plus a log of everything given to the backend since (steps, parameters), replayed
 * into the restored context or the next rung of the ladder. Backends see only src/backend.ts.
 *
 * Lifecycle rules (issue 11):
 * - Every call that works on the backend goes through one queue, in call order; while a loss is
 *   being recovered (a WebGL context waiting to be restored, or a fallback to the next rung)
 *   queued calls wait and then run on the backend that is up, validated against it.
 * - A context or device loss never rolls explicit work back: after a restore or a fallback the
 *   flock holds the state after the last step it was given, exactly (snapshot + replayed log).
 *   The snapshot is refreshed asynchronously when the queue is idle after explicit work and every
 *   SNAPSHOT_INTERVAL_S while the loop runs, which keeps the replay short.
 * - Every promise settles: a WebGL context not restored within RESTORE_TIMEOUT_MS falls back to
 *   the next rung; work cut short by dispose() or a loss rejects with FlockError field 'flock'.
 * - No event is dispatched after dispose().
 */
import type { Backend, BackendKind, BackendTimings, PassTimes } from './backend';
import { BACKEND_LADDER, CPU_MAX_COUNT, NO_PASS_TIMES } from './backend';
import { backendEntry, planLadder, probeBackend } from './backends';
import { registerBuiltinBackends } from './builtin-backends';
import { FlockError, describeValue } from './core/errors';
import { FramePacer } from './core/frame-clock';
import { checkLimits, limitsDisable, type DeviceLimits } from './core/limits';
import {
  MAX_COUNT,
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
import {
  assignSpecies,
  cloneState,
  initialState,
  validateState,
  type FlockState,
} from './core/state';
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
  /** Start the frame loop at once (default: true when a target is given, false without one). */
  autoStart?: boolean;
  /** Hide capabilities, e.g. ['webgpu', 'EXT_color_buffer_float', 'webgl2'], to force a rung. */
  disable?: string[];
  /**
   * Where a run-time fallback draws when the target is the caller's own canvas (a canvas keeps
   * its first context type, so the next rung cannot draw into it): 'detached' (default) makes a
   * new canvas outside the page (`flock.canvas`, announced by the 'fallback' event) and leaves
   * the caller's canvas alone; 'sibling' puts that new canvas into the same parent right after
   * the caller's, and hides the caller's (display: none) until dispose(). The caller's canvas is
   * never removed or replaced. Canvases the flock made itself are always replaced in place.
   */
  fallbackCanvas?: 'detached' | 'sibling';
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
  /** One-time notes about what the flock adjusted (e.g. a drawing buffer clamped to the device's limits). */
  notes: string[];
}

/** What the 'contextrestored' and 'fallback' events carry besides their own fields. */
export interface RecoveryDetail {
  /** Boids in the recovered state. */
  count: number;
  /** Steps given since the last snapshot, run again on the restored or new backend. */
  replayedSteps: number;
  /**
   * Steps given before the loss that the recovered state does not hold (0: nothing lost). Only a
   * step() call cut short by the loss loses steps: it rejects, and none of its steps are kept.
   */
  lostSteps: number;
}

const OPTION_KEYS = [
  'backend',
  'params',
  'view',
  'initialState',
  'autoStart',
  'disable',
  'fallbackCanvas',
  'limits',
];
const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', ...BACKEND_LADDER];
/** Seconds between state snapshots while the loop runs (explicit work is snapshotted when the queue is idle). */
const SNAPSHOT_INTERVAL_S = 1;
/**
 * Milliseconds a lost WebGL context may take to be restored; after that the flock falls back to
 * the next rung of the ladder with its state (the 'fallback' event says so).
 */
export const RESTORE_TIMEOUT_MS = 3000;
/** The most steps one step() call takes (about 4.6 hours of simulated time at 1/60 s). */
export const MAX_STEPS_PER_CALL = 1_000_000;
/** step(n) submits this many steps, then lets the page run. */
const STEP_CHUNK = 8;
/** step(n) waits for the device after this many steps (a multiple of STEP_CHUNK). */
const STEP_SYNC = 64;
/** Replays submit this many steps, then let the page run. */
const REPLAY_CHUNK = 64;
/** The drawing-buffer side used before a backend says its own limit (WebGPU's default limit). */
const DEFAULT_MAX_CANVAS = 8192;

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

/** Canvases a live flock draws into: a second flock on one of them is a FlockError on 'target'. */
const claimedCanvases = new WeakSet<HTMLCanvasElement>();

interface CanvasOwnership {
  /** We created the canvas (inside a container element, or detached) and remove it on dispose. */
  owned: boolean;
  container: HTMLElement | null;
}

/** What the backend was given since the snapshot, in order. */
type LogEntry = { steps: number } | { params: FlockParams };

interface Snapshot {
  state: FlockState;
  params: FlockParams;
  /** Simulated time of `state`, seconds. */
  time: number;
}

/** A thrown value's message, never throwing itself. */
function messageOf(e: unknown): string {
  try {
    return e instanceof Error ? e.message : describeValue(e);
  } catch {
    return 'unknown error';
  }
}

function disposedError(detail?: string): FlockError {
  return new FlockError('flock', 'disposed', 'a flock that has not been disposed', detail);
}

function lostError(detail: string): FlockError {
  return new FlockError('flock', 'lost', 'a flock whose context or device stays up', detail);
}

function safeDispose(b: Backend | null | undefined): void {
  try {
    b?.dispose();
  } catch {
    // a lost device or context may throw on teardown; nothing is left to free
  }
}

function checkOptions(options: unknown): {
  backend: BackendChoice;
  autoStart: boolean | undefined;
  disable: Set<string>;
  fallbackCanvas: 'detached' | 'sibling';
  limits: DeviceLimits | null;
} {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new FlockError('options', options, 'an object with keys ' + OPTION_KEYS.join(', '));
  }
  let keys: string[];
  const o: Record<string, unknown> = {};
  try {
    keys = Object.keys(options);
    for (const k of keys) o[k] = (options as Record<string, unknown>)[k];
  } catch (e) {
    throw new FlockError('options', options, 'a plain object', `reading it threw: ${messageOf(e)}`);
  }
  for (const k of keys) {
    if (!OPTION_KEYS.includes(k)) {
      throw new FlockError(k, o[k], `a known option: ${OPTION_KEYS.join(', ')}`, 'unknown option');
    }
  }
  const backend = o.backend === undefined ? 'auto' : o.backend;
  if (!BACKEND_CHOICES.includes(backend as BackendChoice)) {
    throw new FlockError(
      'backend',
      backend,
      `one of ${BACKEND_CHOICES.map((b) => `"${b}"`).join(', ')}`,
    );
  }
  const autoStart = o.autoStart;
  if (autoStart !== undefined && typeof autoStart !== 'boolean') {
    throw new FlockError('autoStart', autoStart, 'true or false');
  }
  const disable = o.disable === undefined ? [] : o.disable;
  if (
    !Array.isArray(disable) ||
    disable.some((d) => !(DISABLE_NAMES as readonly string[]).includes(d as string))
  ) {
    throw new FlockError(
      'disable',
      disable,
      `an array of ${DISABLE_NAMES.map((d) => `"${d}"`).join(', ')}`,
    );
  }
  const fallbackCanvas = o.fallbackCanvas === undefined ? 'detached' : o.fallbackCanvas;
  if (fallbackCanvas !== 'detached' && fallbackCanvas !== 'sibling') {
    throw new FlockError('fallbackCanvas', fallbackCanvas, '"detached" or "sibling"');
  }
  const limits = checkLimits(o.limits);
  return {
    backend: backend as BackendChoice,
    autoStart,
    // No timer query under the caps: the timers are hidden like disable hides them.
    disable: new Set([...(disable as string[]), ...limitsDisable(limits)]),
    fallbackCanvas,
    limits,
  };
}

/** The defined entries of a partial (undefined values are ignored), read once. */
function definedEntries(partial: unknown, field: string): Record<string, unknown> {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
    throw new FlockError(field, partial, 'an object of names to values');
  }
  const out: Record<string, unknown> = {};
  let keys: string[];
  try {
    keys = Object.keys(partial);
  } catch (e) {
    throw new FlockError(field, partial, 'a plain object', `reading it threw: ${messageOf(e)}`);
  }
  for (const k of keys) {
    let v: unknown;
    try {
      v = (partial as Record<string, unknown>)[k];
    } catch (e) {
      throw new FlockError(k, undefined, 'a readable value', `reading it threw: ${messageOf(e)}`);
    }
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** A copy of `c` when it is a usable camera. @throws FlockError naming the camera field. */
function checkCamera(c: unknown): OrbitCamera {
  if (c === null || typeof c !== 'object') {
    throw new FlockError('camera', c, 'an object { target, distance, yaw, pitch, fovY }');
  }
  const cam = c as Record<string, unknown>;
  const num = (k: string, ok: (v: number) => boolean, allowed: string): number => {
    let v: unknown;
    try {
      v = cam[k];
    } catch {
      v = undefined;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)) {
      throw new FlockError(`camera.${k}`, v, allowed);
    }
    return v;
  };
  let t: unknown;
  try {
    t = cam.target;
  } catch {
    t = undefined;
  }
  const arr = t as ArrayLike<unknown> | undefined;
  const target: number[] = [];
  try {
    if ((Array.isArray(t) || ArrayBuffer.isView(t)) && arr!.length === 3) {
      for (let i = 0; i < 3; i++) if (typeof arr![i] === 'number') target.push(arr![i] as number);
    }
  } catch {
    target.length = 0;
  }
  if (target.length !== 3 || !target.every(Number.isFinite)) {
    throw new FlockError('camera.target', t, '3 finite numbers (world units)');
  }
  return {
    target: target as [number, number, number],
    distance: num('distance', (v) => v > 0, 'a finite number > 0 (world units)'),
    yaw: num('yaw', () => true, 'a finite number (radians)'),
    pitch: num('pitch', () => true, 'a finite number (radians)'),
    fovY: num('fovY', (v) => v > 0 && v < Math.PI, 'a finite number in (0, pi) (radians)'),
  };
}

function makeCanvas(like?: HTMLCanvasElement): HTMLCanvasElement {
  const c = document.createElement('canvas');
  if (like) {
    for (const attr of Array.from(like.attributes)) {
      if (attr.name !== 'id') c.setAttribute(attr.name, attr.value);
    }
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
 *   full-size canvas; without one, a detached 640x480 canvas (`flock.canvas`) is made and the loop
 *   does not start until start() (unless autoStart: true).
 * @throws FlockError (as a rejection) for bad options/params/state; field 'target' for a target
 *   that is not an element, a canvas another live flock draws into, or a canvas that already holds
 *   another context type (e.g. '2d'); field 'backend' when an explicit backend cannot run here (the
 *   reason in the message). Only 'auto' falls back.
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
  if (target instanceof HTMLCanvasElement && claimedCanvases.has(target)) {
    throw new FlockError(
      'target',
      target,
      'a canvas no other live flock draws into',
      'dispose the other flock first, or give each flock its own canvas or container',
    );
  }
  const rawParams = (options as Record<string, unknown>).params;
  if (rawParams !== undefined && (rawParams === null || typeof rawParams !== 'object')) {
    throw new FlockError('params', rawParams, 'an object of parameter names to values');
  }
  let params = validateParams(
    rawParams === undefined ? {} : definedEntries(rawParams, 'params'),
    defaultParams(),
  );
  const rawView = (options as Record<string, unknown>).view;
  const view = validateView(
    rawView === undefined ? {} : (definedEntries(rawView, 'view') as Partial<ViewOptions>),
    defaultView(),
  );
  let state: FlockState | null = null;
  const rawState = (options as Record<string, unknown>).initialState;
  if (rawState !== undefined) {
    state = validateState(rawState, params.dimensions, undefined, params.species);
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
  const flock = new Flock(
    canvas,
    own,
    params,
    view,
    opts.disable,
    opts.fallbackCanvas,
    opts.limits,
  );
  try {
    await flock._init(opts.backend, state);
  } catch (e) {
    flock.dispose();
    throw e;
  }
  // The first frame now, so the canvas never shows an undrawn buffer.
  flock.render();
  if (opts.autoStart ?? (target !== undefined && target !== null)) flock.start();
  return flock;
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
  private _backend: Backend | null = null;
  /** The rung being started (at creation or in a fallback), null when none is. */
  private _starting: BackendKind | null = null;
  /** A lost WebGL backend waiting for 'webglcontextrestored'. */
  private _lostBackend: Backend | null = null;
  private _restoreWaiter: ((restored: boolean) => void) | null = null;
  /** Set while a loss is recovered (restore or fallback); queued calls wait for it. */
  private _recovery: Promise<void> | null = null;
  /** Bumped at every loss and at dispose: work started in an older epoch was cut short. */
  private _epoch = 0;
  private _epochSignal!: Promise<void>;
  private _bumpSignal!: () => void;
  private _canvas: HTMLCanvasElement;
  /** The canvas the caller gave (never removed or replaced), or null. */
  private readonly _callerCanvas: HTMLCanvasElement | null;
  private _hiddenCaller: { canvas: HTMLCanvasElement; display: string } | null = null;
  private readonly _fallbackCanvas: 'detached' | 'sibling';
  private _params: FlockParams;
  private _view: ViewOptions;
  private _viewStatic: ViewStatic;
  /** |attractorStrength| the pointer uses (the last non-zero one seen). */
  private _pointerStrength = POINTER_STRENGTH;
  /** The canvas CSS background this flock set (shown before the first frame), or null. */
  private _cssBackground: string | null = null;
  /** The parameters the backend holds (after every queued call that has run). */
  private _applied: FlockParams;
  private readonly _disable: ReadonlySet<string>;
  private _fallbackReasons: Partial<Record<BackendKind, string>> = {};
  private _running = false;
  private _disposed = false;
  private _hidden = false;
  private _offscreen = false;
  /** The queue's tail: every call that works on the backend runs after the one before. */
  private _tail: Promise<unknown> = Promise.resolve();
  private _pending = 0;
  private _raf = 0;
  private readonly _clock: FramePacer;
  /** The state at some point, and what the backend was given since: enough to rebuild it exactly. */
  private _snap: Snapshot;
  private _log: LogEntry[] = [];
  /** Species changes reading the state back: the frame loop takes no steps meanwhile. */
  private _holdSteps = 0;
  /** Entries dropped from the front of the log so far (absolute log positions). */
  private _logBase = 0;
  /** Bumped when the snapshot is replaced by a state given outright (setState, re-init). */
  private _snapGen = 0;
  private _snapBusy = false;
  /** The step() call in flight: where its steps start in the log (not snapshotted meanwhile). */
  private _stepping: { at: number; gen: number } | null = null;
  /** Steps of a step() call cut short by the loss being recovered (taken out of the log). */
  private _cutSteps = 0;
  private _snapAt = 0;
  private _timingAt = 0;
  private _timingBusy = false;
  private _frames = 0;
  private readonly _errorMessages = new Set<string>();
  /** The chosen rung's probe description (renderer / adapter), when the backend gives none. */
  private _probeInfo = '';
  private _fpsAt = 0;
  private readonly _cleanups: (() => void)[] = [];
  private _camera: OrbitCamera;
  /** @internal milliseconds a lost WebGL context may take to come back (RESTORE_TIMEOUT_MS). */
  _restoreTimeoutMs = RESTORE_TIMEOUT_MS;
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
    notes: [],
  };

  /** @internal use createFlock */
  constructor(
    canvas: HTMLCanvasElement,
    own: CanvasOwnership,
    params: FlockParams,
    view: ViewOptions,
    disable: ReadonlySet<string>,
    fallbackCanvas: 'detached' | 'sibling' = 'detached',
    private readonly _limits: DeviceLimits | null = null,
  ) {
    super();
    this._canvas = canvas;
    this._view = view;
    this._viewStatic = viewStatic(view);
    this._showBackgroundUntilDrawn();
    this._callerCanvas = own.owned ? null : canvas;
    this._fallbackCanvas = fallbackCanvas;
    claimedCanvases.add(canvas);
    this._params = params;
    this._applied = params;
    this._disable = disable;
    this._camera = defaultCamera(params);
    this._clock = new FramePacer(params.timeStep);
    this._snap = { state: initialState({ ...params, count: 1 }), params, time: 0 };
    this._newEpochSignal();
  }

  private _newEpochSignal(): void {
    this._epochSignal = new Promise((resolve) => (this._bumpSignal = resolve));
  }

  private _bumpEpoch(): void {
    this._epoch++;
    this._bumpSignal();
    this._newEpochSignal();
  }

  /**
   * The backend in use; while a loss is recovered, the rung being started (the lost WebGL rung
   * while it waits to be restored); 'none' between rungs and when every rung failed.
   */
  get backend(): BackendKind | 'none' {
    return this._backend?.kind ?? this._starting ?? 'none';
  }
  /** The canvas drawn into now (a run-time fallback may move to a new one: listen to 'fallback'). */
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
  /**
   * Simulated time t, seconds (DESIGN.md section 1): 0 at creation, reset() and setState() (and
   * when count, dimensions or seed re-initialise), + timeStep per step given to the backend.
   */
  get time(): number {
    return this._backend?.time ?? this._snap.time;
  }
  /** True while the frame loop is on (it still idles while the page is hidden or the canvas off-screen). */
  get running(): boolean {
    return this._running;
  }
  /**
   * The largest count the current backend can hold; while a loss is recovered, the schema's
   * MAX_COUNT (calls are checked against the new backend once it is up).
   */
  get maxCount(): number {
    if (this._backend && !this._recovery) return this._backend.maxCount;
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
  /** @internal test hooks of the current backend (neighbour counts, sorted keys, sort passes). */
  get _debug(): Pick<Backend, 'debugNeighborCounts' | 'debugSortedKeys' | 'sortPasses'> | null {
    const b = this._backend;
    if (!b) return null;
    return {
      debugNeighborCounts: b.debugNeighborCounts?.bind(b),
      debugSortedKeys: b.debugSortedKeys?.bind(b),
      sortPasses: b.sortPasses ?? null,
    };
  }

  /** @internal picks and builds the backend. */
  async _init(choice: BackendChoice, state: FlockState | null): Promise<void> {
    const startState = state ?? initialState(this._params);
    this._setSnapshot(startState, this._params);
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
      this._starting = choice;
      try {
        this._backend = await this._create(choice, startState, this._params);
      } finally {
        this._starting = null;
      }
    } else {
      const plan = await planLadder(this._disable);
      this._fallbackReasons = plan.reasons;
      await this._descend(plan.order, null);
    }
    this._attachPageListeners();
  }

  // ---- snapshot and log ------------------------------------------------------------------

  /** A state given outright (creation, setState, reset, re-init): the snapshot, exactly. */
  private _setSnapshot(state: FlockState, params: FlockParams, time = 0): void {
    this._snap = { state, params, time };
    this._logBase += this._log.length;
    this._log = [];
    this._snapGen++;
  }

  /** Steps into `b`, logged for a replay. */
  private _bStep(b: Backend, n: number): void {
    b.step(n);
    this._log.push({ steps: n });
  }

  /** Parameters into `b` (same count), logged for a replay. */
  private _bParams(b: Backend, p: FlockParams): void {
    b.setParams(p);
    this._applied = p;
    this._log.push({ params: p });
  }

  /** A whole state into `b` (with its params) at simulated time `time`, which becomes the snapshot. */
  private _bState(b: Backend, s: FlockState, p: FlockParams, time = 0): void {
    b.setParams(p);
    b.setState(s, time);
    this._applied = p;
    this._setSnapshot(s, p, time);
  }

  /** Where the log is now, to adopt a state read from the backend at this point. */
  private _mark(): { gen: number; at: number; params: FlockParams; epoch: number; time: number } {
    return {
      time: this._backend?.time ?? this._snap.time,
      gen: this._snapGen,
      at: this._logBase + this._log.length,
      params: this._applied,
      epoch: this._epoch,
    };
  }

  /** Adopts `s`, read at `mark`, as the snapshot when nothing newer replaced it. */
  private _adopt(s: FlockState, mark: ReturnType<Flock['_mark']>): void {
    if (mark.gen !== this._snapGen || mark.epoch !== this._epoch || this._disposed) return;
    const drop = mark.at - this._logBase;
    if (drop <= 0) return;
    this._snap = { state: s, params: mark.params, time: mark.time };
    this._log = this._log.slice(drop);
    this._logBase = mark.at;
  }

  /** Reads the state asynchronously and makes it the snapshot (one read at a time). */
  private _takeSnapshot(b: Backend): void {
    if (this._snapBusy || this._stepping || this._log.length === 0) return;
    if (this._recovery || b !== this._backend) return;
    this._snapBusy = true;
    const mark = this._mark();
    let read: Promise<FlockState>;
    try {
      read = b.readState();
    } catch {
      this._snapBusy = false;
      return;
    }
    void this._guard(read)
      .then((s) => {
        if (b === this._backend && !b.isLost?.()) this._adopt(s, mark);
      })
      .catch(() => undefined)
      .finally(() => {
        this._snapBusy = false;
      });
  }

  /** `p`, or a rejection as soon as a loss or dispose() starts a new epoch (so nothing hangs). */
  private _guard<T>(p: Promise<T>): Promise<T> {
    p.catch(() => undefined);
    const epoch = this._epoch;
    const cut = this._epochSignal.then((): never => {
      throw this._disposed ? disposedError() : lostError(`the backend was lost (epoch ${epoch})`);
    });
    cut.catch(() => undefined);
    return Promise.race([p, cut]);
  }

  // ---- the queue -------------------------------------------------------------------------

  /** The backend once it is up: waits while a loss is recovered. @throws FlockError when disposed or no rung runs. */
  private async _up(): Promise<Backend> {
    for (;;) {
      if (this._disposed) throw disposedError();
      if (this._recovery) {
        await Promise.race([this._recovery, this._epochSignal]);
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
        this._onLost(b, b.kind, b.kind === 'webgpu' ? 'WebGPU device lost' : 'WebGL context lost');
        continue;
      }
      return b;
    }
  }

  /** Runs `op` on the backend that is up, after every call made before, in order. */
  private _enqueue<T>(op: (b: Backend) => T | Promise<T>): Promise<T> {
    this._pending++;
    const run = this._tail.then(async () => op(await this._up()));
    this._tail = run
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this._pending--;
        // Explicit work done and nothing else asked for: snapshot it while the page is idle.
        if (this._pending === 0 && this._backend && !this._disposed) {
          this._takeSnapshot(this._backend);
        }
      });
    return run;
  }

  /**
   * Enqueues a call the caller need not wait for: the promise is returned (it rejects with the
   * FlockError when the call fails on the backend), and a failure also fires 'error' so
   * fire-and-forget callers see it.
   */
  private _enqueueCall(op: (b: Backend) => void | Promise<void>): Promise<void> {
    const p = this._enqueue(op);
    p.catch((e: unknown) => {
      if (!(e instanceof FlockError && e.field === 'flock')) this._emitError(e);
    });
    return p;
  }

  // ---- backends, loss and recovery ---------------------------------------------------------

  /** Builds the first rung of `order` that works (after a loss of `from`, or at creation) and replays the log into it. */
  private async _descend(order: BackendKind[], from: BackendKind | null): Promise<void> {
    let firstTry = true;
    for (const kind of order) {
      if (this._disposed) return;
      // planLadder leaves the rungs below the first usable one unprobed (cached once probed).
      const probe = await probeBackend(kind, this._disable);
      if (this._disposed) return;
      if (!probe.ok) {
        this._fallbackReasons[kind] ??= probe.reason ?? 'unavailable';
        continue;
      }
      const snap = this._cappedSnapshot(kind);
      if (!firstTry || from !== null) this._nextCanvas();
      const onCallerCanvas = this._canvas === this._callerCanvas;
      const first = firstTry;
      firstTry = false;
      this._starting = kind;
      let b: Backend;
      try {
        b = await this._create(kind, snap.state, snap.params);
      } catch (e) {
        if (e instanceof FlockError && e.field === 'target' && onCallerCanvas && first && !from) {
          this._starting = null;
          throw e;
        }
        this._fallbackReasons[kind] = messageOf(e);
        continue;
      }
      if (this._disposed) {
        safeDispose(b);
        return;
      }
      let replayed: number;
      try {
        replayed = await this._replayLog(b, snap.state.count);
      } catch (e) {
        safeDispose(b);
        if (this._disposed) return;
        this._fallbackReasons[kind] = `replaying the state failed: ${messageOf(e)}`;
        continue;
      }
      if (this._disposed) {
        safeDispose(b);
        return;
      }
      this._backend = b;
      this._starting = null;
      if (this._params.count !== snap.state.count) {
        this._params = { ...this._params, count: snap.state.count };
      }
      this._clock.reset();
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
          lostSteps: this._takeCutSteps(),
        };
        this._emit('fallback', detail);
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

  /** The snapshot as rung `kind` takes it (the cpu rung caps the count, and says so). */
  private _cappedSnapshot(kind: BackendKind): Snapshot {
    const { state, params } = this._snap;
    if (kind !== 'cpu' || state.count <= CPU_MAX_COUNT) return this._snap;
    this._fallbackReasons.cpu = `count capped from ${state.count} to ${CPU_MAX_COUNT}, the cpu backend's limit`;
    const s = {
      count: CPU_MAX_COUNT,
      positions: state.positions.slice(0, 4 * CPU_MAX_COUNT),
      velocities: state.velocities.slice(0, 4 * CPU_MAX_COUNT),
    };
    return { state: s, params: { ...params, count: CPU_MAX_COUNT }, time: this._snap.time };
  }

  /** Gives the log since the snapshot to `b` (which holds the snapshot); returns the steps replayed. */
  private async _replayLog(b: Backend, count: number): Promise<number> {
    let applied = { ...this._snap.params, count };
    let steps = 0;
    let sinceYield = 0;
    for (const e of this._log.slice()) {
      if ('steps' in e) {
        b.step(e.steps);
        steps += e.steps;
        sinceYield += e.steps;
        if (sinceYield >= REPLAY_CHUNK) {
          sinceYield = 0;
          await yieldToPage();
          if (this._disposed) return steps;
        }
      } else {
        applied = { ...e.params, count };
        b.setParams(applied);
      }
    }
    this._applied = applied;
    if (count !== this._snap.state.count) {
      // The cpu rung capped the count: the capped state is the snapshot from now on.
      const capped = this._cappedSnapshot('cpu');
      this._snap = capped;
      this._log = this._log.map((e) => ('steps' in e ? e : { params: { ...e.params, count } }));
    }
    return steps;
  }

  private async _create(
    kind: BackendKind,
    state: FlockState,
    params: FlockParams,
  ): Promise<Backend> {
    const entry = backendEntry(kind);
    if (!entry) throw new FlockError('backend', kind, 'a backend available in this build');
    this._resize(DEFAULT_MAX_CANVAS);
    const probe = await probeBackend(kind, this._disable);
    this._probeInfo = probe.info ?? '';
    let backend: Backend | null = null;
    const b = await entry.create({
      canvas: this._canvas,
      params,
      state,
      disable: this._disable,
      time: this._snap.time,
      limits: this._limits,
      ownsCanvas: this._canvas !== this._callerCanvas,
      onLost: (reason) => {
        if (backend) this._onLost(backend, kind, reason);
      },
      onRestored: () => {
        if (backend) this._onRestored(backend);
      },
      onError: (error) => {
        if (backend) this._onBackendError(backend, error);
      },
      onDegraded: (reason) => {
        if (this._disposed) return;
        const had = this._fallbackReasons[kind];
        this._fallbackReasons[kind] = had ? `${had}; ${reason}` : reason;
      },
    });
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
    this._applied = params;
    return b;
  }

  /** The canvas the next rung draws into (a canvas keeps its first context type). */
  private _nextCanvas(): void {
    const old = this._canvas;
    const fresh = makeCanvas(old);
    if (old === this._callerCanvas) {
      // The caller's canvas stays where it is; a managed one goes next to it only if asked.
      if (this._fallbackCanvas === 'sibling' && old.parentNode) {
        old.after(fresh);
        this._hiddenCaller = { canvas: old, display: old.style.display };
        old.style.display = 'none';
      }
    } else {
      claimedCanvases.delete(old);
      if (old.parentNode) old.replaceWith(fresh);
    }
    claimedCanvases.add(fresh);
    this._canvas = fresh;
    this._cssBackground = null;
    this._showBackgroundUntilDrawn();
    if (this._cleanups.length > 0) this._observeCanvas();
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

  private _onLost(b: Backend, kind: BackendKind, reason: string): void {
    if (this._disposed) return;
    if (b === this._lostBackend) {
      // Reported again while lost (the event after an isContextLost() check found it), or the
      // restored context could not be rebuilt: then stop waiting and fall back now.
      if (this._restoreWaiter && !b.isLost?.()) this._restoreWaiter(false);
      return;
    }
    if (b !== this._backend) return;
    // A step() call in flight is cut short and rejects: its steps are taken back out of the log,
    // so the flock resumes from the last completed explicit work.
    const cut = this._stepping;
    this._stepping = null;
    if (cut && cut.gen === this._snapGen && cut.at >= this._logBase) {
      const dropped = this._log.splice(cut.at - this._logBase);
      for (const e of dropped) if ('steps' in e) this._cutSteps += e.steps;
    }
    this._bumpEpoch();
    this._backend = null;
    this._starting = kind;
    let restored: Promise<boolean> | null = null;
    if (kind === 'webgl2' || kind === 'webgl2-tf') {
      this._lostBackend = b;
      restored = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), this._restoreTimeoutMs);
        this._restoreWaiter = (ok) => {
          clearTimeout(timer);
          resolve(ok);
        };
      });
      this._emit('contextlost', { reason });
    }
    const recovery = this._recover(b, kind, reason, restored)
      .catch((e: unknown) => {
        this._backend = null;
        this._starting = null;
        this._emitError(e);
      })
      .finally(() => {
        if (this._recovery === recovery) this._recovery = null;
        if (this._running) this._schedule();
      });
    this._recovery = recovery;
  }

  private _onRestored(b: Backend): void {
    if (this._disposed) return;
    if (b === this._lostBackend && this._restoreWaiter) this._restoreWaiter(true);
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
      if (this._disposed) return;
      if (ok) {
        try {
          const { state, params } = this._snap;
          dead.setParams(params);
          dead.setState(state, this._snap.time);
          const replayed = await this._replayLog(dead, state.count);
          if (this._disposed) return;
          this._lostBackend = null;
          this._backend = dead;
          this._starting = null;
          this._clock.reset();
          const detail: RecoveryDetail = {
            count: state.count,
            replayedSteps: replayed,
            lostSteps: this._takeCutSteps(),
          };
          this._emit('contextrestored', detail);
          return;
        } catch (e) {
          reason = `context restored, but replaying the state failed: ${messageOf(e)}`;
        }
      } else {
        reason = `${reason}; not restored within ${this._restoreTimeoutMs / 1000} s`;
      }
      this._lostBackend = null;
    }
    safeDispose(dead);
    if (this._disposed) return;
    this._fallbackReasons[kind] = `lost at run time: ${reason}`;
    const below = BACKEND_LADDER.slice(BACKEND_LADDER.indexOf(kind) + 1);
    const order: BackendKind[] = [];
    for (const k of below) {
      const probe = await probeBackend(k, this._disable);
      if (probe.ok) order.push(k);
      else this._fallbackReasons[k] ??= probe.reason ?? 'unavailable';
    }
    await this._descend(order, kind);
  }

  private _takeCutSteps(): number {
    const n = this._cutSteps;
    this._cutSteps = 0;
    return n;
  }

  /** A non-fatal backend error (e.g. a WebGPU validation error): reported once per message, never a loss. */
  private _onBackendError(b: Backend, error: unknown): void {
    if (this._disposed || b !== this._backend) return;
    const msg = messageOf(error);
    if (this._errorMessages.has(msg)) return;
    this._errorMessages.add(msg);
    this._emitError(error);
  }

  private _emit(type: string, detail: unknown): void {
    if (this._disposed) return;
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  private _emitError(e: unknown): void {
    this._emit('error', { error: e });
  }

  /** @throws FlockError once dispose() has run. */
  private _checkNotDisposed(): void {
    if (this._disposed) throw disposedError();
  }

  /** True when calls now run at once on a live backend (else they wait for the rung being started). */
  private get _upNow(): boolean {
    return this._backend !== null && !this._recovery;
  }

  private _countError(count: number, b: Backend): FlockError {
    return new FlockError(
      'count',
      count,
      `an integer from 1 to ${b.maxCount} (the ${b.kind} backend's limit on this device)`,
    );
  }

  // ---- the public calls --------------------------------------------------------------------

  /**
   * Changes parameters. The merged result is validated at once, before anything changes;
   * undefined fields are ignored. count, dimensions and seed re-initialise the flock from the
   * seed; the rest keep the state. A change of `species` re-assigns every boid's species,
   * positions.w = id mod species, and keeps positions and velocities (DESIGN.md section 1): the
   * state is read back once, re-assigned and uploaded, after the steps asked before. While a
   * loss is recovered the call waits for the new rung and is checked against its limits then.
   * @returns a promise of the call done on the backend (it rejects with a FlockError, and fires
   *   'error', when the rung started meanwhile cannot take it; nothing of the call applies then).
   * @throws FlockError naming the field, the value and the allowed range; the flock keeps its previous parameters and state.
   */
  setParams(partial: Partial<FlockParams>): Promise<void> {
    this._checkNotDisposed();
    const given = definedEntries(partial, 'params');
    const next = validateParams(given, this._params);
    const up = this._upNow;
    if (up && next.count > this._backend!.maxCount) {
      throw this._countError(next.count, this._backend!);
    }
    const changed = Object.keys(given).filter(
      (k) =>
        JSON.stringify(given[k]) !==
        JSON.stringify((this._params as unknown as Record<string, unknown>)[k]),
    );
    if (changed.length === 0) return Promise.resolve();
    const reinit = needsReinit(changed);
    const respecies = !reinit && changed.includes('species');
    const reframe = changed.some(
      (k) => k === 'boundsMin' || k === 'boundsMax' || k === 'dimensions',
    );
    this._params = next;
    this._clock.timeStep = next.timeStep;
    if (reinit) this._forgetStepCost();
    if (reframe) this._camera = defaultCamera(next);
    return this._enqueueCall((b) => {
      let p = next;
      if (!up) {
        // Validated again against what the rung started meanwhile holds and allows.
        try {
          p = validateParams(given, this._applied);
          if (p.count > b.maxCount) throw this._countError(p.count, b);
        } catch (e) {
          this._params = { ...this._applied };
          throw e;
        }
        this._params = p;
      }
      if (reinit) return this._bState(b, initialState(p), p);
      if (!respecies) return this._bParams(b, p);
      // positions.w is each boid's species in every backend's state: re-assigned from the state
      // as it stands after the steps asked before (read again on the new rung after a loss),
      // at the simulated time it was read at (predators and the flow go on where they were).
      this._holdSteps++;
      return this._settled(b, (x) => x.readState().then((state) => ({ state, time: x.time })))
        .then(({ state, time }) => {
          const now = this._backend;
          if (this._disposed || !now) return;
          this._bState(now, assignSpecies(cloneState(state), p.species), p, time);
        })
        .finally(() => this._holdSteps--);
    });
  }

  /**
   * Changes view options (VIEW_SCHEMA); the simulation is not touched. A stopped flock redraws.
   * @throws FlockError naming the field, the value and what is allowed; the view stays as it was.
   */
  setView(partial: Partial<ViewOptions>): void {
    this._checkNotDisposed();
    const next = validateView(definedEntries(partial, 'view') as Partial<ViewOptions>, this._view);
    this._view = next;
    this._viewStatic = viewStatic(next);
    this._showBackgroundUntilDrawn();
    if (!this._running) this.render();
  }

  /**
   * Back to the seed's initial state (same parameters).
   * @returns a promise of the reset done on the backend.
   * @throws FlockError once disposed.
   */
  reset(): Promise<void> {
    this._checkNotDisposed();
    return this._enqueueCall((b) => {
      const p = this._applied;
      this._bState(b, initialState(p), p);
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
    const up = this._upNow;
    const s = validateState(
      state,
      this._params.dimensions,
      up ? this._backend!.maxCount : MAX_COUNT,
      this._params.species,
    );
    if (s.count !== this._params.count) this._forgetStepCost();
    const atCall = { ...this._params, count: s.count };
    this._params = atCall;
    return this._enqueueCall((b) => {
      if (s.count > b.maxCount) {
        this._params = { ...this._applied };
        throw this._countError(s.count, b);
      }
      const p = up ? atCall : { ...this._applied, count: s.count };
      if (!up) this._params = { ...this._params, count: s.count };
      this._bState(b, s, p);
    });
  }

  /**
   * Takes n fixed steps (params.timeStep seconds each) without drawing, after everything asked before.
   * Resolves once the steps are given to the device (they survive a later loss: they are replayed).
   * @throws FlockError (as a rejection) when n is not an integer from 0 to MAX_STEPS_PER_CALL;
   *   field 'flock' when dispose() or a context/device loss cuts the run short (after a loss none
   *   of the call's steps are kept: the flock resumes from the state before the call).
   */
  step(n = 1): Promise<void> {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_STEPS_PER_CALL) {
      return Promise.reject(new FlockError('n', n, `an integer from 0 to ${MAX_STEPS_PER_CALL}`));
    }
    if (n === 0) return this._enqueue(() => undefined);
    return this._enqueue(async (b) => {
      // Submit in chunks and let the page run between them: a long run of steps neither freezes
      // the tab nor outlives dispose() or a loss.
      const epoch = this._epoch;
      let done = 0;
      this._stepping = { at: this._logBase + this._log.length, gen: this._snapGen };
      try {
        while (done < n) {
          if (this._disposed) throw disposedError(`dispose() ran after ${done} of ${n} steps`);
          if (b.isLost?.()) this._onLost(b, b.kind, 'context lost');
          if (this._epoch !== epoch) {
            throw lostError(
              `the ${b.kind} context or device was lost after ${done} of ${n} steps; none of them are kept: the flock resumes from the state before this call`,
            );
          }
          const k = Math.min(n - done, STEP_CHUNK);
          this._bStep(b, k);
          done += k;
          if (done >= n) break;
          if (done % STEP_SYNC === 0 && b.sync) {
            // Backpressure: never more than STEP_SYNC steps queued on the device, so a loss or
            // dispose() is noticed within one batch, not after a backlog of seconds.
            await this._guard(b.sync()).catch(() => undefined);
          } else {
            await yieldToPage();
          }
        }
      } finally {
        this._stepping = null;
      }
    });
  }

  /**
   * Resolves once every step asked for so far has finished on the device (for timing and benchmarks).
   * @throws FlockError (as a rejection) on 'flock' when disposed meanwhile.
   */
  finish(): Promise<void> {
    return this._enqueue((b) =>
      this._settled(b, (x) => (x.sync ? x.sync() : x.readState().then(() => undefined))),
    );
  }

  /** Per-pass times of recent steps from the backend's GPU timers (ms per step; null where not measured). */
  timings(): BackendTimings {
    return this._backend?.timings() ?? { timing: 'none', passes: { ...NO_PASS_TIMES } };
  }

  /**
   * The state after every earlier step, in boid-id order: positions and velocities Float32Array(4*count).
   * A read cut by a loss is done again on the restored or new backend.
   * @throws FlockError (as a rejection) on 'flock' when disposed meanwhile.
   */
  readState(): Promise<FlockState> {
    return this._enqueue((b) =>
      this._settled(b, (x) => {
        const mark = this._mark();
        return x.readState().then((s) => {
          this._adopt(cloneState(s), mark);
          return s;
        });
      }),
    );
  }

  /** Runs `read` on `b`; when a loss cuts it, again on the recovered backend. Always settles. */
  private async _settled<T>(b: Backend, read: (b: Backend) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const epoch = this._epoch;
      let out: T;
      try {
        out = await this._guard(read(b));
      } catch (e) {
        if (this._disposed) throw disposedError();
        if (b.isLost?.()) this._onLost(b, b.kind, 'context lost');
        if (this._epoch === epoch) {
          throw e instanceof FlockError
            ? e
            : lostError(`the ${b.kind} read failed: ${messageOf(e)}`);
        }
        if (attempt >= 2) throw lostError(`lost ${attempt + 1} times during one read`);
        b = await this._up();
        continue;
      }
      if (b.isLost?.()) this._onLost(b, b.kind, 'context lost');
      if (this._epoch === epoch) return out;
      if (this._disposed) throw disposedError();
      if (attempt >= 2) throw lostError(`lost ${attempt + 1} times during one read`);
      b = await this._up();
    }
  }

  /** The view-projection of the next frame for a drawing buffer of w x h (camera, fit). */
  private _viewProj(w: number, h: number): Float32Array {
    const aspect = w / Math.max(1, h);
    return viewProjection(
      this._camera,
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
      if (current !== 0) void this.setParams({ attractorStrength: 0 });
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
    void this.setParams({ attractor: point, attractorStrength: mode === 'attract' ? m : -m });
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
      const eye = cameraEye(this._camera);
      normal = [0, 1, 2].map((a) => this._camera.target[a]! - eye[a]!) as Vec3;
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
    if (!b || this._disposed || this._recovery) return;
    this._resize(b.maxCanvasSize ?? DEFAULT_MAX_CANVAS);
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

  /** Another count or dimension costs differently: measure again before taking more steps. */
  private _forgetStepCost(): void {
    this._clock.forgetStepCost();
    this._timingAt = 0;
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
    if (b && !this._recovery) {
      if (b.isLost?.()) {
        this._onLost(b, b.kind, 'context lost');
        this._schedule();
        return;
      }
      const now = timeMs / 1000;
      // Backpressure: a backend that runs behind real time (the cpu worker on a slow phone)
      // gets no new steps until it catches up; the time is dropped, not queued.
      // Nor while a species change reads the state back (the steps would be overwritten).
      const n = this._clock.advance(
        now,
        (b.pendingSteps ?? 0) > MAX_PENDING_STEPS || this._holdSteps > 0,
      );
      this.stats.timeScale = this._clock.timeScale;
      this.stats.stepsPerFrame = this._clock.stepsPerFrame;
      this.stats.frameBudgetMs = this._clock.frameBudget * 1000;
      try {
        if (n > 0) this._stepTimed(b, n, now);
        this.render();
      } catch (e) {
        if (b === this._backend && !b.isLost?.()) this._emitError(e);
      }
      this._frames++;
      if (now - this._fpsAt >= 0.5) {
        if (this._fpsAt > 0) this.stats.fps = this._frames / (now - this._fpsAt);
        this._fpsAt = now;
        this._frames = 0;
      }
      if (now - this._snapAt >= SNAPSHOT_INTERVAL_S) {
        this._snapAt = now;
        this._takeSnapshot(b);
      }
    }
    this._schedule();
  }

  /** Steps, and now and then times the steps with the CPU clock around a wait for the device. */
  private _stepTimed(b: Backend, n: number, now: number): void {
    const t = b.timings();
    if (t.timing === 'gpu') {
      this._bStep(b, n);
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
      this._bStep(b, n);
      return;
    }
    this._timingBusy = true;
    this._timingAt = now;
    // The step is submitted now, in order with everything else; the clock runs from its
    // submission to a completed wait for the device (work of the previous frame may still be in
    // flight, so this is an upper bound).
    const t0 = performance.now();
    this._bStep(b, n);
    const sync = b.sync ? b.sync() : b.readState().then(() => undefined);
    this._guard(sync)
      .then(() => {
        if (b !== this._backend) return;
        this.stats.stepMs = (performance.now() - t0) / n;
        this._clock.reportStepCost(this.stats.stepMs / 1000);
        this.stats.timing = 'cpu-wait';
        this.stats.passes = { ...b.timings().passes };
      })
      .catch((e: unknown) => {
        // A read cut by a loss or by dispose() is not an error of its own.
        if (b === this._backend && !b.isLost?.() && !(e instanceof FlockError)) this._emitError(e);
      })
      .finally(() => {
        this._timingBusy = false;
      });
  }

  /**
   * Matches the drawing buffer to the canvas's CSS size times devicePixelRatio, clamped to
   * `limit` device pixels per side (the backend's texture / renderbuffer / viewport limit; the
   * aspect ratio and the CSS size are kept, and stats.notes says so once).
   */
  private _resize(limit: number): void {
    const c = this._canvas;
    const cw = c.clientWidth;
    const ch = c.clientHeight;
    if (cw === 0 || ch === 0) return;
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    let w = Math.max(1, Math.round(cw * dpr));
    let h = Math.max(1, Math.round(ch * dpr));
    if (w > limit || h > limit) {
      const k = limit / Math.max(w, h);
      const note = `drawing buffer clamped from ${w}x${h} to ${Math.max(1, Math.floor(w * k))}x${Math.max(1, Math.floor(h * k))} (device limit ${limit} pixels per side); the CSS size is kept`;
      w = Math.max(1, Math.floor(w * k));
      h = Math.max(1, Math.floor(h * k));
      if (!this.stats.notes.some((n) => n.startsWith('drawing buffer clamped'))) {
        this.stats.notes.push(note);
      }
      // A canvas without a CSS size takes its size from its attributes: pin it first.
      if (!c.style.width) c.style.width = `${cw}px`;
      if (!c.style.height) c.style.height = `${ch}px`;
    }
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
      if (!e || this._disposed) return;
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
        if (!this._running && !this._disposed) this.render();
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

  /**
   * Stops the loop, frees every GPU object and listener, gives back the WebGL context of a canvas
   * the flock made (WEBGL_lose_context) and its share of the WebGPU device, and removes a canvas
   * the flock made. Calls in flight reject with FlockError field 'flock'; no event fires after
   * this. The caller's canvas stays (shown again if a 'sibling' fallback hid it). Idempotent.
   */
  dispose(): void {
    if (this._disposed) return;
    this.stop();
    this._disposed = true;
    this._bumpEpoch();
    for (const c of this._cleanups.splice(0)) c();
    this._restoreWaiter?.(false);
    this._restoreWaiter = null;
    safeDispose(this._backend);
    safeDispose(this._lostBackend);
    this._backend = null;
    this._lostBackend = null;
    this._starting = null;
    this._log = [];
    claimedCanvases.delete(this._canvas);
    if (this._callerCanvas) claimedCanvases.delete(this._callerCanvas);
    if (this._canvas !== this._callerCanvas) this._canvas.remove();
    if (this._hiddenCaller) {
      this._hiddenCaller.canvas.style.display = this._hiddenCaller.display;
      this._hiddenCaller = null;
    }
  }
}

/** The names of every parameter, for embedders building their own UI. */
export const PARAM_NAMES = PARAM_SCHEMA.map((s) => s.name);
