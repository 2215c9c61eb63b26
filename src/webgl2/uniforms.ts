/**
 * FlockParams -> the uniforms and #defines of glsl/flock-params.glsl and glsl/grid.glsl.
 * Compile-time switches (DIMS, WRAP, GRID) pick a program variant; everything else is a uniform.
 */
import type { FlockParams } from '../core/params';
import type { Grid } from '../core/grid';
import type { Defines } from './program';

/** The #defines of a params combination: dimensions, boundary and neighbour search. */
export function flockDefines(p: FlockParams, search = p.neighborSearch): Defines {
  return {
    DIMS: p.dimensions === 2 ? 2 : 3,
    WRAP: p.boundary === 'wrap' ? 1 : 0,
    GRID: search === 'grid' ? 1 : 0,
  };
}

/** Uniform values of flock-params.glsl and grid.glsl (vectors as plain arrays, float64 sums on the CPU). */
export function flockUniforms(p: FlockParams, grid: Grid): Record<string, unknown> {
  return {
    uBoundsMin: p.boundsMin,
    uBoundsMax: p.boundsMax,
    uBoxSize: grid.boxSize,
    uR2: p.perceptionRadius * p.perceptionRadius,
    uWeights: [p.separationWeight, p.alignmentWeight, p.cohesionWeight],
    uMaxSpeed: p.maxSpeed,
    uMinSpeed: p.minSpeed,
    uMaxSteer: p.maxSteerForce,
    uDt: p.timeStep,
    uCellSize: grid.cellSize,
    uGridDims: grid.dims,
  };
}
