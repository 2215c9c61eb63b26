/**
 * Pass 1, key: positions -> RG32UI (cellKey, payload) per element, payload = the element's index
 * in the state texture; padding elements (index >= count) get key 0xFFFFFFFF. Cell keys exactly
 * as src/core/grid.ts, bit for bit (glsl/grid.glsl, cell-bounds.ts). Reused by every WebGL2 path that builds a grid.
 */
import type { Grid } from '../core/grid';
import type { FlockParams } from '../core/params';
import type { CellBounds } from './cell-bounds';
import type { PassEnv } from './pass-env';
import { drawPass, type Target } from './textures';
import { flockDefines, flockUniforms } from './uniforms';

/**
 * `bounds`: the exact cell thresholds of `grid` (uploadCellBounds).
 * Writes the keys of `count` boids whose positions are in `positions` (RGBA32F, same layout as
 * `out`) into `out` (one RG32UI texture of M = out.layout.texels elements, every texel written).
 */
export function runKeyPass(
  env: PassEnv,
  positions: WebGLTexture,
  count: number,
  params: FlockParams,
  grid: Grid,
  bounds: CellBounds,
  out: Target,
): void {
  const { DIMS, WRAP } = flockDefines(params);
  const prog = env.programs.get('fullscreen.vert.glsl', 'key.frag.glsl', {
    DIMS: DIMS!,
    WRAP: WRAP!,
  });
  drawPass(env.gl, env.vao, out, prog, {
    ...flockUniforms(params, grid),
    uPos: positions,
    uCellBounds: bounds.texture,
    uCellBoundsShift: bounds.layout.shift,
    uCellBoundsStride: bounds.stride,
    uShift: out.layout.shift,
    uCount: count,
  });
}
