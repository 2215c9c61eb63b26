/**
 * Pass 1, key: positions -> (cellKey, payload) per element, payload = the element's index in the
 * state texture; padding elements (index >= count) get key 0xFFFFFFFF. Cell keys exactly as
 * src/core/grid.ts, bit for bit (src/webgl2/grid.glsl, cell-bounds.ts). Written in the bitonic sort's
 * blocks, each block already sorted (the plan's local stages; bitonic-sort.ts). Reused by every
 * WebGL2 path that builds a grid.
 */
import type { Grid } from '../core/grid';
import type { FlockParams } from '../core/params';
import type { CellBounds } from './cell-bounds';
import type { PassEnv } from './pass-env';
import { lastLocalDir, type SortTargets } from './bitonic-sort';
import { drawPass } from './textures';
import { flockDefines } from './uniforms';

/**
 * `bounds`: the exact cell thresholds of `grid` (uploadCellBounds).
 * Writes the keys of `count` boids whose positions are in `positions` (RGBA32F, the layout of
 * `sort.sorted`) into `sort.blocks[0]` (every one of its max(M, P) elements written).
 */
export function runKeyPass(
  env: PassEnv,
  positions: WebGLTexture,
  count: number,
  params: FlockParams,
  grid: Grid,
  bounds: CellBounds,
  sort: SortTargets,
): void {
  const { DIMS, WRAP } = flockDefines(params);
  const prog = env.programs.get('fullscreen.vert.glsl', 'key.frag.glsl', {
    DIMS: DIMS!,
    WRAP: WRAP!,
    BLOCK_LOG2: sort.blockLog2,
  });
  const out = sort.blocks[0];
  env.programs.blocks.bind(params, grid);
  drawPass(env.gl, env.vao, out, prog, {
    uPos: positions,
    uCellBounds: bounds.texture,
    uCellBoundsShift: bounds.layout.shift,
    uCellBoundsStride: bounds.stride,
    uPosShift: sort.sorted.layout.shift,
    uShift: out.layout.shift,
    uCount: count,
    uBlock: 1 << sort.blockLog2,
    uLastDir: lastLocalDir(sort),
  });
}
