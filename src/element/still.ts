/**
 * The still frame of `prefers-reduced-motion: reduce` (DESIGN.md section 4): how long the
 * <gpu-flock> element flies the flock unseen before it draws one frame, so that the picture shows
 * groups and not the scattered start.
 *
 * A flock forms by boids meeting: a boid flying at maxSpeed v through boids of its own species
 * at density rho meets a new one at the rate lambda = rho * sigma * v, sigma = pi r^2 in 3D (the
 * cross-section of its perception sphere) or 2r in 2D. The time to form groups scales as
 * 1/lambda; the constants below were measured with the CPU reference from seed 1 (local order
 * times the fraction of boids with a neighbour reaching 0.93, where the pictures show groups):
 * 3D wrap 1,000 / 2,000 / 4,000 / 8,000 boids in DESIGN's 64-unit box formed at about 32 / 18 /
 * 9.5 / 7 s against 1/lambda = 4.2 / 2.1 / 1.0 / 0.5 s; 2D 300 / 600 boids in the 64-unit
 * square at about 10 / 5 s against 1/lambda = 0.68 / 0.34 s.
 * Owns nothing (pure functions and constants).
 */
import type { FlockParams } from '../core/params';
import { WARMUP_MAX_TIME_STEP, warmupTimeStep } from '../core/warmup-runner';

/** Simulated seconds to form, in units of 1/lambda (see above), by dimensions. */
export const FORM_ENCOUNTERS = { 2: 14, 3: 9 } as const;
/** The warm-up is never shorter than this (simulated seconds): a dense flock still needs to turn. */
export const STILL_MIN_SECONDS = 3;
/** Nor longer (simulated seconds): a very sparse flock shows what it has formed by then. */
export const STILL_MAX_SECONDS = 40;
/** The warm-up's largest step, s (the schema's largest timeStep; src/core/warmup-runner.ts). */
export const STILL_MAX_TIME_STEP = WARMUP_MAX_TIME_STEP;
/**
 * Wall-clock bound on the warm-up, ms: past it the element draws the state it has reached. At
 * the default plan of 2,000 boids (188 steps) it is hit at 32 ms a step, which headless
 * Chromium's software GPU on a busy 2-core machine takes (18-28 ms measured); a phone's GPU takes
 * well under 1 ms there.
 */
export const STILL_BUDGET_MS = 6000;
/** Steps of the warm-up's first chunk, before its pace is known (the bound is checked between chunks). */
export const STILL_FIRST_CHUNK_STEPS = 8;

/** What the element runs unseen before the still frame. */
export interface StillPlan {
  /** Encounters per boid per simulated second at the start (lambda above), 1/s. */
  encounterRate: number;
  /** Simulated seconds the flock needs to form, in [STILL_MIN_SECONDS, STILL_MAX_SECONDS]. */
  seconds: number;
  /**
   * Step used for the warm-up, s: warmupTimeStep(params) (src/core/warmup-runner.ts), the step of
   * every unseen warm-up.
   */
  timeStep: number;
  /** Steps of `timeStep` still to take from simulated time `time0` (0 when already formed). */
  steps: number;
}

/**
 * The warm-up for `params` from simulated time `time0` (seconds already flown; 0 for a fresh
 * flock). Pure; no errors thrown for valid params (validateParams' output).
 */
export function stillPlan(params: FlockParams, time0 = 0): StillPlan {
  const dims = params.dimensions === 2 ? 2 : 3;
  let volume = 1;
  for (let c = 0; c < dims; c++) volume *= params.boundsMax[c]! - params.boundsMin[c]!;
  const r = params.perceptionRadius;
  const density = params.count / Math.max(1, params.species) / volume;
  const sigma = dims === 3 ? Math.PI * r * r : 2 * r;
  const encounterRate = density * sigma * params.maxSpeed;
  const wanted = encounterRate > 0 ? FORM_ENCOUNTERS[dims] / encounterRate : Infinity;
  const seconds = Math.min(STILL_MAX_SECONDS, Math.max(STILL_MIN_SECONDS, wanted));
  const timeStep = warmupTimeStep(params);
  const steps = Math.max(0, Math.ceil((seconds - time0) / timeStep - 1e-9));
  return { encounterRate, seconds, timeStep, steps };
}
