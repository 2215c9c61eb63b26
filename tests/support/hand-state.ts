// Small hand-made flock states for the CPU reference's hand-worked tests.
import type { FlockState } from '../../src/core/state';

/** One boid of a hand-made state: [position, velocity, species?]. */
export type HandBoid = [number[], number[], number?];

/**
 * One boid, written on one line: `handState([boid([0, 0, 0], [3, 0, 0]), boid([1, 0, 0], [3, 0, 0])])`
 * (position and velocity xyz; `species` sets position.w).
 */
export const boid = (position: number[], velocity: number[], species?: number): HandBoid =>
  species === undefined ? [position, velocity] : [position, velocity, species];

/**
 * A state from [position, velocity, species?] per boid (missing components are 0; a 4th position
 * component is the species unless `species` is given): positions xyz + w = species, velocities
 * xyz + w, both Float32Array(4 * count).
 */
export function handState(boids: HandBoid[]): FlockState {
  const s: FlockState = {
    count: boids.length,
    positions: new Float32Array(4 * boids.length),
    velocities: new Float32Array(4 * boids.length),
  };
  boids.forEach(([p, v, sp], i) => {
    s.positions.set([p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, sp ?? p[3] ?? 0], 4 * i);
    s.velocities.set([v[0] ?? 0, v[1] ?? 0, v[2] ?? 0, v[3] ?? 0], 4 * i);
  });
  return s;
}

/** The xyz of record i of a Float32Array(4 * count). */
export const xyz = (a: Float32Array, i: number): number[] => [
  a[4 * i]!,
  a[4 * i + 1]!,
  a[4 * i + 2]!,
];

/** The length of record i's xyz (a velocity record: the boid's speed). */
export const length3 = (a: Float32Array, i: number): number => Math.hypot(...xyz(a, i));
