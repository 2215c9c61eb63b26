/**
 * Pass 1 of the grid step, the key pass: each boid's cell key from its position (grid.ts's cell
 * of a point, in WGSL). Counting sort (grid-count.wgsl): clear the per-cell counts, then count
 * boids per cell with atomics, keeping (cellKey, rank within the cell) per boid. Bitonic sort
 * (bitonic-sort.wgsl makeKeys): (cellKey, boid index) pairs, padded with keys past every cell to
 * the sort's power-of-two length.
 */
import { beginPass, run, type PassEnv } from './bind-groups';

/** The key pass of `sort` over the current state, as one compute pass named 'key'. */
export function encodeKeyPass(
  env: PassEnv,
  encoder: GPUCommandEncoder,
  sort: 'counting' | 'bitonic',
  timed: boolean,
): void {
  const { buffers: b, groups, wg } = env;
  const u = b.uniforms;
  const pass = beginPass(env, encoder, 'key', timed);
  if (sort === 'counting') {
    run(
      env,
      pass,
      'clearCounts',
      b.cells,
      wg.boid,
      groups.get('clearCounts', 0, { 0: u, 2: b.cellStart! }),
    );
    run(
      env,
      pass,
      'countCells',
      b.count,
      wg.boid,
      groups.get('countCells', 0, { 0: u, 1: b.state!, 2: b.cellStart!, 3: b.keyRank! }),
    );
  } else {
    run(
      env,
      pass,
      'makeKeys',
      b.sortSize,
      wg.sort,
      groups.get('makeKeys', 0, { 0: u, 1: b.pairs!, 2: b.state! }),
    );
  }
  pass.end();
}
