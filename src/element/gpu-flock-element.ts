/**
 * <gpu-flock>: the custom element (DESIGN.md section 4). One line embeds a flock:
 *
 *   <script type="module" src=".../gpu-flock.element.js"></script>
 *   <gpu-flock count="20000" boundary="wrap" interactive></gpu-flock>
 *
 * Attributes are the schemas' names in kebab-case (attributes.ts), plus backend, disable, paused,
 * interactive and motion. Properties: `flock` (the Flock, or null before it starts and after
 * removal) and `ready` (a promise of the Flock). The Flock's events ('fallback', 'contextlost',
 * 'contextrestored', 'error') bubble from the element, and 'ready' fires once a flock runs.
 * A bad attribute fires 'error' (detail: attribute, value, allowed, error) and the flock keeps
 * its last good value.
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
import { createFlock, DISABLE_NAMES, FlockError } from '../index';
import type { BackendChoice, Flock, FlockOptions } from '../index';
import { needsReinit, validateParams, type FlockParams } from '../core/params';
import { shownList } from '../core/errors';
import { validateView } from '../core/view';
import { isPresetName, presetOptions, rescaleForCount, PRESET_NAMES } from '../core/presets';
import { autoBoundsBox } from '../core/page';
import {
  macrotask,
  runWarmup,
  warmupPlan,
  WARMUP_BUDGET_MS,
  type WarmupResult,
} from '../core/warmup';
import { COUNT_LADDER, probeCount, type CountProbe } from '../app/count-probe';
import {
  ELEMENT_ATTRIBUTES,
  ELEMENT_VIEW_DEFAULTS,
  parseAttribute,
  schemaAttributes,
  type SchemaAttribute,
} from './attributes';
import { VIEW_SCHEMA_ENTRIES, type ViewTarget } from './view-support';
import { STILL_BUDGET_MS, stillPlan } from './still';

/** What the 'still' event carries: the warm-up run before the reduced-motion frame. */
export interface StillDetail {
  /** Steps taken unseen (of StillPlan.timeStep seconds each). */
  steps: number;
  /** The flock's simulated time at the still frame, s. */
  seconds: number;
  /** Wall-clock time of the warm-up, ms. */
  ms: number;
  /** True when the wall-clock bound cut the plan short (the frame shows the state reached). */
  cut: boolean;
}
/** What the 'ready' event carries beside the flock: how the element started it. */
export interface StartDetail {
  /** The count probe's measurement (no count attribute, or a density): what this device holds at 30 fps. */
  probe?: CountProbe;
  /** The warm-up flown unseen before the first frame (absent under reduced motion: see 'still'). */
  warmup?: WarmupResult & { seconds: number };
}
/** Steps per chunk before the pace is known (the bound is checked between chunks). */
const STILL_FIRST_CHUNK = 8;
/**
 * The count a probed flock starts at (before the probe measures it): small enough that a frame
 * costs little on any device (a software GPU takes tens of ms), so the probe never steps a
 * large count on a device that cannot hold it.
 */
export const PROBE_START_COUNT = 2048;
/** The element starts its flock once it is this close to the viewport. */
const NEAR_VIEWPORT = '200px';

const BACKENDS: readonly BackendChoice[] = ['auto', 'webgpu', 'webgl2', 'webgl2-tf', 'cpu'];

const CSS = `
:host { display: block; position: relative; width: 300px; height: 150px; overflow: hidden; }
:host([hidden]) { display: none; }
.stage { position: absolute; inset: 0; }
.gpu-flock-debug { position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none; }
.gpu-flock-debug[hidden] { display: none; }
`;

let sheet: CSSStyleSheet | null = null;
function styleSheet(): CSSStyleSheet | null {
  if (sheet) return sheet;
  try {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  } catch {
    sheet = null; // no constructable stylesheets (very old browsers): see connectedCallback
  }
  return sheet;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(v: T): void;
  reject(e: unknown): void;
  settled: boolean;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be listening: a failed start is reported by the 'error' event, not as an
  // unhandled rejection. Callers who await `ready` still see the rejection.
  promise.catch(() => undefined);
  const d: Deferred<T> = {
    promise,
    settled: false,
    resolve: (v) => {
      d.settled = true;
      resolve(v);
    },
    reject: (e) => {
      d.settled = true;
      reject(e);
    },
  };
  return d;
}

