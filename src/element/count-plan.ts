/**
 * How a <gpu-flock> element picks its count when it starts: with no `count` attribute, or with a
 * `density`, the count probe (src/count-probe.ts: the benchmark's capacity measure, bounded in
 * wall time) picks the largest count this device holds at 30 fps, capped by `count`, the preset's
 * count, or PROBE_MAX_COUNT; a density then takes its count from the area up to that. A probed
 * flock starts at PROBE_START_COUNT (its box scaled to keep the density, unless the box is
 * given; a revisit at the newest remembered capacity of its rungs, startCountGuess). Under
 * autoBounds the box is the element's shape at every count.
 */
import type { Flock } from '../index';
import { validateParams, type FlockParams } from '../core/params';
import { rescaleForCount } from '../core/presets';
import { autoBoundsBox } from '../core/page';
import type { CountProbe } from '../count-probe';
import {
  PROBE_FPS,
  PROBE_MAX_COUNT,
  PROBE_MIN_COUNT,
  PROBE_START_COUNT,
} from '../count-probe-limits';
import { serialQueue } from '../core/serial-queue';
import { BACKEND_LADDER, CPU_MAX_COUNT } from '../backend';
import {
  capacityKey,
  correctCapacity,
  guessCapacity,
  recallCapacity,
  rememberCapacity,
  sharedMeasure,
  type RememberedCapacity,
} from '../capacity-memory';
import type { AttributeMemory, ElementOptions } from './attribute-options';

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
  /**
   * The count a probed flock starts at (default PROBE_START_COUNT): a revisit's guess of the
   * remembered capacity (startCountGuess), so its first frame needs no count change.
   */
  startCount?: number;
}

/**
 * The start count of a probed element made with `options` (issue 27: a revisit draws its first
 * frame at the remembered count): the newest remembered capacity of this library version and
 * dimensions on the rungs the element may run (its `backend`, or the ladder less `disable`), or
 * undefined (nothing remembered: PROBE_START_COUNT). Checked against the real key once the rung
 * and device are known (probeAndSetCount).
 */
export function startCountGuess(options: ElementOptions): number | undefined {
  const choice = options.backend ?? 'auto';
  const disable = new Set(options.disable ?? []);
  const rungs = choice === 'auto' ? BACKEND_LADDER.filter((k) => !disable.has(k)) : [choice];
  const dimensions = validateParams(options.params ?? {}).dimensions;
  return guessCapacity(rungs, dimensions)?.count;
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
  const count = plan.probe ? Math.min(facts.startCount ?? PROBE_START_COUNT, plan.cap) : full.count;
  Object.assign(params, countChange(full, count, plan, stage));
  options.params = params;
  return plan;
}

/** bounds-min or bounds-max is given on element `el`. */
export function fixedBoxOf(el: Element): boolean {
  return el.hasAttribute('bounds-min') || el.hasAttribute('bounds-max');
}

/** countPlan for element `el` (`m`: its attributes' memory); sets the start count in `options`. */
export function elementCountPlan(
  el: Element,
  m: AttributeMemory,
  options: ElementOptions,
  stage: StageSize,
): CountPlan {
  // A count attribute that was rejected counts when an earlier flock accepted one (kept).
  const hasCount =
    el.hasAttribute('count') && (!m.rejected.has('count') || m.lastGood.has('count'));
  const hasPreset = el.hasAttribute('preset');
  const startCount = startCountGuess(options);
  return countPlan(options, { hasCount, hasPreset, fixedBox: fixedBoxOf(el), startCount }, stage);
}

/**
 * A new count on a flock that is on screen, without a pop (issue 27): the state is read, the
 * count and its box set (countChange), then the state put back resized (resizeState: kept boids
 * keep their state, scaled with the box; added ones join next to a flying boid). Simulated time
 * goes on from the read state's (setState's `time`): the wing and tail phases do not jump (DESIGN
 * section 7), nor do the predators or the flow.
 */
