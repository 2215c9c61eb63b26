/**
 * view.autoBounds (DESIGN.md section 7): the box follows the element's shape. On every resize
 * the box is re-fitted (autoBoundsBox in src/core/page.ts: the element's aspect, the volume of
 * count boids at the default density) through setParams, which keeps the state: boids left
 * outside a smaller box are brought in by the model's walls (reflected and clamped under soft
 * and bounce, wrapped under wrap, DESIGN section 1) on the next step.
 * Owns: its ResizeObserver (dispose() disconnects it; idempotent).
 */
import { autoBoundsBox } from './core/page';
import type { FlockParams, Vec3 } from './core/params';

/** What the follower drives (the Flock fits). */
export interface BoundsSink {
  readonly params: FlockParams;
  setParams(partial: Partial<FlockParams>): unknown;
}

export class AutoBoundsFollow {
  private observer: ResizeObserver | null = null;

  /**
   * @param sink the flock
   * @param element whose CSS size the box follows (the flock's canvas or its container)
   */
  constructor(
    private readonly sink: BoundsSink,
    private readonly element: HTMLElement,
  ) {
    if (typeof ResizeObserver !== 'undefined') {
      this.observer = new ResizeObserver(() => this.refit());
      this.observer.observe(element);
    }
  }

  /** The box for `p` (count, dimensions, perceptionRadius) at the element's current size. */
  boxFor(p: Pick<FlockParams, 'count' | 'dimensions' | 'perceptionRadius'>): {
    boundsMin: Vec3;
    boundsMax: Vec3;
  } {
    return autoBoundsBox(
      p.count,
      p.dimensions,
      this.element.clientWidth,
      this.element.clientHeight,
      p.perceptionRadius,
    );
  }

  /** Sets the box for the element's size now, when it differs from the flock's; errors are swallowed (the box stays). */
  refit(): void {
    if (!this.observer) return;
    const p = this.sink.params;
    if (this.element.clientWidth === 0 || this.element.clientHeight === 0) return;
    const box = this.boxFor(p);
    const same = (a: readonly number[], b: readonly number[]) => a.every((x, i) => x === b[i]);
    if (same(box.boundsMin, p.boundsMin) && same(box.boundsMax, p.boundsMax)) return;
    try {
      const r = this.sink.setParams(box) as Promise<void> | undefined;
      r?.catch?.(() => undefined);
    } catch {
      // A box the flock rejects (an obstacle outside it is fine; nothing else should fail).
    }
  }

  dispose(): void {
    this.observer?.disconnect();
    this.observer = null;
  }
}
