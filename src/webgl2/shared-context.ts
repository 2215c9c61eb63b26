/**
 * Many flocks, one context (issue 21, reproduction 8). Browsers keep about 16 live WebGL contexts
 * per page and evict the oldest beyond that, so 20 `<gpu-flock>` elements each on its own context
 * lose them in a cascade. Here the page keeps one WebGL2 context on an OffscreenCanvas for the
 * flocks beyond the first: each such flock keeps its own textures, framebuffers, programs and
 * vertex arrays in it, draws its frame into the shared drawing buffer sized to its own, and moves
 * the frame into its canvas as an ImageBitmap (transferToImageBitmap, then the canvas's
 * 'bitmaprenderer' context: transferFromImageBitmap hands the bitmap over without a copy, and it
 * stays in the canvas until the next frame, so reading the canvas or a screenshot sees it).
 *
 * The rule (docs/guide.md, "Many flocks on one page"): a flock's WebGL2 backend draws with its own
 * canvas's context while it is the only WebGL2 flock on the page (no copy, and `canvas`'s context
 * is the flock's); from the second live one on, flocks draw with the shared context. Never shared:
 * a flock with `limits` (the caps wrap one context's getParameter), and a canvas that already holds
 * a context (a caller's canvas a WebGL2 flock used before keeps that context). Backends created
 * directly (not by a flock) share only when asked (WebGL2PathInit.share).
 *
 * Every pass sets the GL state it depends on (framebuffer, viewport, program, vertex array, blend,
 * depth), as it already must between a flock's own draw and its next step. A loss of the shared
 * context is a loss for every flock on it: each one's backend hears 'webglcontextlost' on the
 * OffscreenCanvas and reports it as from its own (BackendInit.onLost, then onRestored once it has
 * rebuilt); src/flock/recovery.ts decides, per flock, between the restore and a fallback. Here only
 * the context's own bookkeeping: the last flock to leave gives the context back
 * (WEBGL_lose_context), at once or, when it is lost then, the moment it is restored.
 */
import type { DeviceLimits } from '../core/limits';
import { resetGLTracker, trackGL } from './gl-tracker';
import { serialQueue } from '../core/serial-queue';

/** The live WebGL2 backends that draw with their own canvas's context (see the rule above). */
const direct = new Set<object>();
/** The live (not disposed) WebGL2 backend drawing with each canvas's own context. */
const liveOn = new WeakMap<HTMLCanvasElement, object>();
/** The shared context of each WebGL2RenderingContext that is one. */
const sharedOf = new WeakMap<WebGL2RenderingContext, SharedGL>();
/** Canvases given a 'bitmaprenderer' context: they can only ever show shared frames. */
const bitmapCanvases = new WeakSet<HTMLCanvasElement>();

/** A WebGL2 context on an OffscreenCanvas that several flocks draw with. */
export class SharedGL {
  readonly canvas: OffscreenCanvas;
  readonly gl: WebGL2RenderingContext;
  /** Backends drawing with it now. */
  private users = 0;

  constructor(canvas: OffscreenCanvas, gl: WebGL2RenderingContext) {
    this.canvas = canvas;
    this.gl = trackGL(gl);
    sharedOf.set(gl, this);
    // Registered before any flock's listener, so the counts are cleared once, before the rebuilds.
    canvas.addEventListener('webglcontextlost', (e) => e.preventDefault());
    canvas.addEventListener('webglcontextrestored', () => {
      resetGLTracker(gl);
      // A context back after its last flock left (fell back, or was disposed mid-loss) is no
      // one's: give it back at once so it does not count against the page's cap (reproduction 2).
      if (this.users === 0) gl.getExtension('WEBGL_lose_context')?.loseContext();
    });
  }

  /** Flocks drawing with this context now. */
  get userCount(): number {
    return this.users;
  }

  /** One more flock draws with it. */
  acquire(): this {
    this.users++;
    return this;
  }

  /** A flock leaves (its GL objects already deleted); the last one gives the context back. */
  release(): void {
    if (this.users === 0) return;
    this.users--;
    if (this.users > 0) return;
    if (current === this) current = null;
    if (!this.gl.isContextLost()) this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }

