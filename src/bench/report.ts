/**
 * The benchmark's table, ratios and exports, from measured rows. No DOM: the page renders the
 * table as HTML and the CLI prints its text form (both call `benchTable`), so they show the same
 * numbers. Ratios are measured in one run on one machine (DESIGN.md section 6):
 * - x brute: brute-force step time / this grid row's, same backend and N (how much the grid wins);
 * - vs webgl2: this row's step time / the webgl2 row's with the same search at the same N
 *   (below 1: faster than WebGL2);
 * - N->4N: this row's step time / its own at N/4 (near 4 for the grid, 16 for brute force).
 */
import type { BackendKind } from '../backend';
import type { CapacityResult, MeasuredProbe } from '../capacity';
import { reportLines, type DeviceReport } from './device-report';
import { ALL_FAMILIES, PASS_KEYS, ALL_VARIANTS, caseLabel, type BehaviourVariant } from './cases';
import { BACKEND_NAMES, isMeasured, type AnyRow, type BenchRow } from './rows';
import { quantile } from './stats';
import { importProblem } from './import-schema';

export interface Ratios {
  xBrute: number | null;
  vsWebgl2: number | null;
  growth: number | null;
}

export interface BenchSettings {
  families: string[];
  counts: number[];
  bruteMax: number;
  samples: number;
  batch: number | 'auto';
  frames: number;
  budgetMs: number;
  dimensions: 2 | 3;
  seed: number;
  /**
   * Cost rows (runCosts) on webgpu counting and webgl2 grid: 'none', 'all' (every behaviour on
   * vs plain), 'terms' (also each term alone, the first model and the off-term code removed) or
   * a list of variant names.
   */
  behaviours: 'none' | 'all' | 'terms' | BehaviourVariant[];
  /** N of the cost rows. */
  behaviourCounts: number[];
  /** Rounds of the cost rows (each times one batch of plain and of every variant). */
  rounds: number;
  /** 'quick' (the default: under a minute on a software GPU) or 'full' (every row). */
  preset?: 'quick' | 'full';
  /** Measure the capacity per backend (the most boids at 60 and 30 fps) first. */
  capacity?: boolean;
}

/** The capacity of one backend on the device (src/capacity.ts measureCapacity), or why none. */
export interface BackendCapacity {
  backend: BackendKind;
  /** false: the backend does not run here (`reason` says why). */
  available: boolean;
  reason?: string;
  /** Renderer / adapter. */
  device: string;
  /** One per frame rate (60, 30). */
  results: CapacityResult[];
  /** Every probe the search took, with its main-thread ms per frame. */
  probes: MeasuredProbe[];
  /** Wall time of the search, ms. */
  ms: number;
}

const fmtN = (n: number) => n.toLocaleString('en-US');

/** One rate's answer in words: "1,400", "at least 4,000" (cut short), "none" (not even the smallest). */
export function capacityFigure(r: CapacityResult | undefined, minCount = 64): string {
  if (!r) return 'not measured';
  if (r.count === 0) return r.bounded ? 'not measured' : `under ${fmtN(minCount)}`;
  if (r.bounded) return `at least ${fmtN(r.count)}`;
  // Nothing failed up to the backend's own cap.
  return r.failsAt === null ? `${fmtN(r.count)} (its limit)` : fmtN(r.count);
}

/**
 * The capacity in one sentence, backends in ladder order: "On this device: WebGPU holds 1,400
 * boids at 60 fps and 2,000 at 30 fps, WebGL2 2,400 and 3,000, ...; not available here:
 * transform feedback (why)." Empty when nothing was measured.
 */
export function capacitySentence(caps: readonly BackendCapacity[]): string {
  if (caps.length === 0) return '';
  const runs = caps.filter((c) => c.available);
  const parts = runs.map((c, i) => {
    const at = (fps: number) => c.results.find((r) => r.fps === fps);
    const a = capacityFigure(at(60));
    const b = capacityFigure(at(30));
    const name = BACKEND_NAMES[c.backend];
    return i === 0
      ? `${name} holds ${a} boids at 60 fps and ${b} at 30 fps`
      : `${name} ${a} and ${b}`;
  });
  const off = caps.filter((c) => !c.available);
  const tail = off.length
    ? `${parts.length ? '; ' : ''}not available here: ${off.map((c) => BACKEND_NAMES[c.backend]).join(', ')}`
    : '';
  return `On this device: ${parts.join(', ')}${tail}.`;
}

