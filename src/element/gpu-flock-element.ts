/**
 * <gpu-flock>: the custom element (DESIGN.md section 4). One line embeds a flock:
 *
 *   <script type="module" src=".../gpu-flock.element.js"></script>
 *   <gpu-flock count="20000" boundary="wrap" interactive></gpu-flock>
 *
 * Attributes are the schemas' names in kebab-case (attributes.ts), plus backend, disable, paused,
 * interactive and motion. Properties: `flock` (the Flock, or null before it starts and after
 * removal) and `ready` (a promise of the Flock). The Flock's events ('fallback', 'contextlost',
 * 'contextrestored', 'error') come from the element, 'ready' once a flock runs. All bubble but
 * 'error', which (as <img>'s) stays on the element: window.onerror never gets it. A bad attribute
 * fires 'error' (detail: attribute, value, allowed, error); the flock keeps its last good value.
 *
 * It sizes like a replaced element (300x150 unless styled; the shadow root's stylesheet is a
 * constructed one, so a strict CSP without 'unsafe-inline' styles is fine), starts only once it
 * is near the viewport, stops while off-screen or in a hidden tab, disposes its flock when
 * removed from the page and builds a new one when inserted again. With
 * `prefers-reduced-motion: reduce` it flies the flock unseen until it has formed groups
 * (stillPlan in still.ts: simulated seconds from the density, at most STILL_BUDGET_MS of wall
 * time), draws one still frame and fires 'still' (detail: StillDetail), unless the page opts in
 * to motion with `motion="always"`.
 * Owns: its flock (and the flock's canvas), its observers and listeners.
 */
import { createFlock, FlockError } from '../index';
import type { Flock, FlockOptions } from '../index';
import { needsReinit } from '../core/params';
import { booleanFromText } from '../core/codec';
import {
  defaultWarmupSeconds,
  macrotask,
  runWarmup,
  warmsUpBeforeFirstFrame,
  warmupPlan,
  WARMUP_BUDGET_MS,
} from '../core/warmup-runner';
import { validateParams } from '../core/params';
import {
  ELEMENT_ATTRIBUTES,
  attributeFormatError,
  parseAttribute,
  type SchemaAttribute,
} from './attributes';
import {
  BY_ATTRIBUTE,
  elementDefaultOf,
  flagAttribute,
  optionsFromAttributes,
  rebuildValues,
  rebuildValueError,
  REBUILD_ATTRIBUTES,
  SCHEMA_ATTRS,
  type AttributeMemory,
  type ElementOptions,
} from './attribute-options';
import {
  capForRung,
  correctLater,
  removedCountPlan,
  elementCountPlan,
  fixedBoxOf,
  probeAndSetCount,
  followProbeLead,
  probeLeadKey,
  type CountPlan,
} from './count-plan';
import { deferred, type Deferred } from './deferred';
import { styleSheet } from './element-style';
import type { ViewTarget } from './view-support';
import { STILL_BUDGET_MS, STILL_FIRST_CHUNK_STEPS, stillPlan } from './still';

import type { GpuFlockEventTarget, StartDetail, StillDetail } from './events';

export type { StartDetail, StillDetail } from './events';

/** The element starts its flock once it is this close to the viewport. */
const NEAR_VIEWPORT = '200px';

// In Node (server rendering) there is no HTMLElement: the module still loads, nothing is defined.
// Typed as GpuFlockEventTarget: addEventListener knows the element's events (GpuFlockEventMap).
const Base: new () => GpuFlockEventTarget =
  typeof HTMLElement === 'undefined' ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

/**
 * `<gpu-flock>`: a flock in a custom element. Every parameter and view option is an attribute
 * (kebab case), plus `backend`, `disable`, `paused`, `interactive`, `preset`, `motion`. Its events
 * bubble but `error`, which stays on the element as `<img>`'s does: `window.onerror` never gets it.
 */
