/**
 * Pass 5, steer + integrate: one fragment per boid reads the previous state (Jacobi) and writes the
 * new position and velocity (two RGBA32F targets, same order). The model is glsl/flock-rules.glsl;
 * neighbours come from the 3^d grid cells (sorted state + cell table) or from all boids (brute).
 * Also the debug pass that counts |N_i| the same way.
 */
import type { Grid } from '../core/grid';
import type { FlockParams } from '../core/params';
import type { PassEnv } from './pass-env';
import { drawPass, rowsFor, type Target } from './textures';
import { flockDefines, flockUniforms } from './uniforms';

/** The grid structures a grid-search pass reads; null for brute force. */
export interface GridInputs {
  /** Sorted (cellKey, payload) pairs, in the order of the state being read. */
  sortedKeys: Target;
  /** Per-cell (start, end) into that order. */
  cellTable: Target;
}

function uniforms(
  state: Target,
  grid: GridInputs | null,
  count: number,
  params: FlockParams,
  g: Grid,
): Record<string, unknown> {
  return {
    ...flockUniforms(params, g),
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

/** `state` -> `out` (both RGBA32F position + velocity targets of one layout), one step. */
export function runSteer(
  env: PassEnv,
  state: Target,
  grid: GridInputs | null,
  count: number,
  params: FlockParams,
  g: Grid,
  out: Target,
): void {
  const defines = flockDefines(params, grid ? 'grid' : 'brute');
  const prog = env.programs.get('fullscreen.vert.glsl', 'steer.frag.glsl', defines);
  drawPass(
    env.gl,
    env.vao,
    out,
    prog,
    uniforms(state, grid, count, params, g),
    rowsFor(out.layout, count),
  );
}

/** |N_i| of every element of `state` into `out` (R32UI, same layout), counted as runSteer gathers. */
export function runNeighborCount(
  env: PassEnv,
  state: Target,
  grid: GridInputs | null,
  count: number,
  params: FlockParams,
  g: Grid,
  out: Target,
): void {
  const defines = flockDefines(params, grid ? 'grid' : 'brute');
  const prog = env.programs.get('fullscreen.vert.glsl', 'neighbor-count.frag.glsl', defines);
  drawPass(
    env.gl,
    env.vao,
    out,
    prog,
    uniforms(state, grid, count, params, g),
    rowsFor(out.layout, count),
  );
}
