/**
 * The events a <gpu-flock> element fires (all CustomEvents that bubble and are composed), for
 * the framework declarations (react.d.ts, vue.d.ts, svelte.d.ts) and addEventListener callers.
 * Types only: nothing here runs.
 */
import type { BackendKind } from '../backend';
import type { Flock, RecoveryDetail } from '../flock';
import type { StillDetail } from './gpu-flock-element';

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
  /** A rejected attribute, a start that failed, or an error of the running flock. */
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
