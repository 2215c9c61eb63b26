/**
 * The demo page (index.html): a full-window flock driven by the URL query (url-params.ts), a
 * dat.gui panel built from the parameter schema (param-gui.ts), orbit camera controls
 * (orbit-controls.ts) and a text overlay (overlay.ts). Uses only the public API (src/index.ts).
 * Exposes `window.flock` and `window.flockReady` (see globals.d.ts).
 */
import './app.css';
import { CPU_MAX_COUNT, createFlock, defaultCamera, type Flock } from '../index';
import { OrbitControls } from './orbit-controls';
import { Overlay } from './overlay';
import { ParamGui } from './param-gui';
import { parseQuery } from './url-params';

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function boot(container: HTMLElement, overlay: Overlay): Promise<Flock> {
  const query = parseQuery(location.search);
  // `?backend=cpu` without a count: start at the cpu backend's cap rather than failing on the
  // default 16,384 (an explicit count above the cap is still reported).
  if (query.options.backend === 'cpu' && query.options.params?.count === undefined) {
    query.options.params = { ...query.options.params, count: CPU_MAX_COUNT };
    overlay.setStatus(`count set to ${CPU_MAX_COUNT}, the cpu backend's cap`);
  }
  overlay.setUrlErrors(query.errors);
  const flock = await createFlock(container, { ...query.options, autoStart: !query.paused });
  window.flock = flock;

  /** Redraws now when the loop is not running (camera moves, resizes, single steps). */
  const redrawIfPaused = () => {
    if (!flock.running) flock.render();
  };

  let gui: ParamGui;
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
  };
  const makeGui = () =>
    new ParamGui({
      flock,
      actions,
      onError: (m) => overlay.setGuiError(m),
      onChange: redrawIfPaused,
    });
  gui = makeGui();
  new OrbitControls(container, flock, redrawIfPaused);

  flock.addEventListener('fallback', (ev) => {
    const d = (ev as CustomEvent<{ from: string; to: string; reason: string }>).detail;
    overlay.setStatus(`fell back from ${d.from} to ${d.to}: ${d.reason}`);
    // The new backend may hold fewer boids (cpu): rebuild the panel for its ranges and values.
    gui.dispose();
    gui = makeGui();
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
    }
  });

  overlay.attach(flock);
  redrawIfPaused();
  return flock;
}

const container = document.getElementById('app')!;
const overlay = new Overlay(document.getElementById('overlay')!);
window.flockReady = boot(container, overlay);
window.flockReady.catch((e: unknown) => {
  overlay.setFatal(messageOf(e));
  console.error(e);
});
