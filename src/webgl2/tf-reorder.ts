/**
 * Transform-feedback path, reorder: gathers positions and velocities into the sorted keys' order
 * (element s takes element payload(s)) as a feedback pass into a pair of state buffers, so that a
 * cell's boids are adjacent and the steer pass reads them coherently. As reorder.ts, without a
 * float render target.
 */
import type { FeedbackEnv, StateBuffers, StateCopies } from './tf-feedback';
import { runFeedback } from './tf-feedback';
import type { ProgramSpec } from './program';
import type { Target } from './textures';
import { REORDER_FEEDBACK } from './tf-steer';

/**
 * The reorder program (tf-reorder.vert.glsl captures positions and velocities; |N_i| is written
 * by the steer pass that follows).
 */
export function reorderProgram(env: FeedbackEnv) {
  return env.programs.get('tf-reorder.vert.glsl', 'tf-discard.frag.glsl', {}, REORDER_FEEDBACK);
}

/** What reorderProgram is made from. */
export const REORDER_SPEC: ProgramSpec = {
  vert: 'tf-reorder.vert.glsl',
  frag: 'tf-discard.frag.glsl',
  defines: {},
  feedback: REORDER_FEEDBACK,
};

/** `state` (copies) -> `out` in the order of `sortedKeys` (same layout), elements [0, count). */
export function runTFReorder(
  env: FeedbackEnv,
  state: StateCopies,
  sortedKeys: Target,
  count: number,
  out: StateBuffers,
): void {
  runFeedback(
    env,
    reorderProgram(env),
    {
      uPos: state.textures[0],
      uVel: state.textures[1],
      uSortedKeys: sortedKeys.textures[0],
      uShift: state.layout.shift,
    },
    [out.pos, out.vel],
    count,
  );
}
