/**
 * The page's input to a flock (DESIGN.md section 7): the pointer as the attractor (Flock.pointer,
 * view.pointer) and the box that follows the canvas's shape (view.autoBounds).
 * Owns: the listeners of view.pointer and view.autoBounds on the canvas drawn into now
 * (src/pointer-follow.ts, src/auto-bounds-follow.ts), moved to a new canvas after a run-time
 * fallback and removed at dispose(); none without a page (Node, a test surface). Talks to the
 * flock through PageInputFlock and PageInputHooks (it does not import flock.ts).
 */
import { FlockError } from '../core/errors';
import { autoBoundsBox } from '../core/page';
import { validateParams, type FlockParams, type Vec3 } from '../core/params';
import type { ViewOptions } from '../core/view';
import { AutoBoundsFollow, type BoundsSink } from '../auto-bounds-follow';
import { PointerFollow, type PointerMode, type PointerSink } from '../pointer-follow';
import { POINTER_STRENGTH } from './options';

/** Parameters that change the autoBounds box: its volume, its dimensions, its smallest side. */
const AUTO_BOX_PARAMS = ['count', 'dimensions', 'perceptionRadius'] as const;

/** The flock as the page input drives it (the public Flock fits): the followers' sink too. */
export interface PageInputFlock extends PointerSink, BoundsSink {
  readonly canvas: HTMLCanvasElement;
  readonly running: boolean;
  pointerToWorld(clientX: number, clientY: number): Vec3 | null;
  render(): void;
}

/** What the page input reads of the flock's own state (no copies). */
export interface PageInputHooks {
  /** The current view options. */
  view(): ViewOptions;
  /** The parameters as the caller sees them. */
  params(): FlockParams;
  disposed(): boolean;
  /** Reports what a pointer call throws (the flock fires 'error'; a page handler never throws). */
  error(e: unknown): void;
}

export class PageInput {
  private pointerFollow: PointerFollow | null = null;
  private boundsFollow: AutoBoundsFollow | null = null;
  /** The canvas the followers listen to (a run-time fallback moves to a new one). */
  private followed: HTMLCanvasElement | null = null;
  /** |attractorStrength| the pointer uses (the last non-zero one seen). */
  private pointerStrength = POINTER_STRENGTH;

  constructor(
    private readonly flock: PageInputFlock,
    private readonly hooks: PageInputHooks,
  ) {}

  /** Flock.pointer after its disposed check: see its docstring for the contract. */
  pointer(clientX: number, clientY: number, mode: PointerMode): void {
    if (mode !== 'attract' && mode !== 'repel' && mode !== 'off') {
      throw new FlockError('mode', mode, '"attract", "repel" or "off"');
    }
    const current = this.hooks.params().attractorStrength;
    if (current !== 0) this.pointerStrength = Math.abs(current);
    if (mode === 'off') {
      if (current !== 0) void this.flock.setParams({ attractorStrength: 0 });
      if (!this.flock.running) this.flock.render();
      return;
    }
    for (const [field, v] of [
      ['clientX', clientX],
      ['clientY', clientY],
    ] as const) {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new FlockError(field, v, 'a finite number (CSS pixels)');
      }
    }
    const point = this.flock.pointerToWorld(clientX, clientY);
    if (!point) return;
    const m = this.pointerStrength;
    void this.flock.setParams({ attractor: point, attractorStrength: mode === 'attract' ? m : -m });
    if (!this.flock.running) this.flock.render();
  }

  /**
   * Under view.autoBounds a setParams that changes count, dimensions or perceptionRadius without
   * giving bounds gets the autoBounds box for the result at the canvas's CSS size
   * (src/core/page.ts), in the same call: added to `given`.
   * @throws FlockError from validateParams when `given` over `current` is invalid.
   */
  addAutoBox(given: Record<string, unknown>, current: FlockParams): void {
    if (
      !this.hooks.view().autoBounds ||
      given.boundsMin !== undefined ||
      given.boundsMax !== undefined ||
      !AUTO_BOX_PARAMS.some((k) => given[k] !== undefined)
    ) {
      return;
    }
    const p = validateParams(given, current);
    const c = this.flock.canvas;
    Object.assign(
      given,
      autoBoundsBox(p.count, p.dimensions, c.clientWidth, c.clientHeight, p.perceptionRadius),
    );
  }

  /**
   * The page listeners view.pointer and view.autoBounds ask for, on the canvas drawn into now;
   * called at start, on setView and after a run-time fallback.
   */
  sync(): void {
    const c = this.flock.canvas;
    const view = this.hooks.view();
    const onPage =
      !this.hooks.disposed() && typeof HTMLElement !== 'undefined' && c instanceof HTMLElement;
    if (this.followed !== c) this.dispose();
    this.followed = onPage ? c : null;
    const pointer = onPage ? view.pointer : 'off';
    if (this.pointerFollow && this.pointerFollow.target !== pointer) {
      this.pointerFollow.dispose();
      this.pointerFollow = null;
    }
    if (pointer !== 'off' && !this.pointerFollow) {
      this.pointerFollow = new PointerFollow(this.flock, c, pointer, (e) => this.hooks.error(e));
    }
    const auto = onPage && view.autoBounds;
    if (this.boundsFollow && !auto) {
      this.boundsFollow.dispose();
      this.boundsFollow = null;
    }
    if (auto && !this.boundsFollow) {
      this.boundsFollow = new AutoBoundsFollow(this.flock, c);
      this.boundsFollow.refit();
    }
  }

  /** Removes the listeners; `final` when the flock itself goes (the attractor is left as it is). */
  dispose(final = false): void {
    this.pointerFollow?.dispose(final);
    this.pointerFollow = null;
    this.boundsFollow?.dispose();
    this.boundsFollow = null;
  }
}
