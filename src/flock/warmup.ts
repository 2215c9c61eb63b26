/**
 * view.warmup before the first frame (DESIGN.md section 7): the flock flown unseen in chunks that
 * yield to the page, bounded by WARMUP_BUDGET_MS of wall time, then shown as reached (runWarmup
 * and warmupPlan in src/core/warmup.ts). Talks to the flock through WarmupTarget (it does not
 * import flock.ts).
 */
import type { FlockParams } from '../core/params';
import {
  macrotask,
  runWarmup,
  warmupPlan,
  WARMUP_BUDGET_MS,
  type WarmupResult,
  type WarmupTarget,
} from '../core/warmup';

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
