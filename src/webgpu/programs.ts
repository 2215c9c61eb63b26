/**
 * Every compute entry point of the simulation with the bindings it uses, in one table.
 * Binding strings list bindings 0, 1, 2, ... of a group, one letter each:
 *   u uniform, d uniform with dynamic offset, r read-only storage, w storage, - unused.
 * No entry uses more than 4 storage buffers (Dawn compatibility mode's default per stage).
 */
import type { BindingKind, ComputeSpec } from './shaders';

const TABLE = {
  clearCounts: ['grid-count.wgsl', 'boid', ['u-w']],
  countCells: ['grid-count.wgsl', 'boid', ['urww']],
  scanBlocks: ['scan.wgsl', 'scan', ['ww']],
  addBlockSums: ['scan.wgsl', 'scan', ['ww']],
  scatter: ['scatter.wgsl', 'boid', ['urrrw']],
  sortedKeys: ['scatter.wgsl', 'boid', ['u---ww']],
  makeKeys: ['bitonic-sort.wgsl', 'sort', ['uwr']],
  localSort: ['bitonic-sort.wgsl', 'sort', ['uw']],
  localDisperseAll: ['bitonic-sort.wgsl', 'sort', ['uw']],
  globalFlip: ['bitonic-sort.wgsl', 'sort', ['uw', 'd']],
  globalDisperse: ['bitonic-sort.wgsl', 'sort', ['uw', 'd']],
  cellTable: ['cell-table.wgsl', 'boid', ['urw']],
  reorder: ['reorder.wgsl', 'boid', ['urrw']],
  copyRecords: ['reorder.wgsl', 'boid', ['u-rw']],
  steerGrid: ['steer.wgsl', 'boid', ['urrw-w', 'd']],
  countGrid: ['steer.wgsl', 'boid', ['urr-w']],
  steerBrute: ['steer.wgsl', 'boid', ['ur-w-w', 'd']],
  countBrute: ['steer.wgsl', 'boid', ['ur--w']],
} as const satisfies Record<string, readonly [string, 'boid' | 'scan' | 'sort', readonly string[]]>;

export type ProgramName = keyof typeof TABLE;

const KINDS: Record<string, BindingKind> = {
  u: 'uniform',
  d: 'uniform-dynamic',
  r: 'read-only-storage',
  w: 'storage',
};

/** The specs for the workgroup sizes in use (per-boid passes, scan, bitonic sort). */
export function programSpecs(wg: {
  boid: number;
  scan: number;
  sort: number;
}): Record<ProgramName, ComputeSpec> {
  const out = {} as Record<ProgramName, ComputeSpec>;
  for (const [name, [file, size, groups]] of Object.entries(TABLE) as [
    ProgramName,
    (typeof TABLE)[ProgramName],
  ][]) {
    out[name] = {
      file,
      entry: name,
      workgroupSize: wg[size],
      groups: groups.map((g) => {
        const bindings: Record<number, BindingKind> = {};
        [...g].forEach((c, i) => {
          if (c !== '-') bindings[i] = KINDS[c]!;
        });
        return bindings;
      }),
    };
  }
  return out;
}
