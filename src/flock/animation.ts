/**
 * The animation: how the flock is shown and moves on screen. It keeps the view options and the
 * camera (checked by the Flock before they come here), runs the frame loop (frame-loop.ts) whose
 * frames take the fixed steps real time asks (timed by step-timer.ts) and draw them (frame-view.ts
 * builds what one draw needs), and keeps the journal's snapshot fresh while it runs. Recovery says
 * when a backend is up to step and draw.
 */
import type { Backend } from '../backend';
import type { FlockParams, Vec3 } from '../core/params';
import { pointerToWorld as worldUnderPointer } from '../core/pointer';
import { defaultCamera, type OrbitCamera } from '../core/render-math';
import { viewStatic, type ViewStatic } from '../core/scene';
import { viewBackground, type ViewOptions } from '../core/view';
import { resolveAutoPalette } from './auto-palette';
import { DEFAULT_MAX_CANVAS } from './backend-host';
import type { Epoch } from './epoch';
import { FrameLoop, type FrameSource } from './frame-loop';
import { frameView } from './frame-view';
import type { Journal } from './journal';
import type { FlockStats } from './options';
import { StepTimer } from './step-timer';
import type { FlockSurface } from './surface';

/** Steps a backend may have queued before the frame loop stops adding more. */
const MAX_PENDING_STEPS = 4;

/** What the animation needs from the flock. */
export interface AnimationHooks {
  /** The live backend, or null while none is up. */
  backend(): Backend | null;
  /** Whether a backend is up to step and draw this frame (Recovery.readyForFrame). */
  ready(): boolean;
  /** Whether a draw may run now (not disposed, no loss being recovered). */
  drawable(): boolean;
  /** Whether a queued call holds the loop's steps back (a species change reads the state back). */
  holdSteps(): boolean;
  /** While running: the state of `b` becomes the journal's snapshot now and then (Recovery.refreshSnapshot). */
  snapshot(b: Backend, now: number): void;
  /** Reports an error the caller cannot catch ('error' event). */
  error(e: unknown): void;
}

export class Animation {
  readonly loop: FrameLoop;
  readonly stepTimer: StepTimer;
  /** The frame source's clock, milliseconds. */
  readonly now: () => number;
  /** The camera the next draw uses (checked by the Flock). */
  camera: OrbitCamera;
  private _view: ViewOptions;
  private _fixed: ViewStatic;

  constructor(
    private readonly _surface: FlockSurface,
    frames: FrameSource,
    private readonly _journal: Journal,
    epoch: Epoch,
    private readonly _stats: FlockStats,
    view: ViewOptions,
    params: FlockParams,
    private readonly _hooks: AnimationHooks,
  ) {
    this.now = () => frames.now();
    this._view = view;
    const drawn = resolveAutoPalette(view, _surface.canvas);
    this._fixed = viewStatic(drawn);
    _surface.showBackground(viewBackground(drawn));
    this.camera = defaultCamera(params);
    this.loop = new FrameLoop(
      frames,
      {
        ready: () => _hooks.ready(),
        holdSteps: () =>
          (_hooks.backend()?.pendingSteps ?? 0) > MAX_PENDING_STEPS || _hooks.holdSteps(),
        frame: (steps, now) => this._frame(steps, now),
      },
      _stats,
      params.timeStep,
    );
    this.loop.setMaxFps(view.maxFps);
    this.stepTimer = new StepTimer(_journal, epoch, this.loop.pacer, _stats, {
      isCurrent: (b) => b === _hooks.backend(),
      failed: (e) => _hooks.error(e),
      nowMs: () => frames.now(),
    });
  }

  /** The view options in use. */
  get view(): ViewOptions {
    return this._view;
  }

  /** New view options (checked by the Flock): the loop's frame rate, the CSS background; a stopped flock redraws. */
  setView(next: ViewOptions): void {
    this._view = next;
    // palette 'auto': the page is read again (its colours may have changed since).
    const drawn = resolveAutoPalette(next, this._surface.canvas);
    this._fixed = viewStatic(drawn);
    this.loop.setMaxFps(next.maxFps);
    this._surface.showBackground(viewBackground(drawn));
    if (!this.loop.running) this.render();
  }

  /** New parameters asked for: the fixed step; a camera reframed for a new box or dimensions. */
  paramsAsked(next: FlockParams, reframe: boolean): void {
    this.loop.pacer.timeStep = next.timeStep;
    if (reframe) this.camera = defaultCamera(next);
  }

  /** Draws the current state now, when a backend is up (the loop does this every frame while running). */
  render(): void {
    const b = this._hooks.backend();
    if (!b || !this._hooks.drawable()) return;
    this.fitCanvas(b.maxCanvasSize ?? DEFAULT_MAX_CANVAS);
    const c = this._surface.canvas;
    const time = (b as { time?: number }).time ?? 0;
    const p = this._journal.params;
    b.render(frameView(c.width, c.height, this.camera, p, this._view, this._fixed, time));
    this._surface.frameDrawn(this._fixed.background[3] >= 1);
  }

  /**
   * The world point under (clientX, clientY) on the plane through the box centre facing the
   * camera (Flock.pointerToWorld), or null.
   */
  pointerToWorld(clientX: number, clientY: number): Vec3 | null {
    const c = this._surface.canvas;
    const canvas = { rect: this._surface.clientRect(), width: c.width, height: c.height };
    const p = this._journal.params;
    return worldUnderPointer(clientX, clientY, canvas, this.camera, p, this._view.fit);
  }

  /**
   * The page's events drive the loop: none while idle (hidden page, canvas off-screen); on a
   * resize `resized`, and a stopped flock redraws. What they throw becomes an 'error' event, never
   * an uncaught error in the page's handler.
   */
  watchPage(resized: () => void): void {
    const guarded = (f: () => void) => {
      try {
        f();
      } catch (e) {
        this._hooks.error(e);
      }
    };
    this._surface.watch({
      idleChanged: (idle) => guarded(() => this.loop.setIdle(idle)),
      resized: () =>
        guarded(() => {
          resized();
          if (!this.loop.running) this.render();
        }),
    });
  }

  /** Sizes the drawing buffer to at most `limit` pixels per side; stats.notes says when clamped. */
  fitCanvas(limit: number): void {
    const note = this._surface.fitDrawingBuffer(limit, this._view.resolutionScale);
    if (note) this._stats.notes.push(note);
  }

  /** One frame of the loop: `steps` fixed steps, a draw, and now and then a snapshot. */
  private _frame(steps: number, now: number): void {
    const b = this._hooks.backend()!;
    try {
      if (steps > 0) this.stepTimer.step(b, steps, now);
      this.render();
    } catch (e) {
      if (b === this._hooks.backend() && !b.isLost?.()) this._hooks.error(e);
    }
    this._hooks.snapshot(b, now);
  }
}
