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
  // The second dispatch of a split steer pass (steer.wgsl SPLIT): steerGrid's bind groups.
  integrateGrid: ['steer.wgsl', 'boid', ['urrw-w', 'd']],
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

/** The warp-coherent search of the grid passes (steer.wgsl TILE, TILE_SPAN); tile 0: off. */
export interface SearchTile {
  tile: number;
  span: number;
}

/** Unrolling of the grid passes' candidate loop (steer.wgsl UNROLL): 1 (plain loop), 2 or 4. */
export type CandidateUnroll = 1 | 2 | 4;

/** Grid entry points that take the TILE and UNROLL overrides. */
const TILED: readonly ProgramName[] = ['steerGrid', 'countGrid'];
/** Entry points that read or write `sorted` (sorted.wgsl's SORTED_BLOCKS). */
const SORTED: readonly ProgramName[] = [
  'scatter',
  'sortedKeys',
  'reorder',
  'copyRecords',
  'steerGrid',
  'integrateGrid',
  'countGrid',
  'steerBrute',
  'countBrute',
];

/** Layout of the `sorted` buffer (sorted.wgsl): Boid records, or position and velocity blocks. */
export type SortedLayout = 'records' | 'blocks';

/** The specs for the workgroup sizes in use (per-boid passes, scan, bitonic sort). */
export function programSpecs(
  wg: {
    boid: number;
    scan: number;
    sort: number;
  },
  search: SearchTile = { tile: 0, span: 0 },
  sorted: SortedLayout = 'records',
  unroll: CandidateUnroll = 1,
  split = false,
  flat = false,
  cull = true,
  splitX: number | 'auto' = 1,
): Record<ProgramName, ComputeSpec> {
  const out = {} as Record<ProgramName, ComputeSpec>;
  for (const [name, [file, size, groups]] of Object.entries(TABLE) as [
    ProgramName,
    (typeof TABLE)[ProgramName],
  ][]) {
    const constants: Record<string, number> = {};
    if (search.tile > 1 && TILED.includes(name)) {
      constants.TILE = search.tile;
      constants.TILE_SPAN = search.span;
    }
    if (unroll > 1 && TILED.includes(name)) constants.UNROLL = unroll;
    if (split && name === 'steerGrid') constants.SPLIT = 1;
    if (flat && TILED.includes(name)) constants.FLAT = 1;
    if (!cull && TILED.includes(name)) constants.CULL = 0;
    if ((splitX === 'auto' || splitX > 1) && TILED.includes(name)) constants.SPHERE_X = 1;
    if (sorted === 'blocks' && SORTED.includes(name)) constants.SORTED_BLOCKS = 1;
    out[name] = {
      file,
      entry: name,
      workgroupSize: wg[size],
      ...(Object.keys(constants).length ? { constants } : {}),
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
