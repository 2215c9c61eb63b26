/**
 * Scenes: the box that fits a count (`sceneBounds`, a fixed density of boids) and the named
 * presets (murmuration, school, swarm, stress), each plain data: parameters, view options and a
 * density, validated by the schemas (tests/unit/presets.test.ts). Used by the demo (menu and
 * `?preset=`) and the <gpu-flock preset="..."> element through `presetOptions`.
 *
 * Why a density and not bounds: DESIGN's default box (64 units, 16,384 boids) gives each boid
 * about two neighbours in 3D, and the same box in 2D about fifty; a count of 1,000 or 1,000,000
 * in that box is a different picture. A scene instead keeps boids per unit³ (3D) or unit² (2D)
 * fixed, so the box grows with the count and the look stays. createFlock's own defaults stay
 * DESIGN's; only these helpers (and the demo's "box scales with count" switch) apply a density.
 */
import { FlockError } from './errors';
import { MAX_COUNT, validateParams, type FlockParams, type Obstacle, type Vec3 } from './params';

/**
 * Boids per unit of volume (3D: per unit³) or area (2D: per unit²) of the default scene.
 * 3D: DESIGN's default, 16,384 boids in a 64-unit cube (side 64*(count/16384)^(1/3)).
 * 2D: 0.5 boid per unit², so a boid starts with pi*r²/2 = 6.3 neighbours at r = 2 (inside the
 * 5-20 of a flock that forms groups without jamming; 16,384 boids in a 181-unit square). At 1
 * per unit² (12.6 neighbours) `npm run order` gives a little less order after 3 s (0.71 vs 0.73).
 */
export const SCENE_DENSITY: Readonly<Record<2 | 3, number>> = { 3: 16384 / 64 ** 3, 2: 0.5 };

/** Smallest side of a scene box (world units): a few boids still have room, wrap still has 3 cells. */
export const MIN_SCENE_SIDE = 12;

/**
 * The box of a scene: a cube (3D) or square (2D, z spans the same side) centred on the origin
 * whose side holds `count` boids at `density`:
 * side = max(MIN_SCENE_SIDE, (count / density)^(1/dimensions)), rounded to 1/100 unit.
 * @param density boids per unit³ (3D) or unit² (2D); SCENE_DENSITY's by default
 * @throws FlockError('count') for a count that is not an integer >= 1, ('density') for one <= 0
 */
export function sceneBounds(
  count: number,
  dimensions: 2 | 3,
  density: number = SCENE_DENSITY[dimensions],
): {
  /** Minimum corner, world units. */
  boundsMin: Vec3;
  /** Maximum corner, world units. */
  boundsMax: Vec3;
} {
  if (!Number.isInteger(count) || count < 1) {
    throw new FlockError('count', count, `an integer from 1 to ${MAX_COUNT} (boids)`);
  }
  if (!(density > 0) || !Number.isFinite(density)) {
    throw new FlockError('density', density, 'a finite number > 0 (boids per unit³ or unit²)');
  }
  const side = Math.max(MIN_SCENE_SIDE, (count / density) ** (1 / dimensions));
  const h = Math.round(side * 50) / 100;
  return { boundsMin: [-h, -h, -h], boundsMax: [h, h, h] };
}

/** The density (boids per unit³ or unit²) of a flock's box; the inverse of sceneBounds. */
export function boxDensity(
  p: Pick<FlockParams, 'count' | 'dimensions' | 'boundsMin' | 'boundsMax'>,
): number {
  let size = 1;
  for (let a = 0; a < p.dimensions; a++) size *= p.boundsMax[a]! - p.boundsMin[a]!;
  return p.count / size;
}

/** Presets' names, in menu order. */
export const PRESET_NAMES = ['murmuration', 'school', 'swarm', 'stress'] as const;
/** A preset's name: murmuration, school, swarm or stress. */
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * A named scene: parameters over the defaults (never the bounds: they come from `density` and
 * the count), view options over the view defaults, and words for the page.
 */
