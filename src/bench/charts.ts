/**
 * The benchmark page's two charts, drawn with Chart.js (only the pieces used are registered, so
 * the bundle carries no other controllers or scales):
 * - scaling: log-log step time against N, one line per backend/search, with O(N) and O(N²) guide
 *   slopes through the fastest time at the smallest N;
 * - passes: a stacked bar per backend/search of its per-pass times at one N (key, sort, cell
 *   table, reorder, steer, draw), plus the part of the step's wall time no pass timer covers.
 * Owns its Chart instances; `destroy()` frees them.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  LogarithmicScale,
  PointElement,
  Title,
  Tooltip,
  type ChartDataset,
  type ChartOptions,
  type TooltipItem,
} from 'chart.js';
import { ALL_FAMILIES, PASS_KEYS, caseLabel } from './cases';
import { isMeasured, type AnyRow, type BenchRow, BACKEND_NAMES } from './rows';
import { BACKEND_LADDER } from '../backend';
import { ms, type BackendCapacity } from './report';
import { countLabel, logTickLabel } from './ticks';

/** A run to draw: its rows, capacity and device label (the page's own, or an imported file). */
export interface ChartRun {
  label: string;
  rows: readonly AnyRow[];
  capacity: readonly BackendCapacity[];
}

/** Per run (device), a line style: the page's own run solid, imported ones dashed or dotted. */
const RUN_DASH: number[][] = [[], [8, 4], [2, 3], [12, 3, 2, 3]];
/** Per run (device), the capacity bars' colour at 60 fps and at 30 fps. */
const RUN_COLORS: [string, string][] = [
  ['#4cc9f0', '#4cc9f088'],
  ['#f72585', '#f7258588'],
  ['#ff9f1c', '#ff9f1c88'],
  ['#90be6d', '#90be6d88'],
];

Chart.register(
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  LinearScale,
  LogarithmicScale,
  CategoryScale,
  Legend,
  Tooltip,
  Title,
);

/** One colour per family, stable across runs (brute force: the family's colour, dashed). */
const COLORS: Record<string, string> = {
  'webgpu counting': '#4cc9f0',
  'webgpu bitonic': '#4895ef',
  'webgl2 grid': '#f72585',
  'webgl2-tf grid': '#ff9f1c',
  'cpu grid': '#90be6d',
  'webgpu brute': '#4cc9f0',
  'webgl2 brute': '#f72585',
  'webgl2-tf brute': '#ff9f1c',
  'cpu brute': '#90be6d',
};

const PASS_COLORS: Record<string, string> = {
  key: '#577590',
  sort: '#43aa8b',
  cellTable: '#90be6d',
  reorder: '#f9c74f',
  steer: '#f8961e',
  draw: '#f94144',
  other: '#6c757d',
};
const PASS_LABELS: Record<string, string> = {
  key: 'key',
  sort: 'sort',
  cellTable: 'cell table',
  reorder: 'reorder',
  steer: 'steer',
  draw: 'draw',
  other: 'not split',
};

const TEXT = '#d8dee9';
const GRID = 'rgba(216, 222, 233, 0.15)';

/** Every chart here: drawn at once (no animation), sized by its container's CSS box. */
const STATIC_SIZED = { animation: false, responsive: true, maintainAspectRatio: false } as const;

/**
 * A bar chart on `canvas`, empty until its data is set: `title` on top, the legend below,
 * `label` the tooltip's line for a bar; `scales` the caller's axes.
 */
function barChart<D extends (number | null)[], L>(
  canvas: HTMLCanvasElement,
  title: string,
  label: (c: TooltipItem<'bar'>) => string,
  scales: ChartOptions<'bar'>['scales'],
): Chart<'bar', D, L> {
  return new Chart<'bar', D, L>(canvas, {
    type: 'bar',
    data: { labels: [], datasets: [] },
    options: {
      ...STATIC_SIZED,
      plugins: {
        title: { display: true, text: title },
        legend: { position: 'bottom', labels: { boxWidth: 12 } },
        tooltip: { callbacks: { label } },
      },
      scales,
    },
  });
}

function familyOrder(label: string): number {
  const i = ALL_FAMILIES.map(caseLabel).indexOf(label);
  return i < 0 ? 99 : i;
}

export class BenchCharts {
  readonly scaling: Chart<'line', { x: number; y: number }[]>;
  readonly passes: Chart<'bar', number[], string[]>;

