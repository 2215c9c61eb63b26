/**
 * The page's input to a flock (DESIGN.md section 7): the pointer as the attractor (Flock.pointer,
 * view.pointer), the box that follows the canvas's shape (view.autoBounds) and the count that
 * follows its area (view.density).
 * Owns: the listeners of view.pointer and view.autoBounds on the canvas drawn into now
 * (src/pointer-follow.ts, src/auto-bounds-follow.ts), moved to a new canvas after a run-time
 * fallback and removed at dispose(); none without a page (Node, a test surface); the timer of
 * the density refit (DENSITY_REFIT_MS after the last resize). Talks to the flock through
 * PageInputFlock and PageInputHooks (it does not import flock.ts).
 */
import type { Backend } from '../backend';
import { FlockError } from '../core/errors';
import { autoBoundsBox, densityCount } from '../core/page';
import { MAX_COUNT, validateParams, type FlockParams, type Vec3 } from '../core/params';
import { rescaleForCount } from '../core/presets';
import { initialState, type FlockState } from '../core/state';
import type { ViewOptions } from '../core/view';
import { AutoBoundsFollow, type BoundsSink } from '../auto-bounds-follow';
import { PointerFollow, type PointerMode, type PointerSink } from '../pointer-follow';
import type { Journal } from './journal';
import { POINTER_STRENGTH } from './options';

/** Parameters that change the autoBounds box: its volume, its dimensions, its smallest side. */
const AUTO_BOX_PARAMS = ['count', 'dimensions', 'perceptionRadius'] as const;
/** Parameters that make a new reference box for view.density (see PageInput.noteAsked). */
const BOX_PARAMS = ['dimensions', 'boundsMin', 'boundsMax', 'obstacles'] as const;

/**
 * Milliseconds without a resize before view.density refits the count: a count change
 * re-initialises the flock, so a drag-resize (a resize every frame) re-initialises once, when
 * it stops, rather than every frame.
 */
export const DENSITY_REFIT_MS = 250;

/** The scene a density count scales from: a box and the count it was given for. */
type DensityBase = Pick<
  FlockParams,
  'count' | 'dimensions' | 'boundsMin' | 'boundsMax' | 'obstacles'
>;

/** The flock as the page input drives it (the public Flock fits): the followers' sink too. */
export interface PageInputFlock extends PointerSink, BoundsSink {
  readonly canvas: HTMLCanvasElement;
  readonly running: boolean;
  /** The largest count the rung in use holds (view.density's device cap). */
  readonly maxCount: number;
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
  /** The canvas's box in CSS pixels (its area gives view.density's count). */
  cssSize(): { width: number; height: number };
}

export class PageInput {
  private pointerFollow: PointerFollow | null = null;
  private boundsFollow: AutoBoundsFollow | null = null;
  /** The canvas the followers listen to (a run-time fallback moves to a new one). */
  private followed: HTMLCanvasElement | null = null;
  /** |attractorStrength| the pointer uses (the last non-zero one seen). */
  private pointerStrength = POINTER_STRENGTH;
  /** view.density's maximum: the count last asked for (createFlock's params, setParams). */
  private askedCount: number;
  /** The box a density count scales from without autoBounds, and the count it was given for. */
  private densityBase: DensityBase;
  /** view.density when last synced (a change refits at once). */
  private density: number;
  private densityTimer: ReturnType<typeof setTimeout> | null = null;
  /** True while the density refit calls setParams (its count is not a new maximum). */
  private refitting = false;

  constructor(
    private readonly flock: PageInputFlock,
    private readonly hooks: PageInputHooks,
  ) {
    const p = hooks.params();
    this.askedCount = p.count;
    this.densityBase = baseOf(p, p.count);
    this.density = hooks.view().density;
  }

