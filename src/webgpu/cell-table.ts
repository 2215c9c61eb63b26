/**
 * Pass 3 of the bitonic grid step (cell-table.wgsl): each cell's start in the sorted pairs, by
 * binary search, into cellStart (cellCount + 1 entries; cell c holds [cellStart[c],
 * cellStart[c+1])). The counting sort's scan leaves the same table (counting-sort.ts).
 */
import { beginPass, run, type PassEnv } from './bind-groups';

/** The cell table of the sorted pairs, as one compute pass named 'cellTable'. */
export function encodeCellTable(env: PassEnv, encoder: GPUCommandEncoder, timed: boolean): void {
  const { buffers: b } = env;
  const pass = beginPass(env, encoder, 'cellTable', timed);
  run(
    env,
    pass,
    'cellTable',
    b.cells,
    env.wg.boid,
    env.groups.get('cellTable', 0, { 0: b.uniforms, 1: b.pairs!, 2: b.cellStart! }),
  );
  pass.end();
}