/**
 * Which backend holds the most boids at each rate, and by what ratio over the next one, in one
 * sentence: "Most boids on this device: at 60 fps WebGL2, 2,400 (2.9x WebGPU's 840); at 30 fps
 * WebGL2, 3,000 (2.0x WebGPU's 1,500)." A figure cut short by the time bound reads "at least";
 * a rate where one backend alone holds any boids says so. Empty when nothing was measured.
 */
export function winnerSentence(caps: readonly BackendCapacity[]): string {
  const parts: string[] = [];
  for (const fps of [60, 30]) {
    const held = caps
      .filter((c) => c.available)
      .map((c) => ({ c, r: c.results.find((r) => r.fps === fps) }))
      .filter((x): x is { c: BackendCapacity; r: CapacityResult } => !!x.r && x.r.count > 0)
      .sort((a, b) => b.r.count - a.r.count);
    if (held.length === 0) {
      if (caps.some((c) => c.available && c.results.some((r) => r.fps === fps)))
        parts.push(`at ${fps} fps no backend holds even the smallest count`);
      continue;
    }
    const [a, b] = held;
    const n = (x: { r: CapacityResult }) => `${x.r.bounded ? 'at least ' : ''}${fmtN(x.r.count)}`;
    const name = BACKEND_NAMES[a!.c.backend];
    if (!b) {
      parts.push(`at ${fps} fps only ${name} holds any: ${n(a!)}`);
      continue;
    }
    const ratio = a!.r.count / b.r.count;
    parts.push(
      `at ${fps} fps ${name}, ${n(a!)} (${ratio < 10 ? ratio.toFixed(1) : ratio.toFixed(0)}x ${BACKEND_NAMES[b.c.backend]}'s ${n(b)})`,
    );
  }
  return parts.length ? `Most boids on this device: ${parts.join('; ')}.` : '';
}

/**
 * A short name for the device of a run: the GPU behind WebGL2 or WebGPU (a software one said so),
 * and the CPU cores.
 */
export function deviceLabel(d: DeviceReport | null): string {
  if (!d) return 'unknown device';
  const gl = d.webgl2?.unmaskedRenderer ?? d.webgl2?.renderer ?? '';
  const gpu = Object.values(d.webgpu?.info ?? {})
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .join(' ');
  const text = `${gl} ${gpu}`;
  let name: string;
  if (/swiftshader/i.test(text)) name = 'SwiftShader (software GPU)';
  else if (/llvmpipe/i.test(text)) name = 'llvmpipe (software GPU)';
  else if (gl)
    name = gl
      .replace(/^ANGLE \((.*)\)$/, '$1')
      .split(',')
      .slice(0, 2)
      .join(',')
      .trim();
  else name = gpu || 'unknown GPU';
  return d.hardwareConcurrency ? `${name}, ${d.hardwareConcurrency} cores` : name;
}

const key = (label: string, n: number) => `${label}|${n}`;

/** Ratios of every measured row against the others of the same run. */
export function ratiosFor(rows: readonly AnyRow[]): Map<AnyRow, Ratios> {
  const by = new Map<string, BenchRow>();
  for (const r of rows) if (isMeasured(r)) by.set(key(r.label, r.count), r);
  const out = new Map<AnyRow, Ratios>();
  for (const r of rows) {
    if (!isMeasured(r)) continue;
    const brute = by.get(key(`${r.backend} brute`, r.count));
    const gl = by.get(
      key(
        caseLabel({ backend: 'webgl2', mode: r.mode, scene: r.scene, behaviours: r.behaviours }),
        r.count,
      ),
    );
    const prev = by.get(key(r.label, r.count / 4));
    out.set(r, {
      xBrute:
        r.mode === 'grid' && brute && !r.scene && !r.behaviours ? brute.stepMs / r.stepMs : null,
      vsWebgl2: r.backend !== 'webgl2' && gl ? r.stepMs / gl.stepMs : null,
      growth: prev ? r.stepMs / prev.stepMs : null,
    });
  }
  return out;
}

