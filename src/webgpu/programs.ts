/**
 * Every compute entry point of the simulation with the bindings it uses, in one table.
 * Binding strings list bindings 0, 1, 2, ... of a group, one letter each:
 *   u uniform, d uniform with dynamic offset, r read-only storage, w storage, - unused.
 * No entry uses more than 4 storage buffers (Dawn compatibility mode's default per stage) but
 * steerGridKeyed, which programSpecs puts in steerGrid's place only when `keyed`.
 */
import type { BindingKind, ComputeSpec } from './shaders';

const TABLE = {
  clearCounts: ['grid-count.wgsl', 'boid', ['u-w']],
  countCells: ['grid-count.wgsl', 'boid', ['urww']],
  scanBlocks: ['scan.wgsl', 'scan', ['ww']],
  scanCounts: ['scan.wgsl', 'scan', ['www']],
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

/**
 * steerGrid's bindings when `keyed` (programSpecs): its entry steerGridKeyed also counts the next
 * state's cells (6: the counts, 7: the (key, rank) pairs), 6 storage buffers in all, so only where
 * the device allows them (keyedStepFor).
 */
const KEYED_GROUPS = ['urrw-www', 'd'] as const;

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
const TILED: readonly string[] = ['steerGrid', 'steerGridKeyed', 'countGrid'];
/** Entry points that read or write `sorted` (sorted.wgsl's SORTED_BLOCKS). */
const SORTED: readonly string[] = [
  'scatter',
  'sortedKeys',
  'reorder',
  'copyRecords',
  'steerGrid',
  'steerGridKeyed',
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
  keyed = false,
): Record<ProgramName, ComputeSpec> {
  const out = {} as Record<ProgramName, ComputeSpec>;
  for (const [key, [file, size, groups]] of Object.entries(TABLE) as [
    ProgramName,
    (typeof TABLE)[ProgramName],
  ][]) {
    // keyed: steerGrid runs steerGridKeyed (the step's pass and the next step's key pass in one).
    const name = keyed && key === 'steerGrid' ? 'steerGridKeyed' : key;
    const constants: Record<string, number> = {};
    if (search.tile > 1 && TILED.includes(name)) {
      constants.TILE = search.tile;
      constants.TILE_SPAN = search.span;
    }
    if (unroll > 1 && TILED.includes(name)) constants.UNROLL = unroll;
    if (split && name === 'steerGrid') constants.SPLIT = 1;
    if (flat && TILED.includes(name)) constants.FLAT = 1;
    if (!cull && TILED.includes(name)) constants.CULL = 0;
    if (sorted === 'blocks' && SORTED.includes(name)) constants.SORTED_BLOCKS = 1;
    const layout: readonly string[] = name === key ? groups : KEYED_GROUPS;
    out[key] = {
      file,
      entry: name,
      workgroupSize: wg[size],
      ...(Object.keys(constants).length ? { constants } : {}),
      groups: layout.map((g) => {
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
