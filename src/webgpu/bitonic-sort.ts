/**
 * Pass 2 of the bitonic grid step (bitonic-sort.wgsl): the (cellKey, index) pairs sorted by a
 * bitonic network, the same as the WebGL2 path's, in webgpu-samples' bitonicSort formulation
 * ("flip" then "disperse" half-cleaners): a local sort of each workgroup's block in workgroup
 * memory, then per merge height a global flip, global disperses down to the block size and a
 * local disperse of every block. Each stage's height comes from the stage buffer at a dynamic
 * offset (one SortStage per power of two).
 */
import { beginPass, dispatch, run, type PassEnv } from './bind-groups';
import { STAGE_STRIDE } from './buffers';
import { SORT_STAGE_UNIFORMS } from './uniforms';

/** The bitonic sort of `pairs` (sortSize entries), as one compute pass named 'sort'. */
export function encodeBitonicSort(env: PassEnv, encoder: GPUCommandEncoder, timed: boolean): void {
  const { buffers: b, groups, programs } = env;
  const u = b.uniforms;
  const s = env.wg.sort;
  const M = b.sortSize;
  const blockPairs = 2 * s;
  const pass = beginPass(env, encoder, 'sort', timed);
  const pairsOnly = { 0: u, 1: b.pairs! };
  run(env, pass, 'localSort', M / blockPairs, 1, groups.get('localSort', 0, pairsOnly));
  const stage = (h: number) => [Math.log2(h) * STAGE_STRIDE];
  const stageBinding = { 0: { buffer: b.stages, size: SORT_STAGE_UNIFORMS.size } };
  for (let h = 2 * blockPairs; h <= M; h *= 2) {
    pass.setPipeline(programs.globalFlip.pipeline);
    pass.setBindGroup(0, groups.get('globalFlip', 0, { 0: u, 1: b.pairs! }));
    pass.setBindGroup(1, groups.get('globalFlip', 1, stageBinding), stage(h));
    dispatch(env, pass, M / 2, s);
    if (h / 2 > blockPairs) {
      pass.setPipeline(programs.globalDisperse.pipeline);
      pass.setBindGroup(0, groups.get('globalDisperse', 0, { 0: u, 1: b.pairs! }));
      for (let d = h / 2; d > blockPairs; d /= 2) {
        pass.setBindGroup(1, groups.get('globalDisperse', 1, stageBinding), stage(d));
        dispatch(env, pass, M / 2, s);
      }
    }
    run(
      env,
      pass,
      'localDisperseAll',
      M / blockPairs,
      1,
      groups.get('localDisperseAll', 0, pairsOnly),
    );
  }
  pass.end();
}
