/**
 * Per-pass GPU times from timestamp queries (only where the device has 'timestamp-query').
 * Each pass of a timed step writes a begin and an end timestamp; one batch of up to
 * MAX_TIMED_STEPS steps is resolved, read back and averaged. Browsers quantise timestamps
 * (Chrome to 100 µs) so a single pass time is mostly 0 or one quantum: only averages over many
 * steps mean something, and the detected resolution is reported with them.
 * Owns its query set and buffers (`dispose()`).
 */
import type { PassName } from '../backend';

/**
 * constants.ts's flags this file uses, as numbers: importing them made its chunk (loaded with
 * import() by pass-timer.ts) share one with the backend's, which a bundler then split in two.
 * Exported for tests/unit/timing-flags.test.ts, which ties each to constants.ts's (BufferUsage,
 * and MapMode for READ); pass-timer.ts imports none of them.
 */
export const QUERY_RESOLVE = 0x200;
export const COPY_SRC = 0x4;
export const MAP_READ = 0x1;
export const COPY_DST = 0x8;
export const READ = 0x1;

export type { PassName };

/** Average milliseconds per step over the steps measured, by pass (absent: not run). */
export interface PassAverages {
  passes: Partial<Record<PassName, number>>;
  /** From the first pass's begin to the last pass's end, per step, averaged. */
  stepMs: number | null;
  /** Number of steps measured. */
  steps: number;
  /** Granularity of the raw timestamps, ms (0.1 in Chrome by default, 1e-6 unquantised). */
  resolutionMs: number;
}

const MAX_TIMED_STEPS = 64;
const MAX_PASSES_PER_STEP = 6;

export class PassTimer {
  readonly enabled: boolean;
  private readonly querySet: GPUQuerySet | null = null;
  private readonly resolveBuffer: GPUBuffer | null = null;
  private readonly readBuffer: GPUBuffer | null = null;
  private used = 0;
  /** Per timed step: its passes as [name, first query index]. */
  private steps: { name: PassName; q: number }[][] = [];
  private current: { name: PassName; q: number }[] | null = null;
  private pending: Promise<void> | null = null;
  private disposed = false;
  private latestAverages: PassAverages | null = null;
  private totals = { sums: {} as Partial<Record<PassName, number>>, step: 0, stepN: 0, steps: 0 };
  private resolutionNs = 0;

  constructor(
    private readonly device: GPUDevice,
    enabled: boolean,
    private readonly label = 'flock',
  ) {
    this.enabled = enabled && device.features.has('timestamp-query');
    if (!this.enabled) return;
    const count = MAX_TIMED_STEPS * MAX_PASSES_PER_STEP * 2;
    this.querySet = device.createQuerySet({
      label: `${label}.timestamps`,
      type: 'timestamp',
      count,
    });
    this.resolveBuffer = device.createBuffer({
      label: `${label}.timestamps.resolve`,
      size: count * 8,
      usage: QUERY_RESOLVE | COPY_SRC,
    });
    this.readBuffer = device.createBuffer({
      label: `${label}.timestamps.read`,
      size: count * 8,
      usage: MAP_READ | COPY_DST,
    });
  }

  /** Starts a step; it is timed if the batch has room and no readback is in flight. */
  beginStep(): boolean {
    this.current = null;
    if (!this.enabled || this.disposed || this.pending) return false;
    if (this.steps.length >= MAX_TIMED_STEPS) return false;
    this.current = [];
    this.steps.push(this.current);
    return true;
  }

  /** timestampWrites for one pass of the current step, or undefined when it is not timed. */
  writes(name: PassName): GPUComputePassTimestampWrites | undefined {
    if (!this.current || !this.querySet) return undefined;
    const q = this.used;
    this.used += 2;
    this.current.push({ name, q });
    return { querySet: this.querySet, beginningOfPassWriteIndex: q, endOfPassWriteIndex: q + 1 };
  }