export async function resizeCount(
  flock: Flock,
  count: number,
  plan: CountPlan,
  stage: StageSize,
): Promise<void> {
  if (count === flock.params.count) return;
  const before = flock.params;
  // resize-state.ts loads with the first count change on screen (after the first frame), beside
  // the read; a failed load rejects this call as a failed read does.
  const resizing = import('../core/resize-state');
  resizing.catch(() => undefined); // awaited below; not unhandled while the read is pending
  const state = await flock.readState();
  const time = flock.time;
  const { resizeState } = await resizing;
  await flock.setParams(countChange(flock.params, count, plan, stage));
  await flock.setState(resizeState(state, before, flock.params), { time });
}

/** The memory key of this flock's device, rung and dimensions (src/capacity-memory.ts). */
export function capacityKeyOf(flock: Flock): string {
  return capacityKey({
    backend: flock.backend,
    device: flock.deviceInfo,
    dimensions: flock.params.dimensions,
  });
}

/** What the element's start learnt about the count: measured now, remembered, or shared. */
export interface CountSource {
  /** The probe's measurement, when this flock (or one sharing it) measured. */
  probe?: CountProbe;
  /** The remembered capacity used instead of a probe (a revisit). */
  remembered?: RememberedCapacity;
  /** The probe was another element's (many elements starting at once share one). */
  shared?: boolean;
}

/** Per probe lead key (probeLeadKey), the start of the element that probes first. */
const leads = new Map<string, Promise<void>>();

/** The longest a follower waits for a lead (the probe itself is bounded by PROBE_DEADLINE_MS). */
const LEAD_WAIT_MS = 15_000;

/** The key elements share a probe by before their rung and device are known: backend choice and dimensions. */
export function probeLeadKey(options: ElementOptions): string {
  const dims = validateParams(options.params ?? {}).dimensions;
  return `${options.backend ?? 'auto'}|${dims}|${(options.disable ?? []).join(',')}`;
}

/**
 * One probe per device and rung, the rest wait for its answer (issue 31 item 7), before any flock
 * is made: the first element of a `key` to start leads (gets a release to call once its probe
 * is done, or its start failed; idempotent); the others wait for that (bounded by LEAD_WAIT_MS), then start
 * at the remembered capacity it measured, without a probe or a count change. Waiting after
 * creating their flocks, 19 WebGL2 flocks started beside the probe: each synchronous GL call
 * then waited for the probe's frames in the GPU process (SwiftShader), gaps of 1-1.6 s.
 */
export async function followProbeLead(key: string): Promise<() => void> {
  const lead = leads.get(key);
  if (lead) {
    await Promise.race([lead, new Promise((r) => setTimeout(r, LEAD_WAIT_MS))]);
    return () => {};
  }
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  leads.set(key, done);
  return () => {
    if (leads.get(key) === done) leads.delete(key);
    release();
  };
}

/**
 * The page's count changes after a probe, one at a time (serialQueue). The elements sharing a
 * probe all hear its answer at once: their count changes (a readback, new textures, a sort
 * program for the new grid) ran back to back in one task, 350-470 ms for 19 WebGL2 flocks on
 * SwiftShader (issue 31 item 7); one at a time, each is its own. A change that never settles (a
 * flock gone mid-read) holds the others up 2 s at most.
 */
const oneAtATime = serialQueue(2000);

/**
 * The count of a probed plan, set on the flock: the remembered capacity of this device when
 * there is one (no probe), else the probe, shared by every flock of the page with the same
 * device, rung and dimensions (the first measures with `keepState` count changes when asked, the
 * others wait for its answer), and remembered. With a density, the flock's own view.density then
 * takes the count from the area up to that (and refits it on resize).
 * @param keepState count changes keep the flock's state (resizeCount): the flock is on screen
 * @param recallOnly only the remembered capacity: without one, nothing is measured or changed
 * @param given true once the page gave a count since the plan: the answer is measured and
 *   remembered, not set (the page's count wins; the caller sets it again, a probe may step over it)
 */
