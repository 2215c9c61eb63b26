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
 * This file runs the page (a run, export, import, the API); its parts: settings.ts (presets and
 * the query), controls.ts (the form), results-view.ts (table, device report), side-panel.ts.
 */
import './bench.css';
import { createFlock, type Flock } from '../index';
import type { BenchCharts, CapacityChart, ChartRun } from './charts';
import { runCapacity } from './capacity-run';
import { Progress, leftText } from './progress';
import { collectDeviceReport, deviceOf, type DeviceReport } from './device-report';
import {
  COST_BASES,
  TERM_VARIANTS,
  caseLabel,
  STEADY_STEPS,
  sweepCap,
  type BenchFamily,
} from './cases';
import { buildControls, buildValues, settingsFromControls } from './controls';
import { runCosts } from './cost-rows';
import { $ } from './dom';
import { observeLongTasks } from './long-tasks';
import { runSweep } from './measure';
import { download, refreshBarChoices, renderDevice, renderTable } from './results-view';
import { isMeasured, type AnyRow } from './rows';
import {
  benchTable,
  capacitySentence,
  deviceLabel,
  winnerSentence,
  makeExport,
  parseImport,
  tableText,
  toCSV,
  type BackendCapacity,
  type BenchExport,
  type BenchSettings,
} from './report';
import { capacityBounds, familiesOf, presetSettings, settingsFromQuery } from './settings';
import { setupSidePanel } from './side-panel';
import type { SideBySide } from './side-by-side';

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
  /** Which backend holds the most boids at 60 and 30 fps, and by what ratio ('' before). */
  winner(): string;
  /** Runs imported from other devices' JSON exports. */
  imported: BenchExport[];
  /**
   * Adds runs (parsed JSON exports) to the overlay, all or none; throws naming the file and its
   * first wrong field on a file that is not one, and keeps nothing of the call then.
   */
  importRuns(runs: unknown[], names?: readonly string[]): void;
  /** Cancels the run under way (as the Cancel button). */
  cancel(): void;
  /**
   * The charts: loaded and made when they first have something to show (a run, an import);
   * reading one before its module is loaded throws (await chartsReady() first).
   */
  readonly charts: BenchCharts;
  readonly capacityChart: CapacityChart;
  /** Loads the charts' module (once) and resolves when it is there. */
  chartsReady(): Promise<void>;
  side: SideBySide;
}

declare global {
  interface Window {
    bench: BenchApi;
  }
}

// ---- page ------------------------------------------------------------------------------------

const q = new URLSearchParams(location.search);
let settings = settingsFromQuery(q);
buildControls(settings);
const status = $('status');
// The charts (Chart.js) are loaded and made when they first have something to show (a run's
// first row or capacity, an imported file), not while the page loads: evaluating Chart.js and
// making three empty charts (50-150 ms each: a first layout and draw) held the page's first task
// 0.6-0.9 s on a busy machine (issue 31 item 1).
type ChartsModule = typeof import('./charts');
let chartLib: ChartsModule | null = null;
let chartLibLoading: Promise<ChartsModule> | null = null;
/** Loads the charts' module once; the page redraws when it arrives. */
function loadCharts(): Promise<ChartsModule> {
  chartLibLoading ??= import('./charts').then((m) => {
    chartLib = m;
    redraw();
    return m;
  });
  return chartLibLoading;
}
let charts: BenchCharts | null = null;
let capacityChart: CapacityChart | null = null;
const scalingCharts = (lib: ChartsModule) =>
  (charts ??= new lib.BenchCharts(
    $<HTMLCanvasElement>('chart-scaling'),
    $<HTMLCanvasElement>('chart-passes'),
  ));
const capacityBars = (lib: ChartsModule) =>
  (capacityChart ??= new lib.CapacityChart($<HTMLCanvasElement>('chart-capacity')));
