/**
 * The view options: how a flock is drawn (not what it does). A schema in the same shape as
 * PARAM_SCHEMA (src/core/params.ts): each spec has name, type, default, unit and doc, numbers
 * min/max (and a GUI step), enums their options, so validation, the demo's GUI, the URL and the
 * <gpu-flock> element's attributes come from this one list. Types: 'float', 'enum', 'boolean'
 * and 'color' (a CSS colour string, see src/core/color.ts). View options never touch the
 * simulation state.
 */
import { parseCssColor, type RGBA } from './color';
import { DENSITY_MAP_HEX } from './colormaps.gen';
import { FlockError, describeValue } from './errors';
import type { Shape } from './look';
import { PALETTE_NAMES, palette, type PaletteChoice } from './palette';

/** How boids are coloured. */
export type ColorMode = 'speed' | 'species' | 'density' | 'heading' | 'uniform';
/** `contain`: the whole box is visible; `cover`: the box fills the canvas edge to edge (cropped). */
export type Fit = 'contain' | 'cover';
/**
 * The `shape` option: a mesh of src/core/look.ts (DESIGN section 7: `arrow`, `bird`, `fish`,
 * `dot`), or `auto`, the default while none is chosen: `bird` in 3D, `arrow` in 2D, following
 * the dimensions (a flock's `view` reads it resolved, see resolvedShape).
 */
export type ShapeOption = 'auto' | Shape;

/** The mesh a shape option draws in `dimensions`: `auto` is `bird` in 3D and `arrow` in 2D. */
export function resolvedShape(shape: ShapeOption, dimensions: 2 | 3): Shape {
  if (shape !== 'auto') return shape;
  return dimensions === 2 ? 'arrow' : 'bird';
}
/** Perceptual colour maps for the density mode (from d3-scale-chromatic). */
export type ColorMapName = keyof typeof DENSITY_MAP_HEX;
/** Where the pointer is followed (DESIGN section 7): nowhere, over the flock's element, or anywhere on the page. */
export type PointerTarget = 'off' | 'element' | 'page';

