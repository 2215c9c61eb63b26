/**
 * The demo's whole state in the URL: `preset=`, `camera=`, `scaleBox=` on top of url-params.ts
 * (parameters, view options, backend, paused, disable), and the reverse for the "copy link"
 * button (`demoQuery`). No DOM here (unit-tested in Node).
 *
 * - `preset=murmuration|school|swarm|stress`: the preset's parameters and view apply first; the
 *   URL's own parameters and view options override them.
 * - `camera=yaw,pitch,distance,x,y,z`: the orbit camera (radians, world units; x,y,z the target),
 *   each within a range (CAMERA_MAX_*), else an error naming the range.
 * - A key given twice: the last value counts (as url-params.ts does for every other key).
 * - `scaleBox=1|0`: the box scales with the count at the scene's density (on unless the URL
 *   gives boundsMin or boundsMax). Under it the box comes from sceneBounds(count, dimensions,
 *   density), density the preset's or SCENE_DENSITY's.
 */
import {
  PRESETS,
  PRESET_NAMES,
  SCENE_DENSITY,
  defaultParams,
  isPresetName,
  presetOptions,
  scaledRocks,
  sceneBounds,
  validateParams,
  type FlockOptions,
  type FlockParams,
  type OrbitCamera,
  type PresetName,
} from '../index';
import { booleanFromText, codecEntry, encodeText, numberFromText } from '../core/codec';
import { parseQuery, shownText } from './url-params';

/** Query keys the demo handles itself, beside the schemas' names and backend/paused/disable. */
export const DEMO_KEYS = ['preset', 'camera', 'scaleBox'] as const;

/** The camera fields a link carries (fovY stays the default). */
export type CameraPose = Pick<OrbitCamera, 'yaw' | 'pitch' | 'distance' | 'target'>;

export interface DemoQuery {
  /** createFlock options: the preset's parameters and view under the URL's. */
  options: FlockOptions;
  paused: boolean;
  errors: string[];
  preset: PresetName | null;
  camera: CameraPose | null;
  /** The box scales with the count (see the module doc). */
  scaleBox: boolean;
  /** The scene's density, boids per unit³ (3D) or unit² (2D), for scaleBox. */
  density: number;
  /** The URL gave a count the demo took (a rejected one, or a preset's, is none). */
  countGiven: boolean;
}

/** Largest |coordinate| of the camera's target: the box's own range (boundsMin/boundsMax), world units. */
export const CAMERA_MAX_COORD = 1e6;
/** Largest eye distance, world units: 20 box sizes of the largest box (orbit-controls' zoom range). */
export const CAMERA_MAX_DISTANCE = 4e7;
/** Largest |yaw|, radians (a link holds what the orbit drags accumulate; float32 keeps sin exact enough). */
export const CAMERA_MAX_YAW = 1e4;

/** What `camera=` allows, for the messages. */
const CAMERA_ALLOWED =
  `allowed: 6 numbers yaw,pitch,distance,x,y,z: |yaw| <= ${CAMERA_MAX_YAW} radians, ` +
  `pitch in (-pi/2, pi/2) radians, distance in (0, ${CAMERA_MAX_DISTANCE}] world units, ` +
  `x, y, z in [-${CAMERA_MAX_COORD}, ${CAMERA_MAX_COORD}] world units`;

/** `yaw,pitch,distance,x,y,z` -> a pose, or a message naming what is wrong and what is allowed. */
export function parseCamera(text: string): CameraPose | string {
  const parts = text.split(',').map((t) => t.trim());
  const nums = parts.map(numberFromText);
  if (parts.length !== 6 || nums.some((x) => x === undefined || !Number.isFinite(x))) {
    return CAMERA_ALLOWED;
  }
  const [yaw, pitch, distance, x, y, z] = nums as [number, number, number, number, number, number];
  if (Math.abs(yaw) > CAMERA_MAX_YAW) return `yaw ${yaw} out of range; ${CAMERA_ALLOWED}`;
  if (Math.abs(pitch) >= Math.PI / 2) return `pitch ${pitch} out of range; ${CAMERA_ALLOWED}`;
  if (!(distance > 0 && distance <= CAMERA_MAX_DISTANCE))
    return `distance ${distance} out of range; ${CAMERA_ALLOWED}`;
  const far = [x, y, z].findIndex((c) => Math.abs(c) > CAMERA_MAX_COORD);
  if (far >= 0) return `${'xyz'[far]} ${[x, y, z][far]} out of range; ${CAMERA_ALLOWED}`;
  return { yaw, pitch, distance, target: [x, y, z] };
}

/**
 * Parses the demo's query. Errors (one line per ignored key) name the key, the value and what is
 * allowed; the flock starts with the rest.
 * @param search location.search, with or without `?`
 */
