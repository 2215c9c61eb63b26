/**
 * The benchmark's cases: which backends, searches, sorts, scenes and behaviour variants it
 * measures, at which counts, and each case's parameters (the box follows N at constant density,
 * DESIGN.md section 6). Pure data and arithmetic: measure.ts and cost-rows.ts run them.
 */
import { PASS_NAMES, type BackendKind } from '../backend';
import type { FlockParams } from '../core/params';
import { allBehaviours, FIRST_MODEL } from './scene';

export type BenchMode = 'grid' | 'brute';
export type SortKind = 'counting' | 'bitonic';
export type TimingKind = 'gpu' | 'cpu-wait' | 'none';

/** One line of a sweep: a backend, a neighbour search and (WebGPU grid) a sort. */
export interface BenchFamily {
  backend: BackendKind;
  mode: BenchMode;
  /** WebGPU grid build; ignored elsewhere (the WebGL2 paths always sort bitonically). */
  sort?: SortKind;
  /**
   * What users run (DESIGN.md section 6): 'steady', timed after STEADY_STEPS steps from the seed's
   * uniform state; 'dense', the same in a box of side / DENSE_FACTOR. Absent: the fresh state.
   */
  scene?: 'steady' | 'dense';
  /**
   * A cost row (runCosts): the plain default flock ('plain', measured in the same rounds as the
   * others), every behaviour on ('all'), one term on, the first model, or the default flock with
   * the code of its off terms removed from the steer shader ('removed'). Absent: a sweep row.
   */
  behaviours?: BehaviourVariant;
}

/** The terms of DESIGN section 1 that are off in the default flock, switched on one at a time. */
export const TERM_NAMES = [
  'species',
  'obstacles',
  'attractor',
  'predators',
  'wind',
  'turbulence',
] as const;
export type TermName = (typeof TERM_NAMES)[number];
export type BehaviourVariant =
  'plain' | 'all' | TermName | 'first' | 'removed' | 'removed-species' | 'removed-forces';

/** Every variant name, in table order. */
export const ALL_VARIANTS: readonly BehaviourVariant[] = [
  'plain',
  'all',
  ...TERM_NAMES,
  'first',
  'removed',
  'removed-species',
  'removed-forces',
];

/** The cost rows `behaviours=terms` measures, in table order (after 'plain'). */
export const TERM_VARIANTS: readonly BehaviourVariant[] = [
  'all',
  ...TERM_NAMES,
  'first',
  'removed',
];

/** The N of the cost rows by default (issue 9 must-have 7). */
export const COST_COUNTS: readonly number[] = [16384, 65536];

/** The families the cost rows are measured on: one per GPU backend. */
export const COST_BASES: readonly BenchFamily[] = [
  { backend: 'webgpu', mode: 'grid', sort: 'counting' },
  { backend: 'webgl2', mode: 'grid' },
];

const VARIANT_LABELS: Record<BehaviourVariant, string> = {
  plain: 'plain',
  all: '+ all behaviours',
  species: '+ species 3',
  obstacles: '+ 4 obstacles',
  attractor: '+ attractor',
  predators: '+ 2 predators',
  wind: '+ wind',
  turbulence: '+ turbulence',
  first: 'first model',
  removed: 'off-term code removed',
  'removed-species': 'species test removed',
  'removed-forces': 'off forces/flow code removed',
};

/**
 * The parameters a variant sets over the defaults, for a box of half side h: allBehaviours (or
 * the part of it that is one term), FIRST_MODEL for 'first', nothing for 'plain' and 'removed'.
 */
export function variantParams(v: BehaviourVariant, h: number, d: 2 | 3): Partial<FlockParams> {
  const all = allBehaviours(h, d);
  switch (v) {
    case 'plain':
    case 'removed':
    case 'removed-species':
    case 'removed-forces':
      return {};
    case 'all':
      return all;
    case 'first':
      return FIRST_MODEL;
    case 'species':
      return { species: all.species };
    case 'obstacles':
      return { obstacles: all.obstacles };
    case 'attractor':
      return {
        attractor: all.attractor,
        attractorStrength: all.attractorStrength,
        attractorRadius: all.attractorRadius,
      };
    case 'predators':
      return { predators: all.predators };
    case 'wind':
      return { wind: all.wind };
    case 'turbulence':
      return { turbulence: all.turbulence, turbulenceScale: all.turbulenceScale };
  }
}

/** Steps before a 'steady' or 'dense' case is timed. */
export const STEADY_STEPS = 600;
/** The dense scene's box side is the default density's side / DENSE_FACTOR (about 20 neighbours). */
export const DENSE_FACTOR = 2.15;
/** The steady and dense families are measured up to this N (600 steps each; software GPUs are slow). */
export const STEADY_MAX_COUNT = 4096;