export interface Preset {
  /** Its name, as `preset=` in the demo's URL and the element's attribute take it. */
  name: PresetName;
  /** A few words for the menu and the caption. */
  title: string;
  /** One sentence: what the scene shows. */
  description: string;
  /** Boids per unit³ (3D) or unit² (2D); the box is sceneBounds(count, dimensions, density). */
  density: number;
  /**
   * Count 'max': the largest count the backend holds (flock.maxCount), capped at STRESS_COUNT
   * so a page stays usable; otherwise params.count.
   */
  count: number | 'max';
  /** Parameters over defaultParams() (no count, no bounds). */
  params: Partial<Omit<FlockParams, 'count' | 'boundsMin' | 'boundsMax'>>;
  /** View options over the view defaults (src/core/view.ts's schema). */
  view: Readonly<Record<string, unknown>>;
}

/** The stress preset's count where the device holds more: 2^20 boids. */
export const STRESS_COUNT = 1 << 20;

/** Rocks of the school preset, in units of the box's half side (scaled by presetOptions). */
const ROCKS: readonly { center: Vec3; radius: number }[] = [
  { center: [-0.45, -0.55, -0.2], radius: 0.3 },
  { center: [0.35, -0.6, 0.35], radius: 0.25 },
  { center: [0.1, 0.05, -0.45], radius: 0.18 },
  { center: [0.5, 0.3, -0.1], radius: 0.12 },
  { center: [-0.2, 0.4, 0.45], radius: 0.14 },
];

/** Every preset by name. */
export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  murmuration: {
    name: 'murmuration',
    title: 'Murmuration',
    description: 'starlings: one large dense flock that bends around a hawk in a light wind',
    density: 2 * SCENE_DENSITY[3],
    count: 65536,
    params: {
      dimensions: 3,
      steering: 'reynolds',
      boundary: 'soft',
      boundaryMargin: 8,
      boundaryForce: 4,
      separationRadius: 1,
      perceptionRadius: 2.5,
      maxSpeed: 7,
      minSpeed: 3,
      maxSteerForce: 3,
      predators: 1,
      predatorRadius: 10,
      predatorForce: 16,
      wind: [1, 0, 0.4],
    },
    // Dark starlings on a dusk sky (the palette's magma ramp: faster birds a shade lighter).
    view: { shape: 'bird', palette: 'dusk', colorMode: 'speed', showPredators: true },
  },
  school: {
    name: 'school',
    title: 'School',
    description: 'fish: two species that school apart among rocks in a turbulent current',
    density: SCENE_DENSITY[3],
    count: 16384,
    params: {
      dimensions: 3,
      steering: 'reynolds',
      boundary: 'soft',
      separationRadius: 1,
      species: 2,
      obstacleMargin: 3,
      obstacleForce: 10,
      turbulence: 1.5,
      turbulenceScale: 32,
      maxSpeed: 4,
      minSpeed: 1.5,
    },
    // Fish in the ocean palette: its deep blue water and cool light; the two species by colour.
    // 1.5 units long (the default would be 1% of the box): fish read as fish, not dashes.
    view: {
      shape: 'fish',
      palette: 'ocean',
      colorMode: 'species',
      boidSize: 1.5,
      showObstacles: true,
    },
  },
  swarm: {
    name: 'swarm',
    title: 'Swarm',
    description: 'insects: many small boids on a torus (2D, the edges wrap around)',
    density: 1,
    count: 65536,
    params: {
      dimensions: 2,
      steering: 'reynolds',
      boundary: 'wrap',
      separationRadius: 0.8,
      perceptionRadius: 1.6,
      maxSpeed: 6,
      minSpeed: 2,
    },
    view: { background: '#0b0b10', colorMode: 'heading', boidSize: 0.5 },
  },
  stress: {
    name: 'stress',
    title: 'Stress',
    description: 'as many boids as the device holds, three plain rules: for comparing backends',
    density: SCENE_DENSITY[3],
    count: 'max',
    params: { dimensions: 3, steering: 'reynolds', boundary: 'soft', separationRadius: 1 },
    view: { colorMode: 'speed' },
  },
};

