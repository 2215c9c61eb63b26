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
 * the look; createFlock's own defaults stay DESIGN's 64-unit box.
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
  type BackendKind,
  type Flock,
  type FlockParams,
  type PresetName,
} from '../index';
import { demoQuery, parseDemoQuery, type CameraPose } from './app-state';
import { isSmallTouchScreen, probeMessage, probeNote } from './probe-text';
import { boundedCount, estimateMs, MAX_FRAME_MS, type FrameCost } from '../core/frame-cost';
import { probeCount, PROBE_START_COUNT, type CountProbe } from '../count-probe';
import { embedCode } from '../element/embed-code';
import {
  defaultWarmupSeconds,
  macrotask,
  runWarmup,
  warmupPlan,
  WARMUP_BUDGET_MS,
} from '../core/warmup-runner';
import { OrbitControls } from './orbit-controls';
import { Overlay } from './overlay';
import { ParamGui } from './param-gui';

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The page's own state beside the flock's. */
export interface DemoState {
  preset: PresetName | null;
  scaleBox: boolean;
  /** Boids per unit³ (3D) or unit² (2D) of the scene, for scaleBox. */
  density: number;
  /** The backend choice in the URL ('auto' when none). */
  backendChoice: string;
  disable: string[];
  /** On a small touch screen or a slow device: the count probe's measurement and choice. */
  probe?: CountProbe;
}

declare global {
  interface Window {
    /** The demo's state and panel (tests read them). */
    demo?: {
      state: DemoState;
      gui: () => ParamGui;
      link: () => string;
      /** The `<gpu-flock ...>` line of the current state ("Copy embed code"). */
      embed: () => string;
      debug: DebugLayer;
      /** Settles once the last Scene-menu choice has its count (the probe ran). */
      presetApplied: () => Promise<void>;
    };
  }
}

/** A phone-sized screen: the flock fills it (fit: cover) and the GUI starts closed. */
const PHONE = '(max-width: 640px)';

/** The scene's density for `dimensions`: the preset's when it is of that dimension. */
function densityFor(preset: PresetName | null, dimensions: 2 | 3): number {
  if (preset && (PRESETS[preset].params.dimensions ?? 3) === dimensions) {
    return PRESETS[preset].density;
  }
  return SCENE_DENSITY[dimensions];
}

/** The caption: what the scene is, and which backend draws it and why (the ladder's reason). */
export function captionText(flock: Flock, state: DemoState): string {
  const p = flock.params;
  const what = state.preset
    ? `${PRESETS[state.preset].title}: ${PRESETS[state.preset].description}`
    : `A flock of boids (${p.steering === 'reynolds' ? 'Reynolds steering' : 'summed rules'}, ${
        p.boundary === 'wrap' ? 'wrapping edges' : `${p.boundary} walls`
      })`;
  const size = `${p.count.toLocaleString('en-US')} boids in ${p.dimensions}D`;
  const reasons = Object.entries(flock.fallbackReasons) as [BackendKind, string][];
  const skipped = reasons.filter(([k]) => k !== flock.backend);
  let why: string;
  if (state.backendChoice !== 'auto') why = `chosen in the URL (backend=${state.backendChoice})`;
  else if (skipped.length === 0) why = 'the first rung of the ladder that runs here';
  else why = `because ${skipped.map(([k, r]) => `${k}: ${r}`).join('; ')}`;
  return `${what} · ${size} · drawn by ${flock.backend}, ${why}`;
}

const LEGEND_SEEN = 'gpu-flock-legend-seen';

/**
 * Where the legend starts collapsed ("?" opens it): a narrow screen, where its lines covered the
 * lower fifth of the flock (390x844), or a touch screen, where keyboard help is of no use.
 */
const LEGEND_COLLAPSED = `${PHONE}, (pointer: coarse)`;

function setupLegend(): void {
  const legend = document.getElementById('legend');
  const help = document.getElementById('help-button');
  if (!legend || !help) return;
  let seen = false;
  try {
    seen = localStorage.getItem(LEGEND_SEEN) === '1';
  } catch {
    // Storage blocked: show the legend until first use on every visit.
  }
  const show = (open: boolean) => {
    legend.hidden = !open;
    help.setAttribute('aria-expanded', String(open));
  };
  show(!seen && !matchMedia(LEGEND_COLLAPSED).matches);
  const hide = () => {
    if (legend.hidden) return;
    show(false);
    try {
      localStorage.setItem(LEGEND_SEEN, '1');
    } catch {
      // Not stored: it hides for this visit.
    }
  };
  const app = document.getElementById('app')!;
  app.addEventListener('pointerdown', hide);
  app.addEventListener('wheel', hide, { passive: true });
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === '?') show(legend.hidden);
    else hide();
  });
  help.addEventListener('click', () => show(legend.hidden));
}

