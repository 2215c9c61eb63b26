/**
 * The unseen warm-up (DESIGN.md section 7, `warmup`): simulated seconds flown before the first
 * frame, so the first picture is a formed flock rather than DESIGN's uniform start. The steps
 * are the model's own, only longer (warmupTimeStep), taken in chunks that wait for the device
 * and yield to the page between them, and bounded by wall time: past the bound the flock is shown
 * as reached, and the rest is not flown later. The <gpu-flock> element's reduced-motion still
 * frame (src/element/still.ts) runs through the same runner.
 * Owns nothing (pure functions and one async runner over an injected flock and clock).
 */
import type { FlockParams } from './params';

/** Wall-clock bound on the warm-up before the first frame, ms (DESIGN section 7). */
export const WARMUP_BUDGET_MS = 1500;
/**
 * The element's and the demo's warm-up when none is given, simulated seconds (DESIGN section 7):
 * 2 s in 3D, 3 s in 2D (2D forms more slowly: the reference's order at 2 s is 0.71-0.82, at 3 s
 * 0.88).
 */
export function defaultWarmupSeconds(dimensions: 2 | 3): number {
  return dimensions === 2 ? 3 : 2;
}

/**
 * Whether the element flies its warm-up before the first frame (DESIGN section 7; issue 27: boids
 * on screen within 1 s). A formed start (`start: 'groups'`, the default: local order about 0.97
 * at t = 0) is drawn as it is, before any step: its warm-up is cut by the first-frame deadline
 * at 0 s and shown as reached. Its first steps are also what compiles the step's programs (on
 * SwiftShader about 2.5 s for the first two), which a first frame does not need. A uniform start
 * (dust at t = 0) flies its warm-up first, within the wall bound (WARMUP_BUDGET_MS).
 */
export function warmsUpBeforeFirstFrame(start: 'groups' | 'uniform'): boolean {
  return start !== 'groups';
}

/** The warm-up's largest step, s (the schema's largest timeStep). */
export const WARMUP_MAX_TIME_STEP = 0.1;
/** Steps of the first chunk, before the pace is known. */
export const WARMUP_FIRST_CHUNK = 2;

/**
 * The step of an unseen warm-up, s: long enough to take few steps, short enough that a boid at
 * maxSpeed moves at most half its separation distance min(separationRadius, perceptionRadius)
 * per step; never below params.timeStep, never above WARMUP_MAX_TIME_STEP. From seed 1 with
 * 16,384 boids in DESIGN's default box (`npm run order -- --set timeStep=0.1`), steps of 1/10 s
 * and 1/60 s reach the same local order within 0.012 over 0-3 s (3D 0.860 vs 0.863 at 2 s, 2D
 * 0.797 vs 0.786), and within 0.02 at 5-30 s for 2,000 boids.
 */
export function warmupTimeStep(
  params: Pick<FlockParams, 'timeStep' | 'separationRadius' | 'perceptionRadius' | 'maxSpeed'>,
): number {
  const reach = Math.min(params.separationRadius, params.perceptionRadius) / (2 * params.maxSpeed);
  return Math.max(
    params.timeStep,
    Math.min(WARMUP_MAX_TIME_STEP, Number.isFinite(reach) ? reach : WARMUP_MAX_TIME_STEP),
  );
}

/** What a warm-up flies: `steps` steps of `timeStep` seconds. */
export interface WarmupPlan {
  /** The step the warm-up takes, seconds. */
  timeStep: number;
  /** How many of them. */
  steps: number;
}

/**
 * The warm-up that reaches `seconds` of simulated time from `time0` (seconds already flown):
 * steps of warmupTimeStep(params), rounded up (1e-9 s of slack). seconds <= time0: no steps.
 */
export function warmupPlan(
  params: Pick<FlockParams, 'timeStep' | 'separationRadius' | 'perceptionRadius' | 'maxSpeed'>,
  seconds: number,
  time0 = 0,
): WarmupPlan {
  const timeStep = warmupTimeStep(params);
  const steps = seconds > time0 ? Math.max(0, Math.ceil((seconds - time0) / timeStep - 1e-9)) : 0;
  return { timeStep, steps };
}

/** The flock as the runner drives it (the public Flock fits). */
export interface WarmupTarget {
  readonly params: { readonly timeStep: number };
  setParams(partial: { timeStep: number }): unknown;
  step(n: number): Promise<void>;
  finish(): Promise<void>;
}

export interface WarmupRunOptions {
  /** Wall-clock bound, ms. */
  budgetMs: number;
  /** The clock, ms (performance.now in a page). */
  now: () => number;
  /** Between chunks: lets the page run (a macrotask in a page). */
  yieldToPage?: () => Promise<void>;
  /** Asked before each chunk: false stops the run (the flock was replaced, the page moved on). */
  keepGoing?: () => boolean;
  /** Steps of the first chunk (WARMUP_FIRST_CHUNK). */
  firstChunk?: number;
}

/** What a warm-up did. */
export interface WarmupResult {
  /** Steps taken (of the plan's timeStep). */
  steps: number;
  /** Wall-clock time, ms. */
  ms: number;
  /** True when the wall-clock bound cut the plan short. */
  cut: boolean;
  /** True when keepGoing stopped it. */
  stopped: boolean;
}

/**
 * Flies `plan` on `target`: sets params.timeStep to the plan's (restored after, unless someone
 * changed it meanwhile), then steps in chunks, each followed by finish() (the device is done)
 * and yieldToPage(). The first chunk has firstChunk steps; each next one about an eighth of the
 * bound at the pace so far, within what is left of it; once the bound is spent with steps left,
 * it stops (cut). Rejections of the target's calls propagate (after the restore).
 */
export async function runWarmup(
  target: WarmupTarget,
  plan: WarmupPlan,
  opts: WarmupRunOptions,
): Promise<WarmupResult> {
  const t0 = opts.now();
  const own = target.params.timeStep;
  const keepGoing = opts.keepGoing ?? (() => true);
  let done = 0;
  let cut = false;
  let stopped = false;
  if (plan.steps === 0) return { steps: 0, ms: 0, cut, stopped };
  const swap = plan.timeStep !== own;
  try {
    if (swap) await target.setParams({ timeStep: plan.timeStep });
    for (let chunk = opts.firstChunk ?? WARMUP_FIRST_CHUNK; done < plan.steps;) {
      if (!keepGoing()) {
        stopped = true;
        break;
      }
      const k = Math.max(1, Math.min(chunk, plan.steps - done));
      await target.step(k);
      await target.finish();
      done += k;
      const elapsed = opts.now() - t0;
      if (done < plan.steps && elapsed >= opts.budgetMs) {
        cut = true;
        break;
      }
      const perStep = elapsed / done;
      const fit = Math.min(opts.budgetMs / 8, opts.budgetMs - elapsed) / Math.max(perStep, 1e-3);
      chunk = Math.max(1, Math.floor(fit));
      if (opts.yieldToPage && done < plan.steps) await opts.yieldToPage();
    }
  } finally {
    if (swap && target.params.timeStep === plan.timeStep) {
      try {
        await target.setParams({ timeStep: own });
      } catch {
        // disposed meanwhile: nothing to restore
      }
    }
  }
  return { steps: done, ms: opts.now() - t0, cut, stopped };
}

/** A macrotask between warm-up chunks (defined beside the page's serial queues). */
export { macrotask } from './serial-queue';
