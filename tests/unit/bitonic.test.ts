import { describe, expect, test } from 'vitest';
import { bitonicPasses, bitonicSortPairs, nextPow2 } from '../../src/core/bitonic';
import { mulberry32 } from '../../src/core/state';

describe('bitonic network', () => {
  test('pass count is log2 M (log2 M + 1) / 2', () => {
    expect(bitonicPasses(1)).toHaveLength(0);
    expect(bitonicPasses(2)).toEqual([{ k: 2, j: 1 }]);
    expect(bitonicPasses(8).map((p) => `${p.k}/${p.j}`)).toEqual([
      '2/1',
      '4/2',
      '4/1',
      '8/4',
      '8/2',
      '8/1',
    ]);
    expect(bitonicPasses(1 << 14)).toHaveLength((14 * 15) / 2);
  });

  test('nextPow2', () => {
    expect([1, 2, 3, 5, 1000, 4096, 5000].map(nextPow2)).toEqual([1, 2, 4, 8, 1024, 4096, 8192]);
  });

  test.each([1, 2, 3, 7, 1000, 5000])(
    'sorts %i random (key, id) pairs padded with sentinels',
    (n) => {
      const m = nextPow2(n);
      const rand = mulberry32(n);
      const keys = new Uint32Array(m).fill(0xffffffff);
      const ids = new Uint32Array(m);
      for (let i = 0; i < m; i++) ids[i] = i;
      for (let i = 0; i < n; i++) keys[i] = Math.floor(rand() * 50); // many equal keys
      const want = Array.from({ length: n }, (_, i) => [keys[i]!, i] as const).sort(
        (a, b) => a[0] - b[0] || a[1] - b[1],
      );
      bitonicSortPairs(keys, ids);
      for (let i = 0; i < n; i++) {
        expect([keys[i], ids[i]]).toEqual(want[i]);
      }
      for (let i = n; i < m; i++) expect(keys[i]).toBe(0xffffffff);
    },
  );

  test('sorts every count 1..300 with duplicate keys, padded with sentinels', () => {
    const rand = mulberry32(99);
    for (let n = 1; n <= 300; n++) {
      const m = nextPow2(n);
      const keys = new Uint32Array(m).fill(0xffffffff);
      const ids = new Uint32Array(m);
      for (let i = 0; i < m; i++) ids[i] = i;
      for (let i = 0; i < n; i++) keys[i] = Math.floor(rand() * 8);
      bitonicSortPairs(keys, ids);
      for (let i = 1; i < m; i++) {
        const ordered =
          keys[i - 1]! < keys[i]! || (keys[i - 1] === keys[i] && ids[i - 1]! < ids[i]!);
        expect(ordered, `n = ${n}, i = ${i}`).toBe(true);
      }
      expect([...ids].sort((a, b) => a - b)).toEqual([...Array(m).keys()]);
    }
  });
});
