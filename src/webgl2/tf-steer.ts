/**
 * Transform-feedback path, steer + integrate: one vertex per boid reads the previous state from
 * the RGBA32F copies (Jacobi) and its new position and velocity are captured into a pair of
 * state buffers, in the same order. The model is src/webgl2/flock-rules.glsl and the neighbour loop
 * src/webgl2/neighbor-search.glsl, shared with the fragment pass (steer.ts, whose uniforms these passes
 * take). Also the debug pass that counts |N_i| the same way, captured as one uint per boid.
 */
import type { Grid } from '../core/grid';
import type { FlockParams } from '../core/params';
import type { ProgramSpec } from './program';
import { steerUniforms, type GridInputs } from './steer';
import type { FeedbackEnv, StateBuffers, StateCopies } from './tf-feedback';
import { runFeedback } from './tf-feedback';
import { flockDefines } from './uniforms';

/** The vertex outputs of tf-steer.vert.glsl, in binding order (positions, velocities, |N_i|). */
export const STEER_FEEDBACK = ['tfPos', 'tfVel', 'tfNbr'] as const;
/** The vertex outputs of tf-reorder.vert.glsl (positions, velocities). */
export const REORDER_FEEDBACK = ['tfPos', 'tfVel'] as const;
/** The vertex output of tf-neighbor-count.vert.glsl. */
export const COUNT_FEEDBACK = ['tfCount'] as const;

/** The program of feedback vertex shader `vert` for `params` and a search mode (cached). */
function gatherProgram(
  env: FeedbackEnv,
  vert: string,
  params: FlockParams,
  search: 'grid' | 'brute',
  outputs: readonly string[],
) {
  const defines = flockDefines(params, search);
  return env.programs.get(vert, 'tf-discard.frag.glsl', defines, outputs);
}

/** The steer program for `params` and a search mode (compiled once per variant). */
export function steerProgram(env: FeedbackEnv, params: FlockParams, search: 'grid' | 'brute') {
  return gatherProgram(env, 'tf-steer.vert.glsl', params, search, STEER_FEEDBACK);
}

/** What steerProgram builds, for ProgramCache.begin (a variant linked in the background). */
export function steerProgramSpec(params: FlockParams, search: 'grid' | 'brute'): ProgramSpec {
  return {
    vert: 'tf-steer.vert.glsl',
    frag: 'tf-discard.frag.glsl',
    defines: flockDefines(params, search),
    feedback: STEER_FEEDBACK,
  };
}

/**
 * `state` (copies of the current buffers) -> `out`, one step for elements [0, count), at
 * simulated time `time` (seconds, the start of the step).
 */
export function runTFSteer(
  env: FeedbackEnv,
  state: StateCopies,
  grid: GridInputs | null,
  count: number,
  params: FlockParams,
  g: Grid,
  out: StateBuffers,
  time = 0,
): void {
  const prog = steerProgram(env, params, grid ? 'grid' : 'brute');
  env.programs.blocks.bind(params, g, time);
  const uniforms = steerUniforms(state, grid, count);
  runFeedback(env, prog, uniforms, [out.pos, out.vel, out.nbr], count);
}

/** |N_i| of elements [0, count) of `state` into `out` (a uint per element), counted as runTFSteer gathers. */
export function runTFNeighborCount(
  env: FeedbackEnv,
  state: StateCopies,
  grid: GridInputs | null,
  count: number,
  params: FlockParams,
  g: Grid,
  out: WebGLBuffer,
): void {
  const search = grid ? 'grid' : 'brute';
  const prog = gatherProgram(env, 'tf-neighbor-count.vert.glsl', params, search, COUNT_FEEDBACK);
  env.programs.blocks.bind(params, g);
  runFeedback(env, prog, steerUniforms(state, grid, count), [out], count);
}
