// src/webgpu/timing.ts (the lazy pass timer's chunk) writes WebGPU's flags as numbers so that its
// chunk need not share a module with the backend (c8dc00f); here each is tied to constants.ts's
// named flag, and no other flag number may stand in that file, so a drift fails.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { BufferUsage, MapMode } from '../../src/webgpu/constants';
import * as timing from '../../src/webgpu/timing';

/** timing.ts's flag numbers by name, and the named flag of constants.ts each one stands for. */
const TIED: Record<string, number> = {
  QUERY_RESOLVE: BufferUsage.QUERY_RESOLVE,
  COPY_SRC: BufferUsage.COPY_SRC,
  MAP_READ: BufferUsage.MAP_READ,
  COPY_DST: BufferUsage.COPY_DST,
  READ: MapMode.READ,
};

describe("timing.ts's flag numbers", () => {
  test('each equals the named flag of constants.ts', () => {
    const exported = timing as unknown as Record<string, unknown>;
    expect(Object.fromEntries(Object.keys(TIED).map((k) => [k, exported[k]]))).toEqual(TIED);
    // The values themselves (constants.ts is the WebGPU spec's GPUBufferUsage / GPUMapMode).
    expect(Object.values(TIED)).toEqual([0x200, 0x4, 0x1, 0x8, 0x1]);
  });

  test('the file writes no flag number but the tied ones', () => {
    const source = readFileSync(new URL('../../src/webgpu/timing.ts', import.meta.url), 'utf8');
    // Every hex number in the file stands in one `export const NAME = 0x...;` line, of a tied name.
    const hex = [...source.matchAll(/0x[0-9a-f]+/gi)].length;
    const declared = [...source.matchAll(/^export const ([A-Z_]+) = (0x[0-9a-f]+);$/gim)];
    expect(declared.map((m) => m[1]).sort()).toEqual(Object.keys(TIED).sort());
    expect(declared.map((m) => Number(m[2]))).toEqual(declared.map((m) => TIED[m[1]!]));
    expect(hex).toBe(declared.length);
    // Usages are written with the names (`usage: MAP_READ | COPY_DST`), not numbers.
    expect(source).toMatch(/usage: QUERY_RESOLVE \| COPY_SRC/);
    expect(source).toMatch(/usage: MAP_READ \| COPY_DST/);
    expect(source).toMatch(/mapAsync\(READ,/);
  });
});