/** Every view option, with its unit in the docstring. */
export interface ViewOptions {
  /** CSS colour behind the flock, or `transparent` (the canvas is premultiplied-alpha on every backend). */
  background: string;
  /**
   * `speed` (slow blue -> fast red, minSpeed..maxSpeed), `species` (a categorical palette, one
   * colour per species), `density` (|N_i|, the neighbour count, through `colorMap` up to
   * `densityMax`), `heading` (direction of flight as a hue; in 3D climbing boids are lighter,
   * diving ones darker), `uniform` (`color`).
   */
  colorMode: ColorMode;
  /** The boid colour of `uniform` mode: an opaque CSS colour. */
  color: string;
  /** The perceptual colour map of `density` mode. */
  colorMap: ColorMapName;
  /**
   * Neighbour count at the top of the density colour map (boids); 0 picks one from the flock's
   * density (src/core/scene.ts autoDensityMax: about twice the mean |N_i| the default rules reach).
   */
  densityMax: number;
  /** Boid length, world units; 0 picks one from the box (1.5% of its largest side, at least perceptionRadius/4). */
  boidSize: number;
  /** How the box is framed in a canvas whose shape differs from it. */
  fit: Fit;
  // The look (DESIGN section 7; src/core/look.ts).
  /**
   * The boid's mesh: `arrow`, `bird`, `fish` or `dot`; by default `bird` in 3D and `arrow` in 2D
   * (following the dimensions until one is chosen; `auto` sets that default again). A flock's
   * `view` reads the mesh drawn, never `auto`.
   */
  shape: ShapeOption;
  /** Animation amount of wings and tails, 0..4 (0: rigid). */
  flap: number;
  /** Shading by a key light and a sky/ground ambient, 0..1 (0: flat colour). */
  lighting: number;
  /** Depth cue across the box, 0..1: colours blend toward the background (alpha toward 0 on a transparent one); 2D has no depth. */
  fog: number;
  /** Persistence of previous frames, 0..0.98: each frame fades what was drawn by this factor. */
  trail: number;
  /** A boid shorter than this on screen (device pixels) is drawn as a dot; 0 = off. */
  lodPixels: number;
  /** Multisampling (4x) where the device has it. */
  antialias: boolean;
  /** A named set of background, boid colour ramp and light; colour options left at their defaults take it. */
  palette: PaletteChoice;
  /** Draw the box's outline. */
  showBounds: boolean;
  /** Draw the obstacles (shaded spheres; circles in 2D). */
  showObstacles: boolean;
  /** Draw the predators (larger red boids). */
  showPredators: boolean;
  /** Draw the attractor (a soft marker) while attractorStrength != 0. */
  showAttractor: boolean;
  /** Debug: the grid's occupied cells over the flock (2D: all; 3D: the slice through the centre). Drawn by src/debug-layer.ts from the backend's state. */
  showGrid: boolean;
  /** Debug: a line per boid along its velocity (0.5 s of flight). Drawn by src/debug-layer.ts. */
  showVelocities: boolean;
  /** Debug: the boid (an id; -1 none) whose perception and separation radii are drawn, its neighbours ringed. Drawn by src/debug-layer.ts. */
  pickedBoid: number;
  // ---- The page (DESIGN section 7, second table; src/core/page.ts holds their arithmetic) ----
  /**
   * The box follows the canvas: its aspect is the canvas's (depth = the shorter side in 3D), its
   * volume count / the density of DESIGN's default box (16,384 boids in 64^d), re-fitted on
   * resize without a re-initialisation (autoBoundsBox in src/core/page.ts).
   */
  autoBounds: boolean;
  /**
   * Boids per 10,000 CSS px² of the canvas: the count from its area (densityCount in
   * src/core/page.ts), capped by params.count as a maximum and by the rung's maxCount (the
   * element: by its probe's count too), refitted DENSITY_REFIT_MS after the last resize (a count
   * change re-initialises; src/flock/page-input.ts); 0 = off.
   */
  density: number;
  /**
   * Simulated seconds flown unseen before the first frame (in steps of up to 0.1 s, see
   * warmupPlan), bounded by WARMUP_BUDGET_MS of wall time, then shown as reached. createFlock's
   * default is 0; the <gpu-flock> element's is 2.
   */
  warmup: number;
  /**
   * Where the pointer is followed (attracts; a second button or a long touch repels): `off`,
   * `element` (over the flock's own element) or `page` (listens on the document, passive, never
   * preventDefault: over text and buttons drawn above the flock, without taking their events).
   */
  pointer: PointerTarget;
  /** Frame cap, frames per second; 0 = the display's rate. Steps still follow real time. */
  maxFps: number;
  /** Drawing-buffer pixels per CSS pixel, times devicePixelRatio (clamped to the device's limits). */
  resolutionScale: number;
}

/**
 * View options as given: createFlock's `view`, Flock.setView and validateView take any of
 * ViewOptions, and a colour may be null there.
 */
export interface ViewInput extends Partial<Omit<ViewOptions, 'background' | 'color'>> {
  /**
   * ViewOptions.background, or null: not given, so the default's, or a named palette's (what a
   * removed `background` attribute of the element gives). Over a view, null undoes a colour given.
   */
  background?: string | null;
  /** ViewOptions.color, or null: not given, so the default's or a named palette's (as background). */
  color?: string | null;
}

interface ViewSpecBase<K extends keyof ViewOptions> {
  name: K;
  default: ViewOptions[K];
  /** The default in words where it is not one value (the tables print it). */
  defaultText?: string;
  unit: string;
  doc: string;
}
export interface ViewNumberSpec<
  K extends keyof ViewOptions = keyof ViewOptions,
> extends ViewSpecBase<K> {
  type: 'float';
  min: number;
  max: number;
  /** A suggested GUI step. */
  step?: number;
  /** Only integers (an id): a fraction is rejected. */
  integer?: boolean;
}
export interface ViewEnumSpec<
  K extends keyof ViewOptions = keyof ViewOptions,
> extends ViewSpecBase<K> {
  type: 'enum';
  options: readonly string[];
  /** Values accepted beside `options` but not listed (the default's own name). */
  unlisted?: readonly string[];
}
export interface ViewBooleanSpec<
  K extends keyof ViewOptions = keyof ViewOptions,
> extends ViewSpecBase<K> {
  type: 'boolean';
}
export interface ViewColorSpec<
  K extends keyof ViewOptions = keyof ViewOptions,