export interface BenchCase extends BenchFamily {
  count: number;
  dimensions?: 2 | 3;
  /** uint32 seed of the initial state (default 1). */
  seed?: number;
}

/** The pass names in drawing order (key/sort, cell table, reorder, steer, draw). */
export const PASS_KEYS = PASS_NAMES;

/** The sweep the issue asks for: 1,024 to 1,048,576 in factors of 4. */
export const SWEEP_COUNTS: readonly number[] = [1024, 4096, 16384, 65536, 262144, 1048576];

/** Every family the page offers, in table order. */
export const ALL_FAMILIES: readonly BenchFamily[] = [
  { backend: 'webgpu', mode: 'grid', sort: 'counting' },
  { backend: 'webgpu', mode: 'grid', sort: 'bitonic' },
  { backend: 'webgl2', mode: 'grid' },
  { backend: 'webgl2-tf', mode: 'grid' },
  { backend: 'cpu', mode: 'grid' },
  { backend: 'webgpu', mode: 'grid', sort: 'counting', scene: 'steady' },
  { backend: 'webgl2', mode: 'grid', scene: 'steady' },
  { backend: 'webgpu', mode: 'grid', sort: 'counting', scene: 'dense' },
  { backend: 'webgl2', mode: 'grid', scene: 'dense' },
  { backend: 'webgpu', mode: 'brute' },
  { backend: 'webgl2', mode: 'brute' },
  { backend: 'webgl2-tf', mode: 'brute' },
  { backend: 'cpu', mode: 'brute' },
];

export function caseLabel(c: BenchFamily): string {
  const base =
    c.mode === 'brute'
      ? `${c.backend} brute`
      : c.backend === 'webgpu'
        ? `webgpu ${c.sort ?? 'counting'}`
        : `${c.backend} grid`;
  const scene = c.scene === 'dense' ? ' dense steady' : c.scene === 'steady' ? ' steady' : '';
  const variant = c.behaviours ? ` ${VARIANT_LABELS[c.behaviours]}` : '';
  return base + scene + variant;
}

/** Box side at constant density: 64 * (N / 16384)^(1/d). */
export function boxSideFor(count: number, dimensions: 2 | 3 = 3): number {
  return 64 * Math.pow(count / 16384, 1 / dimensions);
}

/** The parameters of one case: the same seed and model parameters everywhere, the box follows N. */
export function caseParams(c: BenchCase) {
  const d = c.dimensions ?? 3;
  const h = boxSideFor(c.count, d) / 2 / (c.scene === 'dense' ? DENSE_FACTOR : 1);
  return {
    ...(c.behaviours ? variantParams(c.behaviours, h, d) : {}),
    count: c.count,
    dimensions: d,
    neighborSearch: c.mode,
    sort: c.sort ?? 'counting',
    boundsMin: [-h, -h, d === 2 ? 0 : -h] as [number, number, number],
    boundsMax: [h, h, d === 2 ? 1 : h] as [number, number, number],
    seed: c.seed ?? 1,
    // DESIGN section 6: the benchmark starts uniform (expectedNeighbors assumes it) whatever the
    // params' default start is; the steady state after 600 steps is measured from there.
    start: 'uniform' as const,
  };
}

/** Expected mean neighbour count of a uniform state: (N-1) * sphere (disc) volume / box volume. */
export function expectedNeighbors(count: number, r: number, d: 2 | 3): number {
  const side = boxSideFor(count, d);
  const ball = d === 3 ? (4 / 3) * Math.PI * r ** 3 : Math.PI * r * r;
  return ((count - 1) * ball) / side ** d;
}

/** Step-time growth from N to 4N the model predicts: the grid is O(N), brute force O(N²). */
export function expectedGrowth(mode: BenchMode): number {
  return mode === 'brute' ? 16 : 4;
}

/** The largest N a sweep measures for a family, and why larger ones are left out. */
export interface SweepCap {
  count: number;
  /** The skip label of the counts above it. */
  skipped: string;
}

/**
 * The sweep's cap of family `f`: brute force above `bruteMax` (all pairs, O(N²)); steady and
 * dense rows above STEADY_MAX_COUNT (each runs STEADY_STEPS untimed steps first, so that the
 * flock forms); null for the rest.
 */
export function sweepCap(f: BenchFamily, bruteMax: number): SweepCap | null {
  if (f.mode === 'brute')
    return {
      count: bruteMax,
      skipped: `left out above N = ${bruteMax.toLocaleString('en-US')}: all pairs grow as N², too slow here`,
    };
  if (f.scene)
    return {
      count: STEADY_MAX_COUNT,
      skipped:
        `left out above N = ${STEADY_MAX_COUNT.toLocaleString('en-US')}: a ${f.scene} row first ` +
        `runs ${STEADY_STEPS} untimed steps so that the flock forms, too slow here`,
    };
  return null;
}
