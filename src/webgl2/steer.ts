/**
 * Pass 5, steer + integrate: one fragment per boid reads the previous state (Jacobi) and writes the
 * new position and velocity (two RGBA32F targets, same order). The model is src/webgl2/flock-rules.glsl;
 * neighbours come from the 3^d grid cells (sorted state + cell table) or from all boids (brute).
 * Also the debug pass that counts |N_i| the same way, and the uniforms both take, which the
 * transform-feedback passes (tf-steer.ts) take too.
 */
import type { Grid } from '../core/grid';
import type { FlockParams } from '../core/params';
import type { PassEnv } from './pass-env';
import { drawPass, rowsFor, type Target } from './textures';
import { flockDefines } from './uniforms';

/** The grid structures a grid-search pass reads; null for brute force. */
export interface GridInputs {
  /** Sorted (cellKey, payload) pairs, in the order of the state being read. */
  sortedKeys: Target;
  /** Per-cell start into that order (cell-table.ts). */
  cellTable: Target;
}

/**
 * The plain uniforms of src/webgl2/neighbor-search.glsl's users (steer and neighbour count, both
 * paths): the state's RGBA32F position and velocity textures and the grid's when given. The
 * flock's own are the blocks of `env.programs.blocks` (bind them first, at the step's time).
 */
export function steerUniforms(
  state: Pick<Target, 'textures' | 'layout'>,
  grid: GridInputs | null,
  count: number,
): Record<string, unknown> {
  return {
    uPos: state.textures[0],
    uVel: state.textures[1],
    uShift: state.layout.shift,
    uCount: count,
    ...(grid
      ? {
          uSortedKeys: grid.sortedKeys.textures[0],
          uCellTable: grid.cellTable.textures[0],
          uTableShift: grid.cellTable.layout.shift,
        }
      : {}),
  };
}

/**
 * A fragment pass over the first `count` elements of `out` (a target of `state`'s layout) that
 * gathers each element's neighbours in `state`: through `grid`, or from all boids when null.
 * `time`: the simulated time at the start of the step, seconds.
 */
export type GatherPass = (
  env: PassEnv,
  state: Target,
  grid: GridInputs | null,
  count: number,
  params: FlockParams,
  g: Grid,
  out: Target,
  time?: number,
) => void;

/** The gather pass of fragment shader `frag` (compiled per params and search mode, cached). */
function gatherPass(frag: string): GatherPass {
  return (env, state, grid, count, params, g, out, time = 0) => {
    const defines = flockDefines(params, grid ? 'grid' : 'brute');
    const prog = env.programs.get('fullscreen.vert.glsl', frag, defines);
    env.programs.blocks.bind(params, g, time);
    const uniforms = steerUniforms(state, grid, count);
    drawPass(env.gl, env.vao, out, prog, uniforms, rowsFor(out.layout, count));
  };
}

/** `state` -> `out` (RGBA32F position + velocity and R32F |N_i| targets of one layout), one step. */
export const runSteer: GatherPass = gatherPass('steer.frag.glsl');

/** |N_i| of every element of `state` into `out` (R32UI, same layout), counted as runSteer gathers. */
export const runNeighborCount: GatherPass = gatherPass('neighbor-count.frag.glsl');
