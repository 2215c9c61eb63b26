/**
 * The demo page (index.html): a full-window flock driven by the URL query (app-state.ts over
 * url-params.ts: parameters, view options, preset, camera, scaleBox), a dat.gui panel built
 * from the schemas (param-gui.ts), orbit camera and touch controls (orbit-controls.ts), a text
 * overlay (overlay.ts), a caption saying what the scene is and which backend draws it and why,
 * and a key/gesture legend that hides after first use. Uses only the public API (src/index.ts).
 * Exposes `window.flock` and `window.flockReady` (see globals.d.ts), and `window.demo` (the
 * page's own state, for tests).
 *
 * "Box scales with count" (scaleBox, on unless the URL gives a box): the box holds the count
 * at the scene's density (sceneBounds in src/core/presets.ts), so moving the count slider keeps
 * the look; createFlock given params keeps DESIGN's 64-unit box (the demo always gives a count).
 */
import './app.css';
// dat.gui's own styles as a stylesheet (a strict CSP blocks the <style> it would inject).
import './dat-gui.css';
import {
  CPU_MAX_COUNT,
  FlockError,
  DebugLayer,
  PRESETS,
  VIEW_SCHEMA,
  SCENE_DENSITY,
  createFlock,
  defaultCamera,
  defaultParams,
  defaultView,
  presetOptions,
  rescaleForCount,
  resolvedShape,
  sceneBounds,
  validateParams,
  type Flock,
  type FlockParams,
  type PresetName,
} from '../index';
import { demoQuery, parseDemoQuery, type CameraPose } from './app-state';
import {
  isSmallTouchScreen,
  probeMessage,
  probeNote,
  rememberedMessage,
  rememberedNote,
} from './probe-text';
import { boundedCount, estimateMs, MAX_FRAME_MS, type FrameCost } from '../core/frame-cost';
import { probeCount, PROBE_START_COUNT } from '../count-probe';
import { capacityKey, correctCapacity, recallCapacity, rememberCapacity } from '../capacity-memory';
import {
  CORRECTION,
  countChange,
  resizeCount,
  startCountGuess,
  type CountPlan,
} from '../element/count-plan';
import { embedCode } from '../element/embed-code';
import {
  defaultWarmupSeconds,
  macrotask,
  runWarmup,
  warmsUpBeforeFirstFrame,
  warmupPlan,
  WARMUP_BUDGET_MS,
} from '../core/warmup-runner';
import { captionText, densityFor, messageOf, type DemoState } from './demo-state';
import type { ParamGui } from './param-gui';
import { OrbitControls } from './orbit-controls';
import { Overlay } from './overlay';
import { PHONE, setupLegend } from './legend';