/** Table order: by N, then the page's family order; cost rows last, by base family then variant. */
export function sortRows(rows: readonly AnyRow[]): AnyRow[] {
  const order = ALL_FAMILIES.map(caseLabel);
  const variants: readonly string[] = ALL_VARIANTS;
  const rank = (r: AnyRow) => {
    if (!r.behaviours) return order.includes(r.label) ? order.indexOf(r.label) : order.length;
    const base = order.indexOf(caseLabel({ backend: r.backend, mode: r.mode, sort: r.sort }));
    return order.length + 1 + base * variants.length + variants.indexOf(r.behaviours);
  };
  return [...rows].sort((a, b) => a.count - b.count || rank(a) - rank(b));
}

/**
 * "1.05x (1.01-1.08)": the median of per-round ratios and their interquartile range (a load spike
 * on a shared machine moves one round, not the quartiles).
 */
export function ratioSpread(xs: readonly number[] | undefined): string {
  if (!xs || xs.length === 0) return '-';
  const med = quantile(xs, 0.5).toFixed(2);
  return xs.length > 1
    ? `${med}x (${quantile(xs, 0.25).toFixed(2)}-${quantile(xs, 0.75).toFixed(2)})`
    : `${med}x`;
}

export interface Column {
  head: string;
  /** Formatted cell of a measured row. */
  cell: (r: BenchRow, q: Ratios) => string;
}

const f = (x: number | null | undefined, d = 2) =>
  x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(d);
/** Milliseconds with three significant digits at any scale. */
export const ms = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x)
    ? '-'
    : x >= 100
      ? x.toFixed(0)
      : x >= 10
        ? x.toFixed(1)
        : x >= 1
          ? x.toFixed(2)
          : x.toPrecision(2);
const ratio = (x: number | null) => (x === null ? '-' : `${f(x, x >= 10 ? 0 : 2)}x`);

const PASS_HEADS: Record<string, string> = {
  key: 'key',
  sort: 'sort',
  cellTable: 'cells',
  reorder: 'reorder',
  steer: 'steer',
  draw: 'draw',
};

/** The columns shown; per-pass columns only when some row has that pass measured. */
export function columnsFor(rows: readonly AnyRow[]): Column[] {
  const measured = rows.filter(isMeasured);
  const cols: Column[] = [
    { head: 'box', cell: (r) => f(r.box, 1) },
    { head: 'nbrs', cell: (r) => f(r.meanNeighbors, 1) },
    { head: 'step ms', cell: (r) => ms(r.stepMs) + (r.overBudget ? '!' : '') },
    { head: 'steps/s', cell: (r) => f(r.stepsPerSecond, 1) },
    { head: 'x brute', cell: (_r, q) => ratio(q.xBrute) },
    { head: 'vs webgl2', cell: (_r, q) => ratio(q.vsWebgl2) },
    { head: 'N->4N', cell: (_r, q) => ratio(q.growth) },
  ];
  if (measured.some((r) => r.vsPlain))
    cols.push({ head: 'vs plain (IQR)', cell: (r) => ratioSpread(r.vsPlain) });
  if (measured.some((r) => r.cpuVsPlain)) {
    cols.push({ head: 'gpu-proc cpu ms', cell: (r) => ms(r.cpuMs) });
    cols.push({ head: 'cpu vs plain', cell: (r) => ratioSpread(r.cpuVsPlain) });
  }
  if (measured.some((r) => r.steerVsPlain))
    cols.push({ head: 'steer vs plain', cell: (r) => ratioSpread(r.steerVsPlain) });
  if (measured.some((r) => r.sortPasses !== null))
    cols.push({
      head: 'sort passes',
      cell: (r) => (r.sortPasses === null ? '-' : String(r.sortPasses)),
    });
  cols.push({ head: 'passes', cell: (r) => r.timing });
  if (measured.some((r) => r.gpuStepMs !== null))
    cols.push({ head: 'gpu sum', cell: (r) => ms(r.gpuStepMs) });
  for (const k of PASS_KEYS) {
    if (k === 'draw') continue;
    if (measured.some((r) => r.passes[k] !== null))
      cols.push({ head: PASS_HEADS[k]!, cell: (r) => ms(r.passes[k]) });
  }
  if (measured.some((r) => r.drawMs !== null)) {
    cols.push({ head: 'draw ms', cell: (r) => ms(r.passes.draw ?? r.drawMs) });
    cols.push({ head: 'fps', cell: (r) => f(r.fps, 1) });
  }
  if (measured.some((r) => r.mainMs !== null && r.mainMs !== undefined))
    cols.push({ head: 'main ms', cell: (r) => ms(r.mainMs) });
  if (measured.some((r) => r.longTasks && r.longTasks.count !== null))
    cols.push({
      head: 'long tasks',
      cell: (r) =>
        !r.longTasks || r.longTasks.count === null
          ? '-'
          : r.longTasks.count === 0
            ? '0'
            : `${r.longTasks.count} (max ${ms(r.longTasks.maxMs)})`,
    });
  return cols;
}