  constructor(scalingCanvas: HTMLCanvasElement, passesCanvas: HTMLCanvasElement) {
    Chart.defaults.color = TEXT;
    Chart.defaults.borderColor = GRID;
    this.scaling = new Chart(scalingCanvas, {
      type: 'line',
      data: { datasets: [] },
      options: {
        ...STATIC_SIZED,
        parsing: false,
        plugins: {
          title: { display: true, text: 'Step time against N (log-log; density constant)' },
          legend: { position: 'right' },
          tooltip: {
            callbacks: {
              label: (c) => `${c.dataset.label}: N = ${c.parsed.x}, ${ms(c.parsed.y)} ms`,
            },
          },
        },
        scales: {
          x: {
            type: 'logarithmic',
            title: { display: true, text: 'N (boids)' },
            // Ticks at the swept counts (powers of 4), not Chart.js's 1-2-5 decades.
            afterBuildTicks: (axis) => {
              const out = [];
              for (let v = 1024; v <= axis.max * 1.001; v *= 4)
                if (v >= axis.min * 0.999) out.push({ value: v });
              if (out.length) axis.ticks = out;
            },
            ticks: { callback: (v) => countTick(Number(v)) },
          },
          y: {
            type: 'logarithmic',
            title: { display: true, text: 'ms per step (median)' },
            ticks: {
              callback: (v, _i, ticks) =>
                logTickLabel(
                  Number(v),
                  ticks.map((t) => t.value),
                ),
            },
          },
        },
      },
    });
    this.passes = barChart(
      passesCanvas,
      'Per-pass time',
      (c) => `${c.dataset.label}: ${ms(c.parsed.y)} ms`,
      {
        x: { stacked: true },
        y: { stacked: true, title: { display: true, text: 'ms (median)' }, beginAtZero: true },
      },
    );
  }

  /**
   * Redraws the charts from the rows measured so far; `atN` picks the stacked bar's N. With
   * imported runs (other devices), every chart overlays them, each dataset labelled by device.
   */
  update(rows: readonly AnyRow[], atN: number, runs: readonly ChartRun[] = []): void {
    // The cost rows (plain vs behaviours at two N) would only crowd the scaling lines.
    const pick = (rs: readonly AnyRow[]) => rs.filter(isMeasured).filter((r) => !r.behaviours);
    const all: { label: string | null; rows: BenchRow[] }[] = [
      { label: runs.length ? (this.ownLabel ?? 'this device') : null, rows: pick(rows) },
      ...runs.map((r) => ({ label: r.label, rows: pick(r.rows) })),
    ].filter((r, i) => i === 0 || r.rows.length > 0);
    this.updateScaling(all);
    this.updatePasses(all, atN);
  }

  /** The label of the page's own run when runs are overlaid (its device). */
  ownLabel: string | null = null;

  private updateScaling(runs: { label: string | null; rows: BenchRow[] }[]): void {
    const datasets: ChartDataset<'line', { x: number; y: number }[]>[] = [];
    runs.forEach((run, k) => {
      const labels = [...new Set(run.rows.map((r) => r.label))].sort(
        (a, b) => familyOrder(a) - familyOrder(b),
      );
      for (const label of labels) {
        const pts = run.rows
          .filter((r) => r.label === label)
          .sort((a, b) => a.count - b.count)
          .map((r) => ({ x: r.count, y: r.stepMs }));
        const color = COLORS[label] ?? '#adb5bd';
        datasets.push({
          label: run.label ? `${label} · ${run.label}` : label,
          data: pts,
          borderColor: color,
          backgroundColor: color,
          borderDash:
            k > 0 ? RUN_DASH[k % RUN_DASH.length]! : label.endsWith('brute') ? [6, 4] : [],
          pointStyle: k > 0 ? 'rectRot' : 'circle',
          pointRadius: 3,
          borderWidth: 2,
        });
      }
    });
    const rows = runs.flatMap((r) => r.rows);
    if (rows.length) {
      const n0 = Math.min(...rows.map((r) => r.count));
      const n1 = Math.max(...rows.map((r) => r.count));
      const y0 = Math.min(...rows.filter((r) => r.count === n0).map((r) => r.stepMs));
      const yMax = Math.max(...rows.map((r) => r.stepMs));
      const yMin = Math.min(...rows.map((r) => r.stepMs));
      const guide = (p: number, name: string, dash: number[]) => ({
        label: name,
        data: [
          { x: n0, y: y0 },
          { x: n1, y: y0 * (n1 / n0) ** p },
        ],
        borderColor: 'rgba(216, 222, 233, 0.45)',
        backgroundColor: 'rgba(216, 222, 233, 0.45)',
        borderDash: dash,
        borderWidth: 1,
        pointRadius: 0,
      });
      if (n1 > n0) {
        datasets.push(guide(1, 'O(N) guide', [2, 3]));
        datasets.push(guide(2, 'O(N²) guide', [10, 4]));
      }
      // Keep the steep guide from flattening the data: the y range follows the measurements.
      this.scaling.options.scales!.y!.min = yMin / 1.5;
      this.scaling.options.scales!.y!.max = yMax * 2;
    }
    this.scaling.data.datasets = datasets;
    this.scaling.update();
  }

