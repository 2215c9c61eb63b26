/**
 * The surface: the canvas a flock draws into and everything about it that is the page's business
 * rather than the backend's: who owns the canvas, the fresh canvas a run-time fallback needs (a
 * canvas keeps its first context type), the drawing-buffer size, the CSS background shown before
 * the first frame, and the observers that say when the page is hidden, the canvas off-screen or
 * resized. The flock sees only the FlockSurface interface, so tests in Node inject their own.
 */
import { FlockError } from '../core/errors';
import { parseCssColor } from '../core/color';
import { drawingBufferSize } from '../core/page';

/** A box in CSS pixels of the viewport (as getBoundingClientRect gives). */
export interface ClientRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What a surface tells the flock. */
export interface SurfaceEvents {
  /** The page was hidden or shown, or the canvas went off-screen or came back (see `idle`). */
  idleChanged(idle: boolean): void;
  /** The canvas changed size (a stopped flock redraws). */
  resized(): void;
}

export interface FlockSurface {
  /** The canvas drawn into now (a run-time fallback may move to a new one). */
  readonly canvas: HTMLCanvasElement;
  /** True while drawing into the caller's own canvas (its context must not be given back). */
  readonly onCallerCanvas: boolean;
  /** True while the page is hidden or the canvas is in the page but off-screen. */
  readonly idle: boolean;
  /** Moves to a fresh canvas for the next rung of the ladder. */
  nextCanvas(): void;
  /**
   * Matches the drawing buffer to the canvas's CSS size times devicePixelRatio, clamped to
   * `limit` device pixels per side. @returns a note the first time it was clamped, else null.
   */
  fitDrawingBuffer(limit: number, resolutionScale?: number): string | null;
  /** The canvas's box in CSS pixels (for pointer picking). */
  clientRect(): ClientRect;
  /** The view's background (a CSS colour): shown as the canvas's CSS background until drawn. */
  showBackground(css: string): void;
  /** A frame was drawn: a translucent CSS background goes (the frame carries it). */
  frameDrawn(opaqueBackground: boolean): void;
  /** Starts the page observers (visibility, intersection, resize). */
  watch(events: SurfaceEvents): void;
  /** Stops the observers and gives the page back what the flock changed. Idempotent. */
  dispose(): void;
}

/** Canvases a live flock draws into: a second flock on one of them is a FlockError on 'target'. */
const claimedCanvases = new WeakSet<HTMLCanvasElement>();

/**
 * @throws FlockError on 'target' for null (a lookup that found nothing), a target that is not an
 *   element, an element that is not in the document (detached: never seen), or a canvas another
 *   live flock draws into. `undefined` (no target) is allowed: a detached canvas the caller reads.
 */
export function checkTarget(target: unknown): void {
  // null is what querySelector / getElementById give when they find nothing: a flock drawn into a
  // canvas nobody sees would be a blank page with no error.
  if (target === null) {
    throw new FlockError(
      'target',
      target,
      "an element in the page (a canvas, or a container for the flock's canvas), or no target at all (undefined: a detached canvas, flock.canvas)",
      'a querySelector or getElementById that found nothing gives null',
    );
  }
  if (target !== undefined && !(target instanceof HTMLElement)) {
    throw new FlockError('target', target, 'an HTMLCanvasElement, another HTMLElement, or nothing');
  }
  if (target instanceof HTMLElement && !target.isConnected) {
    throw new FlockError(
      'target',
      target,
      'an element in the page',
      'this one is not attached to the document, so nothing it holds is ever seen: append it first',
    );
  }
  if (target instanceof HTMLCanvasElement && claimedCanvases.has(target)) {
    throw new FlockError(
      'target',
      target,
      'a canvas no other live flock draws into',
      'dispose the other flock first, or give each flock its own canvas or container',
    );
  }
}

function makeCanvas(like?: HTMLCanvasElement): HTMLCanvasElement {
  const c = document.createElement('canvas');
  if (like) {
    for (const attr of Array.from(like.attributes)) {
      if (attr.name !== 'id' && attr.name !== 'style') c.setAttribute(attr.name, attr.value);
    }
    // Through the CSSOM: a style attribute set with setAttribute is an inline style that a strict
    // CSP (no 'unsafe-inline' in style-src) blocks, and the canvas would lose the page's sizing.
    c.style.cssText = like.style.cssText;
    c.width = like.width;
    c.height = like.height;
  } else {
    c.width = 640;
    c.height = 480;
  }
  return c;
}

/** A canvas in a page (or a detached one made by the flock). */
export class DomSurface implements FlockSurface {
  private _canvas: HTMLCanvasElement;
  /** The canvas the caller gave (never removed or replaced), or null. */
  private readonly _callerCanvas: HTMLCanvasElement | null;
  private _hiddenCaller: { canvas: HTMLCanvasElement; display: string } | null = null;
  /** The canvas CSS background this flock set (shown before the first frame), or null. */
  private _cssBackground: string | null = null;
  private _background: string | null = null;
  private _events: SurfaceEvents | null = null;
  private _hidden = false;
  private _offscreen = false;
  private _intersection: IntersectionObserver | null = null;
  private _resize: ResizeObserver | null = null;
  private _stopVisibility: (() => void) | null = null;
  private _disposed = false;
  private _clampNoted = false;

