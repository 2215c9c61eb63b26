/**
 * The cost rows of the benchmark: what each behaviour term costs over the plain default flock,
 * measured in rounds of paired batches (runCosts).
 */
import type { PassTimes } from '../backend';
import type { Flock } from '../index';
import {
  caseLabel,
  expectedNeighbors,
  type BehaviourVariant,
  type BenchCase,
  type BenchFamily,
} from './cases';
import { medianPasses, startCase, stepFields, timed, type BenchOptions } from './measure';
import type { AnyRow } from './rows';
import { median } from './stats';

/**
 * The cost rows: on each base family (COST_BASES: webgpu counting, webgl2 grid) and each count,
 * the plain default flock and every variant are created side by side (each warmed up with one
 * step), then `rounds` rounds each time one batch of every flock back to back, the order
 * reversed every other round. A row's step time is the median of its batches; its `vsPlain`
 * holds, per round, its batch / the plain flock's batch of that round (pairs measured well under
 * a second apart, so a drifting load on a shared machine falls on both), and `steerVsPlain` the
 * same for the steer pass's time where the backend times passes. A base whose plain step is over
 * the budget stops growing; a variant that fails to start (e.g. 'removed' on a shader it no
 * longer recognises) is reported as skipped and the others go on.
 */
export async function runCosts(
  bases: readonly BenchFamily[],
  variants: readonly BehaviourVariant[],
  counts: readonly number[],
  rounds: number,
  o: BenchOptions & { dimensions?: 2 | 3; seed?: number },
  onRow: (row: AnyRow) => void,
): Promise<void> {
  const sorted = [...counts].sort((a, b) => a - b);
  const all: BehaviourVariant[] = ['plain', ...variants.filter((v) => v !== 'plain')];
  for (const base of bases) {
    let stop: string | null = null;
    for (const count of sorted) {
      const cases = all.map((v): BenchCase => ({
        backend: base.backend,
        mode: base.mode,
        ...(base.sort ? { sort: base.sort } : {}),
        behaviours: v,
        count,
        dimensions: o.dimensions ?? 3,
        seed: o.seed ?? 1,
      }));
      if (stop) {
        for (const c of cases)
          onRow({ ...c, label: caseLabel(c), reason: 'budget', skipped: stop });
        continue;
      }
      if (o.aborted?.()) return;
      const open: { c: BenchCase; flock: Flock; setupMs: number }[] = [];
      try {
        for (const c of cases) {
          o.onProgress?.(`${caseLabel(c)}, N = ${count}: starting`);
          const t0 = performance.now();
          try {
            const flock = await startCase(c, o.container);
            open.push({ c, flock, setupMs: performance.now() - t0 });
          } catch (e) {
            const msg = e instanceof Error ? e.message : String(e);
            onRow({ ...c, label: caseLabel(c), reason: 'error', skipped: msg });
            if (c.behaviours === 'plain') {
              stop = `not available here: ${msg}`;
              break;
            }
          }
        }
        if (stop) {
          for (const c of cases.slice(1))
            onRow({ ...c, label: caseLabel(c), reason: 'unavailable', skipped: stop });
          continue;
        }
        // One probe step of the plain flock sets the batch for all.
        const probe = await timed(async () => {
          await open[0]!.flock.step(1);
          await open[0]!.flock.finish();
        });
        const batch =
          o.batch === 'auto'
            ? Math.max(1, Math.min(16, Math.round(40 / Math.max(probe, 1e-3))))
            : Math.max(1, Math.floor(o.batch));
        const n = probe > o.budgetMs ? 1 : Math.max(3, rounds);
        const ms = open.map(() => [] as number[]);
        const cpu = open.map(() => [] as (number | null)[]);
        const steer = open.map(() => [] as (number | null)[]);
        const seen = open.map(() => [] as PassTimes[]);
        for (let r = 0; r < n; r++) {
          const order = open.map((_, k) => k);
          if (r % 2 === 1) order.reverse();
          o.onProgress?.(
            `cost rows, ${base.backend}, N = ${count}: round ${r + 1}/${n} of ${batch} steps`,
          );
          for (const k of order) {
            const f = open[k]!.flock;
            const c0 = await gpuProcessCpuMs();
            const t = await timed(async () => {
              await f.step(batch);
              await f.finish();
            });
            const c1 = await gpuProcessCpuMs();
            ms[k]!.push(t / batch);
            cpu[k]!.push(c0 !== null && c1 !== null ? (c1 - c0) / batch : null);
            const passes = f.timings().passes;
            seen[k]!.push(passes);
            steer[k]!.push(passes.steer);
          }
          if (o.aborted?.()) break;
        }
        const ratios = (xs: readonly (number | null)[], ys: readonly (number | null)[]) => {
          const out: number[] = [];
          for (let r = 0; r < Math.min(xs.length, ys.length); r++) {
            const x = xs[r];
            const y = ys[r];
            if (x !== null && y !== null && x !== undefined && y !== undefined && y > 0)
              out.push(x / y);
          }
          return out;
        };
        open.forEach(({ c, flock, setupMs }, k) => {
          const samples = ms[k]!;
          const passes = medianPasses(seen[k]!.length ? seen[k]! : [flock.timings().passes]);
          const params = flock.params;
          const sv = ratios(steer[k]!, steer[0]!);
          const cpuSamples = cpu[k]!.filter((x): x is number => x !== null);
          onRow({
            ...stepFields(c, flock, samples, batch, passes, setupMs),
            meanNeighbors: expectedNeighbors(c.count, params.perceptionRadius, c.dimensions ?? 3),
            passes,
            drawMs: null,
            frameMs: null,
            fps: null,
            mainMs: null,
            longTasks: { count: null, ms: 0, maxMs: 0 },
            overBudget: probe > o.budgetMs,
            vsPlain: ratios(samples, ms[0]!),
            ...(sv.length ? { steerVsPlain: sv } : {}),
            ...(cpuSamples.length
              ? { cpuMs: median(cpuSamples), cpuVsPlain: ratios(cpu[k]!, cpu[0]!) }
              : {}),
          });
        });
        if (probe > o.budgetMs || median(ms[0]!) > o.budgetMs)
          stop = `N = ${count} took ${Math.round(median(ms[0]!))} ms per step, over the ${o.budgetMs} ms budget`;
      } finally {
        for (const { flock } of open) flock.dispose();
      }
    }
  }
}

/**
 * CPU time so far of the browser's GPU process, ms, where the page's driver provides it (the CLI,
 * scripts/bench.mjs, exposes window.benchGpuProcessCpuMs from /proc); null elsewhere.
 */
async function gpuProcessCpuMs(): Promise<number | null> {
  const f = (globalThis as { benchGpuProcessCpuMs?: () => Promise<number | null> })
    .benchGpuProcessCpuMs;
  if (!f) return null;
  try {
    const v = await f();
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}
