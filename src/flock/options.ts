/**
 * What createFlock accepts and what the flock reports (DESIGN.md section 4), and the checks of
 * everything a caller hands in: options, partial parameter / view objects, the camera. No DOM:
 * these run in Node too. Every check throws a FlockError naming the field, the value and what is
 * allowed, before anything changes.
 */
import type { BackendKind, PassTimes } from '../backend';
import { BACKEND_LADDER, NO_PASS_TIMES } from '../backend';
import { FlockError } from '../core/errors';
import { checkLimits, limitsDisable, type DeviceLimits } from '../core/limits';
import { defaultParams, needsReinit, validateParams, type FlockParams } from '../core/params';
import type { OrbitCamera } from '../core/render-math';
import { validateState, type FlockState } from '../core/state';
import { defaultView, validateView, type ViewInput, type ViewOptions } from '../core/view';
import { messageOf } from './run-errors';

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

/** What createFlock's `backend` takes: 'auto' (walk the ladder) or one rung, which must run. */
export type BackendChoice = 'auto' | BackendKind;

/** |attractorStrength| flock.pointer() uses while the parameters' is 0, world units/s². */
export const POINTER_STRENGTH = 8;

/** createFlock's options; every field is optional. */
export interface FlockOptions {
  /** 'auto' (default) walks the ladder webgpu -> webgl2 -> webgl2-tf -> cpu; an explicit kind must run or createFlock rejects. */
  backend?: BackendChoice;
  /**
   * Parameters over the defaults; seed and count are parameters. Given any, the box is DESIGN's
   * 64-unit cube (or the one given) framed with fit contain, as the CPU reference runs them.
   */
  params?: Partial<FlockParams>;
  /**
   * View options over the defaults (src/core/view.ts VIEW_SCHEMA): background, colours, framing, ...
   * Without `params`, `initialState` and `view.autoBounds` the defaults fill the canvas as the
   * element does: autoBounds true, fit 'cover' (FILL_VIEW).
   */
  view?: ViewInput;
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
  /**
   * 'auto' (default): follow the page's `prefers-reduced-motion`, as the <gpu-flock> element
   * does: under `reduce` the flock flies unseen until it has formed groups (at most
   * STILL_BUDGET_MS, 6 s, of wall time) and draws one still frame instead of the view.warmup, and
   * start() holds the loop (`running` stays false; step() and render() draw on demand) until the
   * preference changes; a running loop stops when the page turns to `reduce`. 'always': animate
   * anyway, for apps that show motion on purpose (the preference is not read).
   */
  motion?: 'auto' | 'always';
}

/** What `flock.stats` reports about the frame loop and the steps, updated as the loop runs. */
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

