/**
 * The bitonic sorting network (Batcher, "Sorting networks and their applications", 1968) as the
 * GPU passes run it: for M = 2^m elements, stages k = 2, 4, ..., M and within each j = k/2, ..., 1;
 * element i is compared with i xor j, ascending when (i & k) == 0. log2 M (log2 M + 1) / 2 passes.
 * The CPU version here is the executable form the fragment and compute passes are tested against.
 */

/** The smallest power of two >= n (n >= 1). */
export function nextPow2(n: number): number {
  let m = 1;
  while (m < n) m *= 2;
  return m;
}

/** The (k, j) pairs of every pass, in order. */
export function bitonicPasses(m: number): { k: number; j: number }[] {
  const out: { k: number; j: number }[] = [];
  for (let k = 2; k <= m; k *= 2) for (let j = k / 2; j >= 1; j /= 2) out.push({ k, j });
  return out;
}

/**
 * Sorts (key, id) pairs in place by key then id with the bitonic network, one pass at a time, each
 * pass reading only the previous pass's output (as a fragment pass does). Length must be a power of two.
 */
export function bitonicSortPairs(keys: Uint32Array, ids: Uint32Array): void {
  const m = keys.length;
  if (m & (m - 1)) throw new Error(`length ${m} is not a power of two`);
  for (const { k, j } of bitonicPasses(m)) {
    const k0 = keys.slice();
    const i0 = ids.slice();
    for (let i = 0; i < m; i++) {
      const p = i ^ j;
      const ascending = (i & k) === 0;
      const lower = i < p;
      const selfLess = k0[i]! < k0[p]! || (k0[i] === k0[p] && i0[i]! < i0[p]!);
      // The lower index of an ascending pair keeps the smaller element, the upper one the larger.
      const keepSelf = lower === ascending ? selfLess : !selfLess;
      keys[i] = keepSelf ? k0[i]! : k0[p]!;
      ids[i] = keepSelf ? i0[i]! : i0[p]!;
    }
  }
}
