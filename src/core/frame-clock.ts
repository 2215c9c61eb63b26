/**
 * Fixed-step frame pacing: turns wall-clock frame times into a whole number of fixed simulation
 * steps through an accumulator ("Fix Your Timestep!", Glenn Fiedler, 2004), so the flock's speed
 * does not depend on the display's refresh rate, and takes no more steps per frame than fit the
 * frame budget (issue 14): a slow device runs in slow motion at one step per frame, reported as
 * timeScale, instead of stacking catch-up steps into ever longer frames.
 */
/** Options of FramePacer. */
export interface FramePacerOptions {
  /** Most steps one frame may take (a frame after a hiccup catches up at most this much). */
  maxStepsPerFrame?: number;
  /** Longest frame interval counted, seconds (a tab back after minutes counts this much). */
  maxFrameGap?: number;
  /** Share of the display's refresh interval the steps may use; the rest is for drawing and the page. */
  budgetFraction?: number;
  /** Seconds over which timeScale and stepsPerFrame are averaged (exponential decay). */
  averageOver?: number;
}

/** Refresh intervals below and above these (seconds) are not believed: 240 Hz and 30 Hz. */
const MIN_REFRESH_S = 1 / 240;
const MAX_REFRESH_S = 1 / 30;
/** Frame intervals kept to estimate the refresh interval (their minimum). */
const REFRESH_WINDOW = 60;

/**
 * Adaptive frame pacing (issue 14): the fixed step stays fixed, and each frame takes
 *   n = min(steps real time asks, steps that fit the frame budget, maxStepsPerFrame),
 * with at least one step whenever real time asks for one. The frame budget is budgetFraction of
 * the display's refresh interval, measured as the shortest recent rAF interval (clamped to
 * 1/240..1/30 s: a device whose every frame is slow never shows its refresh rate, and then gets
 * the 30 Hz budget). A step's cost comes from reportStepCost (GPU timer or CPU wait); until one
 * is known, one step per frame. Steps real time asked for but that did not fit are dropped, not
 * owed: the flock runs slower than real time (timeScale < 1) instead of stacking steps into ever
 * longer frames. With `adaptive = false` it is the plain accumulator (FixedStepClock: up to
 * maxStepsPerFrame steps a frame to keep real time, whatever they cost).
 */
export class FramePacer {
  /** false: take every step real time asks (up to maxStepsPerFrame), ignoring step costs. */
  adaptive = true;
  readonly maxStepsPerFrame: number;
  readonly maxFrameGap: number;
  readonly budgetFraction: number;
  private readonly averageOver: number;
  /**
   * The frame cap's interval, seconds (1 / view.maxFps; 0: none). Frames come at least this far
   * apart, so the refresh interval is believed up to it (the budget grows with it) and a frame
   * may take the steps real time asks over it (beyond maxStepsPerFrame): a capped loop keeps real
   * time with fewer, larger frames.
   */
  minFrameInterval = 0;
  private last: number | null = null;
  private acc = 0;
  private cost: number | null = null;
  private readonly intervals: number[] = [];
  private simSum = 0;
  private realSum = 0;
  private stepSum = 0;
  private frameSum = 0;

  /** @param timeStep fixed step, seconds (params.timeStep) */
  constructor(
    public timeStep: number,
    options: FramePacerOptions = {},
  ) {
    this.maxStepsPerFrame = options.maxStepsPerFrame ?? 4;
    this.maxFrameGap = options.maxFrameGap ?? 0.25;
    this.budgetFraction = options.budgetFraction ?? 0.75;
    this.averageOver = options.averageOver ?? 1;
  }

  /** Forget the last frame time, the remainder and the averages (after a pause); costs stay. */
  reset(): void {
    this.last = null;
    this.acc = 0;
    this.simSum = this.realSum = this.stepSum = this.frameSum = 0;
  }

  /** A measured cost of one step, seconds; ignored unless finite and > 0. */
  reportStepCost(seconds: number): void {
    if (Number.isFinite(seconds) && seconds > 0) this.cost = seconds;
  }

  /** Forget the step cost (the count changed): one step per frame until the next report. */
  forgetStepCost(): void {
    this.cost = null;
  }

  /** The last reported cost of one step, seconds, or null before any. */
  get stepCost(): number | null {
    return this.cost;
  }

