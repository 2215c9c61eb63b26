/**
 * The demo's own state beside the flock's (DemoState, `window.demo` for tests), the scene's
 * density and the caption's text: what main.ts shows that is not the flock's. No DOM.
 */
import {
  PRESETS,
  SCENE_DENSITY,
  type BackendKind,
  type DebugLayer,
  type Flock,
  type PresetName,
} from '../index';
import type { CountProbe } from '../count-probe';
import type { RememberedCapacity } from '../capacity-memory';
import type { ParamGui } from './param-gui';

/** An error's message, or the thrown value as text. */
export function messageOf(e: unknown): string {
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
  /**
   * The scene's count remembered for this device, rung and dimensions (a revisit: no probe;
   * src/capacity-memory.ts), when that is where the count came from.
   */
  remembered?: RememberedCapacity;
  /**
   * The first frame with boids: ms since navigation start (performance.now()) and the count it
   * drew. On a first visit it comes before the probe, which then runs on screen.
   */
  firstFrame?: { ms: number; count: number };
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
      /** Settles once the last Scene-menu choice has its count (remembered, or the probe ran). */
      presetApplied: () => Promise<void>;
    };
  }
}

/** The scene's density for `dimensions`: the preset's when it is of that dimension. */
export function densityFor(preset: PresetName | null, dimensions: 2 | 3): number {
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
