/**
 * Pass 2, bitonic sort (Batcher, "Sorting networks and their applications", 1968) of M = 2^m
 * RG32UI (key, payload) pairs in log2 M (log2 M + 1) / 2 fragment passes, ping-ponging between
 * two targets of the same layout. Ordered by key, then payload: with unique payloads the result
 * is total and deterministic. Pad to a power of two with key 0xFFFFFFFF (sorts last).
 * The network is src/core/bitonic.ts's (tested on arrays there).
 * As in the GPU Gems 2 chapter 46 "Improved GPU Sorting" (Kipfer, Westermann), one pass per stage.
 */
import { bitonicPasses } from '../core/bitonic';
import type { PassEnv } from './pass-env';
import { drawPass, type Target } from './textures';

/**
 * Sorts the M = a.layout.texels pairs in `a`, using `b` as scratch (same layout, RG32UI).
 * Returns the target that holds the sorted pairs (`a` or `b`).
 * One pass per stage: running the stages with small j in one pass (each fragment sorting its
 * aligned block of 4-16 elements locally) measured 1.3-6x slower on SwiftShader, so it is not used.
 */
export function runBitonicSort(env: PassEnv, a: Target, b: Target): Target {
  const prog = env.programs.get('fullscreen.vert.glsl', 'bitonic-sort.frag.glsl');
  let src = a;
  let dst = b;
  for (const { k, j } of bitonicPasses(a.layout.texels)) {
    drawPass(env.gl, env.vao, dst, prog, {
      uKeys: src.textures[0],
      uShift: a.layout.shift,
      uJ: j,
      uK: k,
    });
    [src, dst] = [dst, src];
  }
  return src;
}
