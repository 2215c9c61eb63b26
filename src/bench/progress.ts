/**
 * Progress of a benchmark run and an estimate of the time left: the run is a list of tasks with
 * weights (a priori costs in arbitrary units); the time left is the time so far scaled by the
 * weight left over the weight done. No DOM.
 */
export class Progress {
  private done = 0;
  private current = 0;

  /** @param total the summed weight of every task of the run (> 0) */
  constructor(readonly total: number) {}

  /** A task of weight `w` is done. */
  advance(w: number): void {
    this.done = Math.min(this.total, this.done + Math.max(0, w));
    this.current = 0;
  }

  /** The task under way, of weight `w`, is this fraction (0..1) done. */
  partial(w: number, fraction: number): void {
    this.current = Math.max(0, w) * Math.min(1, Math.max(0, fraction));
  }

  /** Share of the run done, 0..1. */
  get fraction(): number {
    return this.total > 0 ? Math.min(1, (this.done + this.current) / this.total) : 1;
  }

  /**
   * ms left at the pace so far, after `elapsedMs` of the run; null until a twentieth of the run is
   * done (too early to say).
   */
  leftMs(elapsedMs: number): number | null {
    const f = this.fraction;
    if (f < 0.05) return null;
    return (elapsedMs * (1 - f)) / f;
  }
}

/** "about 40 s left", "about 2 min left", or "" when unknown. */
export function leftText(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 90 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;
}
