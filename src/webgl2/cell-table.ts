/**
 * Pass 3, cell table: per grid cell c, start(c), the first index of key c or above in the sorted
 * keys, so cell c holds the sorted elements [start(c), start(c + 1)) and a run of consecutive
 * cells c..d the elements [start(c), start(d + 1)). Stored 16 cells per fragment: an RGBA32UI
 * array of TABLE_LAYERS layers, cell c in texel c >> 4, layer (c >> 2) & 3, component c & 3
 * (src/webgl2/cell-table.frag.glsl); cells 0..cellCount (one past the last cell included).
 * One binary search per 16 cells and a walk along the keys, instead of a binary search per cell
 * (2.4 cells per boid; measured: README's performance section).
 */
import type { PassEnv } from './pass-env';
import {
  compactLayout,
  createArrayTarget,
  drawPass,
  type TexLayout,
  type Target,
} from './textures';

/** Layers of the table array (4 colour attachments: every WebGL2 context has them). */
export const TABLE_LAYERS = 4;
/** Cells per texel of one layer (RGBA32UI). */
const CELLS_PER_TEXEL = 4;

/** The layout of each layer for `cellCount` cells: a power-of-two width, as few rows as needed. */
export function cellTableLayout(cellCount: number): TexLayout {
  return compactLayout(Math.ceil((cellCount + 1) / (TABLE_LAYERS * CELLS_PER_TEXEL)));
}

/** A cell table of `layout` (cellTableLayout). @throws Error when it is not renderable. */
export function createCellTable(gl: WebGL2RenderingContext, layout: TexLayout): Target {
  return createArrayTarget(gl, layout, TABLE_LAYERS, gl.RGBA32UI, 'cell table');
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
