/**
 * Pass 4, reorder: gathers positions and velocities into the sorted keys' order (element s takes
 * element payload(s)), so a cell's boids are adjacent and the steer pass reads them coherently.
 */
import type { PassEnv } from './pass-env';
import { drawPass, rowsFor, type Target } from './textures';

/** `state` (RGBA32F positions, velocities) -> `out` (same layout) in the order of `sortedKeys`. */
export function runReorder(
  env: PassEnv,
  state: Target,
  sortedKeys: Target,
  count: number,
  out: Target,
): void {
  const prog = env.programs.get('fullscreen.vert.glsl', 'reorder.frag.glsl');
  drawPass(
    env.gl,
    env.vao,
    out,
    prog,
    {
      uPos: state.textures[0],
      uVel: state.textures[1],
      uSortedKeys: sortedKeys.textures[0],
      uShift: out.layout.shift,
      uCount: count,
    },
    rowsFor(out.layout, count),
  );
}
