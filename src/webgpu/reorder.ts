/**
 * Pass 4 of the grid step: the current state (`state`, position and velocity blocks) into
 * `sorted`, the steer pass's input in cell order. Counting sort (scatter.wgsl): each boid to
 * cellStart[key] + rank. Bitonic sort (reorder.wgsl): each sorted pair gathers its boid. Brute
 * force (reorder.wgsl copyRecords): the same records in the same order.
 */
import { beginPass, run, type PassEnv } from './bind-groups';

/** `state` -> `sorted` for `search` and `sort`, as one compute pass named 'reorder'. */
export function encodeReorder(
  env: PassEnv,
  encoder: GPUCommandEncoder,
  search: 'grid' | 'brute',
  sort: 'counting' | 'bitonic',
  timed: boolean,
): void {
  const { buffers: b, groups } = env;
  const u = b.uniforms;
  const n = b.count;
  const wg = env.wg.boid;
  const pass = beginPass(env, encoder, 'reorder', timed);
  if (search !== 'grid') {
    run(
      env,
      pass,
      'copyRecords',
      n,
      wg,
      groups.get('copyRecords', 0, { 0: u, 2: b.state!, 3: b.sorted! }),
    );
  } else if (sort === 'counting') {
    run(
      env,
      pass,
      'scatter',
      n,
      wg,
      groups.get('scatter', 0, {
        0: u,
        1: b.state!,
        2: b.cellStart!,
        3: b.keyRank!,
        4: b.sorted!,
      }),
    );
  } else {
    run(
      env,
      pass,
      'reorder',
      n,
      wg,
      groups.get('reorder', 0, { 0: u, 1: b.pairs!, 2: b.state!, 3: b.sorted! }),
    );
  }
  pass.end();
}
