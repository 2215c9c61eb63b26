/**
 * Small constants and helpers that the reference step, the bitonic network and the backends share.
 * They live in a module of their own so that a backend's chunk that needs one of them does not
 * load the whole module that used to define it (reference.ts, bitonic.ts) on every page.
 */

/** Two boids closer than this (world units) ignore each other: no division by ~0. */
export const EPS = 1e-3;
/** EPS², world units². */
export const EPS2 = EPS * EPS;

/** The smallest power of two >= n (n >= 1). */
export function nextPow2(n: number): number {
  let m = 1;
  while (m < n) m *= 2;
  return m;
}
