/**
 * The model terms of DESIGN.md section 1 as parity cases (issue 9): each term alone, and all of
 * them together in 3D and 2D under soft, bounce and wrap. The parity scene of compare.ts (5,000
 * boids in a 20-unit box, r = 2; 2D: r = 0.9, about 32 neighbours). Cases with predators or a
 * turbulent flow start at a non-zero simulated time, so the time a backend passes on matters.
 * No DOM or GPU imports: the browser tests and the Node Dawn tests use these alike.
 */
import type { FlockParams, Obstacle } from '../../src/core/params';
import { parityParams } from './compare';

export interface BehaviourCase {
  name: string;
  params: FlockParams;
  /** Simulated time at the start, seconds. */
  time: number;
}

/** Four spheres inside the parity box (some overlap the walls' margin). */
export const FOUR_OBSTACLES: Obstacle[] = [
  { center: [3, 2, -1], radius: 2.5 },
  { center: [-5, -4, 4], radius: 1.5 },
  { center: [-2, 6, -6], radius: 3 },
  { center: [7, -7, 6], radius: 2 },
];

/**
 * Every term at once (species 3, 4 obstacles, attractor on, 2 predators, wind + turbulence, a
 * 320-degree field of view).
 */
export const ALL_TERMS: Partial<FlockParams> = {
  steering: 'reynolds',
  separationRadius: 1.2,
  species: 3,
  obstacles: FOUR_OBSTACLES,
  obstacleMargin: 1.5,
  obstacleForce: 9,
  attractor: [1, -2, 0.5],
  attractorStrength: 4,
  attractorRadius: 9,
  predators: 2,
  predatorRadius: 6,
  predatorForce: 10,
  wind: [0.6, -0.4, 0.3],
  turbulence: 1.5,
  turbulenceScale: 9,
  fieldOfView: 320,
  boundaryMargin: 3,
  boundaryForce: 5,
};

/** The 2D variant of a parameter set: z ignored, r = 0.9, obstacles and attractor in the plane. */
function planar(p: Partial<FlockParams>): Partial<FlockParams> {
  return {
    ...p,
    dimensions: 2,
    perceptionRadius: 0.9,
    separationRadius: 0.5,
    obstacles: (p.obstacles ?? []).map((o) => ({ ...o, center: [o.center[0], o.center[1], 0] })),
    attractor: p.attractor ? [p.attractor[0], p.attractor[1], 0] : [0, 0, 0],
    wind: p.wind ? [p.wind[0], p.wind[1], 0] : [0, 0, 0],
  };
}

function make(
  name: string,
  overrides: Partial<FlockParams>,
  time = 0,
  count = 5000,
): BehaviourCase {
  return { name, params: parityParams({ count, ...overrides }), time };
}

/**
 * The cases, `count` boids each (5,000 by default; the cpu backend's cap is 4,096).
 * Alone: every other term off (boundary bounce unless the case is about the walls).
 */
export function behaviourCases(count = 5000): BehaviourCase[] {
  const alone = (name: string, o: Partial<FlockParams>, time = 0) =>
    make(name, { boundary: 'bounce', ...o }, time, count);
  const all = (name: string, o: Partial<FlockParams>) => make(name, o, 7.25, count);
  return [
    alone("steering 'sum'", { steering: 'sum' }),
    alone("steering 'reynolds'", { steering: 'reynolds' }),
    alone('separationRadius 0.6 (below r)', { separationRadius: 0.6 }),
    alone('separationRadius above r (min(rs, r) = r)', { separationRadius: 5, steering: 'sum' }),
    alone('soft walls', { boundary: 'soft', boundaryMargin: 3, boundaryForce: 6 }),
    alone('4 obstacles', { obstacles: FOUR_OBSTACLES, obstacleMargin: 1.5, obstacleForce: 9 }),
    alone('attractor (attract)', {
      attractor: [1, -2, 0.5],
      attractorStrength: 6,
      attractorRadius: 9,
    }),
    alone('attractor (repel)', {
      attractor: [-3, 2, 1],
      attractorStrength: -6,
      attractorRadius: 7,
    }),
    alone('2 predators', { predators: 2, predatorRadius: 6, predatorForce: 10 }, 12.5),
    alone('wind', { wind: [0.6, -0.4, 0.3] }),
    alone('turbulence', { turbulence: 1.5, turbulenceScale: 9 }, 33.3),
    alone('3 species', { species: 3 }),
    alone('field of view 120', { fieldOfView: 120 }),
    alone("field of view 300, steering 'sum'", { fieldOfView: 300, steering: 'sum' }),
    all('all terms, 3D soft', { ...ALL_TERMS, boundary: 'soft' }),
    all('all terms, 3D bounce', { ...ALL_TERMS, boundary: 'bounce' }),
    all('all terms, 3D wrap', { ...ALL_TERMS, boundary: 'wrap' }),
    all('all terms, 2D soft', planar({ ...ALL_TERMS, boundary: 'soft' })),
    all('all terms, 2D bounce', planar({ ...ALL_TERMS, boundary: 'bounce' })),
    all('all terms, 2D wrap', planar({ ...ALL_TERMS, boundary: 'wrap' })),
  ];
}