export class GpuFlockElement extends Base {
  /**
   * Wall-clock bound on the unseen warm-up of reduced motion, ms (default STILL_BUDGET_MS, for
   * every element of the page); past it the still frame shows the state reached.
   */
  static stillBudgetMs = STILL_BUDGET_MS;
  /**
   * Wall-clock bound on the warm-up before the first frame, ms (WARMUP_BUDGET_MS, DESIGN section
   * 7), for every element of the page; past it the first frame shows the state reached.
   */
  static warmupBudgetMs = WARMUP_BUDGET_MS;
  /**
   * ms after the first frame at which a probed (or remembered) count is checked against the frame
   * rate the loop reached: under 24 fps the remembered capacity is lowered and the count shrunk.
   */
  static correctAfterMs = 4000;

  /** Every attribute the element reacts to (custom elements API). */
  static get observedAttributes(): string[] {
    return [...SCHEMA_ATTRS.map((a) => a.attribute), ...ELEMENT_ATTRIBUTES.map((a) => a.attribute)];
  }

  private _flock: Flock | null = null;
  private _ready: Deferred<Flock> = deferred<Flock>();
  /** Bumped by every start and teardown: a start that finishes late sees it changed and disposes. */
  private _generation = 0;
  private _starting = false;
  /** Bumped by every change of `count` (_countSince). */
  private _countSets = 0;
  /** The last start failed: any attribute change starts again (issue 21, reproduction 4). */
  private _failed = false;
  private _builtFrom = new Map<string, string | null>(); // at the last start
  /**
   * Attributes changed while the flock was being created (after their values were read), in the
   * order of their last change: applied once it is up, so the last value wins (reproduction 3).
   */
  private readonly _changedWhileStarting: string[] = [];
  private _near = false;
  private _io: IntersectionObserver | null = null;
  private _motionQuery: MediaQueryList | null = null;
  private _stage: HTMLDivElement | null = null;
  private _debug: { dispose(): void } | null = null;
  /**
   * What the attributes' options remember: the last value of each schema attribute that a flock
   * accepted (a flock started again, the element re-inserted or rebuilt, with that attribute now
   * invalid keeps it, as a running one does), the schema attributes whose last value was rejected
   * (retried after every accepted change), and the last good `disable` list.
   */
  private readonly _memory: AttributeMemory = {
    lastGood: new Map<string, unknown>(),
    rejected: new Set<string>(),
    goodDisable: undefined,
  };
  /** The last good `motion` value (a bad one fires 'error' and keeps it). */
  private _motion: 'auto' | 'always' = 'auto';
  /** The still frame of reduced motion is drawn (reset when a re-initialising change comes). */
  private _stillDrawn = false;
  /** The `paused` attribute's last good value (flagAttribute). */
  private get _paused(): boolean {
    return this._memory.lastGood.get('paused') === true;
  }
  private _stillBusy = false;
  /** The still frame was asked for again while a warm-up ran (a re-initialising change). */
  private _stillAgain = false;
  /** The probe and the warm-up run: the flock is not shown nor looped yet. */
  private _warming = false;
  private readonly _cleanups: (() => void)[] = [];

  /** The running Flock, or null before it has started and after the element left the page. */
  get flock(): Flock | null {
    return this._flock;
  }

  /** A promise of the Flock: resolves once it runs (rejects when it cannot start; 'error' fires too). */
  get ready(): Promise<Flock> {
    return this._ready.promise;
  }

  /** Custom elements API: inserted into a page; the flock starts once it is near the viewport. */
  connectedCallback(): void {
    if (this._stage) {
      // Moved within the page (removed and inserted in one task): the flock carries on.
      if (this._cleanups.length > 0) return;
    } else {
      const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      const s = styleSheet();
      if (s) root.adoptedStyleSheets = [s];
      this._stage = document.createElement('div');
      this._stage.className = 'stage';
      this._stage.setAttribute('part', 'stage');
      root.append(this._stage);
    }
    this._listen();
  }

