/**
 * What a benchmark case produces: a measured row or a skipped one (with why, in words a user acts
 * on), and the backends' names in those words.
 */
import type { BackendKind, PassTimes } from '../backend';
import { FlockError } from '../index';
import type { BenchCase, TimingKind } from './cases';
import type { LongTasks } from './long-tasks';

export interface BenchRow extends BenchCase {
  /**
   * Cost rows: per round, this row's step time / the plain row's of the same round (runCosts);
   * the table shows their median and range.
   */
  vsPlain?: number[];
  /**
   * Cost rows under the CLI: median CPU ms per step of the browser's GPU process (where a
   * software GPU runs the simulation), and per round its ratio to the plain flock's.
   */
  cpuMs?: number;
  cpuVsPlain?: number[];
  /** Cost rows, where the backend times passes: per round, the steer pass's time / plain's. */
  steerVsPlain?: number[];
  /** Label such as "webgpu counting", "webgl2 grid", "webgl2 brute". */
  label: string;
  dimensions: 2 | 3;
  seed: number;
  /** Box side, world units. */
  box: number;
  /**
   * Mean neighbour count: of the uniform initial state, (N-1) * sphere volume / box volume; for
   * 'steady' and 'dense' cases the measured mean |N_i| (velocities.w) after STEADY_STEPS steps.
   */
  meanNeighbors: number;
  /** Median wall ms per step (CPU clock around step + finish: 'cpu-wait' on every backend). */
  stepMs: number;
  /** Fastest and slowest batch, ms per step. */
  minMs: number;
  maxMs: number;
  /** Each batch's ms per step. */
  samples: number[];
  /** Steps per timed batch. */
  batch: number;
  /** 1000 / stepMs. */
  stepsPerSecond: number;
  /** Sum of the step's passes (key .. steer) when `timing` is 'gpu'; null otherwise. */
  gpuStepMs: number | null;
  /** How `passes` were measured. */
  timing: TimingKind;
  /** Median per-pass ms per step (draw: per frame); null where not measured. */
  passes: PassTimes;
  /** Median ms of render() + finish(), or null when drawing was not measured. */
  drawMs: number | null;
  /** Median ms of one frame: step(1) + render() + finish(); null when not measured. */
  frameMs: number | null;
  /** 1000 / frameMs. */
  fps: number | null;
  /**
   * Main-thread ms per frame (median over the frames drawn): performance.now() around the calls
   * that encode and submit a frame (`step(1)` until it resolves, and `render()`), not the wait
   * for the device; null when no frame was drawn.
   */
  mainMs: number | null;
  /** Long tasks (PerformanceObserver 'longtask', over 50 ms on the main thread) while the case ran. */
  longTasks: LongTasks;
  /** Drawing buffer size of the canvas drawn into, device pixels. */
  canvas: [number, number];
  /** createFlock + first step + finish (shader compilation, allocation), ms. */
  setupMs: number;
  /** This case took longer than the budget per step (its family stops growing here). */
  overBudget: boolean;
  /** Renderer / adapter of the backend. */
  device: string;
  /** Fragment passes of one step's sort (WebGL2 grid: the bitonic sort); null elsewhere. */
  sortPasses: number | null;
}

/** A case that was not measured, and why. */
export interface SkippedRow extends BenchCase {
  label: string;
  skipped: string;
  /** unavailable: createFlock rejected; budget: a smaller N exceeded the budget (or would);
   *  left-out: not asked for (e.g. brute above its cap); error: failed while running. */
  reason: 'unavailable' | 'budget' | 'left-out' | 'error';
}

export type AnyRow = BenchRow | SkippedRow;

/** The backends' names in sentences. */
export const BACKEND_NAMES: Record<BackendKind, string> = {
  webgpu: 'WebGPU',
  webgl2: 'WebGL2',
  'webgl2-tf': 'transform feedback',
  cpu: 'CPU',
};

/**
 * Why a case was not measured, in words a user acts on, from the error createFlock or a step
 * gave (a FlockError names the field: 'count' over the backend's cap, 'backend' when it cannot
 * run here, with the ladder's reason).
 */
export function skipInWords(e: unknown, backend: BackendKind): string {
  const name = BACKEND_NAMES[backend];
  if (e instanceof FlockError) {
    if (e.field === 'count') {
      const max = /to ([\d,]+)/.exec(e.allowed)?.[1];
      const n = max ? Number(max.replace(/,/g, '')).toLocaleString('en-US') : null;
      return n
        ? `the ${name} backend takes at most ${n} boids on this device`
        : `the ${name} backend cannot take this many boids here`;
    }
    if (e.field === 'backend') {
      const why = /\((.*)\)$/.exec(e.message)?.[1];
      return `${name} does not run in this browser${why ? `: ${why}` : ''}`;
    }
  }
  return `failed: ${e instanceof Error ? e.message : String(e)}`;
}

export function isMeasured(r: AnyRow): r is BenchRow {
  return !('skipped' in r);
}
