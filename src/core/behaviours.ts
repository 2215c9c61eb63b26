/**
 * The model's terms that do not depend on neighbours (DESIGN.md section 1): predator paths
 * h_k(t), the flow w(p, t) (uniform wind + a divergence-free turbulent field), and the
 * per-boid point forces (soft walls, obstacles, attractor, predators). Plain float64; the GPU
 * backends receive predator positions and the flow phase from here each step, computed on the
 * CPU, so that large simulated times lose no precision in float32 shaders.
 */
import type { FlockParams, Vec3 } from './params';
import { activeAxes, MAX_OBSTACLES, MAX_PREDATORS } from './params';

export { MAX_OBSTACLES, MAX_PREDATORS };

/** Predator path frequencies per axis, Hz (DESIGN.md section 1). */
export const PREDATOR_FREQUENCIES: Vec3 = [0.031, 0.047, 0.037];
/** Period of the turbulent flow's phase, seconds. */
export const FLOW_PERIOD = 20;

/**
 * Predator k's position at simulated time t (seconds), world units: per axis
 * c + 0.8 h sin(2 pi f (1 + 0.25 k) t + 1.7 k), c the box centre, h its half size; z = 0 in 2D.
 */
export function predatorPosition(
  params: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>,
  k: number,
  t: number,
): Vec3 {
  const out: Vec3 = [0, 0, 0];
  const axes = activeAxes(params);
  for (let a = 0; a < axes; a++) {
    const lo = params.boundsMin[a]!;
    const hi = params.boundsMax[a]!;
    const c = 0.5 * (lo + hi);
    const h = 0.5 * (hi - lo);
    const f = PREDATOR_FREQUENCIES[a]!;
    out[a] = c + 0.8 * h * Math.sin(2 * Math.PI * f * (1 + 0.25 * k) * t + 1.7 * k);
  }
  return out;
}

/** The positions of all `params.predators` predators at time t, as Float32Array(4*MAX_PREDATORS) (xyz + w = 0). */
export function predatorPositions(
  params: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions' | 'predators'>,
  t: number,
): Float32Array {
  const out = new Float32Array(4 * MAX_PREDATORS);
  for (let k = 0; k < params.predators; k++) out.set(predatorPosition(params, k, t), 4 * k);
  return out;
}

/** The flow's phase phi = 2 pi frac(t / 20 s), radians, in float64. */
export function flowPhase(t: number): number {
  const x = t / FLOW_PERIOD;
  return 2 * Math.PI * (x - Math.floor(x));
}

/**
 * The flow w(p, t) = wind + turbulence * u(k p + phi), k = 2 pi / turbulenceScale, world units/s.
 * 3D: u = ((sin z + cos y), (sin x + cos z), (sin y + cos x)) / 2 (the ABC flow with A = B = C);
 * 2D: u = (cos y, sin x, 0). Both are divergence-free. `phase` is flowPhase(t).
 */
export function flowAt(
  params: Pick<FlockParams, 'wind' | 'turbulence' | 'turbulenceScale' | 'dimensions'>,
  px: number,
  py: number,
  pz: number,
  phase: number,
): Vec3 {
  const w: Vec3 = [params.wind[0], params.wind[1], params.dimensions === 2 ? 0 : params.wind[2]];
  if (params.turbulence !== 0) {
    const k = (2 * Math.PI) / params.turbulenceScale;
    const x = k * px + phase;
    const y = k * py + phase;
    const T = params.turbulence;
    if (params.dimensions === 2) {
      w[0] += T * Math.cos(y);
      w[1] += T * Math.sin(x);
    } else {
      const z = k * pz + phase;
      w[0] += (T * (Math.sin(z) + Math.cos(y))) / 2;
      w[1] += (T * (Math.sin(x) + Math.cos(z))) / 2;
      w[2] += (T * (Math.sin(y) + Math.cos(x))) / 2;
    }
  }
  return w;
}

/** Whether any flow term is on (wind non-zero on an active axis, or turbulence > 0). */
export function hasFlow(params: Pick<FlockParams, 'wind' | 'turbulence' | 'dimensions'>): boolean {
  const axes = activeAxes(params);
  for (let a = 0; a < axes; a++) if (params.wind[a] !== 0) return true;
  return params.turbulence !== 0;
}
