/**
 * Which code a steer pipeline contains (steer.wgsl's `TERMS` override): each switch of the model
 * has an "on" and an "off" bit. The generic pipeline has every bit set and decides by the
 * uniforms at run time; a specialised pipeline has one bit of each pair, so the code of a term
 * that is off is compiled out (issue 9: terms that are off cost nothing measurable).
 */
import type { FlockParams } from '../core/params';

/** Every bit: the generic pipeline (the uniforms decide). */
export const GENERIC_TERMS = 0xffffffff;

/** The switches in steer.wgsl's order: ON bit = 1 << (2k), OFF bit = 1 << (2k + 1). */
const SWITCHES: readonly ((p: FlockParams) => boolean)[] = [
  (p) => p.boundary === 'wrap',
  (p) => p.dimensions === 3,
  (p) => p.steering === 'reynolds',
  (p) => p.boundary === 'soft',
  (p) => p.species > 1,
  (p) => p.obstacles.length > 0,
  // The uniforms are f32: a strength that rounds to 0 there is off, as the generic branch sees it.
  (p) => Math.fround(p.attractorStrength) !== 0,
  (p) => p.predators > 0,
  (p) => Math.fround(p.turbulence) !== 0,
];

/** The TERMS mask of a pipeline specialised for `params` (one bit of each pair). */
export function steerTerms(params: FlockParams): number {
  let mask = 0;
  SWITCHES.forEach((on, k) => {
    mask |= (on(params) ? 1 : 2) << (2 * k);
  });
  return mask >>> 0;
}
