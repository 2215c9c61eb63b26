/**
 * The benchmark page's form: built from the settings, set to them, and read back into settings
 * (the families, the N range, batches, frames, budget, seed, dimensions, behaviours, capacity).
 */
import { BACKEND_LADDER, type BackendKind } from '../backend';
import { SWEEP_COUNTS, caseLabel } from './cases';
import { $, fmtN, option } from './dom';
import type { BenchSettings } from './report';
import { GRID_FAMILIES } from './settings';

export function buildControls(s: BenchSettings): void {
  const boxes = $('family-boxes');
  for (const f of GRID_FAMILIES) {
    const label = caseLabel(f);
    const l = document.createElement('label');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.value = label;
    cb.dataset.backend = f.backend;
    l.append(
      cb,
      ' ',
      label === 'webgl2 grid'
        ? 'webgl2'
        : label === 'cpu grid'
          ? 'cpu'
          : label === 'webgl2-tf grid'
            ? 'webgl2-tf'
            : label,
    );
    boxes.append(l);
  }
  for (const id of ['min-n', 'max-n', 'brute-max'])
    for (const n of SWEEP_COUNTS) option($<HTMLSelectElement>(id), String(n), fmtN(n));
  for (const id of ['side-left', 'side-right'])
    for (const b of BACKEND_LADDER) option($<HTMLSelectElement>(id), b);
  $<HTMLSelectElement>('side-left').value = 'webgl2';
  $<HTMLSelectElement>('side-right').value = 'webgpu';
  buildValues(s);
}

/** Sets the controls to the settings `s`. */
export function buildValues(s: BenchSettings): void {
  for (const cb of $('family-boxes').querySelectorAll<HTMLInputElement>('input'))
    cb.checked = s.families.includes(cb.value);
  ($('brute') as HTMLInputElement).checked = s.families.some((l) => l.endsWith('brute'));
  $<HTMLSelectElement>('min-n').value = String(Math.min(...s.counts));
  $<HTMLSelectElement>('max-n').value = String(Math.max(...s.counts));
  $<HTMLSelectElement>('brute-max').value = String(
    SWEEP_COUNTS.includes(s.bruteMax) ? s.bruteMax : 16384,
  );
  $<HTMLInputElement>('budget').value = String(s.budgetMs);
  $<HTMLInputElement>('samples').value = String(s.samples);
  $<HTMLInputElement>('batch').value = String(s.batch);
  $<HTMLInputElement>('frames').value = String(s.frames);
  $<HTMLInputElement>('seed').value = String(s.seed);
  $<HTMLSelectElement>('dims').value = String(s.dimensions);
  $<HTMLSelectElement>('behaviours').value = Array.isArray(s.behaviours) ? 'terms' : s.behaviours;
  $<HTMLInputElement>('capacity').checked = s.capacity !== false;
}

/** The settings the controls show now. */
export function settingsFromControls(prev: BenchSettings): BenchSettings {
  const grid = [...$('family-boxes').querySelectorAll<HTMLInputElement>('input:checked')];
  const families = grid.map((cb) => cb.value);
  if (($('brute') as HTMLInputElement).checked) {
    for (const cb of grid) {
      const brute = caseLabel({ backend: cb.dataset.backend as BackendKind, mode: 'brute' });
      if (!families.includes(brute)) families.push(brute);
    }
  }
  const lo = Number($<HTMLSelectElement>('min-n').value);
  const hi = Number($<HTMLSelectElement>('max-n').value);
  // Counts given in the query (the CLI) stay as given unless the range controls changed them.
  const sameRange = lo === Math.min(...prev.counts) && hi === Math.max(...prev.counts);
  const counts = sameRange ? prev.counts : SWEEP_COUNTS.filter((n) => n >= lo && n <= hi);
  const batchText = $<HTMLInputElement>('batch').value.trim();
  const pos = (id: string, d: number) => {
    const v = Number($<HTMLInputElement>(id).value);
    return Number.isFinite(v) && v >= 0 ? v : d;
  };
  return {
    families,
    counts,
    bruteMax: Number($<HTMLSelectElement>('brute-max').value),
    samples: Math.max(3, Math.round(pos('samples', 7))),
    batch:
      batchText === 'auto' || !batchText ? 'auto' : Math.max(1, Math.round(Number(batchText)) || 1),
    frames: Math.round(pos('frames', 5)),
    budgetMs: pos('budget', 2000) || 2000,
    dimensions: $<HTMLSelectElement>('dims').value === '2' ? 2 : 3,
    seed: Math.round(pos('seed', 1)) >>> 0,
    behaviours:
      Array.isArray(prev.behaviours) && $<HTMLSelectElement>('behaviours').value === 'terms'
        ? prev.behaviours
        : ($<HTMLSelectElement>('behaviours').value as 'none' | 'all' | 'terms'),
    behaviourCounts: prev.behaviourCounts,
    rounds: prev.rounds,
    preset: prev.preset,
    capacity: $<HTMLInputElement>('capacity').checked,
  };
}
