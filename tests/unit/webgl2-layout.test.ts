// Texture layouts of the WebGL2 paths (src/webgl2/textures.ts) and the count limit derived from
// MAX_TEXTURE_SIZE (src/webgl2/webgl2-backend.ts).
import { describe, expect, test } from 'vitest';
import { nextPow2 } from '../../src/core/bitonic';
import { cellTableLayout, TABLE_LAYERS } from '../../src/webgl2/cell-table';
import { compactLayout, powerOfTwoLayout, rowsFor } from '../../src/webgl2/textures';
import { maxCountFor } from '../../src/webgl2/webgl2-backend';

describe('texture layouts', () => {
  test('state textures: M = nextPow2(count) texels, power-of-two sides, width >= height', () => {
    for (const count of [1, 2, 3, 5, 1000, 4096, 4097, 5000, 16384, 1_000_003, 2 ** 24]) {
      const l = powerOfTwoLayout(count);
      expect(l.texels).toBe(nextPow2(count));
      expect(l.width * l.height).toBe(l.texels);
      expect(l.width).toBe(2 ** l.shift);
      expect(l.width).toBeGreaterThanOrEqual(l.height);
      expect(l.width).toBeLessThanOrEqual(2 * l.height);
      expect(Number.isInteger(l.height)).toBe(true);
    }
    expect(powerOfTwoLayout(5000)).toEqual({ width: 128, height: 64, shift: 7, texels: 8192 });
    expect(powerOfTwoLayout(1)).toEqual({ width: 1, height: 1, shift: 0, texels: 1 });
  });

  test('cell tables: at least the cells, power-of-two width, few spare rows', () => {
    for (const cells of [1, 7, 4096, 4913, 32768, 9261, 1_234_567]) {
      const l = compactLayout(cells);
      expect(l.texels).toBeGreaterThanOrEqual(cells);
      expect(l.width).toBe(2 ** l.shift);
      expect(l.texels - cells).toBeLessThan(l.width);
    }
  });

  test('cell table: cells 0..cellCount (one past the last), 16 a texel over 4 layers', () => {
    expect(TABLE_LAYERS).toBe(4);
    // 1000 cells: starts of cells 0..1000 = 1001 values in 63 texels of 16 -> 8 x 8.
    expect(cellTableLayout(1000)).toEqual({ width: 8, height: 8, shift: 3, texels: 64 });
    // 1007 cells: 1008 values = exactly 63 texels; 1008 cells: 1009 values need 64.
    expect(cellTableLayout(1007).texels).toBeGreaterThanOrEqual(63);
    expect(cellTableLayout(1008).texels).toBeGreaterThanOrEqual(64);
    for (const cells of [1, 15, 16, 4913, 9261, 1_234_567]) {
      const l = cellTableLayout(cells);
      expect(16 * l.texels).toBeGreaterThanOrEqual(cells + 1);
      expect(16 * (l.texels - l.width)).toBeLessThan(cells + 1);
    }
    expect(cellTableLayout(15)).toEqual({ width: 1, height: 1, shift: 0, texels: 1 });
    expect(cellTableLayout(16)).toEqual({ width: 2, height: 1, shift: 1, texels: 2 });
  });

  test('rows holding the first n elements', () => {
    const l = powerOfTwoLayout(5000);
    expect(rowsFor(l, 5000)).toBe(40);
    expect(rowsFor(l, 1)).toBe(1);
    expect(rowsFor(l, 8192)).toBe(64);
  });

  test('maxCount: a quarter of the largest square power-of-two texture, at most 2^24', () => {
    expect(maxCountFor(16384)).toBe(2 ** 24);
    expect(maxCountFor(8192)).toBe(2 ** 24);
    expect(maxCountFor(4096)).toBe(2 ** 22);
    expect(maxCountFor(2048)).toBe(2 ** 20);
    expect(maxCountFor(3000)).toBe(2 ** 20);
    expect(maxCountFor(64)).toBe(1024);
  });
});