async function boot(container: HTMLElement, overlay: Overlay): Promise<Flock> {
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
  const urlHasCount = new URLSearchParams(location.search).has('count');
  if (!urlHasCount && capForCpu()) {
    overlay.setCountNote(`count set to ${CPU_MAX_COUNT}, the cpu backend's cap`, CPU_MAX_COUNT);
  }
  // Without a count in the URL the device is measured first, at a count small enough for any
  // device (never a step of the Stress preset's million boids on a software GPU), and the
  // scene's count is then taken as far as the measurement allows (see the end of boot).
  const sceneCount = validateParams(params).count;
  if (!urlHasCount) {
    const start = Math.min(PROBE_START_COUNT, sceneCount);
    const full = validateParams(params);
    Object.assign(params, state.scaleBox ? rescaleForCount(full, start) : { count: start });
  }
  const urlErrors = [...query.errors];
  overlay.setUrlErrors(urlErrors);
  const schema = VIEW_SCHEMA;
  const view = { ...query.options.view };
  if (window.matchMedia(PHONE).matches && view.fit === undefined) view.fit = 'cover';
  // The warm-up (DESIGN section 7; the element's 2 s in 3D and 3 s in 2D unless the URL says) is
  // flown once the count is chosen.
  const warmup =
    typeof view.warmup === 'number'
      ? view.warmup
      : defaultWarmupSeconds(validateParams(params).dimensions);
  view.warmup = 0;
  // A density (count from the area) applies once the probe has measured the device.
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
      if (!(field in params)) throw e;
      urlErrors.push(`${messageOf(e)} (ignored)`);
      overlay.setUrlErrors(urlErrors);
      delete (params as Record<string, unknown>)[field];
      if (field === 'count') capForCpu();
    }
  }
  window.flock = flock;
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

  /** The device's frame cost as measured (the boot probe); null with a count in the URL. */
  let frameCost: FrameCost | null = null;
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
        : null);
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

  /** A count the demo's way, as measured (not bounded): under scaleBox the box moves with it. */
  const setCountAsScene = (count: number) =>
    flock.setParams(state.scaleBox ? rescaleForCount(flock.params, count) : { count });

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
      Object.assign(next, rescaleForCount(flock.params, next.count));
    }
    flock.setParams(next);
    return note;
  };

  let gui: ParamGui;
  /** The last Scene-menu choice, settled once its count is probed (window.demo.presetApplied). */
  let presetApplied: Promise<void> = Promise.resolve();
  const actions = {
    togglePause() {
      if (flock.running) flock.stop();
      else flock.start();
      gui.setRunning(flock.running);
    },
    step() {
      if (flock.running) flock.stop();
      gui.setRunning(false);
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
        gui.sync();
        updateCaption();
        redrawIfPaused();
      };
      // A new scene: the rows' messages were about values it replaces.
      gui.clearMessages();
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
      gui.sync();
    },
  };

  /**
   * A preset over the defaults (null: the default scene), the box from its density, and its
   * count by the rule a preset named in the URL gets (probeScene: the count probe from the small
   * start count up to the preset's count), so Scene -> Stress and ?preset=stress run the same
   * count on a device (issue 31 item 3; before, the menu took the frame-cost bound instead).
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
    flock.setView({ ...defaultView(), fit, showGrid, showVelocities, ...view });
    state.preset = name;
    state.scaleBox = true;
    flock.camera = defaultCamera(flock.params);
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
   * The count rule of a scene whose count the URL does not fix, at boot and from the Scene menu:
   * the count probe (src/count-probe.ts) from the flock's count up to `sceneCount`; a device that
   * holds the scene's count at 30 fps gets it, any other the largest count measured to hold 30
   * fps (or the fewest offered), and the overlay says so.
   */
  const probeScene = async (sceneCount: number) => {
    const phone = isSmallTouchScreen();
    const probe = await probeCount(flock, { maxCount: sceneCount, setCount: setCountAsScene });
    frameCost = probe.cost;
    if (probe.count !== flock.params.count) await setCountAsScene(probe.count);
    if (phone || !probe.capped) {
      state.probe = probe;
      overlay.setProbe(probeMessage(probe, phone), probe.count, probeNote(probe));
    } else {
      delete state.probe;
      overlay.setProbe('', -1, '');
    }
  };

  const makeGui = () =>
    new ParamGui({
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
  gui = makeGui();
  new OrbitControls(container, flock, redrawIfPaused);
  const debug = new DebugLayer(flock, container);
  window.demo = {
    state,
    gui: () => gui,
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
    gui.sync();
    updateCaption();
  };
  window.setInterval(watch, 250);

  flock.addEventListener('fallback', (ev) => {
    const d = (ev as CustomEvent<{ from: string; to: string; reason: string }>).detail;
    overlay.setStatus(`fell back from ${d.from} to ${d.to}: ${d.reason}`);
    // The new backend may hold fewer boids (cpu): rebuild the panel for its ranges and controls.
    gui.dispose();
    gui = makeGui();
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

  // No count in the URL: the count probe (src/count-probe.ts, the benchmark's capacity measure)
  // from the small start count, up to the scene's count. A device that holds the scene's count at
  // 30 fps gets it; any other (a phone, an old laptop, a software GPU) gets the largest count
  // measured to hold 30 fps, and the overlay says so. ?count=N always wins.
  if (!urlHasCount) await probeScene(sceneCount);
  if (density > 0) flock.setView({ density });
  // The warm-up, unseen (DESIGN section 7): the first frame shows a formed flock.
  try {
    await runWarmup(flock, warmupPlan(flock.params, warmup, flock.time), {
      budgetMs: WARMUP_BUDGET_MS,
      now: () => performance.now(),
      yieldToPage: macrotask,
    });
  } catch (e) {
    overlay.addRuntimeError(messageOf(e));
  }
  flock.setView({ warmup });
  container.style.visibility = '';
  flock.render();
  if (!query.paused) flock.start();
  gui.setRunning(flock.running);

  overlay.attach(flock);
  watch();
  redrawIfPaused();
  return flock;
}

const container = document.getElementById('app')!;
const overlay = new Overlay(document.getElementById('overlay')!);
setupLegend();
window.flockReady = boot(container, overlay);
window.flockReady.catch((e: unknown) => {
  overlay.setFatal(messageOf(e));
  console.error(e);
});
