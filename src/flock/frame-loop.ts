/**
 * The frame loop: start/stop over a frame source (requestAnimationFrame in a page, a hand-driven
 * one in tests), the FramePacer (src/core/frame-clock.ts) that says how many fixed steps each
 * frame takes, and the frame-rate stats. What a frame does (step, draw) is the flock's: the loop
 * calls `frame(steps, now)`.
 */
import { FrameCap, FramePacer } from '../core/frame-clock';
import type { FlockStats } from './options';

/** Where frames come from. */
export interface FrameSource {
  /** Calls `cb` before the next frame with its time in milliseconds; returns a handle for cancel. */
  request(cb: (timeMs: number) => void): number;
  cancel(handle: number): void;
  /** A clock in milliseconds (for timing work; performance.now in a page). */
  now(): number;
  /**
   * The page's motion preference the loop follows (createFlock's `motion: 'auto'`): while it
   * asks for reduced motion, start() holds the loop (no frames; `running` stays false) and the
   * loop starts when the preference changes. Absent or null: the loop always runs when started.
   */
  readonly motion?: MotionPreference | null;
}

/**
 * The page's `prefers-reduced-motion` as the frame loop reads it (a MediaQueryList in a page, a
 * hand-set one in tests).
 */
export interface MotionPreference {
  /** True while the page asks for reduced motion. */
  readonly reduce: boolean;
  /** Calls `cb` whenever `reduce` changes; returns the function that stops the calls. */
  watch(cb: () => void): () => void;
}

/**
 * `matchMedia('(prefers-reduced-motion: reduce)')` as a MotionPreference; null where there is no
 * matchMedia (Node, very old browsers).
 */
export function pageMotionPreference(): MotionPreference | null {
  if (typeof matchMedia !== 'function') return null;
  const q = matchMedia('(prefers-reduced-motion: reduce)');
  return {
    get reduce() {
      return q.matches;
    },
    watch(cb) {
      q.addEventListener('change', cb);
      return () => q.removeEventListener('change', cb);
    },
  };
}

/** `source` whose loops follow `motion` (see FrameSource.motion). */
export function withMotion(source: FrameSource, motion: MotionPreference | null): FrameSource {
  return {
    request: (cb) => source.request(cb),
    cancel: (handle) => source.cancel(handle),
    now: () => source.now(),
    motion,
  };
}

/** requestAnimationFrame and performance.now. */
export const ANIMATION_FRAMES: FrameSource = {
  request: (cb) => requestAnimationFrame(cb),
  cancel: (handle) => cancelAnimationFrame(handle),
  now: () => performance.now(),
};

/** What the loop needs from the flock. */
export interface FrameHooks {
  /** Whether a backend is up to step and draw this frame (else the frame is skipped, the loop goes on). */
  ready(): boolean;
  /** Whether steps are held back this frame (a backend behind real time, a state read back). */
  holdSteps(): boolean;
  /** One frame at `now` seconds: take `steps` fixed steps (0: none), then draw. */
  frame(steps: number, now: number): void;
}

export type FrameStats = Pick<FlockStats, 'fps' | 'timeScale' | 'stepsPerFrame' | 'frameBudgetMs'>;

export class FrameLoop {
  /** Fixed steps per frame from real time and the frame budget. */
  readonly pacer: FramePacer;
  /** view.maxFps: which display frames draw (FrameCap, src/core/frame-clock.ts). */
  readonly cap = new FrameCap();
  private _running = false;
  private _handle = 0;
  private _idle = false;
  private _disposed = false;
  private _frames = 0;
  private _fpsAt = 0;
  /** start() was called and stop() not since: the loop runs when reduced motion lets it. */
  private _wanted = false;
  private readonly _unwatch: (() => void) | null;

  constructor(
    private readonly _source: FrameSource,
    private readonly _hooks: FrameHooks,
    private readonly _stats: FrameStats,
    timeStep: number,
  ) {
    this.pacer = new FramePacer(timeStep);
    this._unwatch = _source.motion?.watch(() => this._motionChanged()) ?? null;
  }

  /** True while the loop is on (it still idles while `idle`). */
  get running(): boolean {
    return this._running;
  }

  /** True while start() was asked for and reduced motion holds the loop back. */
  get held(): boolean {
    return this._wanted && !this._running;
  }

  /**
   * view.maxFps: at most this many frames a second (0: every display frame). The pacer is told
   * the longer frame interval, so each frame takes the steps real time asks over it.
   */
  setMaxFps(fps: number): void {
    if (this.cap.maxFps === fps) return;
    this.cap.maxFps = fps;
    this.cap.reset();
    this.pacer.minFrameInterval = fps > 0 ? 1 / fps : 0;
  }

  /**
   * Starts the loop (the pacer starts afresh); under reduced motion (FrameSource.motion) the
   * loop is held instead, and starts when the preference changes.
   */
  start(): void {
    if (this._disposed) return;
    this._wanted = true;
    if (this._running || this._source.motion?.reduce) return;
    this._running = true;
    this.pacer.reset();
    this.cap.reset();
    this.schedule();
  }

  /** Stops the loop; fps reads 0. */
  stop(): void {
    this._wanted = false;
    this._halt();
  }

  /** The preference changed: reduced motion stops a running loop, motion starts a held one. */
  private _motionChanged(): void {
    if (this._disposed) return;
    if (this._source.motion?.reduce) this._halt();
    else if (this._wanted) this.start();
  }

  private _halt(): void {
    this._running = false;
    if (this._handle) this._source.cancel(this._handle);
    this._handle = 0;
    this._stats.fps = 0;
  }

  /** No frames while idle (hidden page, canvas off-screen); leaving it starts the pacer afresh. */
  setIdle(idle: boolean): void {
    this._idle = idle;
    if (!idle) {
      this.pacer.reset();
      this.schedule();
    }
  }

  /** Asks for the next frame, when running, not idle and none is asked for yet. */
  schedule(): void {
    if (!this._running || this._handle || this._idle || this._disposed) return;
    this._handle = this._source.request((t) => this._frame(t));
  }

  /** Stops for good. */
  dispose(): void {
    this.stop();
    this._unwatch?.();
    this._disposed = true;
  }

  private _frame(timeMs: number): void {
    this._handle = 0;
    if (!this._running || this._disposed) return;
    // A display frame the cap skips: nothing runs, the next one is asked for.
    if (!this.cap.due(timeMs / 1000)) {
      this.schedule();
      return;
    }
    if (this._hooks.ready()) {
      const now = timeMs / 1000;
      const steps = this.pacer.advance(now, this._hooks.holdSteps());
      this._stats.timeScale = this.pacer.timeScale;
      this._stats.stepsPerFrame = this.pacer.stepsPerFrame;
      this._stats.frameBudgetMs = this.pacer.frameBudget * 1000;
      this._hooks.frame(steps, now);
      this._frames++;
      if (now - this._fpsAt >= 0.5) {
        if (this._fpsAt > 0) this._stats.fps = this._frames / (now - this._fpsAt);
        this._fpsAt = now;
        this._frames = 0;
      }
    }
    this.schedule();
  }
}