  /** The display's refresh interval as measured (seconds; 1/60 before two frames). */
  get refreshInterval(): number {
    if (this.intervals.length === 0) return Math.max(1 / 60, this.minFrameInterval);
    const most = Math.max(MAX_REFRESH_S, this.minFrameInterval);
    return Math.min(most, Math.max(MIN_REFRESH_S, Math.min(...this.intervals)));
  }

  /** Seconds one frame's steps may take: budgetFraction of the refresh interval. */
  get frameBudget(): number {
    return this.budgetFraction * this.refreshInterval;
  }

  /** Steps that fit one frame's budget at the last reported cost (>= 1; 1 while unknown). */
  get stepsThatFit(): number {
    if (!this.adaptive) return this.stepLimit;
    if (this.cost === null) return 1;
    return Math.max(1, Math.floor(this.frameBudget / this.cost + 1e-6));
  }

  /** Most steps one frame takes: maxStepsPerFrame, or what real time asks over a capped frame (and one more for jitter). */
  get stepLimit(): number {
    if (this.minFrameInterval <= 0) return this.maxStepsPerFrame;
    const capped = Math.ceil(this.minFrameInterval / this.timeStep - 1e-6) + 1;
    return Math.max(this.maxStepsPerFrame, capped);
  }

  /** Simulated seconds per real second over about the last averageOver seconds (1 = real time). */
  get timeScale(): number {
    return this.realSum > 0 ? this.simSum / this.realSum : 1;
  }

  /** Mean steps per frame over about the last averageOver seconds. */
  get stepsPerFrame(): number {
    return this.frameSum > 0 ? this.stepSum / this.frameSum : 0;
  }

  /**
   * Call once per frame with the frame time in seconds; returns how many fixed steps to take now.
   * @param hold true when the backend is still behind (steps queued): take none, drop the time.
   */
  advance(now: number, hold = false): number {
    if (this.last === null) {
      this.last = now;
      return 0;
    }
    const raw = Math.max(0, now - this.last);
    this.last = now;
    if (raw > 0) {
      this.intervals.push(raw);
      if (this.intervals.length > REFRESH_WINDOW) this.intervals.shift();
    }
    const dt = Math.min(raw, Math.max(this.maxFrameGap, 2 * this.minFrameInterval));
    this.acc += dt;
    // The small epsilon keeps 60 Hz frames with a 1/60 s step from alternating 0 and 2 steps.
    const asked = Math.floor(this.acc / this.timeStep + 1e-6);
    const n = hold ? 0 : Math.min(asked, this.stepsThatFit, this.stepLimit);
    // What was asked and not taken is dropped (slow motion), only the fraction of a step is kept.
    this.acc = Math.max(0, this.acc - asked * this.timeStep);
    // The averages count the whole interval (a 700 ms frame is 700 ms of real time), up to 4
    // averaging times: a gap of minutes (a tab in the background) would weigh on them for minutes.
    const real = Math.min(raw, 4 * this.averageOver);
    const keep = Math.exp(-real / this.averageOver);
    this.simSum = this.simSum * keep + n * this.timeStep;
    this.realSum = this.realSum * keep + real;
    this.stepSum = this.stepSum * keep + n;
    this.frameSum = this.frameSum * keep + 1;
    return n;
  }
}

/**
 * The frame cap (view.maxFps): which display frames (requestAnimationFrame callbacks) draw. A
 * frame is due when its time reaches the next slot; slots are 1/maxFps apart, so over any span T
 * at most T * maxFps + 1 frames draw, and a display slower than the cap draws every frame. A
 * quarter of an interval of tolerance absorbs the jitter of rAF times (a 60 Hz display capped at
 * 30 draws every second frame, not a random mix of one and two). After a stall longer than an
 * interval the slots restart from now (no burst of frames to catch up).
 */
export class FrameCap {
  private next: number | null = null;

  /** @param maxFps frames per second, 0 = every display frame */
  constructor(public maxFps = 0) {}

  /** Forget the slots (after a pause, or a new cap). */
  reset(): void {
    this.next = null;
  }

  /** Whether the display frame at `now` (seconds) draws; call once per rAF callback. */
  due(now: number): boolean {
    if (!(this.maxFps > 0)) {
      this.next = null;
      return true;
    }
    const interval = 1 / this.maxFps;
    if (this.next !== null && now < this.next - interval / 4) return false;
    this.next =
      this.next === null || now - this.next > interval ? now + interval : this.next + interval;
    return true;
  }
}
