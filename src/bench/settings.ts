/**
 * The benchmark page's settings: the quick and full presets, the query that overrides them (so a
 * URL reproduces a run), and each run's capacity bounds. No DOM.
 */
import {
  ALL_FAMILIES,
  ALL_VARIANTS,
  COST_COUNTS,
  SWEEP_COUNTS,
  caseLabel,
  type BehaviourVariant,
  type BenchFamily,
} from './cases';
import type { BenchSettings } from './report';

export const GRID_FAMILIES = ALL_FAMILIES.filter((f) => f.mode === 'grid');

/**
 * The two runs the page offers. Quick: capacity per backend, then webgpu (counting sort), webgl2,
 * webgl2-tf and cpu at N = 1,024, 4,096 and 16,384 with 3 batches and 3 frames each (about a
 * minute on this project's 2-core machine with a software GPU). Full: every family (both WebGPU
 * sorts, brute force up to 16,384, the steady and dense rows with their 600-step warm-ups),
 * N = 1,024 to 1,048,576, 7 batches and 5 frames, and the cost rows of every behaviour.
 */
export function presetSettings(preset: 'quick' | 'full'): BenchSettings {
  const quick = preset === 'quick';
  return {
    families: quick
      ? GRID_FAMILIES.filter((f) => f.sort !== 'bitonic' && !f.scene).map(caseLabel)
      : ALL_FAMILIES.map(caseLabel),
    counts: quick ? [1024, 4096, 16384] : [...SWEEP_COUNTS],
    bruteMax: 16384,
    samples: quick ? 3 : 7,
    batch: 'auto',
    frames: quick ? 3 : 5,
    budgetMs: quick ? 1000 : 2000,
    dimensions: 3,
    seed: 1,
    behaviours: quick ? 'none' : 'all',
    behaviourCounts: [...COST_COUNTS],
    rounds: 9,
    preset,
    capacity: true,
  };
}

/** The capacity search's bounds per run: a quick run keeps each backend to a few seconds. */
export function capacityBounds(s: BenchSettings) {
  return s.preset === 'full'
    ? { deadlineMs: 25_000, probeMs: 1500, frames: 5 }
    : { deadlineMs: 6_000, probeMs: 500, frames: 3 };
}

/** The settings the page starts with: a preset (quick by default), overridden by the query `q`. */
export function settingsFromQuery(q: URLSearchParams): BenchSettings {
  const list = (k: string) => (q.get(k) ?? '').split(',').filter(Boolean);
  const num = (k: string, d: number) => {
    const v = Number(q.get(k));
    return q.has(k) && Number.isFinite(v) ? v : d;
  };
  const base = presetSettings(q.get('preset') === 'full' ? 'full' : 'quick');
  let families = base.families;
  if (q.has('backends')) {
    const backends = list('backends');
    const modes = q.has('modes') ? list('modes') : ['grid'];
    const sorts = q.has('sorts') ? list('sorts') : ['counting', 'bitonic'];
    families = ALL_FAMILIES.filter(
      (f) =>
        backends.includes(f.backend) &&
        modes.includes(f.mode) &&
        (f.backend !== 'webgpu' || f.mode === 'brute' || sorts.includes(f.sort!)) &&
        (!f.scene || q.get('steady') !== '0'),
    ).map(caseLabel);
  } else if (q.get('steady') === '0') {
    families = families.filter((l) => !/steady/.test(l));
  }
  let counts = base.counts;
  if (q.has('counts')) {
    counts = list('counts')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
  } else if (q.has('minN') || q.has('maxN')) {
    const lo = num('minN', 1024);
    const hi = num('maxN', 1048576);
    counts = SWEEP_COUNTS.filter((n) => n >= lo && n <= hi);
  }
  const batch = q.get('batch');
  const b = q.get('behaviours');
  const behaviourCounts = q.has('behaviourCounts')
    ? list('behaviourCounts')
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0)
    : base.behaviourCounts;
  return {
    ...base,
    families,
    counts,
    bruteMax: num('bruteMax', base.bruteMax),
    samples: num('samples', base.samples),
    batch: batch === null || batch === 'auto' ? 'auto' : Math.max(1, Number(batch) || 1),
    frames: num('frames', q.get('draw') === '0' ? 0 : base.frames),
    budgetMs: num('budget', base.budgetMs),
    dimensions: num('dims', 3) === 2 ? 2 : 3,
    seed: num('seed', 1),
    behaviours:
      b === 'all' || b === 'terms' || b === 'none'
        ? b
        : b && list('behaviours').every((v) => (ALL_VARIANTS as readonly string[]).includes(v))
          ? (list('behaviours') as BehaviourVariant[])
          : base.behaviours,
    behaviourCounts,
    rounds: Math.max(3, Math.round(num('rounds', base.rounds))),
    capacity: q.has('capacity') ? q.get('capacity') !== '0' : base.capacity,
  };
}

export function familiesOf(s: BenchSettings): BenchFamily[] {
  return ALL_FAMILIES.filter((f) => s.families.includes(caseLabel(f)));
}
