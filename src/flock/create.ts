/**
 * createFlock (DESIGN.md section 4), and createFlockWith, the seam through which tests replace
 * the page's parts (backends, surface, frame source) to run a Flock in Node.
 */
import { registerBuiltinBackends } from '../builtin-backends';
import { REGISTERED_BACKENDS, type BackendProvider } from './backend-host';
import { RESTORE_TIMEOUT_MS } from './recovery';
import { FlockError } from '../core/errors';
import { Flock } from './flock';
import { ANIMATION_FRAMES, pageMotionPreference, withMotion, type FrameSource } from './frame-loop';
import { checkOptions, checkStartInputs, type FlockOptions } from './options';
import { DomSurface, checkTarget, type FlockSurface } from './surface';
import { stillWarmUp } from './warmup';

/**
 * @internal What a test puts in place of the page's parts (not public API): backends (a fake
 * backend), the surface (no DOM in Node), the frame source, the restore timeout.
 */
export interface FlockSeams {
  backends?: BackendProvider;
  surface?: FlockSurface;
  /** The frame source; its `motion` (when set, null included) stands for the page's preference. */
  frames?: FrameSource;
  /** Milliseconds a lost WebGL context may take to come back (default RESTORE_TIMEOUT_MS). */
  restoreTimeoutMs?: number;
}

/**
 * Creates a flock that simulates and draws into `target`. With no options (no `params`,
 * `initialState` or `view.autoBounds`) it fills the canvas as `<gpu-flock>` does: 16,384 boids
 * in a formed start, the box of the canvas's shape (view.autoBounds) framed with fit 'cover'.
 * Given `params`, the box is DESIGN's 64-unit cube (or the one given) with fit 'contain'.
 * @param target a canvas to draw into, or an element in which the flock makes and manages its own
 *   full-size canvas; without one, a detached 640x480 canvas (`flock.canvas`) is made and the loop
 *   does not start until start() (unless autoStart: true).
 *   With `prefers-reduced-motion: reduce` (and options.motion 'auto', the default) the flock
 *   forms unseen, draws one still frame and its loop is held until the preference changes; step()
 *   and render() still draw on demand; motion: 'always' animates anyway.
 * @throws FlockError (as a rejection) for bad options/params/state; field 'target' for null (a
 *   lookup that found nothing), a target that is not an element or not in the document, a canvas
 *   another live flock draws into, or a canvas that already holds another context type (e.g. '2d'); field 'backend' when an explicit backend cannot run here (the
 *   reason in the message). Only 'auto' falls back. Field 'target' too where there is no DOM
 *   (Node, server rendering: no document or HTMLCanvasElement), allowed "a browser with a DOM".
 */
export async function createFlock(
  target?: HTMLCanvasElement | HTMLElement | null,
  options: FlockOptions = {},
): Promise<Flock> {
  if (typeof document === 'undefined' || typeof HTMLCanvasElement === 'undefined') {
    // Node or server rendering: the schema and the CPU reference work there, a flock does not.
    throw new FlockError(
      'target',
      target,
      'a browser with a DOM (document and HTMLCanvasElement; WebGPU, WebGL2 or the cpu rung draws into a canvas)',
      `createFlock ran where ${typeof document === 'undefined' ? 'there is no document' : 'there is no HTMLCanvasElement'} ` +
        '(Node or server rendering); there use the schema and the CPU reference (PARAM_SCHEMA, validateParams; referenceStep from gpu-flock/reference) and create flocks in the browser',
    );
  }
  registerBuiltinBackends();
  return createFlockWith(target, options, {});
}

/**
 * @internal createFlock with parts replaced (tests: a fake backend and surface in Node). Without
 * seams it is createFlock less the page check and the registration of the built-in backends.
 */
export async function createFlockWith(
  target: HTMLCanvasElement | HTMLElement | null | undefined,
  options: FlockOptions,
  seams: FlockSeams,
): Promise<Flock> {
  const opts = checkOptions(options);
  if (!seams.surface) checkTarget(target);
  const { params, view, state } = checkStartInputs(options);
  const surface = seams.surface ?? new DomSurface(target, opts.fallbackCanvas);
  // motion 'auto': the loop follows prefers-reduced-motion (FrameSource.motion, frame-loop.ts).
  const base = seams.frames ?? ANIMATION_FRAMES;
  const frames =
    opts.motion === 'always'
      ? withMotion(base, null)
      : base.motion !== undefined
        ? base
        : withMotion(base, pageMotionPreference());
  const flock = new Flock(surface, params, view, {
    backends: seams.backends ?? REGISTERED_BACKENDS,
    frames,
    disable: opts.disable,
    limits: opts.limits,
    restoreTimeoutMs: seams.restoreTimeoutMs ?? RESTORE_TIMEOUT_MS,
  });
  try {
    await flock._startBackend(opts.backend, state);
  } catch (e) {
    flock.dispose();
    throw e;
  }
  // view.warmup: flown unseen first, so the first frame shows a formed flock (DESIGN section 7).
  // Under reduced motion, the still frame's longer warm-up instead (the flock forms unseen).
  const still = frames.motion?.reduce === true;
  if (still || flock.view.warmup > 0) {
    try {
      await (still ? stillWarmUp(flock, () => frames.now()) : flock._warmUp());
    } catch (e) {
      flock.dispose();
      throw e;
    }
  }
  // The first frame now, so the canvas never shows an undrawn buffer.
  flock.render();
  if (opts.autoStart ?? (target !== undefined && target !== null)) flock.start();
  return flock;
}
