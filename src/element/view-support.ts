/**
 * The view options' side of the element: the view schema's entries (attributes like
 * `color-mode`, `background`, `fit`) and the Flock method that takes them.
 */
import { VIEW_SCHEMA } from '../core/view';
import type { SchemaEntry } from './attributes';

/** The view schema as the element reads it (src/core/view.ts). */
export const VIEW_SCHEMA_ENTRIES: readonly SchemaEntry[] = VIEW_SCHEMA;

/** A Flock that takes view options. */
export interface ViewTarget {
  setView?(partial: Record<string, unknown>): void;
}
