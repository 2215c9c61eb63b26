/**
 * How a <gpu-flock> element picks its count when it starts: with no `count` attribute, or with a
 * `density`, the count probe (src/count-probe.ts: the benchmark's capacity measure, bounded in
 * wall time) picks the largest count this device holds at 30 fps, capped by `count`, the preset's
 * count, or PROBE_MAX_COUNT; a density then takes its count from the area up to that. A probed
 * flock starts at PROBE_START_COUNT (its box scaled to keep the density, unless the box is
 * given). Under autoBounds the box is the element's shape at every count.
 */
import type { Flock } from '../index';
import { validateParams, type FlockParams } from '../core/params';
import { rescaleForCount } from '../core/presets';
import { autoBoundsBox } from '../core/page';
import { probeCount, PROBE_MAX_COUNT, PROBE_START_COUNT, type CountProbe } from '../count-probe';
import type { ElementOptions } from './attribute-options';

/** How an element's start picks its count (countPlan). */
export interface CountPlan {
  /** Measure the device (no count attribute, or a density). */
  probe: boolean;
  /** The most boids: the count attribute, the preset's count, or the probe's largest. */
  cap: number;
  /** view.density (0: off). */
  density: number;
  autoBounds: boolean;
  /** A count change scales the box (same density): the box is neither given nor automatic. */
  scaleBox: boolean;
}

/** What the element's attributes say about the count and the box. */
export interface CountFacts {
  /** A count attribute counts (given, and accepted now or by an earlier flock). */
  hasCount: boolean;
  /** A preset attribute is given. */
  hasPreset: boolean;
  /** bounds-min or bounds-max is given. */
  fixedBox: boolean;
}

/** The element's stage: its size in CSS px is the canvas's. */
export interface StageSize {
  readonly clientWidth: number;
  readonly clientHeight: number;
}

/** The params of a new count under `plan`: the count, and the box that goes with it. */
export function countChange(
  p: FlockParams,
  count: number,
  plan: CountPlan,
  stage: StageSize,
): Partial<FlockParams> {
  if (plan.autoBounds) {
    return {
      count,
      ...autoBoundsBox(
        count,
        p.dimensions,
        stage.clientWidth,
        stage.clientHeight,
        p.perceptionRadius,
      ),
    };
  }
  if (plan.scaleBox && count !== p.count) return rescaleForCount(p, count);
  return { count };
}

/**
 * The plan for `options` (the attributes' createFlock options), and the start count set in
 * options.params (PROBE_START_COUNT, capped, when probing; with its box).
 */
export function countPlan(options: ElementOptions, facts: CountFacts, stage: StageSize): CountPlan {
  const params = (options.params ?? {}) as Partial<FlockParams>;
  const density = (options.view.density as number | undefined) ?? 0;
  const autoBounds = options.view.autoBounds === true;
  const full = validateParams(params);
  const plan: CountPlan = {
    probe: !facts.hasCount || density > 0,
    cap: facts.hasCount || facts.hasPreset ? full.count : PROBE_MAX_COUNT,
    density,
    autoBounds,
    scaleBox: !facts.fixedBox && !autoBounds,
  };
  const count = plan.probe ? Math.min(PROBE_START_COUNT, plan.cap) : full.count;
  Object.assign(params, countChange(full, count, plan, stage));
  options.params = params;
  return plan;
}

/**
 * The probe, then its count set on the flock; with a density, the flock's own view.density then
 * takes the count from the area up to that (and refits it on resize).
 */
export async function probeAndSetCount(
  flock: Flock,
  plan: CountPlan,
  stage: StageSize,
): Promise<CountProbe> {
  const setCount = (count: number) =>
    flock.setParams(countChange(flock.params, count, plan, stage));
  const probe = await probeCount(flock, { maxCount: plan.cap, setCount });
  if (probe.count !== flock.params.count) await setCount(probe.count);
  // The flock's density takes the count from the area up to the probe's (and refits on resize).
  if (plan.density > 0) flock.setView({ density: plan.density });
  return { ...probe, count: flock.params.count };
}
