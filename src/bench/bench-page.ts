/**
 * The benchmark page (bench.html): the quick run (capacity per backend, then a small sweep; about
 * a minute on a software GPU) and the full sweep, with a progress bar, the time left and Cancel;
 * the capacity sentence and bars, the device report, the charts, the results table, CSV/JSON
 * export, JSON import of other devices' runs (overlaid on every chart, labelled by device) and
 * the side-by-side view. The query sets the controls, so a URL reproduces a run; with `?auto=1`
 * the run starts at once (the CLI does this) and `window.bench.done` resolves with the rows.
 * Query: preset=quick|full (default quick)  capacity=0|1
 *        backends=webgpu,webgl2,webgl2-tf,cpu  modes=grid,brute  sorts=counting,bitonic
 *        counts=4096,16384 (or minN= maxN=)  bruteMax=16384  samples=7  batch=auto|4
 *        budget=2000 (ms per step)  frames=5 (0: no drawing)  seed=1  dims=3  auto=1
 *        behaviours=none|all|terms|variant,variant (cost rows on webgpu counting and webgl2
 *        grid, if chosen; variants: ALL_VARIANTS of cases.ts)
 *        behaviourCounts=16384,65536  rounds=9
 * Hash `#side` sets up the side-by-side view on load.
 */
import './bench.css';
import type { BackendKind } from '../backend';
import { BACKEND_LADDER } from '../backend';
import { createFlock, type Flock } from '../index';
import { BenchCharts, CapacityChart, DivergenceChart, type ChartRun } from './charts';
import { runCapacity } from './capacity-run';
import { Progress, leftText } from './progress';
import { collectDeviceReport, deviceOf, reportLines, type DeviceReport } from './device-report';
import {
  ALL_FAMILIES,
  ALL_VARIANTS,
  COST_BASES,
  COST_COUNTS,
  TERM_VARIANTS,
  SWEEP_COUNTS,
  caseLabel,
  STEADY_STEPS,
  sweepCap,
  type BehaviourVariant,
  type BenchFamily,
} from './cases';
import { runCosts } from './cost-rows';
import { observeLongTasks } from './long-tasks';
import { runSweep } from './measure';
import { isMeasured, type AnyRow } from './rows';
import {
  benchTable,
  capacitySentence,
  deviceLabel,
  makeExport,
  parseImport,
  tableText,
  toCSV,
  type BackendCapacity,
  type BenchExport,
  type BenchSettings,
} from './report';
import { SideBySide, type Divergence } from './side-by-side';

export interface BenchApi {
  /** Rows measured (or skipped) so far in the current or last sweep. */
  rows: AnyRow[];
  settings: BenchSettings;
  /** The device report once collected. */
  device: DeviceReport | null;
  deviceReady: Promise<DeviceReport>;
  /** The auto sweep's rows (resolves at once with [] without ?auto=1). */
  done: Promise<AnyRow[]>;
  /** Runs a sweep with the page's settings (or these) and resolves with its rows. */
  run(settings?: Partial<BenchSettings>): Promise<AnyRow[]>;
  exportJSON(): BenchExport;
  exportCSV(): string;
  tableText(): string;
  /** The capacity per backend of the current or last run. */
  capacity: BackendCapacity[];
  /** The capacity in one sentence ('' before it is measured). */
  sentence(): string;
  /** Runs imported from other devices' JSON exports. */
  imported: BenchExport[];
  /** Adds runs (parsed JSON exports) to the overlay; throws on a file that is not one. */
  importRuns(runs: unknown[]): void;
  /** Cancels the run under way (as the Cancel button). */
  cancel(): void;
  charts: BenchCharts;
  capacityChart: CapacityChart;
  side: SideBySide;
}

