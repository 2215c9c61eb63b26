/**
 * The benchmark page. With `?auto=1` it runs the sweep given in the query at once and exposes the
 * rows on `window.benchRows` and completion on `window.benchDone` (the CLI reads them).
 * Query: backends=webgl2,webgpu  modes=grid,brute  sorts=counting,bitonic  counts=4096,16384
 *        samples=5  batch=2  budget=3000 (ms per step)  draw=1
 */
import type { BackendKind } from '../backend';
import { runSweep, type BenchCase, type BenchRow } from './measure';

type Row = BenchRow | { label: string; count: number; skipped: string };

declare global {
  interface Window {
    benchRows: Row[];
    benchDone: Promise<Row[]>;
  }
}

const q = new URLSearchParams(location.search);
const list = (k: string, d: string) => (q.get(k) ?? d).split(',').filter(Boolean);
const num = (k: string, d: number) => (q.has(k) ? Number(q.get(k)) : d);

/** Case families from the query: each backend x mode (x sort for webgpu grid). */
export function familiesFromQuery(): Omit<BenchCase, 'count'>[] {
  const out: Omit<BenchCase, 'count'>[] = [];
  for (const backend of list('backends', 'webgl2') as BackendKind[]) {
    for (const mode of list('modes', 'grid,brute') as ('grid' | 'brute')[]) {
      if (backend === 'webgpu' && mode === 'grid') {
        for (const sort of list('sorts', 'counting,bitonic') as ('counting' | 'bitonic')[])
          out.push({ backend, mode, sort });
      } else {
        out.push({ backend, mode });
      }
    }
  }
  return out;
}

const status = document.getElementById('status')!;
const table = document.getElementById('results') as HTMLTableElement;
window.benchRows = [];

function show(row: Row): void {
  window.benchRows.push(row);
  const tr = table.insertRow();
  const cells =
    'skipped' in row
      ? [row.label, row.count, 'skipped: ' + row.skipped]
      : [
          row.label,
          row.count,
          row.stepMs.toFixed(2) + ' ms',
          row.timing,
          row.meanNeighbors.toFixed(1),
        ];
  for (const c of cells) tr.insertCell().textContent = String(c);
}

async function auto(): Promise<Row[]> {
  const counts = list('counts', '4096,16384,65536').map(Number);
  status.textContent = 'running';
  await runSweep(
    familiesFromQuery(),
    counts,
    {
      samples: num('samples', 5),
      batch: num('batch', 2),
      budgetMs: num('budget', 3000),
      draw: q.get('draw') === '1',
      container: document.getElementById('stage')!,
    },
    show,
  );
  status.textContent = 'done';
  return window.benchRows;
}

window.benchDone = q.get('auto') === '1' ? auto() : Promise.resolve([]);
