/**
 * Pass 2 of the counting sort (scan.wgsl): the exclusive prefix scan of the per-cell counts in
 * cellStart, which then holds each cell's start in the sorted order: the cell table. Multi-level:
 * each level scans its blocks (SCAN_ITEMS per lane, the lanes Hillis-Steele in workgroup memory)
 * and writes the block totals to the level above; the totals are then added back down.
 */
import { beginPass, run, type PassEnv } from './bind-groups';
import { SCAN_ITEMS } from './buffers';

/** The scan of cellStart's counts, as one compute pass named 'sort'. */
export function encodeCountingSort(env: PassEnv, encoder: GPUCommandEncoder, timed: boolean): void {
  const { buffers: b, groups } = env;
  const pass = beginPass(env, encoder, 'sort', timed);
  const levels = b.scanLevels;
  const block = env.wg.scan * SCAN_ITEMS;
  const top = levels.length - 1;
  for (let k = 0; k <= top; k++) {
    const sums = k < top ? b.levelRange(k + 1) : b.dummy;
    run(
      env,
      pass,
      'scanBlocks',
      levels[k]!.n,
      block,
      groups.get('scanBlocks', 0, { 0: b.levelRange(k), 1: sums }, `L${k}`),
    );
  }
  for (let k = top - 1; k >= 0; k--) {
    run(
      env,
      pass,
      'addBlockSums',
      levels[k]!.n,
      block,
      groups.get('addBlockSums', 0, { 0: b.levelRange(k), 1: b.levelRange(k + 1) }, `L${k}`),
    );
  }
  pass.end();
}
