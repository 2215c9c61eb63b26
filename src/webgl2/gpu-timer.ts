/**
 * Per-pass GPU times from EXT_disjoint_timer_query_webgl2 (TIME_ELAPSED queries, one pass at a
 * time), averaged over the most recent samples. Without the extension (SwiftShader, most browsers
 * with timer queries disabled) it does nothing and reports every pass as null.
 * Owns its query objects; dispose() deletes them.
 */
import { NO_PASS_TIMES, type PassTimes } from '../backend';

type PassName = keyof PassTimes;

interface TimerExt {
  TIME_ELAPSED_EXT: number;
  GPU_DISJOINT_EXT: number;
}

/** Samples kept per pass for the average. */
const WINDOW = 30;
/** Queries in flight at most; beyond that passes go untimed until results come back. */
const MAX_IN_FLIGHT = 256;

export class GpuTimer {
  private readonly ext: TimerExt | null;
  private readonly pending: { pass: PassName; query: WebGLQuery }[] = [];
  private readonly samples = new Map<PassName, number[]>();
  private active: { pass: PassName; query: WebGLQuery } | null = null;

  /** `disabled`: act as if the extension were missing (FlockOptions.disable). */
  constructor(
    private readonly gl: WebGL2RenderingContext,
    disabled = false,
  ) {
    this.ext = disabled
      ? null
      : (gl.getExtension('EXT_disjoint_timer_query_webgl2') as TimerExt | null);
  }

  get enabled(): boolean {
    return this.ext !== null;
  }

  /** Starts timing `pass` (no-op without the extension, or while another pass is timed). */
  begin(pass: PassName): void {
    if (!this.ext || this.active || this.pending.length >= MAX_IN_FLIGHT) return;
    const query = this.gl.createQuery();
    if (!query) return;
    this.gl.beginQuery(this.ext.TIME_ELAPSED_EXT, query);
    this.active = { pass, query };
  }

  end(): void {
    if (!this.ext || !this.active) return;
    this.gl.endQuery(this.ext.TIME_ELAPSED_EXT);
    this.pending.push(this.active);
    this.active = null;
  }

  /** Collects finished queries (in order); a disjoint event discards everything in flight. */
  poll(): void {
    if (!this.ext) return;
    const gl = this.gl;
    if (gl.getParameter(this.ext.GPU_DISJOINT_EXT)) {
      for (const p of this.pending.splice(0)) gl.deleteQuery(p.query);
      return;
    }
    while (this.pending.length > 0) {
      const p = this.pending[0]!;
      if (!gl.getQueryParameter(p.query, gl.QUERY_RESULT_AVAILABLE)) break;
      const ns = gl.getQueryParameter(p.query, gl.QUERY_RESULT) as number;
      this.pending.shift();
      gl.deleteQuery(p.query);
      const list = this.samples.get(p.pass) ?? [];
      list.push(ns / 1e6);
      if (list.length > WINDOW) list.shift();
      this.samples.set(p.pass, list);
    }
  }

  /** Mean ms per pass over recent samples; null for passes never measured. */
  averages(): PassTimes {
    const out: PassTimes = { ...NO_PASS_TIMES };
    for (const [pass, list] of this.samples) {
      if (list.length) out[pass] = list.reduce((a, b) => a + b, 0) / list.length;
    }
    return out;
  }

  /** Forgets samples (e.g. when the search mode changes and old passes stop running). */
  clearSamples(): void {
    this.samples.clear();
  }

  /** Deletes every query. Idempotent. */
  dispose(): void {
    if (this.active) {
      if (this.ext) this.gl.endQuery(this.ext.TIME_ELAPSED_EXT);
      this.gl.deleteQuery(this.active.query);
      this.active = null;
    }
    for (const p of this.pending.splice(0)) this.gl.deleteQuery(p.query);
  }
}
