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
} from 'chart.js';
import {
  ALL_FAMILIES,
  PASS_KEYS,
  caseLabel,
  isMeasured,
  type AnyRow,
  type BenchRow,
} from './measure';
import { ms } from './report';

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
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
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
            ticks: { callback: (v) => logTick(Number(v)) },
          },
        },
      },
    });
    this.passes = new Chart(passesCanvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          title: { display: true, text: 'Per-pass time' },
          legend: { position: 'bottom', labels: { boxWidth: 12 } },
          tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${ms(c.parsed.y)} ms` } },
        },
        scales: {
          x: { stacked: true },
          y: { stacked: true, title: { display: true, text: 'ms (median)' }, beginAtZero: true },
        },
      },
    });
  }

  /** Redraws both charts from the rows measured so far; `atN` picks the stacked bar's N. */
  update(rows: readonly AnyRow[], atN: number): void {
    // The cost rows (plain vs behaviours at two N) would only crowd the scaling lines.
    const measured = rows.filter(isMeasured).filter((r) => !r.behaviours);
    this.updateScaling(measured);
    this.updatePasses(measured, atN);
  }

  private updateScaling(rows: BenchRow[]): void {
    const labels = [...new Set(rows.map((r) => r.label))].sort(
      (a, b) => familyOrder(a) - familyOrder(b),
    );
    const datasets: ChartDataset<'line', { x: number; y: number }[]>[] = labels.map((label) => {
      const pts = rows
        .filter((r) => r.label === label)
        .sort((a, b) => a.count - b.count)
        .map((r) => ({ x: r.count, y: r.stepMs }));
      const color = COLORS[label] ?? '#adb5bd';
      return {
        label,
        data: pts,
        borderColor: color,
        backgroundColor: color,
        borderDash: label.endsWith('brute') ? [6, 4] : [],
        pointRadius: 3,
        borderWidth: 2,
      };
    });
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

  private updatePasses(rows: BenchRow[], atN: number): void {
    const at = rows
      .filter((r) => r.count === atN)
      .sort((a, b) => familyOrder(a.label) - familyOrder(b.label));
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
    this.passes.data.labels = at.map((r) => [r.label, `(${r.timing})`]);
    this.passes.data.datasets = keys
      .map((k) => ({
        label: PASS_LABELS[k]!,
        data: at.map((r) => value(r, k)),
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

function countTick(v: number): string {
  return v >= 1048576 ? `${v / 1048576}M` : v >= 1024 ? `${v / 1024}k` : String(v);
}

function logTick(v: number): string {
  const l = Math.log10(v);
  return Math.abs(l - Math.round(l)) < 1e-9 ? String(v) : '';
}

/** The side-by-side view's divergence against steps (log y: it grows about exponentially). */
export class DivergenceChart {
  readonly chart: Chart<'line', { x: number; y: number }[]>;

  constructor(canvas: HTMLCanvasElement) {
    this.chart = new Chart(canvas, {
      type: 'line',
      data: { datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        plugins: { title: { display: true, text: 'Position difference against steps' } },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'steps' } },
          y: { type: 'logarithmic', ticks: { callback: (v) => logTick(Number(v)) } },
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