  /** Sizes the shared drawing buffer to a flock's frame (width x height device pixels). */
  frame(width: number, height: number): void {
    const w = Math.max(1, Math.round(width));
    const h = Math.max(1, Math.round(height));
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
  }

  /** Moves the frame just drawn into a flock's canvas (no copy; the drawing buffer starts anew). */
  present(into: ImageBitmapRenderingContext): void {
    into.transferFromImageBitmap(this.canvas.transferToImageBitmap());
  }
}

/** The page's shared context (null until a second WebGL2 flock, or after the last one left). */
let current: SharedGL | null = null;

/**
 * The page's shared context with one more user, made on first use (or when the one in use is lost:
 * the flocks on a lost one recover on it, a new flock starts on a live one); null when this
 * browser has no OffscreenCanvas WebGL2.
 */
export function acquireSharedGL(attributes: WebGLContextAttributes): SharedGL | null {
  if (current && !current.gl.isContextLost()) return current.acquire();
  if (typeof OffscreenCanvas === 'undefined') return null;
  const canvas = new OffscreenCanvas(1, 1);
  const gl = canvas.getContext('webgl2', attributes) as WebGL2RenderingContext | null;
  if (!gl) return null;
  current = new SharedGL(canvas, gl);
  return current.acquire();
}

/**
 * The shared context and the MAX_TEXTURE_SIZE to use when a new WebGL2 backend on `init.canvas`
 * draws with it (one more user; the backend's ContextHome gives it back), else null: the backend
 * opens its canvas's own context. `init.shareContext`: true (asked), false (default: never) or
 * 'auto' (the rule above: another WebGL2 flock is live on the page). A canvas that shows shared
 * frames already ('bitmaprenderer') always shares; one that holds another context never does.
 */
export function openSharedGL(
  init: {
    canvas: HTMLCanvasElement;
    limits?: DeviceLimits | null;
    maxTextureSize?: number;
    shareContext?: boolean | 'auto';
  },
  attributes: WebGLContextAttributes,
): { gl: WebGL2RenderingContext; maxTextureSize: number } | null {
  if (init.limits) return null;
  const share = init.shareContext ?? false;
  const others = direct.size > 0 || (current !== null && current.userCount > 0);
  const wanted = share === 'auto' ? others : share;
  if (!wanted && !bitmapCanvases.has(init.canvas)) return null;
  const shared = acquireSharedGL(attributes);
  if (!shared) return null;
  const bitmap = init.canvas.getContext('bitmaprenderer');
  if (!bitmap) {
    shared.release();
    return null;
  }
  bitmapCanvases.add(init.canvas);
  const deviceMax = shared.gl.getParameter(shared.gl.MAX_TEXTURE_SIZE) as number;
  return { gl: shared.gl, maxTextureSize: Math.min(deviceMax, init.maxTextureSize ?? deviceMax) };
}

/**
 * Where one WebGL2 backend's context lives: its canvas's own, or the shared one (then its frames
 * are moved into its canvas). Says where loss events come from, sizes and hands over frames, and
 * gives the context back when the backend goes.
 */