/** A chart the API asks for: the module must be loaded (a run or an import loads it). */
function loaded(): ChartsModule {
  if (!chartLib) throw new Error('the charts are not loaded yet: await bench.chartsReady()');
  return chartLib;
}
let rows: AnyRow[] = [];
let capacity: BackendCapacity[] = [];
const imported: BenchExport[] = [];
/** The files an import rejected, each 'name: why': listed under the imported runs by every redraw. */
const rejected: string[] = [];
let device: DeviceReport | null = null;
let busy: Promise<unknown> = Promise.resolve();
let abort = false;
/** Runs asked for so far, and the last one Cancel reached (a queued run is cancelled too). */
let runsAsked = 0;
let cancelledUpTo = 0;
/** Users of the stage (the device report, a run): it shows only while one draws into it. */
let stageUsers = 0;
async function onStage<T>(work: () => Promise<T>): Promise<T> {
  stageUsers++;
  $('stage').classList.add('busy');
  try {
    return await work();
  } finally {
    if (--stageUsers === 0) $('stage').classList.remove('busy');
  }
}
const longTasks = observeLongTasks();
const { side, options: sideOptions } = setupSidePanel({
  device: () => device,
  settings: () => settings,
});
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
  const withCapacity = runs.filter((r) => r.capacity.length > 0);
  const scaling = charts !== null || runs.some((r) => r.rows.length > 0);
  const bars = capacityChart !== null || withCapacity.length > 0;
  if ((scaling || bars) && !chartLib) void loadCharts();
  if (scaling && chartLib) {
    const c = scalingCharts(chartLib);
    c.ownLabel = runs[0]!.label;
    c.update(rows, refreshBarChoices(runs.map((r) => r.rows)), runs.slice(1));
  }
  if (bars && chartLib) capacityBars(chartLib).update(withCapacity);
  $('capacity-sentence').textContent = capacitySentence(capacity) || 'Not measured yet.';
  $('winner').textContent = winnerSentence(capacity);
  const ul = $('imported');
  ul.replaceChildren();
  for (const e of imported) {
    const li = document.createElement('li');
    li.textContent = `${e.label}: ${e.rows.filter(isMeasured).length} rows${e.capacitySentence ? `; ${e.capacitySentence}` : ''}`;
    ul.append(li);
  }
  for (const text of rejected) {
    const li = document.createElement('li');
    li.className = 'bad';
    li.textContent = text;
    ul.append(li);
  }
}

$<HTMLSelectElement>('bar-n').addEventListener('change', (e) => {
  (e.target as HTMLSelectElement).dataset.user = '1';
  redraw();
});

const REPORT_TEXT = 'collecting the device report (a small flock on each backend)';
status.textContent = REPORT_TEXT;
const deviceReady = onStage(() => collectDeviceReport($('stage'))).then((r) => {
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
  const me = ++runsAsked;
  const what = s.preset === 'full' ? 'Full sweep' : s.preset === 'quick' ? 'Quick run' : 'Run';
  if (!device) {
    // Pressed while the device report runs: the run waits for it (the run needs what it finds)
    // and says so; Cancel drops it.
    status.textContent = `${what} queued: it starts when the device report is done (${REPORT_TEXT})`;
    for (const id of ['run', 'quick', 'full']) $<HTMLButtonElement>(id).disabled = true;
    $<HTMLButtonElement>('stop').disabled = false;
  }
  const job = busy.then(async () => {
    await deviceReady;
    await loadCharts();
    if (cancelledUpTo >= me) {
      status.textContent = `${what} cancelled before it started`;
      for (const id of ['run', 'quick', 'full']) $<HTMLButtonElement>(id).disabled = false;
      $<HTMLButtonElement>('stop').disabled = true;
      return rows;
    }
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
    stageUsers++;
    $('stage').classList.add('busy');
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
      const winner = winnerSentence(capacity);
      status.textContent = `${abort ? 'cancelled' : 'done'} in ${secs} s: ${rows.filter(isMeasured).length} cases measured, ${skipped} skipped${capacity.length ? `, capacity of ${capacity.length} backends` : ''}${longTasks ? '' : ' (this browser does not report long tasks)'}${winner ? `. ${winner}` : ''}`;
      eta.textContent = '';
    } catch (e) {
      status.textContent = `failed: ${e instanceof Error ? e.message : String(e)}`;
      throw e;
    } finally {
      if (--stageUsers === 0) $('stage').classList.remove('busy');
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
  const queued = !device;
  cancelledUpTo = runsAsked;
  status.textContent = queued
    ? `cancelled; ${REPORT_TEXT}`
    : 'cancelling after the current measurement';
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

/**
 * Adds runs to the overlay, all or none: every file is checked whole first (parseImport), and a
 * redraw that fails takes them out again, so a rejected file leaves the page as it was.
 * @throws Error naming the file and its first wrong field
 */
function importRuns(data: unknown[], names: readonly string[] = []): void {
  const runs = data.map((d, i) => parseImport(d, names[i] ?? `file ${i + 1}`));
  const before = imported.length;
  imported.push(...runs);
  try {
    redraw();
  } catch (e) {
    imported.splice(before);
    redraw();
    throw e;
  }
}
$<HTMLInputElement>('import').addEventListener('change', async (e) => {
  const input = e.target as HTMLInputElement;
  const files = [...(input.files ?? [])];
  await loadCharts();
  for (const f of files) {
    try {
      importRuns([JSON.parse(await f.text())], [f.name]);
    } catch (err) {
      // parseImport names the file already; a file that is not JSON gets its name here.
      const text = err instanceof Error ? err.message : String(err);
      rejected.push(text.startsWith(`${f.name}: `) ? text : `${f.name}: ${text}`);
      redraw();
    }
  }
  input.value = '';
});

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
  winner: () => winnerSentence(capacity),
  imported,
  importRuns,
  cancel,
  get charts() {
    return scalingCharts(loaded());
  },
  get capacityChart() {
    return capacityBars(loaded());
  },
  chartsReady: () => loadCharts().then(() => undefined),
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
