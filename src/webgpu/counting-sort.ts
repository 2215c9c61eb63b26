/**
 * Pass 2 of the counting sort (scan.wgsl): the exclusive prefix scan of the per-cell counts in
 * cellStart, which then holds each cell's start in the sorted order: the cell table. Keyed steps
 * count apart, in `counts`: scanned from there into cellStart and left zero (no clear before a
 * keyed steer pass counts into them). Multi-level:
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
    // Keyed: level 0 from the counts (left zero) into cellStart; otherwise every level in place.
    const [name, bindings] =
      k === 0 && b.keyed
        ? (['scanCounts', { 0: b.levelRange(0), 1: sums, 2: b.countsRange() }] as const)
        : (['scanBlocks', { 0: b.levelRange(k), 1: sums }] as const);
    run(env, pass, name, levels[k]!.n, block, groups.get(name, 0, bindings, `L${k}`));
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