  /**
   * The parameters a flock starts with (before its backend starts, so the seed's initial state
   * is made in them). Under view.density: the count of `density` boids per 10,000 CSS px² of the
   * canvas, at most params.count, with the box that goes with it (autoBounds: the canvas's shape;
   * else `params`' box scaled by rescaleForCount, the same boids per unit³); the rung caps the
   * count further when it holds fewer (recovery.ts, as it starts the rung). Under
   * view.autoBounds: the box of the canvas's shape for the count (autoBoundsBox), so the boids
   * start spread over the box the follower keeps, not in DESIGN's default cube squeezed into it.
   * Unchanged when a state is given, or neither option applies (off, or the canvas has no area).
   */
  startParams(params: FlockParams, stateGiven: boolean): FlockParams {
    if (stateGiven) return params;
    const view = this.hooks.view();
    const { width, height } = this.size();
    if (view.density > 0) {
      const count = densityCount(view.density, width, height, params.count);
      if (count !== null && count !== params.count) {
        return { ...params, ...this.densityChange(params, count) };
      }
    }
    // As AutoBoundsFollow.refit: a canvas without area keeps the box it was given.
    if (!view.autoBounds || !(width > 0) || !(height > 0)) return params;
    const box = autoBoundsBox(
      params.count,
      params.dimensions,
      width,
      height,
      params.perceptionRadius,
    );
    return { ...params, ...box };
  }

  /**
   * The start parameters for the count a rung runs when it holds fewer boids than `params` asks
   * (the cpu rung's 4,096, a GPU rung at its device limit: recovery.ts caps the count as it
   * starts the rung). Under view.density or view.autoBounds, the box that goes with that count,
   * as startParams makes it for an uncapped count (autoBounds: the canvas's shape at the default
   * density; else the density base's box scaled, same boids per unit³), so the boids run do not
   * fly in a box made for the ones asked for; `params` as it is when neither option applies (or
   * the canvas has no area: the box given stays).
   */
  cappedStartParams(params: FlockParams, count: number): FlockParams {
    const view = this.hooks.view();
    const { width, height } = this.size();
    if (!(view.density > 0) && !view.autoBounds) return params;
    if (!(width > 0) || !(height > 0)) return params;
    return { ...params, ...this.densityChange(params, count) };
  }

  /**
   * Starts the flock under view.density and view.autoBounds: `start` runs with the seed's state
   * made in their count and box (startParams; `state` as given when there is one). When the rung
   * holds fewer boids than asked (it capped the count in `journal.params`), the box follows the
   * count run (cappedStartParams) and the seed's state is made in it again, given to that backend
   * before the warm-up and the first frame (no frame shows the few boids in the box of the many).
   * @param asked the parameters the caller sees changed to `p` (the journal asks them; the camera follows)
   * @param start starts the backend with a state and its parameters; resolves with the backend up then
   */
  async start(
    journal: Journal,
    state: FlockState | null,
    asked: (p: FlockParams) => void,
    start: (s: FlockState, p: FlockParams) => Promise<Backend | null>,
  ): Promise<void> {
    const p = this.startParams(journal.params, state !== null);
    if (p !== journal.params) asked(p);
    const b = await start(state ?? initialState(p), p);
    const run = journal.params;
    if (state !== null || !b || run.count === p.count) return;
    const q = this.cappedStartParams(run, run.count);
    if (q === run) return;
    asked(q);
    journal.setState(b, initialState(q), q);
  }

  /**
   * Before a setParams (not the density refit's own): a count that differs from the current one
   * is the new maximum of view.density, and under a density it is replaced by the area's count
   * up to it, with the box that goes with it (unless bounds are given too); a new box,
   * dimensions or obstacles become the box a later density count scales from. Changes `given`.
   * @throws FlockError from validateParams when `given` over `current` is invalid.
   */
  noteAsked(given: Record<string, unknown>, current: FlockParams): void {
    if (this.refitting) return;
    const asksCount = given.count !== undefined && given.count !== current.count;
    if (!asksCount && !BOX_PARAMS.some((k) => given[k] !== undefined)) return;
    const next = validateParams(given, current);
    const density = this.hooks.view().density;
    if (asksCount && !(density > 0) && next.count > this.flock.maxCount) return; // a count error follows
    if (BOX_PARAMS.some((k) => given[k] !== undefined)) {
      // A box given with the count is that count's; otherwise the box is the current count's.
      const withBox = given.boundsMin !== undefined || given.boundsMax !== undefined;
      this.densityBase = baseOf(next, withBox ? next.count : current.count);
    }
    if (!asksCount) return;
    this.askedCount = next.count;
    if (!(density > 0)) return;
    const { width, height } = this.size();
    const cap = Math.min(next.count, this.flock.maxCount);
    const count = densityCount(density, width, height, cap) ?? Math.min(next.count, cap);
    const boxGiven = given.boundsMin !== undefined || given.boundsMax !== undefined;
    Object.assign(given, boxGiven ? { count } : this.densityChange(next, count));
  }