export interface BenchTable {
  heads: string[];
  /** Per row: [label, N, ...cells] or [label, N, 'skipped: why']. */
  lines: { row: AnyRow; cells: string[] }[];
}

/** The table both the page and the CLI show. */
export function benchTable(rows: readonly AnyRow[]): BenchTable {
  const cols = columnsFor(rows);
  const q = ratiosFor(rows);
  const lines = sortRows(rows).map((row) => ({
    row,
    cells: isMeasured(row)
      ? [row.label, String(row.count), ...cols.map((c) => c.cell(row, q.get(row)!))]
      : [row.label, String(row.count), `skipped: ${row.skipped}`],
  }));
  return { heads: ['backend / search', 'N', ...cols.map((c) => c.head)], lines };
}

/** Fixed-width text of the table (the CLI prints it). */
export function tableText(t: BenchTable): string {
  const w0 = Math.max(16, ...t.lines.map((l) => l.cells[0]!.length)) + 1;
  const widths = t.heads.map((h, i) =>
    i === 0
      ? w0
      : Math.max(
          h.length,
          ...t.lines.filter((l) => isMeasured(l.row)).map((l) => l.cells[i]?.length ?? 0),
        ) + 2,
  );
  const pad = (s: string, i: number) => (i === 0 ? s.padEnd(widths[0]!) : s.padStart(widths[i]!));
  const out = [t.heads.map(pad).join('')];
  let lastN = -1;
  for (const l of t.lines) {
    if (lastN !== -1 && l.row.count !== lastN) out.push('');
    lastN = l.row.count;
    out.push(
      isMeasured(l.row)
        ? l.cells.map(pad).join('')
        : `${pad(l.cells[0]!, 0)}${pad(l.cells[1]!, 1)}  ${l.cells[2]}`,
    );
  }
  return out.join('\n');
}

/** Everything a run produced, as one JSON-able object (the page's and the CLI's export). */
export interface BenchExport {
  tool: 'gpu-flock bench';
  date: string;
  settings: BenchSettings;
  /** Model parameters: the defaults of src/core/params.ts, with the box per N as below. */
  scene: { seed: number; dimensions: 2 | 3; box: string; params: string };
  device: DeviceReport | null;
  /** A short name for the device (deviceLabel): how the charts label an imported run. */
  label?: string;
  rows: (AnyRow & { ratios?: Ratios })[];
  /** The capacity per backend, where measured. */
  capacity?: BackendCapacity[];
  /** capacitySentence of `capacity`. */
  capacitySentence?: string;
}

/**
 * Checks that `data` (a parsed JSON file) is a run this page exported: the whole file against
 * ImportSchema (import-schema.ts: every field the page reads, with its type) before any of it is
 * used, and returns it with its label filled in.
 * @throws Error naming the file and the first wrong field: 'a.json: rows[0]: expected Object,
 *   got null'
 */
export function parseImport(data: unknown, name = 'file'): BenchExport {
  const e = data as Partial<BenchExport> | null;
  if (!e || typeof e !== 'object' || e.tool !== 'gpu-flock bench' || !Array.isArray(e.rows))
    throw new Error(
      `${name}: not a gpu-flock benchmark export (no "tool": "gpu-flock bench" and "rows")`,
    );
  const problem = importProblem(data);
  if (problem) throw new Error(`${name}: ${problem}`);
  return { ...(e as BenchExport), label: e.label ?? deviceLabel(e.device ?? null) };
}