> extends ViewSpecBase<K> {
  type: 'color';
  /** Whether colours with alpha < 1 (and `transparent`) are allowed. */
  alpha: boolean;
}
/** One view option's entry in VIEW_SCHEMA: name, type, default, range, doc. */
export type ViewSpec = ViewNumberSpec | ViewEnumSpec | ViewBooleanSpec | ViewColorSpec;

/** The default background: the dark blue every backend cleared to before view options existed. */
export const DEFAULT_BACKGROUND = '#05080f';
/** The uniform mode's default boid colour. */
const DEFAULT_COLOR = '#8fd3ff';

/** The schema, in GUI order. */
export const VIEW_SCHEMA: readonly ViewSpec[] = [
  {
    name: 'background',
    type: 'color',
    default: DEFAULT_BACKGROUND,
    alpha: true,
    unit: '',
    doc: 'Background: a CSS colour or transparent',
  },
  {
    name: 'colorMode',
    type: 'enum',
    default: 'speed',
    options: ['speed', 'species', 'density', 'heading', 'uniform'],
    unit: '',
    doc: 'Boid colours',
  },
  {
    name: 'color',
    type: 'color',
    default: DEFAULT_COLOR,
    alpha: false,
    unit: '',
    doc: 'Boid colour of the uniform mode',
  },
  {
    name: 'colorMap',
    type: 'enum',
    default: 'viridis',
    options: Object.keys(DENSITY_MAP_HEX),
    unit: '',
    doc: 'Colour map of the density mode',
  },
  {
    name: 'densityMax',
    type: 'float',
    default: 0,
    min: 0,
    max: 1e6,
    step: 1,
    unit: 'neighbours',
    doc: 'Neighbour count at the top of the density map (0: from the density)',
  },
  {
    name: 'boidSize',
    type: 'float',
    default: 0,
    min: 0,
    max: 1e6,
    step: 0.05,
    unit: 'world units',
    doc: 'Boid length (0: from the box)',
  },
  {
    name: 'fit',
    type: 'enum',
    default: 'contain',
    options: ['contain', 'cover'],
    unit: '',
    doc: 'Framing: whole box, or fill the canvas',
  },
  // The look (DESIGN section 7; src/core/look.ts).
  {
    name: 'shape',
    type: 'enum',
    default: 'auto',
    defaultText: '`bird` in 3D, `arrow` in 2D',
    options: ['arrow', 'bird', 'fish', 'dot'],
    unlisted: ['auto'],
    unit: '',
    doc: 'Boid mesh',
  },
  {
    name: 'flap',
    type: 'float',
    default: 1,
    min: 0,
    max: 4,
    step: 0.05,
    unit: '',
    doc: 'Wing and tail animation (0: rigid)',
  },
  {
    name: 'lighting',
    type: 'float',
    default: 0.7,
    min: 0,
    max: 1,
    step: 0.05,
    unit: '',
    doc: 'Shading by a key light and a sky/ground ambient (0: flat)',
  },
  {
    name: 'fog',
    type: 'float',
    default: 0.5,
    min: 0,
    max: 1,
    step: 0.05,
    unit: '',
    doc: 'Depth cue: far boids blend toward the background (3D)',
  },
  {
    name: 'trail',
    type: 'float',
    default: 0,
    min: 0,
    max: 0.98,
    step: 0.01,
    unit: '',
    doc: 'Trails: each frame keeps this much of the last one',
  },
  {
    name: 'lodPixels',
    type: 'float',
    default: 3,
    min: 0,
    max: 64,
    step: 0.5,
    unit: 'device pixels',
    doc: 'Boids shorter than this on screen are drawn as dots (0: off)',
  },
  { name: 'antialias', type: 'boolean', default: true, unit: '', doc: 'Multisampling (4x)' },
  {
    name: 'palette',
    type: 'enum',
    default: 'default',
    options: [...PALETTE_NAMES, 'auto'],
    unit: '',
    doc: 'Background, boid colours and light (explicit colours win); auto: light birds on a dark page, dark birds on a light one',
  },
  { name: 'showBounds', type: 'boolean', default: false, unit: '', doc: 'Box outline' },
  { name: 'showObstacles', type: 'boolean', default: true, unit: '', doc: 'Obstacles' },
  { name: 'showPredators', type: 'boolean', default: true, unit: '', doc: 'Predators' },
  { name: 'showAttractor', type: 'boolean', default: true, unit: '', doc: 'Attractor marker' },
  // Debug views (src/debug-layer.ts draws them over the flock from the backend's own state).
  {
    name: 'showGrid',
    type: 'boolean',
    default: false,
    unit: '',
    doc: 'Debug: occupied grid cells (3D: the slice through the centre)',
  },
  {
    name: 'showVelocities',
    type: 'boolean',
    default: false,
    unit: '',
    doc: 'Debug: velocity lines (0.5 s of flight)',
  },
  {
    name: 'pickedBoid',
    type: 'float',
    integer: true,
    default: -1,
    min: -1,
    max: 16777215,
    step: 1,
    unit: 'boid id',
    doc: 'Debug: the boid whose radii and neighbours are drawn (-1: none; click a boid in the demo)',
  },
  // ---- The page (DESIGN section 7, second table) ----
  {
    name: 'autoBounds',
    type: 'boolean',
    default: false,
    unit: '',
    doc: "Box follows the canvas's shape, its volume from the count at the default density",
  },
  {
    name: 'density',
    type: 'float',
    default: 0,
    min: 0,
    max: 10000,
    step: 1,
    unit: 'boids per 10,000 CSS px²',
    doc: 'Count from the area (capped by what the device holds and by count); 0: off',
  },
  {
    name: 'warmup',
    type: 'float',
    default: 0,
    min: 0,
    max: 60,
    step: 0.5,
    unit: 's',
    doc: 'Simulated seconds flown unseen before the first frame (at most 1.5 s of wall time)',
  },
  {
    name: 'pointer',
    type: 'enum',
    default: 'off',
    options: ['off', 'element', 'page'],
    unit: '',
    doc: 'Where the pointer attracts the flock: off, over the element, or anywhere on the page',
  },
  {
    name: 'maxFps',
    type: 'float',
    default: 0,
    min: 0,
    max: 240,
    step: 1,
    unit: 'frames/s',
    doc: "Frame cap (0: the display's rate); steps still follow real time",
  },
  {
    name: 'resolutionScale',
    type: 'float',
    default: 1,
    min: 0.25,
    max: 2,
    step: 0.05,
    unit: '× devicePixelRatio',
    doc: 'Drawing-buffer pixels per CSS pixel, times devicePixelRatio',
  },
] as ViewSpec[];