export class ContextHome {
  /** The shared context the backend draws with, or null (its canvas's own). */
  readonly shared: SharedGL | null;
  private readonly bitmap: ImageBitmapRenderingContext | null;
  /** Fires 'webglcontextlost' / 'webglcontextrestored' for the backend's context. */
  private readonly events: EventTarget;
  private listening: { lost: (e: Event) => void; restored: () => void } | null = null;
  private detached = false;
  /** A loss came before attach() (during the start): its event found no backend listening. */
  private lostEarly = false;
  /**
   * Until attach(): keeps the context restorable (a loss nobody called preventDefault() on is
   * never restored: Chromium refuses restoreContext()) and notes that it came.
   */
  private readonly early = (e: Event): void => {
    e.preventDefault();
    this.lostEarly = true;
  };

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly gl: WebGL2RenderingContext,
  ) {
    this.shared = sharedOf.get(gl) ?? null;
    this.bitmap = this.shared ? this.canvas.getContext('bitmaprenderer') : null;
    this.events = this.shared?.canvas ?? canvas;
    this.events.addEventListener('webglcontextlost', this.early);
    // Counted as a direct context from its construction, not only once its start has finished:
    // the start awaits its program links (ProgramCache.warm), and flocks starting meanwhile must
    // see this one and share a context (20 flocks took 16 contexts, evicting one, when it was
    // counted in attach()). detach() removes it.
    if (!this.shared) direct.add(this);
  }

  /**
   * The backend is up: listen for losses of its context. @returns whether the context was lost
   * while it started (that event came before this listener; the backend handles it now).
   */
  attach(lost: (e: Event) => void, restored: () => void): boolean {
    this.events.removeEventListener('webglcontextlost', this.early);
    this.listening = { lost, restored };
    this.events.addEventListener('webglcontextlost', lost);
    this.events.addEventListener('webglcontextrestored', restored);
    if (!this.shared) {
      direct.add(this);
      liveOn.set(this.canvas, this);
    }
    return this.lostEarly;
  }

  /** The context came back, before the backend rebuilds: the old objects are gone. */
  restored(): void {
    // A shared context clears its counts once, before every flock on it rebuilds.
    if (!this.shared) resetGLTracker(this.gl);
  }

  /** Before a frame is drawn into the default framebuffer (width x height device pixels). */
  beginFrame(width: number, height: number): void {
    this.shared?.frame(width, height);
  }

  /** After a frame is drawn: a shared frame goes to the canvas. */
  endFrame(): void {
    if (this.shared && this.bitmap) this.shared.present(this.bitmap);
  }

  /**
   * The backend is gone (its GL objects deleted) or failed to start. A shared context loses a
   * user; a canvas's own context is given back when the flock made the canvas (`ownsCanvas`), now
   * or, when it is lost now, the moment it is restored.
   */
  detach(ownsCanvas: boolean): void {
    if (this.detached) return;
    this.detached = true;
    this.events.removeEventListener('webglcontextlost', this.early);
    if (this.listening) {
      this.events.removeEventListener('webglcontextlost', this.listening.lost);
      this.events.removeEventListener('webglcontextrestored', this.listening.restored);
    }
    if (this.shared) {
      this.shared.release();
      return;
    }
    direct.delete(this);
    const { gl, canvas } = this;
    if (liveOn.get(canvas) === this) liveOn.delete(canvas);
    // Give the context back now rather than when the canvas is collected: browsers keep ~16
    // live contexts per page and evict the oldest (another flock) beyond that.
    if (gl.isContextLost()) {
      // Lost now (the flock falls back, or is disposed mid-loss) and maybe restored later, when
      // the page or the browser calls restoreContext: a context that comes back after its flock
      // moved on is no one's, and would count against that cap forever on a detached canvas.
      // Give it back the moment it returns (issue 21, reproduction 2).
      // A caller's canvas still in the page keeps it for the next user, as a live one does.
      const release = () => {
        if (liveOn.has(canvas) || (!ownsCanvas && canvas.isConnected)) return;
        gl.getExtension('WEBGL_lose_context')?.loseContext();
      };
      canvas.addEventListener('webglcontextrestored', release, { once: true });
    } else if (ownsCanvas) {
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  }
}

/**
 * Runs a WebGL2 path's start (its resource build and program links, ProgramCache.warm) once the
 * starts queued before it have finished and the page has had a task of its own (serialQueue).
 * Where programs link in the GPU process one after another (SwiftShader: no
 * KHR_parallel_shader_compile), a synchronous call (getProgramParameter, getUniformBlockIndex,
 * checkFramebufferStatus) waits for every link queued before it, other flocks' too on the shared
 * context: 20 elements starting at once each waited for the others' links, gaps of 1-3.5 s in the
 * page (issue 31 item 7). One start at a time, a flock's checks wait only for its own links, which
 * the start awaited without blocking (gpuDone). The GPU process links one at a time anyway: the
 * last flock is up no later.
 */
export const oneStartAtATime = serialQueue();
