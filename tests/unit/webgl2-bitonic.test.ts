// The bitonic network of src/webgl2/bitonic-sort.ts, run on arrays with the fragment shader's
// per-element rule (glsl/bitonic-sort.frag.glsl): sorts (key, payload) pairs for every power of
// two up to 1024, with duplicate keys and sentinel padding.
import { describe, expect, test } from 'vitest';
import { bitonicPassCount, bitonicStages } from '../../src/webgl2/bitonic-sort';
import { mulberry32 } from '../../src/core/state';

type Pair = [key: number, payload: number];

const less = (a: Pair, b: Pair) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** One pass exactly as the fragment shader computes it: element i reads i and i ^ j. */
function pass(src: Pair[], k: number, j: number): Pair[] {
  return src.map((a, i) => {
    const p = i ^ j;
    const b = src[p]!;
    const keepMin = i < p === ((i & k) === 0);
    return keepMin === less(a, b) ? a : b;
  });
}

function sortOnGpuRules(pairs: Pair[]): Pair[] {
  let cur = pairs;
  for (const [k, j] of bitonicStages(pairs.length)) cur = pass(cur, k, j);
  return cur;
}

describe('bitonic network', () => {
  test('pass counts: log2 M (log2 M + 1) / 2', () => {
    expect(bitonicPassCount(1)).toBe(0);
    expect(bitonicPassCount(2)).toBe(1);
    expect(bitonicPassCount(8192)).toBe(91);
    expect(bitonicStages(8192).length).toBe(91);
    expect(bitonicStages(1)).toEqual([]);
  });

  test('sorts every count 1..300 padded to a power of two with sentinels', () => {
    const rand = mulberry32(99);
    for (let count = 1; count <= 300; count++) {
      let m = 1;
      while (m < count) m *= 2;
      const pairs: Pair[] = [];
      for (let i = 0; i < m; i++) {
        pairs.push(i < count ? [Math.floor(rand() * 17), i] : [0xffffffff, i]);
      }
      const want = [...pairs].sort((a, b) => (less(a, b) ? -1 : 1));
      expect(sortOnGpuRules(pairs)).toEqual(want);
    }
  });

  test('sorts 1024 distinct keys in reverse order', () => {
    const pairs: Pair[] = Array.from({ length: 1024 }, (_, i) => [1023 - i, i]);
    const got = sortOnGpuRules(pairs);
    expect(got.map((p) => p[0])).toEqual(Array.from({ length: 1024 }, (_, i) => i));
  });
});