const SPEC_BY_NAME = new Map(VIEW_SCHEMA.map((s) => [s.name, s]));

/** The spec of one view option, or undefined for an unknown name. */
export function viewSpec(name: string): ViewSpec | undefined {
  return SPEC_BY_NAME.get(name as keyof ViewOptions);
}

/** A fresh copy of the defaults. */
export function defaultView(): ViewOptions {
  const out: Record<string, unknown> = {};
  for (const s of VIEW_SCHEMA) out[s.name] = s.default;
  return out as unknown as ViewOptions;
}

/** Words for a view spec's allowed values, used in FlockError.allowed. */
export function viewAllowedText(spec: ViewSpec): string {
  const unit = spec.unit ? ` (${spec.unit})` : '';
  switch (spec.type) {
    case 'enum':
      return `one of ${spec.options.map((o) => describeValue(o)).join(', ')}`;
    case 'float':
      return `${spec.integer ? 'an integer' : 'a finite number'} from ${spec.min} to ${spec.max}${unit}`;
    case 'boolean':
      return 'true or false';
    case 'color':
      return spec.alpha
        ? 'a CSS colour (e.g. "#05080f", "rgb(5, 8, 15)", "navy", "rgba(0, 0, 0, 0.5)") or "transparent"'
        : 'an opaque CSS colour (e.g. "#8fd3ff", "rgb(143, 211, 255)", "skyblue")';
  }
}