const SCHEMA_ATTRS: readonly SchemaAttribute[] = schemaAttributes(VIEW_SCHEMA_ENTRIES);
const BY_ATTRIBUTE = new Map(SCHEMA_ATTRS.map((a) => [a.attribute, a]));
const REBUILD_ATTRIBUTES = new Set(['backend', 'disable', 'preset']);

/** The FlockError of a `backend` or `preset` value no flock can start with; null when valid. */
/** The names of a `disable` attribute (comma- or space-separated). */
function disableList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The error of a bad backend, disable or preset value (these rebuild the flock), or null. */
function rebuildValueError(name: string, value: string | null): FlockError | null {
  const v = value?.trim() ?? '';
  if (name === 'backend' && value !== null && !BACKENDS.includes(v as BackendChoice))
    return new FlockError('backend', value, `one of ${BACKENDS.map((x) => `"${x}"`).join(', ')}`);
  if (name === 'disable' && value !== null) {
    const unknown = disableList(value).filter(
      (d) => !(DISABLE_NAMES as readonly string[]).includes(d),
    );
    if (unknown.length > 0)
      return new FlockError(
        'disable',
        value,
        `a comma list of ${DISABLE_NAMES.join(', ')}`,
        `unknown: ${shownList(unknown)}`,
      );
  }
  if (name === 'preset' && v !== '' && !isPresetName(v))
    return new FlockError(
      'preset',
      value,
      `one of ${PRESET_NAMES.map((n) => `"${n}"`).join(', ')}`,
    );
  return null;
}

// In Node (server rendering) there is no HTMLElement: the module still loads, nothing is defined.
const Base: typeof HTMLElement =
  typeof HTMLElement === 'undefined' ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