export async function probeAndSetCount(
  flock: Flock,
  plan: CountPlan,
  stage: StageSize,
  keepState = false,
  recallOnly = false,
  given: () => boolean = () => false,
): Promise<CountSource & { count: number }> {
  const setCount = (count: number) =>
    keepState
      ? resizeCount(flock, count, plan, stage)
      : flock.setParams(countChange(flock.params, count, plan, stage));
  const key = capacityKeyOf(flock);
  const source: CountSource = {};
  const remembered = recallCapacity(key);
  let count: number;
  if (!remembered && recallOnly) return { count: flock.params.count };
  if (remembered) {
    source.remembered = remembered;
    count = Math.max(1, Math.min(remembered.count, plan.cap, flock.maxCount));
  } else {
    const { result, shared } = sharedMeasure(key, async () => {
      // The probe's code (and the capacity search's) loads only when a first visit measures.
      const { probeCount } = await import('../count-probe');
      const probe = await probeCount(flock, { maxCount: plan.cap, setCount });
      // Kept even when the search was cut short or capped: then it is a lower bound, safe to
      // start at (a frame rate that proves it wrong lowers it: correctCapacity).
      rememberCapacity(key, { count: probe.count, holds: probe.holds, at: Date.now() });
      return probe;
    });
    source.probe = await result;
    source.shared = shared;
    count = Math.max(1, Math.min(source.probe.count, plan.cap, flock.maxCount));
  }
  if (count !== flock.params.count && !given())
    await oneAtATime(() => (given() ? Promise.resolve() : setCount(count)));
  // The flock's density takes the count from the area up to the probe's (and refits on resize).
  if (plan.density > 0) flock.setView({ density: plan.density });
  if (source.probe) source.probe = { ...source.probe, count: flock.params.count };
  return { ...source, count: flock.params.count };
}

/** The probe's frame rate and floor, for a correction of the remembered count (capacity-memory.ts). */
export const CORRECTION = { targetFps: PROBE_FPS, floor: PROBE_MIN_COUNT } as const;

/**
 * An explicit rung with a count cap (cpu: CPU_MAX_COUNT) takes the count of `options` down to it,
 * as `auto` does when it lands there (issue 31 item 5), instead of failing; returns the note
 * (also in the 'ready' detail's `capped`), or undefined. `fixedBox`: bounds-min or bounds-max is
 * given. Changes options.params in place (countPlan mutates it too).
 */
export function capForRung(
  options: ElementOptions,
  fixedBox: boolean,
  stage: StageSize,
): string | undefined {
  if (options.backend !== 'cpu') return undefined;
  const full = validateParams(options.params ?? {});
  if (full.count <= CPU_MAX_COUNT) return undefined;
  const autoBounds = options.view.autoBounds === true;
  const plan: CountPlan = {
    probe: false,
    cap: CPU_MAX_COUNT,
    density: 0,
    autoBounds,
    scaleBox: !fixedBox && !autoBounds,
  };
  const params = (options.params ?? {}) as Record<string, unknown>;
  Object.assign(params, countChange(full, CPU_MAX_COUNT, plan, stage));
  options.params = params;
  return `count capped from ${full.count} to ${CPU_MAX_COUNT}, the cpu backend's limit`;
}

/**
 * The plan of a running element whose `count` was removed: the count an element without one runs
 * (probed or remembered, up to PROBE_MAX_COUNT; CPU_MAX_COUNT on the cpu rung), its box the
 * element's (auto bounds, or scaled to keep the density unless `fixedBox`).
 */
export function removedCountPlan(flock: Flock, fixedBox: boolean): CountPlan {
  const autoBounds = flock.view.autoBounds;
  return {
    probe: true,
    cap: flock.backend === 'cpu' ? Math.min(PROBE_MAX_COUNT, CPU_MAX_COUNT) : PROBE_MAX_COUNT,
    density: flock.view.density,
    autoBounds,
    scaleBox: !fixedBox && !autoBounds,
  };
}

/**
 * A remembered or probed count checked against the frame rate the loop reaches, `afterMs` after
 * the first frame, while `keep()` (on screen, running): under 24 fps the memory is lowered
 * (correctCapacity) and the count shrunk in place (resizeCount). Returns the cancel.
 */
export function correctLater(
  flock: Flock,
  plan: CountPlan,
  stage: StageSize,
  afterMs: number,
  keep: () => boolean,
): () => void {
  const timer = setTimeout(() => {
    if (!keep()) return;
    const fps = flock.stats.fps;
    const next = correctCapacity(capacityKeyOf(flock), flock.params.count, fps, CORRECTION);
    if (next !== null && next < flock.params.count) {
      void resizeCount(flock, next, plan, stage).catch(() => {});
    }
  }, afterMs);
  return () => clearTimeout(timer);
}
