import { describe, expect, test } from 'vitest';
import * as bitonic from '../../src/core/bitonic';
import { mulberry32 } from '../../src/core/state';

describe('bitonic network', () => {
  test('pass count is log2 M (log2 M + 1) / 2', () => {
    expect(bitonic.bitonicPasses(1)).toHaveLength(0);
    expect(bitonic.bitonicPasses(2)).toEqual([{ k: 2, j: 1 }]);
    expect(bitonic.bitonicPasses(8).map((p) => `${p.k}/${p.j}`)).toEqual([
      '2/1',
      '4/2',
      '4/1',
      '8/4',
      '8/2',
      '8/1',
    ]);
    expect(bitonic.bitonicPasses(1 << 14)).toHaveLength((14 * 15) / 2);
  });

  test('nextPow2', () => {
    expect([1, 2, 3, 5, 1000, 4096, 5000].map(bitonic.nextPow2)).toEqual([
      1, 2, 4, 8, 1024, 4096, 8192,
    ]);
  });

  test.each([1, 2, 3, 7, 1000, 5000])(
    'sorts %i random (key, id) pairs padded with sentinels',
    (n) => {
      const m = bitonic.nextPow2(n);
      const rand = mulberry32(n);
      const keys = new Uint32Array(m).fill(0xffffffff);
      const ids = new Uint32Array(m);
      for (let i = 0; i < m; i++) ids[i] = i;
      for (let i = 0; i < n; i++) keys[i] = Math.floor(rand() * 50); // many equal keys
      const want = Array.from({ length: n }, (_, i) => [keys[i]!, i] as const).sort(
        (a, b) => a[0] - b[0] || a[1] - b[1],
      );
      bitonic.bitonicSortPairs(keys, ids);
      for (let i = 0; i < n; i++) {
        expect([keys[i], ids[i]]).toEqual(want[i]);
      }
      for (let i = n; i < m; i++) expect(keys[i]).toBe(0xffffffff);
    },
  );

  test('sorts every count 1..300 with duplicate keys, padded with sentinels', () => {
    const rand = mulberry32(99);
    for (let n = 1; n <= 300; n++) {
      const m = bitonic.nextPow2(n);
      const keys = new Uint32Array(m).fill(0xffffffff);
      const ids = new Uint32Array(m);
      for (let i = 0; i < m; i++) ids[i] = i;
      for (let i = 0; i < n; i++) keys[i] = Math.floor(rand() * 8);
      bitonic.bitonicSortPairs(keys, ids);
      const unordered: number[] = [];
      for (let i = 1; i < m; i++) {
        const ordered =
          keys[i - 1]! < keys[i]! || (keys[i - 1] === keys[i] && ids[i - 1]! < ids[i]!);
        if (!ordered) unordered.push(i);
      }
      expect(unordered, `n = ${n}`).toEqual([]);
      expect([...ids].sort((a, b) => a - b)).toEqual([...Array(m).keys()]);
    }
  });
});