export function makeExport(
  rows: readonly AnyRow[],
  settings: BenchSettings,
  device: DeviceReport | null,
  capacity: readonly BackendCapacity[] = [],
): BenchExport {
  const q = ratiosFor(rows);
  return {
    label: deviceLabel(device),
    capacity: [...capacity],
    capacitySentence: capacitySentence(capacity),
    tool: 'gpu-flock bench',
    date: new Date().toISOString(),
    settings,
    scene: {
      seed: settings.seed,
      dimensions: settings.dimensions,
      box: 'cube of side 64 * (N / 16384)^(1/d) centred on 0 (constant density)',
      params:
        'every other parameter at its default (src/core/params.ts); cost rows: allBehaviours(h, d) ' +
        'of src/bench/scene.ts, one term of it, or FIRST_MODEL, h the half side',
    },
    device,
    rows: sortRows(rows).map((r) => (isMeasured(r) ? { ...r, ratios: q.get(r)! } : { ...r })),
  };
}

const CSV_COLUMNS = [
  'label',
  'backend',
  'mode',
  'sort',
  'count',
  'dimensions',
  'seed',
  'box',
  'meanNeighbors',
  'stepMs',
  'minMs',
  'maxMs',
  'stepsPerSecond',
  'batch',
  'nSamples',
  'timing',
  'gpuStepMs',
  ...PASS_KEYS.map((k) => `pass_${k}`),
  'drawMs',
  'frameMs',
  'fps',
  'mainMs',
  'longTasks',
  'longTaskMs',
  'canvasWidth',
  'canvasHeight',
  'setupMs',
  'overBudget',
  'xBrute',
  'vsWebgl2',
  'growth',
  'behaviours',
  'vsPlain',
  'steerVsPlain',
  'cpuMs',
  'cpuVsPlain',
  'device',
  'sortPasses',
  'skipped',
  'samples',
] as const;

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? String(v) : String(v);
  return /[",\n#]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV of every number: `#` comment lines first (settings, scene and device report; read with
 * e.g. pandas.read_csv(f, comment='#')), then one line per case, empty cells where not measured.
 */
export function toCSV(e: BenchExport): string {
  const meta: string[] = [`# ${e.tool}, ${e.date}`];
  for (const [k, v] of Object.entries(e.settings))
    meta.push(`# setting ${k}: ${Array.isArray(v) ? v.join(' ') : String(v)}`);
  meta.push(
    `# scene: seed ${e.scene.seed}, ${e.scene.dimensions}D, ${e.scene.box}; ${e.scene.params}`,
  );
  if (e.device)
    for (const [k, v] of reportLines(e.device)) meta.push(`# ${k}: ${v.replace(/\n/g, ' ')}`);
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of e.rows) {
    const m = isMeasured(r) ? r : null;
    const rec: Record<string, unknown> = {
      label: r.label,
      backend: r.backend,
      mode: r.mode,
      sort: r.sort ?? '',
      count: r.count,
      dimensions: r.dimensions,
      seed: r.seed,
      behaviours: r.behaviours ?? '',
      skipped: m ? '' : (r as { skipped: string }).skipped,
    };
    if (m) {
      Object.assign(rec, {
        box: m.box,
        meanNeighbors: m.meanNeighbors,
        stepMs: m.stepMs,
        minMs: m.minMs,
        maxMs: m.maxMs,
        stepsPerSecond: m.stepsPerSecond,
        batch: m.batch,
        nSamples: m.samples.length,
        timing: m.timing,
        gpuStepMs: m.gpuStepMs,
        drawMs: m.drawMs,
        frameMs: m.frameMs,
        fps: m.fps,
        mainMs: m.mainMs,
        longTasks: m.longTasks?.count,
        longTaskMs: m.longTasks?.ms,
        canvasWidth: m.canvas[0],
        canvasHeight: m.canvas[1],
        setupMs: m.setupMs,
        overBudget: m.overBudget,
        xBrute: r.ratios?.xBrute,
        vsWebgl2: r.ratios?.vsWebgl2,
        growth: r.ratios?.growth,
        vsPlain: m.vsPlain?.join(' ') ?? '',
        steerVsPlain: m.steerVsPlain?.join(' ') ?? '',
        cpuMs: m.cpuMs,
        cpuVsPlain: m.cpuVsPlain?.join(' ') ?? '',
        device: m.device,
        sortPasses: m.sortPasses,
        samples: m.samples.join(' '),
      });
      for (const k of PASS_KEYS) rec[`pass_${k}`] = m.passes[k];
    }
    lines.push(CSV_COLUMNS.map((c) => csvCell(rec[c])).join(','));
  }
  return [...meta, ...lines].join('\n') + '\n';
}