  /** Resolves the batch's queries into the read buffer (call once per command encoder, last). */
  resolve(encoder: GPUCommandEncoder): boolean {
    this.current = null;
    if (!this.querySet || this.used === 0 || this.pending) return false;
    encoder.resolveQuerySet(this.querySet, 0, this.used, this.resolveBuffer!, 0);
    encoder.copyBufferToBuffer(this.resolveBuffer!, 0, this.readBuffer!, 0, this.used * 8);
    return true;
  }

  /** After the encoder that called resolve() was submitted: read back and average. */
  collect(): void {
    if (!this.readBuffer || this.used === 0 || this.pending) return;
    const used = this.used;
    const steps = this.steps;
    this.pending = this.readBuffer
      .mapAsync(READ, 0, used * 8)
      .then(() => {
        const raw = new BigUint64Array(this.readBuffer!.getMappedRange(0, used * 8).slice(0));
        this.readBuffer!.unmap();
        this.accumulate(raw, steps);
      })
      .catch(() => {
        // Device lost or disposed mid-read: timings simply stop updating.
      })
      .finally(() => {
        this.pending = null;
        this.used = 0;
        this.steps = [];
      });
  }

  private accumulate(raw: BigUint64Array, steps: { name: PassName; q: number }[][]): void {
    const sums: Partial<Record<PassName, number>> = {};
    let stepSum = 0;
    let stepN = 0;
    let res = this.resolutionNs;
    for (const v of raw) {
      if (v === 0n) continue;
      for (const g of [100000n, 10000n, 1000n, 100n, 10n, 1n]) {
        if (v % g === 0n) {
          const gn = Number(g);
          res = res === 0 ? gn : Math.min(res, gn);
          break;
        }
      }
    }
    this.resolutionNs = res;
    for (const passes of steps) {
      let first: bigint | null = null;
      let last: bigint | null = null;
      for (const { name, q } of passes) {
        const a = raw[q]!;
        const b = raw[q + 1]!;
        const ms = b > a ? Number(b - a) / 1e6 : 0;
        sums[name] = (sums[name] ?? 0) + ms;
        if (first === null || a < first) first = a;
        if (last === null || b > last) last = b;
      }
      if (first !== null && last !== null) {
        stepSum += last > first ? Number(last - first) / 1e6 : 0;
        stepN++;
      }
    }
    const n = steps.length;
    if (n === 0) return;
    const passes: Partial<Record<PassName, number>> = {};
    for (const [k, v] of Object.entries(sums) as [PassName, number][]) {
      passes[k] = v / n;
      this.totals.sums[k] = (this.totals.sums[k] ?? 0) + v;
    }
    this.totals.steps += n;
    this.totals.step += stepSum;
    this.totals.stepN += stepN;
    this.latestAverages = {
      passes,
      stepMs: stepN ? stepSum / stepN : null,
      steps: n,
      resolutionMs: (res || 1) / 1e6,
    };
  }

  /** The last batch's averages, or null before the first batch is read (or without timestamps). */
  latest(): PassAverages | null {
    return this.latestAverages;
  }

  /** Averages over every batch since the last resetTotals(). */
  cumulative(): PassAverages | null {
    const t = this.totals;
    if (t.steps === 0) return null;
    const passes: Partial<Record<PassName, number>> = {};
    for (const [k, v] of Object.entries(t.sums) as [PassName, number][]) passes[k] = v / t.steps;
    return {
      passes,
      stepMs: t.stepN ? t.step / t.stepN : null,
      steps: t.steps,
      resolutionMs: (this.resolutionNs || 1) / 1e6,
    };
  }

  resetTotals(): void {
    this.totals = { sums: {}, step: 0, stepN: 0, steps: 0 };
  }

  /** Resolves when the readback in flight (if any) has been averaged. */
  async settled(): Promise<void> {
    await this.pending;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    this.readBuffer?.destroy();
  }
}
