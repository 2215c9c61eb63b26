/**
 * The events a <gpu-flock> element fires, for the framework declarations (react.d.ts, vue.d.ts,
 * svelte.d.ts) and addEventListener callers. All are CustomEvents that bubble and are composed,
 * but 'error': as <img>'s 'error', it neither bubbles nor is composed, so window.onerror and
 * `window.addEventListener('error', ...)` (what error trackers hook) never get it; listen on the
 * element. The others keep bubbling: no global handler listens for their names.
 * Types only: nothing here runs.
 */
import type { BackendKind } from '../backend';
import type { Flock, RecoveryDetail } from '../flock';
import type { CountProbe } from '../count-probe';
import type { RememberedCapacity } from '../capacity-memory';
import type { WarmupResult } from '../core/warmup-runner';
import type { GpuFlockElement } from './gpu-flock-element';

/**
 * The detail of 'error': `error` always (a FlockError for a bad attribute; whatever stopped a
 * start or a running flock otherwise); `attribute`, `value` (the text written, null when
 * removed) and `allowed` when an attribute was rejected (the flock keeps its last good value).
 */
export interface GpuFlockErrorDetail {
  /** What went wrong: a FlockError for a bad attribute. */
  error: unknown;
  /** The rejected attribute's name. */
  attribute?: string;
  /** The text written (null when removed). */
  value?: string | null;
  /** What the attribute allows, in words. */
  allowed?: string;
}

/** Event name -> event, as HTMLElementEventMap lists the built-in ones. */
export interface GpuFlockEventMap {
  /** A flock runs (after every start: first insertion, re-insertion, a backend/disable/preset change). */
  ready: CustomEvent<{
    /** The flock that now runs. */
    flock: Flock;
  }>;
  /**
   * A rejected attribute, a start that failed, or an error of the running flock. It does not
   * bubble (as `<img>`'s 'error'; window's error handlers never get it): listen on the element.
   */
  error: CustomEvent<GpuFlockErrorDetail>;
  /** The flock moved to the next rung of the ladder. */
  fallback: CustomEvent<
    RecoveryDetail & {
      /** The rung that failed. */
      from: BackendKind;
      /** The rung now running. */
      to: BackendKind;
      /** Why it moved. */
      reason?: string;
    }
  >;
  /** A WebGL context was lost; calls wait for it to come back. */
  contextlost: CustomEvent<{
    /** Why the context was lost, as the browser said. */
    reason: string;
  }>;
  /** The context is back with the state replayed. */
  contextrestored: CustomEvent<RecoveryDetail>;
  /** Reduced motion: the one still frame is drawn. */
  still: CustomEvent<StillDetail>;
}

/**
 * addEventListener's overloads (O: AddEventListenerOptions) and removeEventListener's (O:
 * EventListenerOptions) on a `<gpu-flock>` element, as lib.dom types its own elements
 * (HTMLVideoElementEventMap): GpuFlockEventMap's first, so 'error' is its CustomEvent, not
 * HTMLElementEventMap's ErrorEvent; other names fall back to HTMLElement's overloads.
 */
export interface GpuFlockListenerMethod<O> {
  /** One of the element's events (GpuFlockEventMap): `ready`'s listener gets `e.detail.flock`. */
  <K extends keyof GpuFlockEventMap>(
    type: K,
    listener: (this: GpuFlockElement, ev: GpuFlockEventMap[K]) => unknown,
    options?: boolean | O,
  ): void;
  /** A built-in event of HTMLElement ('click', ...), typed as lib.dom types it. */
  <K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: GpuFlockElement, ev: HTMLElementEventMap[K]) => unknown,
    options?: boolean | O,
  ): void;
  /** Any other event name: an Event. */
  (type: string, listener: EventListenerOrEventListenerObject, options?: boolean | O): void;
}

/** HTMLElement whose listeners know the element's events; the element class extends it. */
export interface GpuFlockEventTarget extends HTMLElement {
  /** `el.addEventListener('ready', (e) => e.detail.flock)`: typed by GpuFlockEventMap. */
  addEventListener: GpuFlockListenerMethod<AddEventListenerOptions>;
  /** Removes a listener added with addEventListener. */
  removeEventListener: GpuFlockListenerMethod<EventListenerOptions>;
}

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
  /**
   * The count probe's measurement (no count attribute, or a density, on a first visit): what this
   * device holds at 30 fps. It runs after the first frame, on screen (count changes keep the
   * flock: added boids join next to flying ones).
   */
  probe?: CountProbe;
  /** The probe was another element's of this page (same device, rung and dimensions). */
  sharedProbe?: boolean;
  /** A revisit: the capacity remembered for this device, rung and dimensions (no probe). */
  remembered?: RememberedCapacity;
  /** ms from the start (connection) to the first frame drawn. */
  firstFrameMs?: number;
  /**
   * An explicit rung's count cap applied to the count asked for (`backend="cpu" count="20000"`:
   * "count capped from 20000 to 4096, the cpu backend's limit"), as `auto` does.
   */
  capped?: string;
  /** The warm-up flown unseen before the first frame (absent under reduced motion: see 'still'). */
  warmup?: WarmupResult & { seconds: number };
}