  /** Custom elements API: removed from the page; the flock is disposed (a move within one task keeps it). */
  disconnectedCallback(): void {
    // Wait a microtask: a move (remove + insert) keeps the flock.
    queueMicrotask(() => {
      if (!this.isConnected) this._teardown();
    });
  }

  /** Custom elements API: an attribute changed; it applies at once (a bad value fires 'error'). */
  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (old === value) return;
    if (name === 'count') this._countSets++;
    if (this._starting && !REBUILD_ATTRIBUTES.has(name)) {
      // Read when the start began: applied once the flock is up, in order (last change last).
      const at = this._changedWhileStarting.indexOf(name);
      if (at >= 0) this._changedWhileStarting.splice(at, 1);
      this._changedWhileStarting.push(name);
      return;
    }
    if (this._failed && !this._flock) {
      // The last start failed: the new value may be what it needed. Start again from all of them.
      this._rebuild();
      return;
    }
    this._attributeChanged(name, this.getAttribute(name));
  }

  /** One attribute's new value on the running flock (or nothing to do before it starts). */
  private _attributeChanged(name: string, value: string | null): void {
    const flock = this._flock;
    if (REBUILD_ATTRIBUTES.has(name)) {
      // A bad backend or preset keeps the running flock (its last good value), like any attribute.
      if (!flock && !this._starting) return; // read (and reported) when the flock starts
      const bad = rebuildValueError(name, value);
      if (bad) this._attributeError(name, value, bad);
      else if (value !== this._builtFrom.get(name)) this._rebuild();
      return;
    }
    if (name === 'paused' || name === 'motion') {
      if (name === 'motion') this._readMotion(flock !== null);
      else flagAttribute(this, 'paused', this._memory, (a, t, e) => this._attributeError(a, t, e));
      this._stillDrawn = false;
      this._updateRunning();
      return;
    }
    if (name === 'interactive' || name === 'bounds') {
      // interactive gives `pointer` its default; bounds="auto" is auto-bounds.
      if (!flock) return;
      if (name === 'interactive') {
        const before = this._memory.lastGood.get('interactive');
        const bad = booleanFromText(value ?? 'false') === undefined;
        flagAttribute(this, 'interactive', this._memory, (a, t, e) =>
          this._attributeError(a, t, e),
        );
        if (bad || before === this._memory.lastGood.get('interactive')) return;
      }
      const alias = name === 'interactive' ? 'pointer' : 'auto-bounds';
      if (name === 'bounds' && value !== null && value.trim() !== 'auto') {
        this._attributeError('bounds', value, new FlockError('bounds', value, '"auto"'));
        return;
      }
      if (!this.hasAttribute(alias)) {
        const a = BY_ATTRIBUTE.get(alias)!;
        this._apply(flock, a, null, true);
      }
      return;
    }
    const attr = BY_ATTRIBUTE.get(name);
    if (!attr || !flock) return; // read when the flock starts
    if (name === 'count' && value === null && !this.hasAttribute('preset')) {
      // Back to what an element without `count` runs (issue 31 item 5): the device's count.
      this._memory.lastGood.delete('count');
      this._memory.rejected.delete('count');
      void this._countRemoved(flock);
      return;
    }
    if (this._apply(flock, attr, value, true)) {
      if (attr.target === 'view') {
        this._debugViews();
      }
      for (const other of [...this._memory.rejected]) {
        const a = BY_ATTRIBUTE.get(other);
        if (a && this._apply(flock, a, this.getAttribute(other), false))
          this._memory.rejected.delete(other);
      }
      if (this._still()) {
        if (attr.target === 'params' && needsReinit([attr.name])) this._stillDrawn = false;
        this._updateRunning();
      }
    }
  }

  /** Sets one attribute's value on the flock; false (and 'error' when `report`) if rejected. */
  private _apply(
    flock: Flock,
    attr: SchemaAttribute,
    text: string | null,
    report: boolean,
  ): boolean {
    const value = text === null ? this._defaultOf(attr) : parseAttribute(attr.spec, text);
    try {
      // Text not in the attribute's format is named as such (not as the value it parsed to).
      const formatError = text === null ? null : attributeFormatError(attr, text);
      if (formatError) throw formatError;
      // (Under autoBounds the flock gives a new count its box: src/flock/flock.ts.)
      if (attr.target === 'params') flock.setParams({ [attr.name]: value });
      else (flock as unknown as ViewTarget).setView?.({ [attr.name]: value });
      this._memory.rejected.delete(attr.attribute);
      if (text === null) this._memory.lastGood.delete(attr.attribute);
      else this._memory.lastGood.set(attr.attribute, value);
      return true;
    } catch (e) {
      this._memory.rejected.add(attr.attribute);
      if (report) this._attributeError(attr.attribute, text, e);
      return false;
    }
  }

  /** An absent attribute's value: the element's own default (attributes.ts); a colour's null (not given). */
  private _defaultOf(attr: SchemaAttribute): unknown {
    return attr.spec.type === 'color' ? null : elementDefaultOf(this, attr, this._memory);
  }

  private _attributeError(attribute: string, text: string | null, e: unknown): void {
    const allowed = e instanceof FlockError ? e.allowed : '';
    const error =
      e instanceof Error ? e : new FlockError(attribute, text, allowed || 'a valid value');
    this._emit('error', { attribute, value: text, allowed, error });
  }

  /** Fires a `type` CustomEvent of `detail`: bubbling and composed, but 'error' (as <img>'s). */
  private _emit(type: string, detail: unknown, bubbles = type !== 'error'): void {
    this.dispatchEvent(new CustomEvent(type, { bubbles, composed: bubbles, detail }));
  }

  /** The createFlock options the attributes give; bad ones fire 'error' and are left out. */
  private _options(): ElementOptions {
    const options = optionsFromAttributes(this, this._memory, (attribute, text, e) =>
      this._attributeError(attribute, text, e),
    );
    this._readMotion(true);
    return options;
  }

  private _listen(): void {
    const onVisibility = () => this._updateRunning();
    document.addEventListener('visibilitychange', onVisibility);
    this._cleanups.push(() => document.removeEventListener('visibilitychange', onVisibility));

    if (typeof matchMedia === 'function') {
      const q = matchMedia('(prefers-reduced-motion: reduce)');
      const onMotion = () => {
        this._stillDrawn = false;
        this._updateRunning();
      };
      q.addEventListener('change', onMotion);
      this._motionQuery = q;
      this._cleanups.push(() => q.removeEventListener('change', onMotion));
    }

    if (typeof IntersectionObserver === 'function') {
      this._io = new IntersectionObserver(
        (entries) => {
          const e = entries[entries.length - 1];
          if (!e) return;
          this._near = e.isIntersecting;
          if (this._near && !this._flock && !this._starting) void this._start();
          this._updateRunning();
        },
        { rootMargin: NEAR_VIEWPORT },
      );
      this._io.observe(this);
      this._cleanups.push(() => this._io?.disconnect());
    } else {
      this._near = true;
      void this._start();
    }
  }

  private async _start(): Promise<void> {
    const generation = ++this._generation;
    const given = this._countSince();
    this._starting = true;
    this._failed = false;
    this._changedWhileStarting.length = 0;
    const ready = this._ready.settled ? (this._ready = deferred<Flock>()) : this._ready;
    this._memory.rejected.clear();
    const stage = this._stage!;
    let flock: Flock;
    let plan: CountPlan;
    let warmup = 0;
    const t0 = performance.now();
    let capped: string | undefined;
    let lead = () => {}; // ends this element's probe lead (followProbeLead), if it holds one
    // Nothing shows until the first frame (the warm-up flies unseen; the probe of a first visit
    // runs after it, on screen).
    stage.style.visibility = 'hidden';
    try {
      this._builtFrom = rebuildValues(this);
      const options = this._options();
      const { view, ...rest } = options;
      warmup = (view.warmup as number | undefined) ?? 0;
      if (!this.hasAttribute('warmup') && !this._memory.lastGood.has('warmup')) {
        // DESIGN section 7: 3 s in 2D, 2 s in 3D.
        warmup = defaultWarmupSeconds(validateParams(options.params ?? {}).dimensions);
      }
      capped = capForRung(options, fixedBoxOf(this), this._stage!);
      // The element flies the warm-up itself, after the count is known (the probe's count change
      // re-initialises); the flock records the value once it has.
      view.warmup = 0;
      if (this._countPlan({ ...options, params: { ...options.params } }).probe) {
        // The first element of a rung probes; the others wait for its answer (count-plan.ts).
        lead = await followProbeLead(probeLeadKey(options));
        if (generation !== this._generation) return lead();
      }
      plan = this._countPlan(options);
      // The density too, once the probe has measured (the flock refits the count on resize).
      view.density = 0;
      // The element draws reduced motion's still frame itself (_drawStill): its flock's loop
      // runs whenever the element starts it.
      const opts = { ...rest, view, motion: 'always' } as FlockOptions;
      flock = await createFlock(stage, opts);
    } catch (e) {
      lead();
      if (generation !== this._generation) return;
      stage.style.visibility = '';
      this._starting = false;
      this._failed = true;
      this._changedWhileStarting.length = 0; // the next change starts again from every attribute
      ready.reject(e);
      this._emit('error', { error: e });
      return;
    }
    if (generation !== this._generation) {
      flock.dispose(); // removed (or rebuilt) while it was starting
      return lead();
    }
    this._starting = false;
    this._flock = flock;
    // What changed while it was being created, in order: the last value of each wins.
    for (const name of this._changedWhileStarting.splice(0)) {
      if (this._flock !== flock) return; // a change rebuilt it
      this._attributeChanged(name, this.getAttribute(name));
    }
    this._warming = true;
    const current = () => generation === this._generation && flock === this._flock;
    for (const type of ['fallback', 'contextlost', 'contextrestored', 'error']) {
      flock.addEventListener(type, (ev) => this._emit(type, (ev as CustomEvent).detail));
    }
    const detail: StartDetail = {};
    if (capped) detail.capped = capped;
    /** The first frame: the stage shown and one frame drawn (the loop starts after the probe). */
    const show = () => {
      if (!current() || stage.style.visibility === '') return;
      stage.style.visibility = '';
      if (!this._still()) flock.render();
      detail.firstFrameMs = performance.now() - t0;
    };
    try {
      if (plan.probe) {
        // A revisit: the remembered capacity, no probe; a first visit measures after the first
        // frame (below).
        const known = await probeAndSetCount(flock, plan, stage, false, true, given);
        if (!current()) return;
        if (known.remembered) detail.remembered = known.remembered;
      }
      if (!this._still() && warmup > 0) {
        const w = warmupPlan(flock.params, warmup, flock.time);
        if (warmsUpBeforeFirstFrame(flock.params.start)) {
          // A uniform start is dust at t = 0: flown unseen first, within the wall bound.
          const r = await runWarmup(flock, w, {
            budgetMs: GpuFlockElement.warmupBudgetMs,
            now: () => performance.now(),
            yieldToPage: macrotask,
            keepGoing: current,
          });
          if (!current()) return;
          detail.warmup = { ...r, seconds: flock.time };
        } else {
          // A formed start is drawn as it is, before any step (issue 27: boids within 1 s): the
          // warm-up is cut by the first-frame deadline at 0 s and shown as reached.
          const r = { steps: 0, ms: 0, cut: w.steps > 0, stopped: false };
          detail.warmup = { ...r, seconds: flock.time };
        }
      }
      flock.setView({ warmup } as Record<string, unknown>);
      if (plan.probe && !detail.remembered) {
        // A first visit: shown at the start count, then measured on screen (count changes keep
        // the flock), one probe per device and rung for the whole page.
        if (!this._still()) show();
        const measured = await probeAndSetCount(flock, plan, stage, true, false, given);
        if (!current()) return;
        if (measured.probe) detail.probe = measured.probe;
        if (measured.shared) detail.sharedProbe = true;
        if (measured.remembered) detail.remembered = measured.remembered;
      }
    } catch (e) {
      if (!current()) return;
      this._emit('error', { error: e });
    } finally {
      lead();
      if (current()) {
        this._warming = false;
        if (this._still()) stage.style.visibility = '';
        else show();
      }
    }
    if (plan.probe && given() && current()) this._countAgain();
    this._debugViews();
    this._stillDrawn = false;
    if (!this._still()) flock.render();
    this._updateRunning();
    if (plan.probe) this._correctLater(flock, plan, () => current() && !given());
    ready.resolve(flock);
    this._emit('ready', { flock, ...detail });
  }

  /** How the start picks the count (count-plan.ts); sets the start count in `options`. */
  private _countPlan(options: ElementOptions): CountPlan {
    return elementCountPlan(this, this._memory, options, this._stage!);
  }

  /** A check that `count` changed since: then a probe's answer is not set (the page's count wins). */
  private _countSince(): () => boolean {
    const sets = this._countSets;
    return () => this._countSets !== sets;
  }

  /** The page's count set again after a probe (whose steps may have replaced it). */
  private _countAgain(): void {
    if (this.hasAttribute('count')) this._attributeChanged('count', this.getAttribute('count'));
  }

  /**
   * `count` removed from a running element: the count an element without one runs (the
   * remembered capacity of this device, or the page's shared probe), set keeping the flock
   * (resizeCount), its box the element's (auto bounds, or scaled to keep the density).
   */
  private async _countRemoved(flock: Flock): Promise<void> {
    const plan = removedCountPlan(flock, fixedBoxOf(this));
    const given = this._countSince();
    try {
      await probeAndSetCount(flock, plan, this._stage!, true, false, given);
      if (given() && flock === this._flock) this._countAgain();
    } catch (e) {
      if (flock !== this._flock) return;
      this._attributeError('count', null, e);
    }
  }

  /**
   * A remembered or probed count checked against the frame rate the loop reaches
   * (correctAfterMs after the first frame, while it runs on screen): under 24 fps the memory is
   * lowered (correctCapacity) and the count shrunk in place (resizeCount).
   */
  private _correctLater(flock: Flock, plan: CountPlan, current: () => boolean): void {
    const keep = () => current() && flock.running && !this._still();
    this._cleanups.push(
      correctLater(flock, plan, this._stage!, GpuFlockElement.correctAfterMs, keep),
    );
  }

  /** True when reduced motion applies: one still frame instead of the loop. */
  private _still(): boolean {
    return (this._motionQuery?.matches ?? false) && this._motion !== 'always';
  }

  /** Reads `motion`: `auto` (absent) or `always`; anything else fires 'error' when `report` and keeps the last good value. */
  private _readMotion(report: boolean): void {
    const text = this.getAttribute('motion');
    const t = text === null ? 'auto' : text.trim();
    if (t === 'auto' || t === 'always') this._motion = t;
    else if (report)
      this._attributeError(
        'motion',
        text,
        new FlockError('motion', text, 'one of "auto", "always"'),
      );
  }

  /** Runs the loop while connected, near the viewport, in a visible tab and not paused. */
  private _updateRunning(): void {
    const flock = this._flock;
    if (!flock || this._warming) return;
    const visible = this.isConnected && this._near && document.visibilityState !== 'hidden';
    if (this._still()) {
      flock.stop();
      if (visible && !this._stillDrawn) void this._drawStill(flock);
      return;
    }
    if (visible && !this._paused) flock.start();
    else flock.stop();
  }

  /**
   * Reduced motion: flies the flock unseen (canvas hidden, the stage showing the background)
   * until stillPlan's simulated time or the wall-clock bound, in chunks with a wait for the device
   * between them, with steps of the plan's timeStep (params.timeStep is restored after), then
   * draws one frame and fires 'still'. Stops early, drawing nothing, when reduced motion no
   * longer applies or the flock was replaced.
   */
  private async _drawStill(flock: Flock): Promise<void> {
    if (this._stillBusy) {
      this._stillAgain = true;
      return;
    }
    this._stillBusy = true;
    this._stillAgain = false;
    const plan = stillPlan(flock.params, flock.time);
    const canvas = flock.canvas;
    const stage = this._stage;
    canvas.style.visibility = 'hidden';
    if (stage) stage.style.background = flock.view.background;
    const t0 = performance.now();
    let done = 0;
    let cut = false;
    let current = () => flock === this._flock && this._still() && !this._stillAgain;
    try {
      const r = await runWarmup(flock, plan, {
        budgetMs: GpuFlockElement.stillBudgetMs,
        now: () => performance.now(),
        keepGoing: current,
        firstChunk: STILL_FIRST_CHUNK_STEPS,
      });
      done = r.steps;
      cut = r.cut;
    } catch (e) {
      current = () => false;
      if (flock === this._flock) {
        this._emit('error', { error: e });
      }
    } finally {
      canvas.style.visibility = '';
      if (stage) stage.style.background = '';
      this._stillBusy = false;
    }
    if (!current()) {
      if (this._stillAgain && flock === this._flock) this._updateRunning(); // a new plan
      return;
    }
    flock.render();
    this._stillDrawn = true;
    const detail: StillDetail = {
      steps: done,
      seconds: flock.time,
      ms: performance.now() - t0,
      cut,
    };
    this._emit('still', detail);
  }

  /** backend or disable changed: a new flock from the attributes (a canvas keeps its context type). */
  private _rebuild(): void {
    this._warming = false;
    // The debug layer draws one flock: it goes with it, and _debugViews binds a new one to the next.
    this._debug?.dispose();
    this._debug = null;
    this._flock?.dispose();
    this._flock = null;
    this._generation++;
    this._starting = false;
    this._failed = false;
    if (this._ready.settled) this._ready = deferred<Flock>();
    if (this.isConnected && this._near) void this._start();
  }

  /** Removed from the page: dispose the flock, stop observing; `ready` waits for the next start. */
  private _teardown(): void {
    this._generation++;
    this._starting = false;
    this._failed = false;
    this._changedWhileStarting.length = 0;
    for (const c of this._cleanups.splice(0)) c();
    this._warming = false;
    this._io = null;
    this._motionQuery = null;
    this._near = false;
    this._debug?.dispose();
    this._debug = null;
    this._flock?.dispose();
    this._flock = null;
    if (this._ready.settled) this._ready = deferred<Flock>();
  }

  /**
   * The debug views (show-grid, show-velocities, picked-boid): src/debug-layer.ts over the
   * flock, loaded (its own chunk) the first time one is on.
   */
  private _debugViews(): void {
    const flock = this._flock;
    if (!flock || this._debug || !this._stage) return;
    const v = flock.view as { showGrid?: boolean; showVelocities?: boolean; pickedBoid?: number };
    if (!v.showGrid && !v.showVelocities && !((v.pickedBoid ?? -1) >= 0)) return;
    const generation = this._generation;
    // A placeholder while its chunk loads (one load at a time).
    const loading = (this._debug = { dispose() {} });
    void import('../debug-layer').then((m) => {
      if (this._debug !== loading) return; // rebuilt or removed meanwhile (it was reset)
      if (generation !== this._generation || this._flock !== flock) {
        this._debug = null;
        return;
      }
      this._debug = new m.DebugLayer(flock, this._stage!);
    });
  }
}

/** Defines <gpu-flock> once (a second copy of the library on the page leaves the first). */
export function defineGpuFlockElement(name = 'gpu-flock'): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, GpuFlockElement);
}

declare global {
  interface HTMLElementTagNameMap {
    'gpu-flock': GpuFlockElement;
  }
}