function checkViewField(spec: ViewSpec, value: unknown): unknown {
  const fail = (): never => {
    throw new FlockError(spec.name, value, viewAllowedText(spec));
  };
  switch (spec.type) {
    case 'enum':
      if (!spec.options.includes(value as string) && !spec.unlisted?.includes(value as string))
        fail();
      return value;
    case 'float':
      if (typeof value !== 'number' || !Number.isFinite(value)) fail();
      if ((value as number) < spec.min || (value as number) > spec.max) fail();
      if (spec.integer && !Number.isInteger(value)) fail();
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') fail();
      return value;
    case 'color': {
      const c = parseCssColor(value);
      if (!c || (!spec.alpha && c[3] < 1)) fail();
      return (value as string).trim();
    }
  }
}

/**
 * The options each view of validateView was given (over its base's), whatever their values: a
 * palette fills the colours not given, so an explicit colour equal to the default still wins.
 */
const GIVEN = new WeakMap<object, Set<string>>();

/** Whether `view` was given colour `key`; a view not made by validateView: unless at its default. */
function given(view: object, key: 'background' | 'color'): boolean {
  const value = (view as Record<string, string>)[key]!;
  return GIVEN.get(view)?.has(key) ?? value.trim() !== SPEC_BY_NAME.get(key)!.default;
}

/**
 * Merges `partial` over `base` and validates each given field against VIEW_SCHEMA. A colour given
 * as null is back to its default, not given (a palette's then).
 * Returns a new object; `base` is never modified.
 * @throws FlockError naming the first offending field, its value and what is allowed; unknown keys too.
 */
export function validateView(
  partial: ViewInput | Record<string, unknown> = {},
  base: ViewOptions = defaultView(),
): ViewOptions {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
    throw new FlockError('view', partial, 'an object of view option names to values');
  }
  const merged: Record<string, unknown> = { ...base };
  const was = (k: 'background' | 'color') => (given(base, k) ? [k] : []);
  const keys = new Set<string>([...was('background'), ...was('color')]);
  GIVEN.set(merged, keys);
  for (const [key, value] of Object.entries(partial)) {
    if (value === undefined) continue;
    const spec = SPEC_BY_NAME.get(key as keyof ViewOptions);
    if (!spec) {
      throw new FlockError(
        key,
        value,
        `a known view option: ${VIEW_SCHEMA.map((s) => s.name).join(', ')}`,
        'unknown view option',
      );
    }
    if (value === null && spec.type === 'color') {
      merged[key] = spec.default;
      keys.delete(key);
      continue;
    }
    merged[key] = checkViewField(spec, value);
    keys.add(key);
  }
  return merged as unknown as ViewOptions;
}

/** The colours of a view, resolved (valid views only: validateView checked them). */
export interface ViewColors {
  /** Straight-alpha sRGB background. */
  background: RGBA;
  /** Opaque boid colour of the uniform mode, sRGB. */
  color: [number, number, number];
  /** The speed mode's 4 stops (slow .. fast), sRGB: the palette's. */
  ramp: [number, number, number][];
  /** The key light's colour (sRGB factors): the palette's. */
  light: [number, number, number];
}

/**
 * The background a view shows: its own, or its palette's when `background` is left at its
 * default (a palette fills only what was not set), as the CSS string for a page's style.
 */
export function viewBackground(
  view: Pick<ViewOptions, 'background'> & { palette?: PaletteChoice },
): string {
  const named = view.palette !== 'default' && view.palette !== 'auto';
  if (view.palette && named && !given(view, 'background')) {
    const [r, g, b] = palette(view.palette).background.map((x) => Math.round(x * 255));
    return `rgb(${r}, ${g}, ${b})`;
  }
  return view.background;
}

/**
 * Resolves a validated view's colour strings to numbers, with its palette (src/core/palette.ts):
 * the palette gives the ramp and the light, and the background and uniform colour where those
 * are left at their defaults (the uniform colour then is the ramp's third stop).
 */
export function viewColors(
  view: Pick<ViewOptions, 'background' | 'color'> & { palette?: PaletteChoice },
): ViewColors {
  const pal = palette(view.palette ?? 'default');
  const bg = parseCssColor(viewBackground(view)) ?? [0, 0, 0, 1];
  const named = view.palette !== 'default' && view.palette !== 'auto';
  const custom = view.palette && named && !given(view, 'color');
  const c = custom ? [...pal.ramp[2]!, 1] : (parseCssColor(view.color) ?? [1, 1, 1, 1]);
  return { background: bg, color: [c[0]!, c[1]!, c[2]!], ramp: pal.ramp, light: pal.light };
}
