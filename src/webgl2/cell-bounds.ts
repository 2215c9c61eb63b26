/**
 * Exact cell coordinates on the GPU. src/core/grid.ts computes floor((x - min) / cellSize) in
 * float64; in float32 `x - min` can round up across a cell boundary (x = 7.9999995, min = -10,
 * cellSize 2: float64 gives cell 8, float32 cell 9). So the CPU lists, per axis, the smallest
 * float32 x that core's cellCoord puts in cell c or above, and the key pass settles its float32
 * estimate against these thresholds with exact comparisons. Keys then equal the CPU's bit for bit.
 */
import { cellCoord, type Grid } from '../core/grid';
import type { FlockParams } from '../core/params';
import { compactLayout, createDataTexture, type TexLayout } from './textures';

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

/** float32 x -> an integer that orders like x (+0 and -0 both 0); exact in a double. */
function ordered(x: number): number {
  f32[0] = x;
  const i = i32[0]!;
  return i >= 0 ? i : -(i & 0x7fffffff);
}

/** The inverse of `ordered`. */
function fromOrdered(o: number): number {
  i32[0] = o >= 0 ? o : -o | 0x80000000 | 0;
  return f32[0]!;
}

/** The smallest float32 x with pred(x), for pred monotonic (false then true) over floats. */
function firstTrue(pred: (x: number) => boolean, guess: number): number {
  // Bracket around the guess by doubling steps in float32 order, then bisect: ~64 calls at most.
  let lo = ordered(guess);
  let hi = lo;
  const MAX = 0x7f7fffff; // largest finite float32
  for (let step = 1; pred(fromOrdered(lo)); step *= 2) lo = Math.max(-MAX, lo - step);
  for (let step = 1; !pred(fromOrdered(hi)); step *= 2) hi = Math.min(MAX, hi + step);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (pred(fromOrdered(mid))) hi = mid;
    else lo = mid;
  }
  return fromOrdered(hi);
}

/**
 * Thresholds for `grid`: element a * stride + c (stride = the largest dims) is the smallest
 * float32 x with cellCoord(x, boundsMin[a], cellSize[a], dims[a]) >= c, for c in 1..dims[a]-1
 * (element c = 0 is unused). Axes beyond the active ones are left 0.
 */
export function cellThresholds(
  params: Pick<FlockParams, 'boundsMin' | 'dimensions'>,
  grid: Grid,
): { stride: number; values: Float32Array } {
  const stride = Math.max(...grid.dims);
  const values = new Float32Array(3 * stride);
  const axes = params.dimensions === 2 ? 2 : 3;
  for (let a = 0; a < axes; a++) {
    const lo = params.boundsMin[a]!;
    const cs = grid.cellSize[a]!;
    const dim = grid.dims[a]!;
    for (let c = 1; c < dim; c++) {
      // cellCoord is monotonic in x (float64 subtraction and division round monotonically).
      const inCell = (x: number) => cellCoord(x, lo, cs, dim) >= c;
      values[a * stride + c] = firstTrue(inCell, Math.fround(lo + c * cs));
    }
  }
  return { stride, values };
}

/** An R32F texture of the thresholds (compact layout), and its stride and layout. */
export interface CellBounds {
  texture: WebGLTexture;
  layout: TexLayout;
  stride: number;
}

/** Uploads the thresholds of `grid` into `prev` when its layout fits, else into a new texture. */
export function uploadCellBounds(
  gl: WebGL2RenderingContext,
  params: Pick<FlockParams, 'boundsMin' | 'dimensions'>,
  grid: Grid,
  prev: CellBounds | null,
): CellBounds {
  const { stride, values } = cellThresholds(params, grid);
  const layout = compactLayout(values.length);
  let bounds = prev;
  if (!bounds || bounds.layout.width !== layout.width || bounds.layout.height !== layout.height) {
    if (prev) gl.deleteTexture(prev.texture);
    bounds = { texture: createDataTexture(gl, gl.R32F, layout), layout, stride };
  }
  bounds.stride = stride;
  const data = new Float32Array(layout.texels);
  data.set(values);
  gl.bindTexture(gl.TEXTURE_2D, bounds.texture);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, layout.width, layout.height, gl.RED, gl.FLOAT, data);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return bounds;
}