  /**
   * @param target a canvas to draw into, an element to make a full-size canvas in, or nothing
   *   (a detached 640x480 canvas).
   * @param fallbackCanvas where a run-time fallback draws when the target is the caller's canvas
   *   (FlockOptions.fallbackCanvas).
   * @throws FlockError on 'target' for a target that is not an element, or a canvas another live
   *   flock draws into.
   */
  constructor(
    target: HTMLCanvasElement | HTMLElement | null | undefined,
    private readonly _fallbackCanvas: 'detached' | 'sibling',
  ) {
    checkTarget(target);
    if (target instanceof HTMLCanvasElement) {
      this._canvas = target;
      this._callerCanvas = target;
    } else {
      this._canvas = makeCanvas();
      this._callerCanvas = null;
      if (target) {
        const style = this._canvas.style;
        style.width = '100%';
        style.height = '100%';
        style.display = 'block';
        target.appendChild(this._canvas);
      }
    }
    claimedCanvases.add(this._canvas);
  }

  get canvas(): HTMLCanvasElement {
    return this._canvas;
  }

  get onCallerCanvas(): boolean {
    return this._canvas === this._callerCanvas;
  }

  get idle(): boolean {
    return this._hidden || this._offscreen;
  }

  nextCanvas(): void {
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
    if (this._background !== null) this.showBackground(this._background);
    if (this._events) this._observeCanvas();
  }

  fitDrawingBuffer(limit: number, resolutionScale = 1): string | null {
    const c = this._canvas;
    const cw = c.clientWidth;
    const ch = c.clientHeight;
    const size = drawingBufferSize(cw, ch, window.devicePixelRatio, resolutionScale, limit);
    if (!size) return null;
    const { width: w, height: h } = size;
    let note: string | null = null;
    if (size.clamped) {
      if (!this._clampNoted)
        note = `drawing buffer clamped from ${size.wanted.width}x${size.wanted.height} to ${w}x${h} (device limit ${limit} pixels per side); the CSS size is kept`;
      this._clampNoted = true;
      // A canvas without a CSS size takes its size from its attributes: pin it first.
      if (!c.style.width) c.style.width = `${cw}px`;
      if (!c.style.height) c.style.height = `${ch}px`;
    }
    if (c.width !== w || c.height !== h) {
      c.width = w;
      c.height = h;
    }
    return note;
  }

  clientRect(): ClientRect {
    return this._canvas.getBoundingClientRect();
  }

  /**
   * Until the first frame, a canvas shows what is behind it (WebGPU pipelines can take seconds to
   * build): give it the view's background as a CSS background, unless the page styled one itself.
   * A translucent one is removed once a frame is drawn (the frame carries it); an opaque one stays
   * (it shows while a lost context comes back).
   */
  showBackground(css: string): void {
    this._background = css;
    const style = this._canvas.style;
    if (style.backgroundColor !== '' && style.backgroundColor !== this._cssBackground) return;
    const c = parseCssColor(css);
    style.backgroundColor = c && c[3] > 0 ? css : '';
    this._cssBackground = style.backgroundColor || null;
  }

  frameDrawn(opaqueBackground: boolean): void {
    if (this._cssBackground === null || opaqueBackground) return;
    if (this._canvas.style.backgroundColor === this._cssBackground) {
      this._canvas.style.backgroundColor = '';
    }
    this._cssBackground = null;
  }

  watch(events: SurfaceEvents): void {
    this._events = events;
    const onVisibility = () => {
      this._hidden = document.visibilityState === 'hidden';
      events.idleChanged(this.idle);
    };
    document.addEventListener('visibilitychange', onVisibility);
    this._stopVisibility = () => document.removeEventListener('visibilitychange', onVisibility);
    this._observeCanvas();
  }

  private _observeCanvas(): void {
    const events = this._events!;
    this._intersection?.disconnect();
    if (typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      const e = entries[entries.length - 1];
      if (!e || this._disposed) return;
      // A detached canvas is never "intersecting"; only pause canvases that are in the page.
      this._offscreen = this._canvas.isConnected && !e.isIntersecting;
      events.idleChanged(this.idle);
    });
    io.observe(this._canvas);
    this._intersection = io;
    // A paused flock redraws when its canvas changes size (the loop redraws every frame anyway).
    this._resize?.disconnect();
    if (typeof ResizeObserver !== 'undefined') {
      this._resize = new ResizeObserver(() => {
        if (!this._disposed) events.resized();
      });
      this._resize.observe(this._canvas);
    }
  }

  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this._stopVisibility?.();
    this._intersection?.disconnect();
    this._resize?.disconnect();
    this._events = null;
    claimedCanvases.delete(this._canvas);
    if (this._callerCanvas) claimedCanvases.delete(this._callerCanvas);
    if (this._canvas !== this._callerCanvas) this._canvas.remove();
    if (this._hiddenCaller) {
      this._hiddenCaller.canvas.style.display = this._hiddenCaller.display;
      this._hiddenCaller = null;
    }
  }
}