  /** The canvas changed size: view.density refits the count DENSITY_REFIT_MS after the last resize. */
  resized(): void {
    if (!(this.hooks.view().density > 0) || this.hooks.disposed()) return;
    if (this.densityTimer !== null) clearTimeout(this.densityTimer);
    this.densityTimer = setTimeout(() => {
      this.densityTimer = null;
      this.refitDensity();
    }, DENSITY_REFIT_MS);
  }

  /**
   * The count of view.density for the canvas's area now, at most the count asked for and the
   * rung's limit; set (a re-initialisation) only when it differs from the flock's. Density off:
   * back to the count asked for. Errors go to the 'error' event.
   */
  refitDensity(): void {
    if (this.hooks.disposed()) return;
    const density = this.hooks.view().density;
    const p = this.hooks.params();
    const cap = Math.min(this.askedCount, this.flock.maxCount);
    let count: number | null = cap;
    if (density > 0) {
      const { width, height } = this.size();
      count = densityCount(density, width, height, cap);
    }
    if (count === null || count === p.count) return;
    this.refitting = true;
    try {
      const r = this.flock.setParams(this.densityChange(p, count)) as Promise<void> | undefined;
      r?.catch?.(() => undefined); // a failed call fires 'error' itself
    } catch (e) {
      this.hooks.error(e);
    } finally {
      this.refitting = false;
    }
  }

  /** The params of a density count: the count and its box (the canvas's under autoBounds, else the base box scaled). */
  private densityChange(p: FlockParams, count: number): Partial<FlockParams> {
    if (this.hooks.view().autoBounds) {
      const { width, height } = this.size();
      return {
        count,
        ...autoBoundsBox(count, p.dimensions, width, height, p.perceptionRadius),
      };
    }
    const base = this.densityBase;
    if (base.dimensions !== p.dimensions) return { count };
    return rescaleForCount(base, Math.min(count, MAX_COUNT));
  }

  /** The canvas's CSS size (its client size where it has one, else the surface's box). */
  private size(): { width: number; height: number } {
    const c = this.flock.canvas as Partial<HTMLCanvasElement>;
    if (typeof c.clientWidth === 'number' && typeof c.clientHeight === 'number') {
      return { width: c.clientWidth, height: c.clientHeight };
    }
    return this.hooks.cssSize();
  }

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
   * giving bounds gets the autoBounds box for the result at the canvas's CSS size (size(): the
   * same measure as the start box; src/core/page.ts), in the same call: added to `given`.
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
    const { width, height } = this.size();
    Object.assign(given, autoBoundsBox(p.count, p.dimensions, width, height, p.perceptionRadius));
  }

  /**
   * The page listeners view.pointer and view.autoBounds ask for, on the canvas drawn into now;
   * called at start, on setView and after a run-time fallback.
   */
  sync(): void {
    const c = this.flock.canvas;
    const view = this.hooks.view();
    if (view.density !== this.density) {
      this.density = view.density;
      this.refitDensity();
    }
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
    if (final && this.densityTimer !== null) clearTimeout(this.densityTimer);
    if (final) this.densityTimer = null;
    this.pointerFollow?.dispose(final);
    this.pointerFollow = null;
    this.boundsFollow?.dispose();
    this.boundsFollow = null;
  }
}

/** The density base of params `p`: its box, obstacles and dimensions, given for `count` boids. */
function baseOf(p: FlockParams, count: number): DensityBase {
  return {
    count,
    dimensions: p.dimensions,
    boundsMin: [...p.boundsMin],
    boundsMax: [...p.boundsMax],
    obstacles: p.obstacles.map((o) => ({ center: [...o.center], radius: o.radius })),
  };
}
