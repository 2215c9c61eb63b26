/**
 * Pass 3, cell table: per grid cell c, (first, one past last) index of key c in the sorted keys,
 * as an RG32UI texture of at least cellCount texels (binary search per cell in a fragment pass).
 */
import type { PassEnv } from './pass-env';
import { compactLayout, drawPass, type TexLayout, type Target } from './textures';

/** The table's layout for `cellCount` cells: a power-of-two width, as few rows as needed. */
export function cellTableLayout(cellCount: number): TexLayout {
  return compactLayout(cellCount);
}

/** Fills `table` from `sortedKeys` (sorted pairs; elements [0, count) are boids). */
export function runCellTable(env: PassEnv, sortedKeys: Target, count: number, table: Target): void {
  const prog = env.programs.get('fullscreen.vert.glsl', 'cell-table.frag.glsl');
  drawPass(env.gl, env.vao, table, prog, {
    uKeys: sortedKeys.textures[0],
    uKeyShift: sortedKeys.layout.shift,
    uShift: table.layout.shift,
    uCount: count,
  });
}
