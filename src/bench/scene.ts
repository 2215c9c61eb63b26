/**
 * Benchmark scenes beyond the defaults, DOM-free (the browser benchmark and scripts/bench-gpu.ts,
 * which runs in Node through Dawn, share them).
 */
import type { FlockParams } from '../core/params';

/**
 * Every behaviour on, for a box of half side h centred at 0 (z = 0 in 2D): species 3, four
 * obstacles of radius h/16 .. h/8, the attractor (strength 4 units/s², radius h/2), 2 predators,
 * wind (0.6, -0.4, 0.3) units/s and turbulence 1.5 units/s at a wavelength of h/2. The default
 * soft walls and Reynolds steering stay on.
 */
export function allBehaviours(h: number, d: 2 | 3 = 3): Partial<FlockParams> {
  const z = (x: number) => (d === 2 ? 0 : x);
  return {
    species: 3,
    obstacles: [
      { center: [0.3 * h, 0.2 * h, z(-0.1 * h)], radius: h / 8 },
      { center: [-0.5 * h, -0.4 * h, z(0.4 * h)], radius: h / 12 },
      { center: [-0.2 * h, 0.6 * h, z(-0.6 * h)], radius: h / 10 },
      { center: [0.7 * h, -0.7 * h, z(0.6 * h)], radius: h / 16 },
    ],
    attractor: [0.1 * h, -0.2 * h, z(0.05 * h)],
    attractorStrength: 4,
    attractorRadius: h / 2,
    predators: 2,
    wind: [0.6, -0.4, z(0.3)],
    turbulence: 1.5,
    turbulenceScale: h / 2,
  };
}

/** The first model, every new term off: 'sum' steering, bounce walls, separation over all of N_i. */
export const FIRST_MODEL: Partial<FlockParams> = {
  steering: 'sum',
  boundary: 'bounce',
  separationRadius: 1000,
};
