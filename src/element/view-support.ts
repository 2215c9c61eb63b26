/**
 * The view options' side of the element: the view schema's entries (attributes like
 * `color-mode`, `background`, `fit`) and the Flock method that takes them.
 */
import type { SchemaEntry } from './attributes';

/** The view schema as the element reads it (empty until the view schema lands in src/core/view.ts). */
export const VIEW_SCHEMA_ENTRIES: readonly SchemaEntry[] = [];

/** A Flock that takes view options. */
export interface ViewTarget {
  setView?(partial: Record<string, unknown>): void;
}