describe('blocked bitonic network (several stages per pass)', () => {
  test('pass counts: at most a third of the one-stage-per-pass network at 2^16 and 2^18', () => {
    // 1 + ceil((m (m + 1) - p (p + 1)) / (2 p)): the passes after the key pass, unpack included.
    expect(bitonic.blockedSortPassCount(1 << 16, 4)).toBe(1 + Math.ceil((16 * 17 - 20) / 8));
    expect(bitonic.blockedSortPassCount(1 << 16, 4)).toBe(33);
    expect(bitonic.blockedSortPassCount(1 << 18, 4)).toBe(42);
    expect(bitonic.blockedSortPassCount(1 << 16, 3)).toBe(45);
    expect(bitonic.blockedSortPassCount(1 << 18, 3)).toBe(56);
    for (const p of [3, 4]) {
      expect(bitonic.blockedSortPassCount(1 << 16, p) * 3).toBeLessThanOrEqual(
        bitonic.bitonicPasses(1 << 16).length,
      );
      expect(bitonic.blockedSortPassCount(1 << 18, p) * 3).toBeLessThanOrEqual(
        bitonic.bitonicPasses(1 << 18).length,
      );
    }
    // Small lengths: everything in the key pass's local sort, then the unpack.
    expect(bitonic.blockedSortPassCount(1, 4)).toBe(1);
    expect(bitonic.blockedSortPassCount(16, 4)).toBe(1);
    expect(bitonic.blockedSortPassCount(32, 4)).toBe(3); // merge 32: bit 4 alone, then bits 3..0
  });

  test('the plan runs every stage of the network once, in order, ending canonical', () => {
    for (const p of [1, 2, 3, 4]) {
      for (const m of [p, p + 1, p + 2, 9, 13]) {
        const plan = bitonic.blockedPlan(1 << m, p);
        const flat = [...plan.local, ...plan.passes.flatMap((x) => x.stages)];
        expect(flat.map((s) => s.bit)).toEqual(
          bitonic.bitonicPasses(1 << m).map((x) => Math.log2(x.j)),
        );
        expect(flat.map((s) => s.dirBit)).toEqual(
          bitonic.bitonicPasses(1 << m).map((x) => (x.k === 1 << m ? -1 : Math.log2(x.k))),
        );
        plan.passes.forEach((pass, k) => {
          expect(new Set(pass.to).size).toBe(p);
          pass.stages.forEach((s, i) => expect(pass.to[p - 1 - i]).toBe(s.bit));
          if (k > 0) expect(pass.from).toEqual(plan.passes[k - 1]!.to);
        });
        if (plan.passes.length) expect(plan.passes.at(-1)!.to).toEqual(bitonic.canonicalLayout(p));
      }
    }
  });

  test('the uniforms gather a permutation: every input element read exactly once per pass', () => {
    const plan = bitonic.blockedPlan(1 << 11, 4);
    for (const pass of plan.passes) {
      const u = bitonic.blockedPassUniforms(plan, pass);
      expect(u.runs.length).toBeLessThanOrEqual(bitonic.maxRuns(4));
      const seen = new Uint8Array(1 << 11);
      for (let t = 0; t < 1 << 7; t++) {
        for (const at of bitonic.blockedGather(u, t, 4)) seen[at]!++;
      }
      expect(seen.every((x) => x === 1)).toBe(true);
    }
  });

  for (const p of [1, 2, 3, 4]) {
    test.each([1, 3, 17, 100, 1000, 5000])(
      `block 2^${p}: %i random pairs, padded with sentinels, same result as the one-stage network`,
      (n) => {
        const m = Math.max(bitonic.nextPow2(n), 1 << p);
        const rand = mulberry32(1000 * p + n);
        const keys = new Uint32Array(m).fill(0xffffffff);
        const ids = new Uint32Array(m);
        for (let i = 0; i < m; i++) ids[i] = i;
        for (let i = 0; i < n; i++) keys[i] = Math.floor(rand() * 40); // many equal keys
        const want = Array.from({ length: n }, (_, i) => [keys[i]!, i] as const).sort(
          (a, b) => a[0] - b[0] || a[1] - b[1],
        );
        const k1 = keys.slice();
        const i1 = ids.slice();
        bitonic.bitonicSortPairs(k1, i1);
        bitonic.blockedSortPairs(keys, ids, p);
        expect(Array.from({ length: n }, (_, i) => [keys[i], ids[i]])).toEqual(want);
        expect(keys.subarray(n).every((k) => k === 0xffffffff)).toBe(true);
        expect([...keys]).toEqual([...k1]);
        expect([...ids]).toEqual([...i1]);
      },
    );
  }

  test('rejects a length that is not a power of two and block sizes outside 2..16', () => {
    expect(() => bitonic.blockedPlan(12, 4)).toThrow(/power of two/);
    expect(() => bitonic.blockedPlan(16, 5)).toThrow(/block log2/);
    expect(() => bitonic.blockedSortPairs(new Uint32Array(8), new Uint32Array(8), 4)).toThrow(
      /below/,
    );
  });
});
