/**
 * The simulated time t of a flock (DESIGN.md section 1): 0 at creation, reset() and setState(),
 * plus timeStep per step; the model's formulas use t at the start of a step. Kept as
 * `base + steps * timeStep` (not a running sum) so that t after k steps is exactly what the
 * reference computes (referenceSteps: time0 + k * timeStep); a new timeStep starts a new base.
 * Every backend owns one; the GPU backends turn it into per-step uniforms (predator positions,
 * the flow's phase) through src/core/behaviours.ts.
 */
export class SimTime {
  private base = 0;
  private steps = 0;

  /** @param timeStep seconds per step (params.timeStep). */
  constructor(private timeStep: number) {}

  /** t, seconds: the time at the start of the next step. */
  get time(): number {
    return this.base + this.steps * this.timeStep;
  }

  /** The time at the start of the k-th next step (k = 0: the next one), seconds. */
  at(k: number): number {
    return this.base + (this.steps + k) * this.timeStep;
  }

  /** Restarts at `time` seconds (default 0): setState, reset. */
  reset(time = 0): void {
    this.base = Number.isFinite(time) ? time : 0;
    this.steps = 0;
  }

  /** A new step length from now on (setParams); t itself does not jump. */
  setTimeStep(timeStep: number): void {
    if (timeStep === this.timeStep) return;
    this.base = this.time;
    this.steps = 0;
    this.timeStep = timeStep;
  }

  /** n steps taken. */
  advance(n: number): void {
    this.steps += n;
  }
}
