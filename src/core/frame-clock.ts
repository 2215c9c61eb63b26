/**
 * Fixed-step frame clock: turns wall-clock frame times into a whole number of fixed simulation
 * steps through an accumulator ("Fix Your Timestep!", Glenn Fiedler, 2004). The flock's speed does
 * not depend on the display's refresh rate, and the catch-up after a long pause is capped.
 */
export class FixedStepClock {
  private last: number | null = null;
  private acc = 0;

  /**
   * @param timeStep fixed step, seconds
   * @param maxStepsPerFrame most steps one frame may take; past it the remaining time is dropped
   * @param maxFrameGap longest frame interval counted, seconds (a tab back after minutes counts this much)
   */
  constructor(
    public timeStep: number,
    public maxStepsPerFrame = 4,
    public maxFrameGap = 0.25,
  ) {}

  /** Forget the last frame time and the accumulated remainder (after a pause). */
  reset(): void {
    this.last = null;
    this.acc = 0;
  }

  /** Call once per frame with the frame time in seconds; returns how many fixed steps to take now. */
  advance(now: number): number {
    if (this.last === null) {
      this.last = now;
      return 0;
    }
    const dt = Math.min(Math.max(0, now - this.last), this.maxFrameGap);
    this.last = now;
    this.acc += dt;
    // The small epsilon keeps 60 Hz frames with a 1/60 s step from alternating 0 and 2 steps.
    let n = Math.floor(this.acc / this.timeStep + 1e-6);
    if (n > this.maxStepsPerFrame) {
      n = this.maxStepsPerFrame;
      this.acc = 0;
    } else {
      this.acc = Math.max(0, this.acc - n * this.timeStep);
    }
    return n;
  }
}