/** True when `name` names a preset. */
export function isPresetName(name: unknown): name is PresetName {
  return typeof name === 'string' && (PRESET_NAMES as readonly string[]).includes(name);
}

/**
 * A preset as createFlock options: the parameters (count resolved, the box from the density,
 * the school's rocks scaled into the box) and the view. Validated: a preset that does not pass
 * the parameter schema throws.
 * @param maxCount the running backend's limit (flock.maxCount): 'max' resolves to
 *   min(maxCount, STRESS_COUNT) and a fixed count is capped at it; Infinity before a flock exists
 * @throws FlockError('preset') for an unknown name
 */
export function presetOptions(
  name: string,
  maxCount = Infinity,
): {
  /** The preset's parameters (box scaled for the count). */
  params: Partial<FlockParams>;
  /** Its view options. */
  view: Record<string, unknown>;
} {
  if (!isPresetName(name)) {
    throw new FlockError('preset', name, `one of ${PRESET_NAMES.map((n) => `"${n}"`).join(', ')}`);
  }
  const preset = PRESETS[name];
  const limit = maxCount > 0 ? maxCount : Infinity;
  const wanted = preset.count === 'max' ? STRESS_COUNT : preset.count;
  const count = Math.max(1, Math.min(wanted, limit));
  const dimensions = preset.params.dimensions ?? 3;
  const bounds = sceneBounds(count, dimensions, preset.density);
  const params: Partial<FlockParams> = { ...preset.params, count, ...bounds };
  if (name === 'school') params.obstacles = scaledRocks(bounds.boundsMax[0]);
  validateParams(params);
  return { params, view: { ...preset.view } };
}

/** The school's rocks for a box of half side `half`. */
export function scaledRocks(half: number): Obstacle[] {
  return ROCKS.map((r) => ({
    center: r.center.map((c) => Math.round(c * half * 100) / 100) as Vec3,
    radius: Math.round(r.radius * half * 100) / 100,
  }));
}

/**
 * The parameters that keep a scene's look at a new count: the box resized about its centre so
 * its density (boxDensity) stays, obstacles scaled with it (centres about the box
 * centre, radii), and the count. For the demo's count slider under "box scales with count".
 * @throws FlockError('count') for a count that is not an integer >= 1
 */
export function rescaleForCount(
  p: Pick<FlockParams, 'count' | 'dimensions' | 'boundsMin' | 'boundsMax' | 'obstacles'>,
  count: number,
): Pick<FlockParams, 'count' | 'boundsMin' | 'boundsMax' | 'obstacles'> {
  if (!Number.isInteger(count) || count < 1) {
    throw new FlockError('count', count, `an integer from 1 to ${MAX_COUNT} (boids)`);
  }
  // Every axis scales by one factor (the box keeps its shape and density); shrinking stops
  // where the smallest active side reaches MIN_SCENE_SIDE.
  let minSide = Infinity;
  for (let a = 0; a < p.dimensions; a++) {
    minSide = Math.min(minSide, p.boundsMax[a]! - p.boundsMin[a]!);
  }
  let k = (count / p.count) ** (1 / p.dimensions);
  if (k < 1) k = Math.min(1, Math.max(k, MIN_SCENE_SIDE / minSide));
  const centre = [0, 1, 2].map((a) => (p.boundsMin[a]! + p.boundsMax[a]!) / 2);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const boundsMin = [0, 1, 2].map((a) => r2(centre[a]! + k * (p.boundsMin[a]! - centre[a]!)));
  const boundsMax = [0, 1, 2].map((a) => r2(centre[a]! + k * (p.boundsMax[a]! - centre[a]!)));
  const obstacles = p.obstacles.map((o) => ({
    center: o.center.map((c, a) => r2(centre[a]! + k * (c - centre[a]!))) as Vec3,
    radius: Math.max(0.01, r2(k * o.radius)),
  }));
  return { count, boundsMin: boundsMin as Vec3, boundsMax: boundsMax as Vec3, obstacles };
}
