/**
 * Rows of a texture layout that hold n elements: its own module, without imports at run time, so
 * the readback (and the capability probe that uses it) load no program or shader code.
 */
import type { TexLayout } from './textures';

/** Rows of a layout that hold elements [0, n). */
export function rowsFor(layout: TexLayout, n: number): number {
  return Math.min(layout.height, Math.max(1, Math.ceil(n / layout.width)));
}
