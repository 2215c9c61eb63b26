/**
 * FlockParams -> the uniforms and #defines of glsl/flock-params.glsl and glsl/grid.glsl.
 * Compile-time switches (DIMS, WRAP, SOFT, GRID, REYNOLDS, SPECIES) pick a program variant: the
 * ones that change the neighbour loop or rarely change. Everything else is a uniform; the point
 * forces and the flow are uniform branches, off when their count or strength is 0. Lists travel
 * as uniform arrays (obstacles: 16 vec4, predators: 8 vec3), well inside WebGL2's minimum of 224
 * fragment / 256 vertex uniform vectors. The per-step values (predator positions h_k(t), the
 * flow's phase) come from stepUniforms, computed in float64 on the CPU.
 */
import { flowPhase, predatorPosition } from '../core/behaviours';
import type { FlockParams } from '../core/params';
import { MAX_OBSTACLES, MAX_PREDATORS } from '../core/params';
import type { Grid } from '../core/grid';
import type { Defines } from './program';

/** The #defines of a params combination: dimensions, boundary, neighbour search, steering, species. */
export function flockDefines(p: FlockParams, search = p.neighborSearch): Defines {
  return {
    DIMS: p.dimensions === 2 ? 2 : 3,
    WRAP: p.boundary === 'wrap' ? 1 : 0,
    SOFT: p.boundary === 'soft' ? 1 : 0,
    GRID: search === 'grid' ? 1 : 0,
    REYNOLDS: p.steering === 'reynolds' ? 1 : 0,
    SPECIES: p.species > 1 ? 1 : 0,
  };
}

/** Obstacles as vec4 (xyz centre, w radius), MAX_OBSTACLES of them (unused ones zero). */
export function obstacleArray(p: FlockParams): Float32Array {
  const out = new Float32Array(4 * MAX_OBSTACLES);
  p.obstacles.forEach((o, k) => out.set([o.center[0], o.center[1], o.center[2], o.radius], 4 * k));
  return out;
}

/** Uniform values of flock-params.glsl and grid.glsl (vectors as plain arrays, float64 sums on the CPU). */
export function flockUniforms(p: FlockParams, grid: Grid): Record<string, unknown> {
  const rs = Math.min(p.separationRadius, p.perceptionRadius);
  const M = p.boundaryMargin;
  return {
    uBoundsMin: p.boundsMin,
    uBoundsMax: p.boundsMax,
    uBoxSize: grid.boxSize,
    uR2: p.perceptionRadius * p.perceptionRadius,
    uRs2: rs * rs,
    uWeights: [p.separationWeight, p.alignmentWeight, p.cohesionWeight],
    uMaxSpeed: p.maxSpeed,
    uMinSpeed: p.minSpeed,
    uMaxSteer: p.maxSteerForce,
    uDt: p.timeStep,
    uSoftLo: p.boundsMin.map((x) => x + M),
    uSoftHi: p.boundsMax.map((x) => x - M),
    uSoftK: p.boundaryForce / M,
    uObstacleCount: p.obstacles.length,
    uObstacles: obstacleArray(p),
    uObstacleMargin: p.obstacleMargin,
    uObstacleForce: p.obstacleForce,
    uAttractor: [...p.attractor, p.attractorStrength],
    uAttractorRadius: p.attractorRadius,
    uPredatorCount: p.predators,
    uPredatorRadius: p.predatorRadius,
    uPredatorForce: p.predatorForce,
    uWind: p.wind,
    uTurbulence: p.turbulence,
    uTurbulenceK: (2 * Math.PI) / p.turbulenceScale,
    uCellSize: grid.cellSize,
    uGridDims: grid.dims,
  };
}

/** The per-step uniforms at simulated time `time` (seconds, the start of the step). */
export function stepUniforms(p: FlockParams, time: number): Record<string, unknown> {
  const predators = new Float32Array(3 * MAX_PREDATORS);
  for (let k = 0; k < p.predators; k++) predators.set(predatorPosition(p, k, time), 3 * k);
  return {
    uPredators: predators,
    uFlowPhase: p.turbulence !== 0 ? flowPhase(time) : 0,
  };
}
