/**
 * A scene whose every step is known in closed form: no steering (all weights and the steering
 * force 0), one speed for every boid (minSpeed = maxSpeed), walls that wrap. Each boid moves in a
 * straight line, p(n) = p0 + n * dt * v0 (mod the box), so a test can tell exactly how many steps
 * a state holds, on any backend, without a CPU reference run. Used by the recovery tests.
 */
import { validateParams, type FlockParams } from '../../src/core/params';
import type { FlockState } from '../../src/core/state';

export function ballisticParams(overrides: Partial<FlockParams> = {}): FlockParams {
  return validateParams({
    count: 1111,
    boundsMin: [-20, -20, -20],
    boundsMax: [20, 20, 20],
    boundary: 'wrap',
    perceptionRadius: 2,
    separationWeight: 0,
    alignmentWeight: 0,
    cohesionWeight: 0,
    maxSteerForce: 0,
    minSpeed: 3,
    maxSpeed: 3,
    seed: 4242,
    ...overrides,
  });
}

/**
 * The largest distance (on the torus, world units) between `got` and `start` moved by `steps`
 * ballistic steps; about 1e-4 when `got` holds exactly that many steps, about 0.05 per step
 * missing or extra (speed 3, dt 1/60).
 */
export function ballisticError(
  got: FlockState,
  start: FlockState,
  params: FlockParams,
  steps: number,
): number {
  if (got.count !== start.count) return Infinity;
  const dt = params.timeStep;
  let worst = 0;
  for (let i = 0; i < got.count; i++) {
    for (let a = 0; a < 3; a++) {
      const L = params.boundsMax[a]! - params.boundsMin[a]!;
      const want = start.positions[4 * i + a]! + steps * dt * start.velocities[4 * i + a]!;
      let d = got.positions[4 * i + a]! - want;
      d -= L * Math.round(d / L);
      worst = Math.max(worst, Number.isFinite(d) ? Math.abs(d) : Infinity);
    }
  }
  return worst;
}