  private updatePasses(runs: { label: string | null; rows: BenchRow[] }[], atN: number): void {
    const at = runs.flatMap((run) =>
      run.rows
        .filter((r) => r.count === atN)
        .sort((a, b) => familyOrder(a.label) - familyOrder(b.label))
        .map((r) => ({ r, device: run.label })),
    );
    const keys = [...PASS_KEYS, 'other'] as const;
    const value = (r: BenchRow, k: (typeof keys)[number]): number => {
      if (k === 'other') {
        const split = PASS_KEYS.filter((p) => p !== 'draw').reduce(
          (s, p) => s + (r.passes[p] ?? 0),
          0,
        );
        return Math.max(0, r.stepMs - split);
      }
      if (k === 'draw') return r.passes.draw ?? r.drawMs ?? 0;
      return r.passes[k] ?? 0;
    };
    // Two-line labels stay horizontal: the family, then where its pass times came from.
    this.passes.data.labels = at.map(({ r, device }) =>
      device ? [r.label, device, `(${r.timing})`] : [r.label, `(${r.timing})`],
    );
    this.passes.data.datasets = keys
      .map((k) => ({
        label: PASS_LABELS[k]!,
        data: at.map(({ r }) => value(r, k)),
        backgroundColor: PASS_COLORS[k]!,
        stack: 'step',
      }))
      .filter((d) => d.data.some((v) => v > 0));
    this.passes.options.plugins!.title!.text = `Per-pass time at N = ${atN.toLocaleString('en-US')} (step + one draw)`;
    this.passes.update();
  }

  destroy(): void {
    this.scaling.destroy();
    this.passes.destroy();
  }
}

/**
 * The capacity bars: per backend (ladder order), the most boids that hold 60 fps and 30 fps, one
 * pair of bars per device (the page's own run and every imported one); a log axis, since a GPU
 * holds hundreds of times what the CPU does.
 */
export class CapacityChart {
  readonly chart: Chart<'bar', (number | null)[], string>;

  constructor(canvas: HTMLCanvasElement) {
    this.chart = barChart(
      canvas,
      'Most boids a whole frame holds (steps + draw)',
      (c) => `${c.dataset.label}: ${Number(c.parsed.y).toLocaleString('en-US')} boids`,
      {
        y: {
          type: 'logarithmic',
          title: { display: true, text: 'boids' },
          ticks: {
            callback: (v, _i, ticks) =>
              logTickLabel(
                Number(v),
                ticks.map((t) => t.value),
                countLabel,
              ),
          },
        },
      },
    );
  }

  /** Redraws from the runs (the first one is this page's own run). */
  update(runs: readonly ChartRun[]): void {
    const backends = BACKEND_LADDER.filter((b) =>
      runs.some((r) => r.capacity.some((c) => c.backend === b && c.available)),
    );
    this.chart.data.labels = backends.map((b) => BACKEND_NAMES[b]);
    this.chart.data.datasets = runs
      .filter((r) => r.capacity.length > 0)
      .flatMap((run, k) =>
        ([60, 30] as const).map((fps, j) => ({
          label: `${run.label} · ${fps} fps`,
          data: backends.map((b) => {
            const c = run.capacity.find((x) => x.backend === b && x.available);
            const n = c?.results.find((r) => r.fps === fps)?.count ?? 0;
            return n > 0 ? n : null;
          }),
          backgroundColor: RUN_COLORS[k % RUN_COLORS.length]![j]!,
        })),
      );
    this.chart.update();
  }

  destroy(): void {
    this.chart.destroy();
  }
}

function countTick(v: number): string {
  return v >= 1048576 ? `${v / 1048576}M` : v >= 1024 ? `${v / 1024}k` : String(v);
}

/** The side-by-side view's divergence against steps (log y: it grows about exponentially). */
export class DivergenceChart {
  readonly chart: Chart<'line', { x: number; y: number }[]>;

  constructor(canvas: HTMLCanvasElement) {
    this.chart = new Chart(canvas, {
      type: 'line',
      data: { datasets: [] },
      options: {
        ...STATIC_SIZED,
        parsing: false,
        plugins: { title: { display: true, text: 'Position difference against steps' } },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'steps' } },
          y: {
            type: 'logarithmic',
            ticks: {
              callback: (v, _i, ticks) =>
                logTickLabel(
                  Number(v),
                  ticks.map((t) => t.value),
                  (x) => x.toExponential(0),
                ),
            },
          },
        },
      },
    });
  }

  update(history: readonly { steps: number; meanPos: number; maxPos: number }[]): void {
    // A log axis cannot show 0 (identical states): plot those at 1e-12.
    const floor = (y: number) => Math.max(y, 1e-12);
    const line = (label: string, color: string, pick: (h: (typeof history)[number]) => number) => ({
      label,
      data: history.map((h) => ({ x: h.steps, y: floor(pick(h)) })),
      borderColor: color,
      backgroundColor: color,
      pointRadius: 0,
      borderWidth: 2,
    });
    this.chart.data.datasets = [
      line('max', '#f94144', (h) => h.maxPos),
      line('mean', '#4cc9f0', (h) => h.meanPos),
    ];
    this.chart.update();
  }

  destroy(): void {
    this.chart.destroy();
  }
}