declare global {
  interface Window {
    bench: BenchApi;
  }
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const q = new URLSearchParams(location.search);
const list = (k: string) => (q.get(k) ?? '').split(',').filter(Boolean);
const num = (k: string, d: number) => {
  const v = Number(q.get(k));
  return q.has(k) && Number.isFinite(v) ? v : d;
};

const GRID_FAMILIES = ALL_FAMILIES.filter((f) => f.mode === 'grid');

/**
 * The two runs the page offers. Quick: capacity per backend, then webgpu (counting sort), webgl2,
 * webgl2-tf and cpu at N = 1,024, 4,096 and 16,384 with 3 batches and 3 frames each (about a
 * minute on this project's 2-core machine with a software GPU). Full: every family (both WebGPU
 * sorts, brute force up to 16,384, the steady and dense rows with their 600-step warm-ups),
 * N = 1,024 to 1,048,576, 7 batches and 5 frames, and the cost rows of every behaviour.
 */
function presetSettings(preset: 'quick' | 'full'): BenchSettings {
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
function capacityBounds(s: BenchSettings) {
  return s.preset === 'full'
    ? { deadlineMs: 25_000, probeMs: 1500, frames: 5 }
    : { deadlineMs: 6_000, probeMs: 500, frames: 3 };
}

/** The settings the page starts with: a preset (quick by default), overridden by the query. */
function settingsFromQuery(): BenchSettings {
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

function familiesOf(s: BenchSettings): BenchFamily[] {
  return ALL_FAMILIES.filter((f) => s.families.includes(caseLabel(f)));
}

// ---- controls --------------------------------------------------------------------------------

const fmtN = (n: number) => n.toLocaleString('en-US');

function option(sel: HTMLSelectElement, value: string, text = value): void {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  sel.append(o);
}

function buildControls(s: BenchSettings): void {
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
function buildValues(s: BenchSettings): void {
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
function settingsFromControls(prev: BenchSettings): BenchSettings {
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

// ---- results ---------------------------------------------------------------------------------

function renderTable(rows: readonly AnyRow[]): void {
  const table = $<HTMLTableElement>('results');
  table.replaceChildren();
  const t = benchTable(rows);
  const head = table.createTHead().insertRow();
  for (const h of t.heads) {
    const th = document.createElement('th');
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  let lastN = -1;
  for (const l of t.lines) {
    const tr = body.insertRow();
    if (lastN !== -1 && l.row.count !== lastN) tr.className = 'group';
    lastN = l.row.count;
    if (isMeasured(l.row)) {
      for (const c of l.cells) tr.insertCell().textContent = c;
    } else {
      tr.insertCell().textContent = l.cells[0]!;
      tr.insertCell().textContent = l.cells[1]!;
      const td = tr.insertCell();
      td.colSpan = t.heads.length - 2;
      td.className = 'skipped';
      td.textContent = l.cells[2]!;
    }
  }
  const kinds = new Set(rows.filter(isMeasured).map((r) => `${r.label}: ${r.timing}`));
  $('timing-note').textContent = kinds.size
    ? `Step times: cpu-wait on every row. Per-pass times from: ${[...kinds].join('; ')} (gpu = timer queries; cpu-wait = CPU clock around a wait; none = not split).`
    : '';
}

/**
 * The stacked bar's N choices (every N measured in any run) and its pick: the user's, else the
 * largest N that every run (this page's and each imported one) measured, else the largest.
 */
function refreshBarChoices(runs: readonly (readonly AnyRow[])[]): number {
  const sel = $<HTMLSelectElement>('bar-n');
  const measured = runs.map((rs) => rs.filter(isMeasured).filter((r) => !r.behaviours));
  const counts = [...new Set(measured.flat().map((r) => r.count))].sort((a, b) => a - b);
  const prev = Number(sel.value);
  const have = [...sel.options].map((o) => Number(o.value));
  if (counts.join() !== have.join()) {
    sel.replaceChildren();
    for (const n of counts) option(sel, String(n), fmtN(n));
  }
  const withRows = measured.filter((rs) => rs.length > 0);
  const common = counts.filter((n) => withRows.every((rs) => rs.some((r) => r.count === n)));
  const pick =
    counts.includes(prev) && sel.dataset.user ? prev : (common.at(-1) ?? counts.at(-1) ?? 0);
  sel.value = String(pick);
  return pick;
}

function renderDevice(r: DeviceReport): void {
  const ul = $('availability');
  ul.replaceChildren();
  for (const kind of BACKEND_LADDER) {
    const b = r.backends[kind];
    const li = document.createElement('li');
    li.className = b?.available ? 'yes' : 'no';
    li.textContent = b?.available
      ? `${kind}: available (${deviceOf(r, kind, b.device)}; largest N ${fmtN(b.maxCount ?? 0)})`
      : `${kind}: not available here: ${b?.reason ?? 'unknown'}`;
    ul.append(li);
  }
  const auto = document.createElement('li');
  auto.textContent = `auto picks ${r.auto.backend ?? 'nothing'}${
    Object.keys(r.auto.fallbackReasons).length
      ? '; fallback reasons: ' +
        Object.entries(r.auto.fallbackReasons)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ')
      : ''
  }`;
  ul.append(auto);
  const dl = $('device-report');
  dl.replaceChildren();
  for (const [k, v] of reportLines(r)) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
}

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ---- page ------------------------------------------------------------------------------------

let settings = settingsFromQuery();
buildControls(settings);
const status = $('status');
const charts = new BenchCharts(
  $<HTMLCanvasElement>('chart-scaling'),
  $<HTMLCanvasElement>('chart-passes'),
);
const capacityChart = new CapacityChart($<HTMLCanvasElement>('chart-capacity'));
let rows: AnyRow[] = [];
let capacity: BackendCapacity[] = [];
const imported: BenchExport[] = [];
let device: DeviceReport | null = null;
let busy: Promise<unknown> = Promise.resolve();
let abort = false;
const longTasks = observeLongTasks();
/** The run's WebGPU keeper flock (see run), null between runs. */
let keeper: Flock | null = null;

/** The page's own run and the imported ones, as the charts draw them. */
function chartRuns(): ChartRun[] {
  return [
    { label: deviceLabel(device), rows, capacity },
    ...imported.map((e) => ({
      label: e.label ?? deviceLabel(e.device),
      rows: e.rows,
      capacity: e.capacity ?? [],
    })),
  ];
}

function redraw(): void {
  renderTable(rows);
  const runs = chartRuns();
  charts.ownLabel = runs[0]!.label;
  charts.update(rows, refreshBarChoices(runs.map((r) => r.rows)), runs.slice(1));
  capacityChart.update(runs.filter((r) => r.capacity.length > 0));
  $('capacity-sentence').textContent = capacitySentence(capacity) || 'Not measured yet.';
  const ul = $('imported');
  ul.replaceChildren();
  for (const e of imported) {
    const li = document.createElement('li');
    li.textContent = `${e.label}: ${e.rows.filter(isMeasured).length} rows${e.capacitySentence ? `; ${e.capacitySentence}` : ''}`;
    ul.append(li);
  }
}

$<HTMLSelectElement>('bar-n').addEventListener('change', (e) => {
  (e.target as HTMLSelectElement).dataset.user = '1';
  redraw();
});

status.textContent = 'collecting the device report (a small flock on each backend)';
const deviceReady = collectDeviceReport($('stage')).then((r) => {
  device = r;
  api.device = r;
  renderDevice(r);
  status.textContent = 'ready: press "Quick run" (about a minute) or "Full sweep"';
  redraw();
  return r;
});

/** A priori cost of each part of a run (arbitrary units, about seconds on a slow device). */
function planWeights(s: BenchSettings) {
  const fams = familiesOf(s);
  const caseW = (f: BenchFamily, n: number) =>
    (f.scene ? STEADY_STEPS / 60 : 0) + 0.4 + (s.samples + s.frames) * (n / 16384) * 0.15;
  const cases = fams.flatMap((f) => s.counts.map((n) => ({ f, n, w: caseW(f, n) })));
  const capW = s.capacity ? capacityBounds(s).deadlineMs / 1000 : 0;
  const capKinds = s.capacity ? [...new Set(fams.map((f) => f.backend))] : [];
  const costW = s.behaviours === 'none' ? 0 : s.behaviourCounts.length * 2 * 8;
  return { cases, capW, capKinds, costW };
}

async function run(over: Partial<BenchSettings> = {}): Promise<AnyRow[]> {
  const s: BenchSettings = { ...settingsFromControls(settings), ...over };
  settings = s;
  api.settings = s;
  const job = busy.then(async () => {
    await deviceReady;
    await side.stop();
    abort = false;
    rows = [];
    capacity = [];
    api.rows = rows;
    api.capacity = capacity;
    redraw();
    for (const id of ['run', 'quick', 'full']) $<HTMLButtonElement>(id).disabled = true;
    $<HTMLButtonElement>('stop').disabled = false;
    const t0 = performance.now();
    const plan = planWeights(s);
    const total =
      plan.cases.reduce((a, c) => a + c.w, 0) + plan.capW * plan.capKinds.length + plan.costW;
    const progress = new Progress(total);
    const bar = $<HTMLProgressElement>('progress');
    const eta = $('eta');
    const show = (text?: string) => {
      bar.value = progress.fraction;
      eta.textContent = leftText(progress.leftMs(performance.now() - t0));
      if (text) status.textContent = `running: ${text}`;
    };
    const ticker = setInterval(() => show(), 500);
    // What the sweep and the cost rows share: their settings and what each row does on arrival.
    const common = {
      samples: s.samples,
      batch: s.batch,
      budgetMs: s.budgetMs,
      dimensions: s.dimensions,
      seed: s.seed,
      container: $('stage'),
      onProgress: (t: string) => show(t),
      aborted: () => abort,
    };
    const weightOf = (r: AnyRow) =>
      plan.cases.find((c) => caseLabel(c.f) === r.label && c.n === r.count)?.w ?? 0;
    const onRow = (row: AnyRow) => {
      if (isMeasured(row) && device) row.device = deviceOf(device, row.backend, row.device);
      rows.push(row);
      if (!row.behaviours) progress.advance(weightOf(row));
      show();
      redraw();
    };
    try {
      // WebGPU flocks on a page share one device and its compiled pipelines while one lives: a
      // small flock kept for the run saves each case the device and the pipelines (about 4 s a
      // case on a software adapter). setupMs is then the warm start a page with a flock sees.
      if (plan.capKinds.includes('webgpu') || familiesOf(s).some((f) => f.backend === 'webgpu'))
        keeper = await createFlock(undefined, {
          backend: 'webgpu',
          autoStart: false,
          params: { count: 64 },
        }).catch(() => null);
      if (s.capacity && plan.capKinds.length) {
        const bounds = capacityBounds(s);
        let started = performance.now();
        await runCapacity(
          plan.capKinds,
          {
            ...bounds,
            start: 1024,
            container: $('stage'),
            aborted: () => abort,
            onProgress: (t) => {
              progress.partial(plan.capW, (performance.now() - started) / bounds.deadlineMs);
              show(t);
            },
          },
          (c) => {
            capacity.push(c);
            progress.advance(plan.capW);
            started = performance.now();
            show();
            redraw();
          },
        );
      }
      if (!abort)
        await runSweep(
          familiesOf(s),
          s.counts,
          {
            ...common,
            frames: s.frames,
            cap: (f) => sweepCap(f, s.bruteMax),
          },
          onRow,
        );
      if (s.behaviours !== 'none' && !abort) {
        // Cost rows on the chosen GPU backends' default families (webgpu counting, webgl2 grid).
        const bases = COST_BASES.filter((f) => s.families.includes(caseLabel(f)));
        await runCosts(
          bases,
          s.behaviours === 'all'
            ? ['all']
            : s.behaviours === 'terms'
              ? TERM_VARIANTS
              : s.behaviours,
          s.behaviourCounts,
          s.rounds,
          { ...common, frames: 0 },
          onRow,
        );
      }
      progress.advance(total);
      show();
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      const skipped = rows.length - rows.filter(isMeasured).length;
      status.textContent = `${abort ? 'cancelled' : 'done'}: ${rows.filter(isMeasured).length} cases measured, ${skipped} skipped${capacity.length ? `, capacity of ${capacity.length} backends` : ''}, in ${secs} s${longTasks ? '' : ' (this browser does not report long tasks)'}`;
      eta.textContent = '';
    } catch (e) {
      status.textContent = `failed: ${e instanceof Error ? e.message : String(e)}`;
      throw e;
    } finally {
      clearInterval(ticker);
      keeper?.dispose();
      keeper = null;
      for (const id of ['run', 'quick', 'full']) $<HTMLButtonElement>(id).disabled = false;
      $<HTMLButtonElement>('stop').disabled = true;
      redraw();
    }
    return rows;
  });
  busy = job.catch(() => undefined);
  return job;
}

const exportNow = () => makeExport(rows, settings, device, capacity);
$('run').addEventListener('click', () => void run().catch(() => undefined));
$('quick').addEventListener('click', () => {
  settings = presetSettings('quick');
  buildValues(settings);
  void run(settings).catch(() => undefined);
});
$('full').addEventListener('click', () => {
  settings = presetSettings('full');
  buildValues(settings);
  void run(settings).catch(() => undefined);
});
const cancel = () => {
  abort = true;
  status.textContent = 'cancelling after the current measurement';
};
$('stop').addEventListener('click', cancel);
const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
$('csv').addEventListener('click', () =>
  download(`gpu-flock-bench-${stamp()}.csv`, 'text/csv', toCSV(exportNow())),
);
$('json').addEventListener('click', () =>
  download(
    `gpu-flock-bench-${stamp()}.json`,
    'application/json',
    JSON.stringify(exportNow(), null, 2),
  ),
);

function importRuns(data: unknown[]): void {
  for (const [i, d] of data.entries()) imported.push(parseImport(d, `file ${i + 1}`));
  redraw();
}
$<HTMLInputElement>('import').addEventListener('change', async (e) => {
  const input = e.target as HTMLInputElement;
  const files = [...(input.files ?? [])];
  for (const f of files) {
    try {
      importRuns([JSON.parse(await f.text())]);
    } catch (err) {
      const li = document.createElement('li');
      li.className = 'bad';
      li.textContent = `${f.name}: ${err instanceof Error ? err.message : String(err)}`;
      $('imported').append(li);
    }
  }
  input.value = '';
});

// ---- side by side ----------------------------------------------------------------------------

const divChart = new DivergenceChart($<HTMLCanvasElement>('side-chart'));
const e3 = (x: number) => x.toExponential(2);
const side = new SideBySide($('side-left-box'), $('side-right-box'), (d: Divergence | null) => {
  const err = side.errors;
  const cap = (f: typeof side.left, why: string | undefined) =>
    f
      ? `${f.backend}: ${device ? deviceOf(device, f.backend, f.deviceInfo) : f.deviceInfo}`
      : `not available here: ${why ?? ''}`;
  $('side-left-cap').textContent = cap(side.left, err.left);
  $('side-right-cap').textContent = cap(side.right, err.right);
  const out = $('side-readout');
  if (!d) {
    out.textContent = 'needs both sides running';
    return;
  }
  out.innerHTML = '';
  const lines = [
    `steps: ${d.steps} (N = ${fmtN(d.count)})`,
    `mean |Δp|: ${e3(d.meanPos)}`,
    `max |Δp|: ${e3(d.maxPos)}   max |Δv|: ${e3(d.maxVel)}`,
    `boids with |Δp| > 1e-4: ${d.over1e4} (${(d.fracOver1e4 * 100).toFixed(3)}%)`,
    `one-step tolerance (all but 0.05% within 1e-4 / 1e-3): ${d.withinOneStepTolerance ? 'met' : 'not met'}`,
  ];
  for (const l of lines) {
    const div = document.createElement('div');
    div.textContent = l;
    out.append(div);
  }
  divChart.update(side.history);
});

function sideOptions() {
  return {
    left: $<HTMLSelectElement>('side-left').value as BackendKind,
    right: $<HTMLSelectElement>('side-right').value as BackendKind,
    count: Math.max(1, Math.round(Number($<HTMLInputElement>('side-n').value)) || 4096),
    seed: settings.seed,
    dimensions: settings.dimensions,
  };
}
const sideK = () => Math.max(1, Math.round(Number($<HTMLInputElement>('side-k').value)) || 1);
$('side-init').addEventListener('click', () => void side.init(sideOptions()));
$('side-step').addEventListener('click', () => void side.advance(sideK()));
$('side-start').addEventListener('click', () => side.start(sideK()));
$('side-stop').addEventListener('click', () => void side.stop());

const api: BenchApi = {
  rows,
  settings,
  device: null,
  deviceReady,
  done: Promise.resolve([]),
  run,
  exportJSON: exportNow,
  exportCSV: () => toCSV(exportNow()),
  tableText: () => tableText(benchTable(rows)),
  get capacity() {
    return capacity;
  },
  set capacity(c: BackendCapacity[]) {
    capacity = c;
  },
  sentence: () => capacitySentence(capacity),
  imported,
  importRuns,
  cancel,
  charts,
  capacityChart,
  side,
};
window.bench = api;

if (q.get('auto') === '1') {
  api.done = run(settings);
} else if (location.hash === '#side') {
  void deviceReady.then(() => side.init(sideOptions()));
}

// The forms only hold controls: never submit them (no inline onsubmit: the page runs under a
// strict Content-Security-Policy).
for (const form of document.querySelectorAll('form')) {
  form.addEventListener('submit', (e) => e.preventDefault());
}