/**
 * `<gpu-flock>`: a flock in a custom element. Every parameter and view option is an attribute
 * (kebab case), plus `backend`, `disable`, `paused`, `interactive`, `preset` and `motion`; the
 * flock's events bubble from the element, `ready` fires when it starts.
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

  /** Every attribute the element reacts to (custom elements API). */
  static get observedAttributes(): string[] {
    return [...SCHEMA_ATTRS.map((a) => a.attribute), ...ELEMENT_ATTRIBUTES.map((a) => a.attribute)];
  }

  private _flock: Flock | null = null;
  private _ready: Deferred<Flock> = deferred<Flock>();
  /** Bumped by every start and teardown: a start that finishes late sees it changed and disposes. */
  private _generation = 0;
  private _starting = false;
  /** The last start failed: any attribute change starts again (issue 21, reproduction 4). */
  private _failed = false;
  /**
   * Attributes changed while the flock was being created (after their values were read), in the
   * order of their last change: applied once it is up, so the last value wins (reproduction 3).
   */
  private readonly _changedWhileStarting: string[] = [];
  private _near = false;
  private _io: IntersectionObserver | null = null;
  private _motionQuery: MediaQueryList | null = null;
  private _stage: HTMLDivElement | null = null;
  /** Schema attributes whose last value was rejected: retried after every accepted change. */
  private _debug: { dispose(): void } | null = null;
  private readonly _rejected = new Set<string>();
  /**
   * The last value of each schema attribute that a flock accepted: a flock started again (the
   * element re-inserted, a rebuild) with that attribute now invalid keeps it, as a running one does.
   */
  private readonly _lastGood = new Map<string, unknown>();
  /** The last good `disable` list the flock was built with (a bad value keeps it). */
  private _goodDisable: FlockOptions['disable'] | undefined;
  /** The last good `motion` value (a bad one fires 'error' and keeps it). */
  private _motion: 'auto' | 'always' = 'auto';
  /** The still frame of reduced motion is drawn (reset when a re-initialising change comes). */
  private _stillDrawn = false;
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
      else this._rebuild();
      return;
    }
    if (name === 'paused' || name === 'motion') {
      if (name === 'motion') this._readMotion(flock !== null);
      this._stillDrawn = false;
      this._updateRunning();
      return;
    }
    if (name === 'interactive' || name === 'bounds') {
      // interactive gives `pointer` its default; bounds="auto" is auto-bounds.
      if (!flock) return;
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
    if (this._apply(flock, attr, value, true)) {
      if (attr.target === 'view') {
        this._debugViews();
      }
      for (const other of [...this._rejected]) {
        const a = BY_ATTRIBUTE.get(other);
        if (a && this._apply(flock, a, this.getAttribute(other), false))
          this._rejected.delete(other);
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
      // (Under autoBounds the flock gives a new count its box: src/flock/flock.ts.)
      if (attr.target === 'params') flock.setParams({ [attr.name]: value });
      else (flock as unknown as ViewTarget).setView?.({ [attr.name]: value });
      this._rejected.delete(attr.attribute);
      if (text === null) this._lastGood.delete(attr.attribute);
      else this._lastGood.set(attr.attribute, value);
      return true;
    } catch (e) {
      this._rejected.add(attr.attribute);
      if (report) this._attributeError(attr.attribute, text, e);
      return false;
    }
  }

  /** An absent attribute's value: the element's own default where it has one (attributes.ts). */
  private _defaultOf(attr: SchemaAttribute): unknown {
    if (attr.target === 'view') {
      if (attr.name === 'pointer') return this.hasAttribute('interactive') ? 'element' : 'off';
      if (attr.name === 'autoBounds') return this.getAttribute('bounds')?.trim() === 'auto';
      if (attr.name in ELEMENT_VIEW_DEFAULTS) return ELEMENT_VIEW_DEFAULTS[attr.name];
    }
    return defaultOf(attr);
  }

  private _attributeError(attribute: string, text: string | null, e: unknown): void {
    const allowed = e instanceof FlockError ? e.allowed : '';
    const error =
      e instanceof Error ? e : new FlockError(attribute, text, allowed || 'a valid value');
    this.dispatchEvent(
      new CustomEvent('error', {
        bubbles: true,
        composed: true,
        detail: { attribute, value: text, allowed, error },
      }),
    );
  }

  /** The createFlock options the attributes give; bad ones fire 'error' and are left out. */
  private _options(): FlockOptions & { view: Record<string, unknown> } {
    const options: FlockOptions & { view: Record<string, unknown> } = {
      view: {},
      autoStart: false,
    };
    const backend = this.getAttribute('backend');
    if (backend !== null) {
      const b = backend.trim() as BackendChoice;
      if (BACKENDS.includes(b)) options.backend = b;
      else
        this._attributeError(
          'backend',
          backend,
          new FlockError('backend', backend, `one of ${BACKENDS.map((x) => `"${x}"`).join(', ')}`),
        );
    }
    const disable = this.getAttribute('disable');
    if (disable !== null) {
      const bad = rebuildValueError('disable', disable);
      if (bad) {
        this._attributeError('disable', disable, bad);
        // The last good list when there is one (a bad value keeps it); else the known names.
        options.disable =
          this._goodDisable ??
          disableList(disable).filter((d) => (DISABLE_NAMES as readonly string[]).includes(d));
      } else {
        options.disable = disableList(disable) as FlockOptions['disable'];
        this._goodDisable = options.disable;
      }
    } else {
      this._goodDisable = undefined;
    }
    // A preset (src/core/presets.ts) gives the starting parameters and view; attributes override.
    const params: Record<string, unknown> = {};
    const presetText = this.getAttribute('preset');
    let preset: ReturnType<typeof presetOptions> | null = null;
    if (presetText !== null && presetText.trim() !== '') {
      if (isPresetName(presetText.trim())) {
        preset = presetOptions(presetText.trim());
        Object.assign(params, preset.params);
        const viewNames = new Set(VIEW_SCHEMA_ENTRIES.map((e) => e.name));
        for (const [k, v] of Object.entries(preset.view)) {
          if (viewNames.has(k)) options.view[k] = v;
        }
      } else {
        const allowed = `one of ${PRESET_NAMES.map((n) => `"${n}"`).join(', ')}`;
        this._attributeError('preset', presetText, new FlockError('preset', presetText, allowed));
      }
    }
    // The element's own defaults (warmup 2 s; pointer from `interactive`; bounds="auto").
    for (const name of ['warmup', 'pointer', 'autoBounds']) {
      const a = SCHEMA_ATTRS.find((x) => x.target === 'view' && x.name === name);
      if (a) options.view[name] = this._defaultOf(a);
    }
    const bounds = this.getAttribute('bounds');
    if (bounds !== null && bounds.trim() !== 'auto')
      this._attributeError('bounds', bounds, new FlockError('bounds', bounds, '"auto"'));
    // Schema attributes: each applied over the ones accepted so far; one that fails only because
    // of another (min-speed above the default max-speed, with a larger max-speed given) is retried.
    let pending = SCHEMA_ATTRS.filter((a) => this.hasAttribute(a.attribute));
    const failures = new Map<string, unknown>();
    for (let progress = true; progress && pending.length > 0;) {
      progress = false;
      const next: SchemaAttribute[] = [];
      for (const a of pending) {
        const value = parseAttribute(a.spec, this.getAttribute(a.attribute) ?? '');
        const err =
          a.target === 'params'
            ? checkParams({ ...params, [a.name]: value })
            : checkView({ ...options.view, [a.name]: value });
        if (err === null) {
          if (a.target === 'params') params[a.name] = value;
          else options.view[a.name] = value;
          this._lastGood.set(a.attribute, value);
          failures.delete(a.attribute);
          progress = true;
        } else {
          failures.set(a.attribute, err);
          next.push(a);
        }
      }
      pending = next;
    }
    for (const a of pending) {
      this._rejected.add(a.attribute);
      this._attributeError(a.attribute, this.getAttribute(a.attribute), failures.get(a.attribute));
      // The value an earlier flock of this element accepted, if it still fits with the rest.
      if (!this._lastGood.has(a.attribute)) continue;
      const last = this._lastGood.get(a.attribute);
      const err =
        a.target === 'params'
          ? checkParams({ ...params, [a.name]: last })
          : checkView({ ...options.view, [a.name]: last });
      if (err !== null) continue;
      if (a.target === 'params') params[a.name] = last;
      else options.view[a.name] = last;
    }
    this._readMotion(true);
    // A count given beside a preset moves the preset's box with it (same density) unless the
    // bounds are given too.
    if (
      preset &&
      this.hasAttribute('count') &&
      !this.hasAttribute('bounds-min') &&
      !this.hasAttribute('bounds-max') &&
      params.count !== preset.params.count
    ) {
      Object.assign(params, rescaleForCount(validateParams(preset.params), params.count as number));
    }
    options.params = params;
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
    this._starting = true;
    this._failed = false;
    this._changedWhileStarting.length = 0;
    const ready = this._ready.settled ? (this._ready = deferred<Flock>()) : this._ready;
    this._rejected.clear();
    const stage = this._stage!;
    let flock: Flock;
    let plan: CountPlan;
    let warmup = 0;
    // Nothing shows until the first frame of the formed flock (the probe and the warm-up draw
    // unseen).
    stage.style.visibility = 'hidden';
    try {
      const options = this._options();
      const { view, ...rest } = options;
      warmup = (view.warmup as number | undefined) ?? 0;
      // The element flies the warm-up itself, after the count is known (the probe's count change
      // re-initialises); the flock records the value once it has.
      view.warmup = 0;
      plan = this._countPlan(options);
      // The density too, once the probe has measured (the flock refits the count on resize).
      view.density = 0;
      const opts = { ...rest, view } as FlockOptions;
      flock = await createFlock(stage, opts);
    } catch (e) {
      if (generation !== this._generation) return;
      stage.style.visibility = '';
      this._starting = false;
      this._failed = true;
      this._changedWhileStarting.length = 0; // the next change starts again from every attribute
      ready.reject(e);
      this.dispatchEvent(
        new CustomEvent('error', { bubbles: true, composed: true, detail: { error: e } }),
      );
      return;
    }
    if (generation !== this._generation) {
      flock.dispose(); // removed (or rebuilt) while it was starting
      return;
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
      flock.addEventListener(type, (ev) => {
        this.dispatchEvent(
          new CustomEvent(type, {
            bubbles: true,
            composed: true,
            detail: (ev as CustomEvent).detail,
          }),
        );
      });
    }
    const detail: StartDetail = {};
    try {
      if (plan.probe) {
        detail.probe = await this._probe(flock, plan);
        if (!current()) return;
      }
      if (!this._still() && warmup > 0) {
        const w = warmupPlan(flock.params, warmup, flock.time);
        const r = await runWarmup(flock, w, {
          budgetMs: GpuFlockElement.warmupBudgetMs,
          now: () => performance.now(),
          yieldToPage: macrotask,
          keepGoing: current,
        });
        if (!current()) return;
        detail.warmup = { ...r, seconds: flock.time };
      }
      flock.setView({ warmup } as Record<string, unknown>);
    } catch (e) {
      if (!current()) return;
      this.dispatchEvent(
        new CustomEvent('error', { bubbles: true, composed: true, detail: { error: e } }),
      );
    } finally {
      if (current()) {
        this._warming = false;
        stage.style.visibility = '';
      }
    }
    this._debugViews();
    this._stillDrawn = false;
    if (!this._still()) flock.render();
    this._updateRunning();
    ready.resolve(flock);
    this.dispatchEvent(
      new CustomEvent('ready', { bubbles: true, composed: true, detail: { flock, ...detail } }),
    );
  }

  /**
   * How the start picks the count: with no `count` attribute, or with a `density`, a probe of this
   * device picks it (what it holds at 30 fps, src/app/count-probe.ts), capped by `count`, the
   * preset's count, or the probe's ladder; a density then takes its count from the area up to
   * that. A probed flock starts at PROBE_START_COUNT (its box scaled to keep the density, unless
   * the box is given). Under autoBounds the box is the element's shape at every count.
   */
  private _countPlan(options: FlockOptions & { view: Record<string, unknown> }): CountPlan {
    const params = (options.params ?? {}) as Partial<FlockParams>;
    const density = (options.view.density as number | undefined) ?? 0;
    const autoBounds = options.view.autoBounds === true;
    // A count attribute that was rejected counts when an earlier flock accepted one (kept).
    const hasCount =
      this.hasAttribute('count') && (!this._rejected.has('count') || this._lastGood.has('count'));
    const fixedBox = this.hasAttribute('bounds-min') || this.hasAttribute('bounds-max');
    const full = validateParams(params);
    const plan: CountPlan = {
      probe: !hasCount || density > 0,
      cap: hasCount || this.hasAttribute('preset') ? full.count : COUNT_LADDER.at(-1)!,
      density,
      autoBounds,
      scaleBox: !fixedBox && !autoBounds,
    };
    const count = plan.probe ? Math.min(PROBE_START_COUNT, plan.cap) : full.count;
    Object.assign(params, this._countChange(full, count, plan));
    options.params = params;
    return plan;
  }

  /** The params of a new count under `plan`: the count, and the box that goes with it. */
  private _countChange(p: FlockParams, count: number, plan: CountPlan): Partial<FlockParams> {
    if (plan.autoBounds) {
      const s = this._stage!;
      return {
        count,
        ...autoBoundsBox(count, p.dimensions, s.clientWidth, s.clientHeight, p.perceptionRadius),
      };
    }
    if (plan.scaleBox && count !== p.count) return rescaleForCount(p, count);
    return { count };
  }

  /** The probe, then the count of the plan (a density's, from the element's area). */
  private async _probe(flock: Flock, plan: CountPlan): Promise<CountProbe> {
    const setCount = (count: number) => {
      void flock.setParams(this._countChange(flock.params, count, plan));
    };
    const { reduce: _, ...probe } = await probeCount(flock, () => true, setCount, 30, 3, plan.cap);
    if (probe.count !== flock.params.count) setCount(probe.count);
    // The flock's density takes the count from the area up to the probe's (and refits on resize).
    if (plan.density > 0) flock.setView({ density: plan.density });
    return { ...probe, count: flock.params.count };
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
    if (visible && !this.hasAttribute('paused')) flock.start();
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
        firstChunk: STILL_FIRST_CHUNK,
      });
      done = r.steps;
      cut = r.cut;
    } catch (e) {
      current = () => false;
      if (flock === this._flock) {
        this.dispatchEvent(
          new CustomEvent('error', { bubbles: true, composed: true, detail: { error: e } }),
        );
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
    this.dispatchEvent(new CustomEvent('still', { bubbles: true, composed: true, detail }));
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

/** How an element's start picks its count (GpuFlockElement._countPlan). */
interface CountPlan {
  /** Measure the device (no count attribute, or a density). */
  probe: boolean;
  /** The most boids: the count attribute, the preset's count, or the probe's largest. */
  cap: number;
  /** view.density (0: off). */
  density: number;
  autoBounds: boolean;
  /** A count change scales the box (same density): the box is neither given nor automatic. */
  scaleBox: boolean;
}

function defaultOf(attr: SchemaAttribute): unknown {
  const d = attr.spec.default;
  return Array.isArray(d) ? [...(d as unknown[])] : d;
}

/** null when `view` validates over the defaults, else the error. */
function checkView(view: Record<string, unknown>): unknown {
  try {
    validateView(view);
    return null;
  } catch (e) {
    return e;
  }
}

/** null when `params` validate over the defaults, else the error. */
function checkParams(params: Record<string, unknown>): unknown {
  try {
    validateParams(params);
    return null;
  } catch (e) {
    return e;
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
