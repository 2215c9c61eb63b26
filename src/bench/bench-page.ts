/**
 * The benchmark page (bench.html): sweep controls, the device report, the charts, the results
 * table, CSV/JSON export and the side-by-side view. The query sets the controls, so a URL
 * reproduces a run; with `?auto=1` the sweep starts at once (the CLI does this) and
 * `window.bench.done` resolves with the rows.
 * Query: backends=webgpu,webgl2,webgl2-tf,cpu  modes=grid,brute  sorts=counting,bitonic
 *        counts=4096,16384 (or minN= maxN=)  bruteMax=16384  samples=7  batch=auto|4
 *        budget=2000 (ms per step)  frames=5 (0: no drawing)  seed=1  dims=3  auto=1
 *        behaviours=none|all|terms|variant,variant (cost rows on webgpu counting and webgl2
 *        grid, if chosen; variants: ALL_VARIANTS of measure.ts)
 *        behaviourCounts=16384,65536  rounds=9
 * Hash `#side` sets up the side-by-side view on load.
 */
import './bench.css';
import type { BackendKind } from '../backend';
import { BACKEND_LADDER } from '../backend';
import { BenchCharts, DivergenceChart } from './charts';
import { collectDeviceReport, deviceOf, reportLines, type DeviceReport } from './device-report';
import {
  ALL_FAMILIES,
  ALL_VARIANTS,
  COST_BASES,
  COST_COUNTS,
  TERM_VARIANTS,
  SWEEP_COUNTS,
  caseLabel,
  isMeasured,
  runCosts,
  runSweep,
  sweepCap,
  type AnyRow,
  type BehaviourVariant,
  type BenchFamily,
} from './measure';
import {
  benchTable,
  makeExport,
  tableText,
  toCSV,
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
  charts: BenchCharts;
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

/** The settings the page starts with: defaults, overridden by the query. */
function settingsFromQuery(): BenchSettings {
  let families: string[];
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
  } else {
    families = GRID_FAMILIES.map(caseLabel);
  }
  let counts: number[];
  if (q.has('counts')) {
    counts = list('counts')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
  } else {
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
    : [...COST_COUNTS];
  return {
    families,
    counts,
    bruteMax: num('bruteMax', 16384),
    samples: num('samples', 7),
    batch: batch === null || batch === 'auto' ? 'auto' : Math.max(1, Number(batch) || 1),
    frames: num('frames', q.get('draw') === '0' ? 0 : 5),
    budgetMs: num('budget', 2000),
    dimensions: num('dims', 3) === 2 ? 2 : 3,
    seed: num('seed', 1),
    behaviours:
      b === 'all' || b === 'terms'
        ? b
        : b && list('behaviours').every((v) => (ALL_VARIANTS as readonly string[]).includes(v))
          ? (list('behaviours') as BehaviourVariant[])
          : 'none',
    behaviourCounts,
    rounds: Math.max(3, Math.round(num('rounds', 9))),
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
    cb.checked = s.families.includes(label);
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
  ($('brute') as HTMLInputElement).checked = s.families.some((l) => l.endsWith('brute'));
  for (const id of ['min-n', 'max-n', 'brute-max'])
    for (const n of SWEEP_COUNTS) option($<HTMLSelectElement>(id), String(n), fmtN(n));
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
  for (const id of ['side-left', 'side-right'])
    for (const b of BACKEND_LADDER) option($<HTMLSelectElement>(id), b);
  $<HTMLSelectElement>('side-left').value = 'webgl2';
  $<HTMLSelectElement>('side-right').value = 'webgpu';
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

function refreshBarChoices(rows: readonly AnyRow[]): number {
  const sel = $<HTMLSelectElement>('bar-n');
  const counts = [...new Set(rows.filter(isMeasured).map((r) => r.count))].sort((a, b) => a - b);
  const prev = Number(sel.value);
  const have = [...sel.options].map((o) => Number(o.value));
  if (counts.join() !== have.join()) {
    sel.replaceChildren();
    for (const n of counts) option(sel, String(n), fmtN(n));
  }
  // Default to the largest N every measured family reached (the fairest comparison), else the last.
  const labels = new Set(rows.filter(isMeasured).map((r) => r.label));
  const common = counts.filter((n) =>
    [...labels].every((l) => rows.some((r) => isMeasured(r) && r.label === l && r.count === n)),
  );
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
let rows: AnyRow[] = [];
let device: DeviceReport | null = null;
let busy: Promise<unknown> = Promise.resolve();
let abort = false;

function redraw(): void {
  renderTable(rows);
  charts.update(rows, refreshBarChoices(rows));
}

$<HTMLSelectElement>('bar-n').addEventListener('change', (e) => {
  (e.target as HTMLSelectElement).dataset.user = '1';
  charts.update(rows, Number((e.target as HTMLSelectElement).value));
});

status.textContent = 'collecting the device report (a small flock on each backend)';
const deviceReady = collectDeviceReport($('stage')).then((r) => {
  device = r;
  api.device = r;
  renderDevice(r);
  status.textContent = 'ready: choose backends and press "Run sweep"';
  return r;
});

async function run(over: Partial<BenchSettings> = {}): Promise<AnyRow[]> {
  const s: BenchSettings = { ...settingsFromControls(settings), ...over };
  settings = s;
  api.settings = s;
  const job = busy.then(async () => {
    await deviceReady;
    await side.stop();
    abort = false;
    rows = [];
    api.rows = rows;
    redraw();
    $<HTMLButtonElement>('run').disabled = true;
    $<HTMLButtonElement>('stop').disabled = false;
    const t0 = performance.now();
    // What the sweep and the cost rows share: their settings and what each row does on arrival.
    const common = {
      samples: s.samples,
      batch: s.batch,
      budgetMs: s.budgetMs,
      dimensions: s.dimensions,
      seed: s.seed,
      container: $('stage'),
      onProgress: (t: string) => (status.textContent = `running: ${t}`),
      aborted: () => abort,
    };
    const onRow = (row: AnyRow) => {
      if (isMeasured(row) && device) row.device = deviceOf(device, row.backend, row.device);
      rows.push(row);
      redraw();
    };
    try {
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
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      status.textContent = `${abort ? 'stopped' : 'done'}: ${rows.filter(isMeasured).length} cases measured, ${rows.length - rows.filter(isMeasured).length} skipped, in ${secs} s`;
    } catch (e) {
      status.textContent = `failed: ${e instanceof Error ? e.message : String(e)}`;
      throw e;
    } finally {
      $<HTMLButtonElement>('run').disabled = false;
      $<HTMLButtonElement>('stop').disabled = true;
    }
    return rows;
  });
  busy = job.catch(() => undefined);
  return job;
}

const exportNow = () => makeExport(rows, settings, device);
$('run').addEventListener('click', () => void run().catch(() => undefined));
$('stop').addEventListener('click', () => {
  abort = true;
  status.textContent = 'stopping after the current measurement';
});
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
  charts,
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