export function parseDemoQuery(search: string): DemoQuery {
  const query = new URLSearchParams(search);
  const errors: string[] = [];
  const ignored = (key: string, text: string, why: string) =>
    errors.push(`URL parameter ${key}=${shownText(text)} ignored: ${why}`);
  // A key given twice: the last one counts, for the demo's own keys as for every other.
  const lastOf = (key: string): string | null => query.getAll(key).at(-1) ?? null;

  let preset: PresetName | null = null;
  const presetText = lastOf('preset');
  if (presetText !== null) {
    if (isPresetName(presetText.trim())) preset = presetText.trim() as PresetName;
    else {
      ignored(
        'preset',
        presetText,
        `allowed: one of ${PRESET_NAMES.map((n) => `"${n}"`).join(', ')}`,
      );
    }
  }
  let camera: CameraPose | null = null;
  const cameraText = lastOf('camera');
  if (cameraText !== null) {
    const c = parseCamera(cameraText);
    if (typeof c === 'string') ignored('camera', cameraText, c);
    else camera = c;
  }
  const explicitBounds = query.has('boundsMin') || query.has('boundsMax');
  let scaleBox = !explicitBounds;
  const autoText = lastOf('scaleBox');
  if (autoText !== null) {
    const t = booleanFromText(autoText);
    if (t === undefined) ignored('scaleBox', autoText, 'allowed: 1, 0, true or false');
    else scaleBox = t;
  }

  const fromPreset = preset ? presetOptions(preset) : { params: {}, view: {} };
  const rest = parseQuery(search, fromPreset.params, DEMO_KEYS);
  const urlParams = rest.options.params ?? {};
  const params: Partial<FlockParams> = { ...fromPreset.params, ...urlParams };
  const dims = params.dimensions ?? defaultParams().dimensions;
  const density =
    preset && (PRESETS[preset].params.dimensions ?? 3) === dims
      ? PRESETS[preset].density
      : SCENE_DENSITY[dims];
  if (scaleBox) {
    const count = params.count ?? defaultParams().count;
    Object.assign(params, sceneBounds(count, dims, density));
    // The school's rocks follow the box unless the URL gives obstacles.
    if (preset === 'school' && urlParams.obstacles === undefined) {
      params.obstacles = scaledRocks(params.boundsMax![0]);
    }
  }
  // The URL's parameters passed over the preset's bounds; the derived box must pass too.
  try {
    validateParams(params);
  } catch (e) {
    errors.push(`scaleBox ignored: ${e instanceof Error ? e.message : String(e)}`);
    delete params.boundsMin;
    delete params.boundsMax;
    Object.assign(params, fromPreset.params, urlParams);
    scaleBox = false;
  }

  const options: FlockOptions = { ...rest.options };
  if (Object.keys(params).length > 0) options.params = params;
  else delete options.params;
  const view = { ...fromPreset.view, ...((rest.options as { view?: object }).view ?? {}) };
  if (Object.keys(view).length > 0) (options as { view?: object }).view = view;
  return {
    options,
    paused: rest.paused,
    errors: [...errors, ...rest.errors],
    preset,
    camera,
    scaleBox,
    density,
    countGiven: urlParams.count !== undefined,
  };
}

/** A number for a link: at most 4 decimals, no trailing zeros. */
function short(x: number): string {
  return String(Math.round(x * 1e4) / 1e4);
}

/** A value for a link: the codec's text (src/core/codec.ts), numbers to at most 4 decimals. */
function textOf(name: string, value: unknown): string {
  const entry = codecEntry(name);
  return entry ? encodeText(entry, value, { decimals: 4 }) : String(value);
}

export interface DemoLinkState {
  params: FlockParams;
  view: Readonly<Record<string, unknown>>;
  /** View defaults, so only changed options are written. */
  viewDefaults: Readonly<Record<string, unknown>>;
  preset: PresetName | null;
  camera: CameraPose;
  scaleBox: boolean;
  paused: boolean;
  /** An explicit backend choice to keep (null: auto, left out). */
  backend: string | null;
  disable: readonly string[];
}

/**
 * The query string (with `?`) that reopens the demo in `s`: the preset, then every parameter and
 * view option that differs from what the preset (or the defaults) gives, the camera, and
 * scaleBox=0 when the box is explicit (the bounds are then written).
 */
export function demoQuery(s: DemoLinkState): string {
  const q = new URLSearchParams();
  if (s.backend && s.backend !== 'auto') q.set('backend', s.backend);
  if (s.disable.length > 0) q.set('disable', s.disable.join(','));
  if (s.preset) q.set('preset', s.preset);
  const fromPreset = s.preset ? presetOptions(s.preset) : { params: {}, view: {} };
  const base = { ...defaultParams(), ...fromPreset.params } as Record<string, unknown>;
  const params = s.params as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(params)) {
    if (s.scaleBox && (k === 'boundsMin' || k === 'boundsMax')) continue;
    // Under scaleBox the school's rocks are derived from the box too.
    if (s.scaleBox && k === 'obstacles' && s.preset === 'school') continue;
    if (JSON.stringify(v) === JSON.stringify(base[k])) continue;
    q.set(k, textOf(k, v));
  }
  if (!s.scaleBox) q.set('scaleBox', '0');
  const viewBase = { ...s.viewDefaults, ...fromPreset.view };
  for (const [k, v] of Object.entries(s.view)) {
    if (JSON.stringify(v) !== JSON.stringify(viewBase[k])) q.set(k, textOf(k, v));
  }
  const c = s.camera;
  q.set('camera', [c.yaw, c.pitch, c.distance, ...c.target].map(short).join(','));
  if (s.paused) q.set('paused', '1');
  return `?${q.toString().replace(/%2C/g, ',').replace(/%3B/g, ';')}`;
}