async function boot(container: HTMLElement, overlay: Overlay): Promise<Flock> {
  performance.mark('demo:boot');
  const query = parseDemoQuery(location.search);
  const params: Partial<FlockParams> = { ...query.options.params };
  const state: DemoState = {
    preset: query.preset,
    scaleBox: query.scaleBox,
    density: query.density,
    backendChoice: query.options.backend ?? 'auto',
    disable: [...(query.options.disable ?? [])],
  };
  /** `?backend=cpu` with no count of its own: the cpu backend's cap when the default is above it. */
  const capForCpu = (): boolean => {
    if (query.options.backend !== 'cpu') return false;
    const full = validateParams(params);
    if (full.count <= CPU_MAX_COUNT) return false;
    Object.assign(
      params,
      state.scaleBox ? rescaleForCount(full, CPU_MAX_COUNT) : { count: CPU_MAX_COUNT },
    );
    return true;
  };
  // Without a count in the URL, start at the cap rather than failing on a larger count (an
  // explicit count above the cap is reported and ignored below).
  // A count the URL gave and the demo took: a rejected one (shown, ignored) is no count, so the
  // probe measures as it would without it.
  const urlHasCount = query.countGiven;
  if (!urlHasCount && capForCpu()) {
    overlay.setCountNote(`count set to ${CPU_MAX_COUNT}, the cpu backend's cap`, CPU_MAX_COUNT);
  }
  // Without a count in the URL the flock starts at a count small enough for any device (never a
  // step of the Stress preset's million boids on a software GPU); the scene's count is then the
  // one remembered for this device (a revisit), or measured on screen after the first frame.
  // The default scene's revisit is made at its remembered count (the element's startCountGuess:
  // the newest entry of this version and dimensions on the rungs the URL allows; checked against
  // the real key by recallScene once the rung and device are known), so its first frame needs
  // no count change.
  const sceneCount = validateParams(params).count;
  const full = validateParams(params);
  /** The start count's params (count, and the box of the scene scaled to it). */
  const startAt = (count: number) => (state.scaleBox ? rescaleForCount(full, count) : { count });
  const safeStart = Math.min(PROBE_START_COUNT, sceneCount);
  let guessed = false;
  if (!urlHasCount) {
    const guess = state.preset
      ? undefined
      : startCountGuess({ ...query.options, params, view: {} });
    guessed = guess !== undefined && Math.min(guess, sceneCount) !== safeStart;
    Object.assign(params, startAt(guessed ? Math.min(guess!, sceneCount) : safeStart));
  }
  const urlErrors = [...query.errors];
  overlay.setUrlErrors(urlErrors);
  const schema = VIEW_SCHEMA;
  const view = { ...query.options.view };
  if (window.matchMedia(PHONE).matches && view.fit === undefined) view.fit = 'cover';
  // The warm-up (DESIGN section 7; the element's 2 s in 3D and 3 s in 2D unless the URL says):
  // recorded in the view, flown by the demo itself before the first frame when the start is not
  // already formed (see the end of boot).
  const warmup =
    typeof view.warmup === 'number'
      ? view.warmup
      : defaultWarmupSeconds(validateParams(params).dimensions);
  view.warmup = 0;
  // A density (count from the area) applies once the count is known (remembered or measured).
  const density = typeof view.density === 'number' ? view.density : 0;
  view.density = 0;
  // Nothing shows until the first frame of the formed flock.
  container.style.visibility = 'hidden';
  const options = { ...query.options, params, view, autoStart: false };
  // A URL parameter that is valid alone but that the rung cannot take (`?count=100000&backend=cpu`)
  // is shown and ignored like any bad URL value (DESIGN section 4): the flock starts without it.
  let flock: Flock;
  for (;;) {
    try {
      flock = await createFlock(container, options);
      break;
    } catch (e) {
      const field = e instanceof FlockError ? e.field : '';
      if (guessed && field === 'count') {
        // The guessed count is more than the rung that runs holds: the safe start count.
        guessed = false;
        Object.assign(params, startAt(safeStart));
        continue;
      }
      if (!(field in params)) throw e;
      urlErrors.push(`${messageOf(e)} (ignored)`);
      overlay.setUrlErrors(urlErrors);
      delete (params as Record<string, unknown>)[field];
      if (field === 'count') capForCpu();
    }
  }
  window.flock = flock;
  performance.mark('demo:flock');
  if (query.camera) Object.assign(flock.camera, query.camera);

  /** Redraws now when the loop is not running (camera moves, resizes, single steps). */
  const redrawIfPaused = () => {
    if (!flock.running) flock.render();
  };
  const caption = document.getElementById('caption');
  const updateCaption = () => {
    if (caption) caption.textContent = captionText(flock, state);
  };

  const embed = (): string =>
    embedCode({
      params: flock.params,
      view: flock.view,
      backend: state.backendChoice,
      disable: state.disable,
    });

  const link = (): string => {
    const c = flock.camera;
    const camera: CameraPose = {
      yaw: c.yaw,
      pitch: c.pitch,
      distance: c.distance,
      target: [...c.target],
    };
    const viewDefaults: Record<string, unknown> = {};
    for (const s of schema) viewDefaults[s.name] = s.default;
    // flock.view reads the default shape resolved for the dimensions.
    viewDefaults.shape = resolvedShape('auto', flock.params.dimensions);
    return demoQuery({
      params: flock.params,
      view: flock.view as unknown as Record<string, unknown>,
      viewDefaults,
      preset: state.preset,
      camera,
      scaleBox: state.scaleBox,
      paused: !flock.running,
      backend: state.backendChoice === 'auto' ? null : state.backendChoice,
      disable: state.disable,
    });
  };

  /** The device's frame cost as measured (the last probe); null with a count in the URL. */
  let frameCost: FrameCost | null = null;
  /**
   * A revisit's frame cost while the loop has no timing yet: the remembered count's frame at the
   * probe's rate (1000 / 30 ms), all of it per boid. For a count that held 30 fps that is an
   * upper bound of the cost; for the fewest offered (it did not hold) a lower one, until the
   * loop's own timing takes over.
   */
  let rememberedCost: FrameCost | null = null;
  /**
   * A count from the menu or the panel, bounded: above what the measured frame cost allows in
   * MAX_FRAME_MS it is cut there, and the overlay says so while that count runs.
   */
  const bounded = (wanted: number): number => {
    const s = flock.stats;
    const cost =
      frameCost ??
      (s.timing !== 'none' && s.stepMs > 0
        ? { fixedMs: 0, perBoidMs: s.stepMs / flock.params.count }
        : rememberedCost);
    if (!cost) return wanted;
    const count = boundedCount(cost, wanted);
    if (count < wanted) {
      const n = (x: number) => x.toLocaleString('en-US');
      countNote =
        `${n(wanted)} boids asked; ${n(count)} run: about ${estimateMs(cost, wanted).toFixed(0)} ms ` +
        `a frame estimated for ${n(wanted)} here (limit ${MAX_FRAME_MS} ms, so the page keeps answering)`;
      overlay.setCountNote(countNote, count);
    }
    return count;
  };
  /** The note of the last count `bounded` cut (the GUI row says it: what the count became). */
  let countNote: string | null = null;

  /**
   * setParams the demo's way: under scaleBox, count and dimensions move the box too.
   * @returns what a count became when it was cut (bounded), else null
   */
  const setParams = (partial: Partial<FlockParams>): string | null => {
    const next = { ...partial };
    countNote = null;
    if (next.count !== undefined && next.count > flock.params.count) {
      next.count = bounded(next.count);
    }
    const note = countNote;
    if (next.boundsMin !== undefined || next.boundsMax !== undefined) {
      flock.setParams(next);
      state.scaleBox = false;
      return note;
    }
    if (state.scaleBox && next.dimensions !== undefined) {
      const dims = next.dimensions;
      const count = next.count ?? flock.params.count;
      state.density = densityFor(state.preset, dims);
      Object.assign(next, sceneBounds(count, dims, state.density));
    } else if (state.scaleBox && next.count !== undefined) {
      // The box as a reload of the copied link makes it (sceneBounds, rounded alike on both
      // sides); rescaleForCount's rounding of each corner could leave it 0.01 off centre.
      Object.assign(
        next,
        rescaleForCount(flock.params, next.count),
        sceneBounds(next.count, flock.params.dimensions, state.density),
      );
    }
    flock.setParams(next);
    return note;
  };

  /**
   * The dat.gui panel: built after the first frame is painted (its module, dat.gui included, is
   * loaded then), so neither is on the first frame's path; null until then.
   */
  let gui: ParamGui | null = null;
  /** The last Scene-menu choice, settled once its count is probed (window.demo.presetApplied). */
  let presetApplied: Promise<void> = Promise.resolve();
  const actions = {
    togglePause() {
      if (flock.running) flock.stop();
      else flock.start();
      gui?.setRunning(flock.running);
    },
    step() {
      if (flock.running) flock.stop();
      gui?.setRunning(false);
      flock
        .step(1)
        .then(() => flock.render())
        .catch((e: unknown) => overlay.addRuntimeError(messageOf(e)));
    },
    reset() {
      flock.reset();
      redrawIfPaused();
    },
    resetCamera() {
      flock.camera = defaultCamera(flock.params);
      redrawIfPaused();
    },
    copyEmbed() {
      const line = embed();
      const done = () => overlay.setStatus(`embed code copied: ${line}`);
      const failed = () => overlay.setStatus(`embed code (clipboard not available): ${line}`);
      if (navigator.clipboard?.writeText) navigator.clipboard.writeText(line).then(done, failed);
      else failed();
    },
    copyLink() {
      const q = link();
      history.replaceState(null, '', `${location.pathname}${q}`);
      const done = () => overlay.setStatus('link copied: the address holds the whole state');
      if (navigator.clipboard?.writeText) {
        navigator.clipboard
          .writeText(location.href)
          .then(done, () =>
            overlay.setStatus('the address holds the whole state (clipboard not available)'),
          );
      } else done();
    },
    applyPreset(name: string) {
      const done = () => {
        gui?.sync();
        updateCaption();
        redrawIfPaused();
      };
      // A new scene: the rows' messages were about values it replaces.
      gui?.clearMessages();
      presetApplied = applyPreset(name === '' ? null : (name as PresetName))
        .catch((e: unknown) => overlay.addRuntimeError(messageOf(e)))
        .finally(done);
      done();
    },
    switchBackend(choice: string) {
      state.backendChoice = choice;
      location.search = link();
    },
    setParams,
    setScaleBox(on: boolean) {
      state.scaleBox = on;
      if (on) {
        const p = flock.params;
        setParams({ count: p.count, ...sceneBounds(p.count, p.dimensions, state.density) });
      }
      gui?.sync();
    },
  };

  /**
   * A preset over the defaults (null: the default scene), the box from its density, and its
   * count by the rule a preset named in the URL gets (sceneCountRule: the count remembered for
   * this device and scene, else the count probe from the small start count up to the preset's
   * count), so Scene -> Stress and ?preset=stress run the same count on a device (issue 31 item
   * 3; before, the menu took the frame-cost bound instead).
   */
  const applyPreset = async (name: PresetName | null) => {
    const limit = flock.maxCount > 0 ? flock.maxCount : Infinity;
    let next: Partial<FlockParams>;
    let view: Record<string, unknown> = {};
    if (name) {
      const o = presetOptions(name, limit);
      next = { ...defaultParams(), ...o.params };
      view = o.view;
      state.density = PRESETS[name].density;
    } else {
      const d = defaultParams();
      const count = Math.min(d.count, limit);
      state.density = SCENE_DENSITY[d.dimensions];
      next = { ...d, count, ...sceneBounds(count, d.dimensions, state.density) };
    }
    const sceneCount = next.count!;
    // The probe's small start count first (never a step of the Stress preset's million boids).
    const start = Math.min(PROBE_START_COUNT, sceneCount);
    // The box (and the obstacles) scaled to the start count as boot scales a URL preset's.
    Object.assign(next, rescaleForCount(validateParams(next), start));
    // Keep the grid build the running backend uses.
    delete next.sort;
    flock.setParams(next);
    // The framing stays what the screen wants; the debug views stay as they are.
    const { fit, showGrid, showVelocities } = flock.view;
    // Colours null: not given (a preset's palette fills them), unless the preset's view gives them.
    const unset = { background: null, color: null };
    flock.setView({ ...defaultView(), ...unset, fit, showGrid, showVelocities, ...view });
    state.preset = name;
    state.scaleBox = true;
    flock.camera = defaultCamera(flock.params);
    if (await recallScene(sceneCount)) return;
    overlay.setStatus(
      `measuring how many boids this device holds for ${name ? PRESETS[name].title : 'the default scene'}…`,
    );
    try {
      await probeScene(sceneCount);
    } finally {
      overlay.setStatus('');
    }
  };

  /**
   * The memory key of the scene on screen (src/capacity-memory.ts): device, rung, dimensions,
   * library version, and the preset (none for the default scene: the element's key).
   */
  const sceneKey = () =>
    capacityKey({
      backend: flock.backend,
      device: flock.deviceInfo,
      dimensions: flock.params.dimensions,
      ...(state.preset ? { scene: state.preset } : {}),
    });

  /** How a count change of the scene moves its box (count-plan.ts: resizeCount, countChange). */
  const scenePlan = (sceneCount: number): CountPlan => ({
    probe: true,
    cap: sceneCount,
    density: 0,
    autoBounds: false,
    scaleBox: state.scaleBox,
  });

  /** The overlay's probe line, for a small touch screen or a count under the scene's. */
  const sayCount = (message: string, count: number, note: string, show: boolean) => {
    if (show) overlay.setProbe(message, count, note);
    else overlay.setProbe('', -1, '');
  };

  /**
   * A revisit: the count remembered for this device and scene (no probe), up to `sceneCount`,
   * set keeping the flock (`keepState`, when it is on screen); false (nothing changed) when none
   * is remembered.
   */
  const recallScene = async (sceneCount: number, keepState = true): Promise<boolean> => {
    const remembered = recallCapacity(sceneKey());
    if (!remembered) return false;
    const limit = flock.maxCount > 0 ? flock.maxCount : Infinity;
    const count = Math.max(1, Math.min(remembered.count, sceneCount, limit));
    const plan = scenePlan(sceneCount);
    if (count !== flock.params.count) {
      // Before the first frame nothing is on screen to keep: the seed's state at the new count.
      if (keepState) await resizeCount(flock, count, plan, container);
      else await flock.setParams(countChange(flock.params, count, plan, container));
    }
    delete state.probe;
    state.remembered = remembered;
    frameCost = null;
    rememberedCost = { fixedMs: 0, perBoidMs: 1000 / CORRECTION.targetFps / remembered.count };
    const phone = isSmallTouchScreen();
    sayCount(
      rememberedMessage(remembered, count, phone),
      count,
      rememberedNote(remembered),
      phone || count < sceneCount,
    );
    return true;
  };

  /**
   * The count rule of a scene whose count the URL does not fix, at boot and from the Scene menu,
   * when no count is remembered for it (recallScene): the count probe (src/count-probe.ts) from
   * the flock's count up to `sceneCount`, on screen, each count change keeping the flock
   * (resizeCount: kept boids as they fly, added ones next to a flying boid); a device that holds
   * the scene's count at 30 fps gets it, any other the largest count measured to hold 30 fps (or
   * the fewest offered), the overlay says so, and the answer is remembered for the next visit.
   */
  const probeScene = async (sceneCount: number) => {
    const phone = isSmallTouchScreen();
    const plan = scenePlan(sceneCount);
    const setCount = (count: number) => resizeCount(flock, count, plan, container);
    const probe = await probeCount(flock, { maxCount: sceneCount, setCount });
    frameCost = probe.cost;
    if (probe.count !== flock.params.count) await setCount(probe.count);
    // Kept even when the search was cut short or capped: a lower bound, safe to start at.
    rememberCapacity(sceneKey(), { count: probe.count, holds: probe.holds, at: Date.now() });
    delete state.remembered;
    if (phone || !probe.capped) state.probe = probe;
    else delete state.probe;
    sayCount(probeMessage(probe, phone), probe.count, probeNote(probe), phone || !probe.capped);
  };

  /**
   * The scene's count checked against the frame rate the loop reaches, correctAfterMs after the
   * first frame (the element's rule, count-plan.ts CORRECTION): under 24 fps the memory is
   * lowered (correctCapacity) and the count shrunk in place, unless the scene or count changed.
   */
  const correctLater = (sceneCount: number) => {
    const count = flock.params.count;
    const preset = state.preset;
    window.setTimeout(() => {
      if (!flock.running || flock.params.count !== count || state.preset !== preset) return;
      const next = correctCapacity(sceneKey(), count, flock.stats.fps, CORRECTION);
      if (next === null || next >= count) return;
      resizeCount(flock, next, scenePlan(sceneCount), container).catch((e: unknown) =>
        overlay.addRuntimeError(messageOf(e)),
      );
    }, CORRECT_AFTER_MS);
  };

  /** param-gui.ts (dat.gui), loaded after the first frame. */
  let panel: typeof import('./param-gui') | null = null;
  const makeGui = (panel: typeof import('./param-gui')) =>
    new panel.ParamGui({
      flock,
      actions,
      viewSchema: schema,
      preset: () => state.preset ?? '',
      scaleBox: () => state.scaleBox,
      backendChoice: state.backendChoice,
      onChange: () => {
        updateCaption();
        redrawIfPaused();
      },
    });
  new OrbitControls(container, flock, redrawIfPaused);
  const debug = new DebugLayer(flock, container);
  window.demo = {
    state,
    gui: () => {
      if (!gui)
        throw new Error('the panel is built after the first frame (await window.flockReady)');
      return gui;
    },
    link,
    embed,
    debug,
    presetApplied: () => presetApplied,
  };
  // A click (no drag) on a boid picks it: its radii and neighbours are drawn (pickedBoid).
  // A tap on empty sky picks nothing, which clears: a touch screen has no Escape key.
  const clears = matchMedia('(pointer: coarse)').matches
    ? 'a tap on empty sky clears'
    : 'Escape clears';
  let down: { x: number; y: number } | null = null;
  container.addEventListener('pointerdown', (e) => {
    down = e.button === 0 ? { x: e.clientX, y: e.clientY } : null;
  });
  container.addEventListener('pointerup', (e) => {
    if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return;
    down = null;
    debug
      .pick(e.clientX, e.clientY)
      .then((id) => {
        flock.setView({ pickedBoid: id });
        if (id >= 0) overlay.setStatus(`picked boid ${id} (${clears})`);
        else overlay.setStatus('');
      })
      .catch((err: unknown) => overlay.addRuntimeError(messageOf(err)));
  });

  // The panel and the caption follow every change, whoever makes it (code, the console, a test).
  let shown = '';
  const watch = () => {
    const key = JSON.stringify([flock.params, flock.view, state, flock.backend]);
    if (key === shown) return;
    shown = key;
    gui?.sync();
    updateCaption();
  };
  window.setInterval(watch, 250);

  flock.addEventListener('fallback', (ev) => {
    const d = (ev as CustomEvent<{ from: string; to: string; reason: string }>).detail;
    overlay.setStatus(`fell back from ${d.from} to ${d.to}: ${d.reason}`);
    // The new backend may hold fewer boids (cpu): rebuild the panel for its ranges and controls.
    if (gui && panel) {
      gui.dispose();
      gui = makeGui(panel);
    }
    updateCaption();
    redrawIfPaused();
  });
  flock.addEventListener('contextlost', () => overlay.setStatus('graphics context lost; waiting…'));
  flock.addEventListener('contextrestored', () => {
    overlay.setStatus('graphics context restored');
    redrawIfPaused();
  });
  flock.addEventListener('error', (ev) => {
    overlay.addRuntimeError(messageOf((ev as CustomEvent<{ error: unknown }>).detail.error));
  });
  window.addEventListener('resize', redrawIfPaused);
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') {
      actions.togglePause();
      e.preventDefault();
    } else if (e.key === 'r') {
      actions.resetCamera();
    } else if (e.key === 'Escape' && flock.view.pickedBoid >= 0) {
      flock.setView({ pickedBoid: -1 });
      overlay.setStatus('');
    }
  });

  // No count in the URL (issue 27 item 1, the element's way): a revisit takes the count
  // remembered for this device, rung, dimensions and scene before the first frame (no probe); a
  // first visit shows the flock at the small start count and then measures on screen (below).
  // ?count=N always wins.
  const measure = !urlHasCount && !(await recallScene(sceneCount, false));
  performance.mark('demo:recalled');
  // The warm-up (DESIGN section 7), as the element does it: a formed start (`start: 'groups'`,
  // the demo's default: local order about 0.97 at t = 0) is drawn as it is, before any step (its
  // first steps compile the step's programs, about 2 s on SwiftShader, which a first frame does
  // not need); a uniform start (dust at t = 0) flies its warm-up unseen first, within the wall
  // bound.
  if (warmsUpBeforeFirstFrame(flock.params.start)) {
    try {
      await runWarmup(flock, warmupPlan(flock.params, warmup, flock.time), {
        budgetMs: WARMUP_BUDGET_MS,
        now: () => performance.now(),
        yieldToPage: macrotask,
      });
    } catch (e) {
      overlay.addRuntimeError(messageOf(e));
    }
  }
  flock.setView({ warmup });
  container.style.visibility = '';
  flock.render();
  state.firstFrame = { ms: performance.now(), count: flock.params.count };
  performance.mark('demo:first-frame');
  if (!query.paused) flock.start();
  overlay.attach(flock);
  // The panel once the first frame is on screen (a frame later; a hidden tab runs no animation
  // frames: a timer goes on without one), its module loaded now: before, dat.gui's load and the
  // panel's construction (about 0.3-0.6 s here) came before the first frame.
  await afterPaint();
  panel = await import('./param-gui');
  gui = makeGui(panel);
  gui.setRunning(flock.running);
  performance.mark('demo:gui');
  watch();
  if (measure) {
    // A first visit: the first frame painted, then the count probe (src/count-probe.ts, the
    // benchmark's capacity measure) from the start count up to the scene's count, on screen. A
    // device that holds the scene's count at 30 fps gets it; any other (a phone, an old laptop,
    // a software GPU) the largest count measured to hold 30 fps, and the overlay says so.
    await afterPaint();
    overlay.setStatus('measuring how many boids this device holds…');
    try {
      await probeScene(sceneCount);
    } finally {
      overlay.setStatus('');
    }
  }
  if (density > 0) flock.setView({ density });
  if (!urlHasCount) correctLater(sceneCount);
  redrawIfPaused();
  return flock;
}

/**
 * Settles in a task after the next animation frame (so after its paint), or after 100 ms in a
 * hidden tab (no frames there).
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

/**
 * ms after the first frame at which a remembered or measured count is checked against the frame
 * rate the loop reaches (the element's GpuFlockElement.correctAfterMs).
 */
const CORRECT_AFTER_MS = 4000;

const container = document.getElementById('app')!;
const overlay = new Overlay(document.getElementById('overlay')!);
setupLegend();
window.flockReady = boot(container, overlay);
window.flockReady.catch((e: unknown) => {
  overlay.setFatal(messageOf(e));
  console.error(e);
});