/** Stats before anything was measured. */
export function noStats(): FlockStats {
  return {
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
}

/** What the 'contextrestored' and 'fallback' events carry besides their own fields. */
export interface RecoveryDetail {
  /** Boids in the recovered state. */
  count: number;
  /** Steps given since the last snapshot, run again on the restored or new backend. */
  replayedSteps: number;
  /**
   * Steps given before the loss that the recovered state does not hold: 0 (nothing is lost; a
   * step() call the loss interrupts goes on after the recovery). Kept for callers that check it.
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
  'motion',
];
const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', ...BACKEND_LADDER];
/** The options createFlock takes, checked (params, view and initialState are checked apart). */
export interface CheckedOptions {
  backend: BackendChoice;
  autoStart: boolean | undefined;
  disable: Set<string>;
  fallbackCanvas: 'detached' | 'sibling';
  limits: DeviceLimits | null;
  motion: 'auto' | 'always';
}

/** @throws FlockError naming the option, the value and what is allowed. */
export function checkOptions(options: unknown): CheckedOptions {
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
  const motion = o.motion === undefined ? 'auto' : o.motion;
  if (motion !== 'auto' && motion !== 'always') {
    throw new FlockError('motion', motion, '"auto" or "always"');
  }
  return {
    backend: backend as BackendChoice,
    autoStart,
    // No timer query under the caps: the timers are hidden like disable hides them.
    disable: new Set([...(disable as string[]), ...limitsDisable(limits)]),
    fallbackCanvas,
    limits,
    motion,
  };
}

/** The defined entries of a partial (undefined values are ignored), read once. */
export function definedEntries(partial: unknown, field: string): Record<string, unknown> {
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
export function checkCamera(c: unknown): OrbitCamera {
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

/**
 * What createFlock draws given no model (issue 27 item 3: every way in fills its canvas), as the
 * <gpu-flock> element given no box: the box follows the canvas's shape (autoBounds, at DESIGN's
 * default density) framed with fit cover, so the flock spans the canvas.
 */
export const FILL_VIEW: Readonly<Pick<ViewOptions, 'autoBounds' | 'fit'>> = {
  autoBounds: true,
  fit: 'cover',
};

/**
 * Whether createFlock's options give no model: no `params` (or none defined), no `initialState`
 * and no `view.autoBounds`. Then FILL_VIEW is the view's default (a `view.fit` given still wins).
 * Any params keep DESIGN's 64-unit box and fit contain: the scene of the CPU reference
 * (`referenceStep` over `validateParams(params)`), which callers and tests compare with.
 */
export function fillsCanvas(
  rawParams: unknown,
  rawState: unknown,
  view: Record<string, unknown>,
): boolean {
  if (rawState !== undefined || view.autoBounds !== undefined) return false;
  return rawParams === undefined || Object.keys(definedEntries(rawParams, 'params')).length === 0;
}

/**
 * The parameters, view and initial state of createFlock's options, checked; an initial state's
 * count wins over params.count. Given no model (fillsCanvas), the view's defaults are FILL_VIEW's.
 * @throws FlockError naming the field, the value and what is allowed.
 */
export function checkStartInputs(options: FlockOptions): {
  params: FlockParams;
  view: ViewOptions;
  state: FlockState | null;
} {
  const o = options as Record<string, unknown>;
  const rawParams = o.params;
  if (rawParams !== undefined && (rawParams === null || typeof rawParams !== 'object')) {
    throw new FlockError('params', rawParams, 'an object of parameter names to values');
  }
  let params = validateParams(
    rawParams === undefined ? {} : definedEntries(rawParams, 'params'),
    defaultParams(),
  );
  const rawView = o.view;
  const given = rawView === undefined ? {} : definedEntries(rawView, 'view');
  const rawState = o.initialState;
  const view = validateView(
    given as Partial<ViewOptions>,
    fillsCanvas(rawParams, rawState, given) ? { ...defaultView(), ...FILL_VIEW } : defaultView(),
  );
  let state: FlockState | null = null;
  if (rawState !== undefined) {
    state = validateState(rawState, params.dimensions, undefined, params.species);
    params = { ...params, count: state.count };
  }
  return { params, view, state };
}

/**
 * The fields of a checked partial `given` whose values differ from `current`, and what they ask
 * for: `reinit` (count, dimensions or seed: a new state from the seed), `respecies` (species
 * re-assigned, the state kept), `reframe` (the box or dimensions: the camera is reset).
 */
export function paramChanges(
  given: Record<string, unknown>,
  current: FlockParams,
): { changed: string[]; reinit: boolean; respecies: boolean; reframe: boolean } {
  const was = current as unknown as Record<string, unknown>;
  const changed = Object.keys(given).filter(
    (k) => JSON.stringify(given[k]) !== JSON.stringify(was[k]),
  );
  const reinit = needsReinit(changed);
  return {
    changed,
    reinit,
    respecies: !reinit && changed.includes('species'),
    reframe: changed.some((k) => k === 'boundsMin' || k === 'boundsMax' || k === 'dimensions'),
  };
}
