/**
 * view.warmup before the first frame (DESIGN.md section 7): the flock flown unseen in chunks that
 * yield to the page, bounded by WARMUP_BUDGET_MS of wall time, then shown as reached (runWarmup
 * and warmupPlan in src/core/warmup-runner.ts). Talks to the flock through WarmupTarget (it does not
 * import flock.ts).
 */
import type { FlockParams } from '../core/params';
import { STILL_BUDGET_MS, STILL_FIRST_CHUNK_STEPS, stillPlan } from '../element/still';
import {
  macrotask,
  runWarmup,
  warmupPlan,
  WARMUP_BUDGET_MS,
  type WarmupResult,
  type WarmupTarget,
} from '../core/warmup-runner';

/**
 * Flies `flock` from its simulated time up to `seconds` (view.warmup).
 * @param now the clock, ms (the frame source's)
 * @param keepGoing asked before each chunk: false (the flock was disposed) stops the run
 * @throws (as a rejection) what the flock's step/finish/setParams reject with
 */
export function warmUp(
  flock: WarmupTarget & { readonly params: FlockParams; readonly time: number },
  seconds: number,
  now: () => number,
  keepGoing: () => boolean,
): Promise<WarmupResult> {
  const plan = warmupPlan(flock.params, seconds, flock.time);
  return runWarmup(flock, plan, {
    budgetMs: WARMUP_BUDGET_MS,
    now,
    yieldToPage: macrotask,
    keepGoing,
  });
}

/**
 * The still frame's warm-up of `prefers-reduced-motion: reduce` (createFlock with motion 'auto',
 * as the <gpu-flock> element does): flies `flock` unseen until it has formed groups (stillPlan,
 * src/element/still.ts: simulated seconds from the density), at most STILL_BUDGET_MS of wall
 * time, in chunks that yield to the page; the caller then draws the one frame.
 * @param now the clock, ms (the frame source's)
 * @throws (as a rejection) what the flock's step/finish/setParams reject with
 */
export function stillWarmUp(
  flock: WarmupTarget & { readonly params: FlockParams; readonly time: number },
  now: () => number,
): Promise<WarmupResult> {
  return runWarmup(flock, stillPlan(flock.params, flock.time), {
    budgetMs: STILL_BUDGET_MS,
    now,
    yieldToPage: macrotask,
    firstChunk: STILL_FIRST_CHUNK_STEPS,
  });
}
