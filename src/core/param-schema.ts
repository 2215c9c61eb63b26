/**
 * The parameter schema's data: every simulation parameter (FlockParams, units in the
 * docstrings), the spec types and PARAM_SCHEMA, one entry per parameter in GUI order with its
 * type, default, range, unit, doc, GUI label, folder and slider span. params.ts validates against
 * it and re-exports all of it; the term table (terms.ts) says how each parameter reaches the
 * shaders. DESIGN.md section 1 gives the model these parameters drive.
 */

/** x, y, z (world units, unless a field says otherwise). */
export type Vec3 = [number, number, number];
/** Box walls: soft margin + reflect, reflect, or wrap around. */
export type Boundary = 'soft' | 'bounce' | 'wrap';
/** Steering: per-rule Reynolds steering, or one weighted sum limited once. */
export type Steering = 'reynolds' | 'sum';
/** A sphere obstacle: centre (world units) and radius (world units, > 0). */
export interface Obstacle {
  center: Vec3;
  radius: number;
}
/** Neighbour search: a uniform grid (O(N) at constant density) or all pairs (O(N²)). */
export type NeighborSearch = 'grid' | 'brute';
/** How the WebGPU grid is built: a counting sort (atomics + scan) or a bitonic sort. */
export type SortKind = 'counting' | 'bitonic';
/**
 * The shape of the seed's initial state (DESIGN.md section 1): `uniform` (positions and headings
 * uniform in the box) or `groups` (a formed start: a few groups over the box, headings shared
 * within a group; src/core/start.ts gives the recipe).
 */
export type StartShape = 'uniform' | 'groups';

/** Every simulation parameter, with its unit in the docstring. */
export interface FlockParams {
  /** Number of boids, integer >= 1. Changing it re-initialises the flock from `seed`. */
  count: number;
  /** 2 or 3. In 2D every z component is 0 and the z bounds are ignored. Re-initialises. */
  dimensions: 2 | 3;
  /** World box minimum corner (world units); the box is half-open [min, max). */
  boundsMin: Vec3;
  /** World box maximum corner (world units). */
  boundsMax: Vec3;
  /** r, world units: boids closer than r (and farther than 1e-3) are neighbours. */
  perceptionRadius: number;
  /** rs, world units: neighbours closer than min(rs, r) push apart (separation, from every species). */
  separationRadius: number;
  /** ws: weight of separation (steer away from close neighbours, 1/distance). */
  separationWeight: number;
  /** wa: weight of alignment (steer toward the neighbours' mean velocity). */
  alignmentWeight: number;
  /** wc: weight of cohesion (steer toward the neighbours' mean position). */
  cohesionWeight: number;
  /**
   * Degrees, 0..360: alignment and cohesion count a neighbour only within this cone around the
   * boid's heading (Reynolds 1987's view angle); separation sees all around. 360: all around.
   */
  fieldOfView: number;
  /**
   * `reynolds`: each rule steers toward its own desired velocity, limited to maxSteerForce
   * (Reynolds 1999); `sum`: one weighted sum of the three rules, limited once (the first model).
   */
  steering: Steering;
  /** Upper speed clamp, world units per second. */
  maxSpeed: number;
  /** Lower speed clamp, world units per second; 0 turns it off. */
  minSpeed: number;
  /** Limit on the length of the summed steering acceleration, world units per second². */
  maxSteerForce: number;
  /** Fixed time step, seconds. */
  timeStep: number;
  /** What the box walls do: push back inside a margin and reflect (`soft`), reflect (`bounce`) or wrap around (`wrap`, a torus). */
  boundary: Boundary;
  /** Soft walls: width of the margin inside each wall, world units. */
  boundaryMargin: number;
  /** Soft walls: acceleration at the wall, world units/s², falling linearly to 0 across the margin. */
  boundaryForce: number;
  /** Number of species, 1..4: separation from every boid, alignment and cohesion with one's own. Boid i has species i mod species. */
  species: number;
  /** Up to 16 spheres that boids steer around and never enter. */
  obstacles: Obstacle[];
  /** Avoidance zone outside each obstacle's surface, world units. */
  obstacleMargin: number;
  /** Avoidance acceleration at an obstacle's surface, world units/s². */
  obstacleForce: number;
  /** The point force (the pointer), world units. */
  attractor: Vec3;
  /** Point force strength, world units/s²: > 0 attracts, < 0 repels, 0 off. */
  attractorStrength: number;
  /** Reach of the point force, world units (falls linearly to 0 there). */
  attractorRadius: number;
  /** Hunters on fixed paths through the box (0..8); prey flee them. Not boids. */
  predators: number;
  /** Flee zone around each predator, world units. */
  predatorRadius: number;
  /** Flee acceleration next to a predator, world units/s². */
  predatorForce: number;
  /** Uniform part of the air's flow, world units/s (moves positions only). */
  wind: Vec3;
  /** Amplitude of the divergence-free turbulent flow, world units/s. */
  turbulence: number;
  /** Wavelength of the turbulent flow, world units. */
  turbulenceScale: number;
  /** `grid` (uniform grid, O(N)) or `brute` (all pairs, the O(N²) baseline). */
  neighborSearch: NeighborSearch;
  /** WebGPU grid build: `counting` (atomics + prefix scan) or `bitonic` (as WebGL2). WebGL2 paths always sort bitonically. */
  sort: SortKind;
  /** uint32 seed of the initial state (mulberry32). Changing it re-initialises the flock. */
  seed: number;
  /**
   * The shape of the seed's initial state: `groups` (default: a formed flock at t = 0, local
   * order >= 0.9) or `uniform` (positions and headings uniform in the box). Changing it
   * re-initialises the flock.
   */
  start: StartShape;
}

/** The demo GUI's folders, in order. */
export type ParamFolder = 'Flock' | 'Behaviours' | 'World' | 'Backend';

interface SpecBase<K extends keyof FlockParams> {
  name: K;
  default: FlockParams[K];
  unit: string;
  doc: string;
  /** Its name in words, for people (the GUI adds the unit). */
  label: string;
  /** The GUI folder it sits in. */
  folder: ParamFolder;
  /** Changing this parameter re-initialises the flock from the seed. */
  reinit?: boolean;
}
export interface NumberSpec<K extends keyof FlockParams = keyof FlockParams> extends SpecBase<K> {
  type: 'int' | 'float' | 'uint32';
  min: number;
  max: number;
  /** A suggested GUI step. */
  step?: number;
  /**
   * The GUI slider's span: the part of [min, max] a person would explore (default [min, max]
   * cut to 10 times the default); the text box beside takes anything in [min, max].
   */
  slider?: readonly [number, number];
}
export interface Vec3Spec<K extends keyof FlockParams = keyof FlockParams> extends SpecBase<K> {
  type: 'vec3';
  min: number;
  max: number;
}
export interface EnumSpec<K extends keyof FlockParams = keyof FlockParams> extends SpecBase<K> {
  type: 'enum';
  options: readonly (string | number)[];
}
/** A list of sphere obstacles, checked element by element (`obstacles[2].radius`). */
export interface ObstaclesSpec<
  K extends keyof FlockParams = keyof FlockParams,
> extends SpecBase<K> {
  type: 'obstacles';
  /** Most elements. */
  maxItems: number;
  /** Range of each centre component (world units). */
  min: number;
  max: number;
  /** Range of each radius (world units). */
  minRadius: number;
  maxRadius: number;
}
/** One parameter's entry in PARAM_SCHEMA: name, type, default, range, unit, doc. */
export type ParamSpec = NumberSpec | Vec3Spec | EnumSpec | ObstaclesSpec;

/** Most obstacles a flock takes (uniform arrays on every backend). */
export const MAX_OBSTACLES = 16;
/** Most predators. */
export const MAX_PREDATORS = 8;
/** Most species. */
export const MAX_SPECIES = 4;

/** Largest count any backend may be asked for; each backend checks its own, lower, device limit. */
export const MAX_COUNT = 1 << 24;

/** The schema, in GUI order. */
export const PARAM_SCHEMA: readonly ParamSpec[] = [
  {
    name: 'count',
    label: 'Boids',
    folder: 'Flock',
    slider: [1, 1 << 20],
    type: 'int',
    default: 16384,
    min: 1,
    max: MAX_COUNT,
    unit: 'boids',
    reinit: true,
    doc: 'Number of boids',
  },
  {
    name: 'dimensions',
    label: 'Dimensions',
    folder: 'World',
    type: 'enum',
    default: 3,
    options: [2, 3],
    unit: '',
    reinit: true,
    doc: '2D or 3D flock',
  },
  {
    name: 'boundsMin',
    label: 'Box min corner',
    folder: 'World',
    type: 'vec3',
    default: [-32, -32, -32],
    min: -1e6,
    max: 1e6,
    unit: 'world units',
    doc: 'Minimum corner of the world box',
  },
  {
    name: 'boundsMax',
    label: 'Box max corner',
    folder: 'World',
    type: 'vec3',
    default: [32, 32, 32],
    min: -1e6,
    max: 1e6,
    unit: 'world units',
    doc: 'Maximum corner of the world box',
  },
  {
    name: 'perceptionRadius',
    label: 'Perception radius',
    folder: 'Flock',
    slider: [0.1, 10],
    type: 'float',
    default: 2,
    min: 0.01,
    max: 1000,
    step: 0.1,
    unit: 'world units',
    doc: 'Neighbour radius r',
  },
  {
    name: 'separationRadius',
    label: 'Separation radius',
    folder: 'Flock',
    slider: [0, 10],
    type: 'float',
    default: 1,
    min: 0,
    max: 1000,
    step: 0.1,
    unit: 'world units',
    doc: 'Separation radius rs (the model uses min(rs, r))',
  },
  {
    name: 'separationWeight',
    label: 'Separation weight',
    folder: 'Flock',
    slider: [0, 5],
    type: 'float',
    default: 1.5,
    min: 0,
    max: 100,
    step: 0.05,
    unit: '',
    doc: 'Separation weight ws',
  },
  {
    name: 'alignmentWeight',
    label: 'Alignment weight',
    folder: 'Flock',
    slider: [0, 5],
    type: 'float',
    // DESIGN gives 1; 2 meets the order targets of `npm run order` in 2D as well (README).
    default: 2,
    min: 0,
    max: 100,
    step: 0.05,
    unit: '',
    doc: 'Alignment weight wa',
  },
  {
    name: 'cohesionWeight',
    label: 'Cohesion weight',
    folder: 'Flock',
    slider: [0, 5],
    type: 'float',
    default: 1,
    min: 0,
    max: 100,
    step: 0.05,
    unit: '',
    doc: 'Cohesion weight wc',
  },
  {
    name: 'fieldOfView',
    label: 'Field of view',
    folder: 'Flock',
    slider: [0, 360],
    type: 'float',
    default: 360,
    min: 0,
    max: 360,
    step: 1,
    unit: 'degrees',
    doc: 'View cone of alignment and cohesion around the heading (360: all around; separation always sees all)',
  },
  {
    name: 'steering',
    label: 'Steering model',
    folder: 'Flock',
    type: 'enum',
    default: 'reynolds',
    options: ['reynolds', 'sum'],
    unit: '',
    doc: 'Steering: per-rule Reynolds steering, or one weighted sum',
  },
  {
    name: 'maxSpeed',
    label: 'Top speed',
    folder: 'Flock',
    slider: [0.1, 30],
    type: 'float',
    default: 5,
    min: 0.01,
    max: 1000,
    step: 0.1,
    unit: 'world units/s',
    doc: 'Upper speed clamp',
  },
  {
    name: 'minSpeed',
    label: 'Lowest speed',
    folder: 'Flock',
    slider: [0, 30],
    type: 'float',
    default: 2,
    min: 0,
    max: 1000,
    step: 0.1,
    unit: 'world units/s',
    doc: 'Lower speed clamp (0: off)',
  },
  {
    name: 'maxSteerForce',
    label: 'Steering force limit',
    folder: 'Flock',
    slider: [0, 30],
    type: 'float',
    default: 2,
    min: 0,
    max: 1000,
    step: 0.1,
    unit: 'world units/s²',
    doc: 'Limit on the steering acceleration',
  },
  {
    name: 'timeStep',
    label: 'Time step',
    folder: 'World',
    slider: [0.001, 0.05],
    type: 'float',
    default: 1 / 60,
    min: 1e-4,
    max: 0.1,
    step: 0.001,
    unit: 's',
    doc: 'Fixed simulation time step',
  },
  {
    name: 'boundary',
    label: 'Walls',
    folder: 'World',
    type: 'enum',
    default: 'soft',
    options: ['soft', 'bounce', 'wrap'],
    unit: '',
    doc: 'Box walls: soft margin + reflect, reflect, or wrap',
  },
  {
    name: 'boundaryMargin',
    label: 'Wall margin',
    folder: 'World',
    slider: [0, 32],
    type: 'float',
    default: 4,
    min: 0.01,
    max: 1e6,
    step: 0.1,
    unit: 'world units',
    doc: 'Soft-wall margin width',
  },
  {
    name: 'boundaryForce',
    label: 'Wall push',
    folder: 'World',
    slider: [0, 30],
    type: 'float',
    default: 4,
    min: 0,
    max: 1000,
    step: 0.1,
    unit: 'world units/s²',
    doc: 'Soft-wall push at the wall',
  },
  {
    name: 'species',
    label: 'Species',
    folder: 'Flock',
    type: 'int',
    default: 1,
    min: 1,
    max: MAX_SPECIES,
    unit: '',
    doc: 'Number of species (flock with their own kind)',
  },
  {
    name: 'obstacles',
    label: 'Obstacles',
    folder: 'Behaviours',
    type: 'obstacles',
    default: [],
    maxItems: MAX_OBSTACLES,
    min: -1e6,
    max: 1e6,
    minRadius: 0.01,
    maxRadius: 1e6,
    unit: 'world units',
    doc: 'Sphere obstacles {center, radius}',
  },
  {
    name: 'obstacleMargin',
    label: 'Obstacle margin',
    folder: 'Behaviours',
    slider: [0, 16],
    type: 'float',
    default: 2,
    min: 0.01,
    max: 1000,
    step: 0.1,
    unit: 'world units',
    doc: 'Obstacle avoidance zone outside the surface',
  },
  {
    name: 'obstacleForce',
    label: 'Obstacle push',
    folder: 'Behaviours',
    slider: [0, 50],
    type: 'float',
    default: 8,
    min: 0,
    max: 1000,
    step: 0.1,
    unit: 'world units/s²',
    doc: 'Obstacle avoidance push at the surface',
  },
  {
    name: 'attractor',
    label: 'Attractor position',
    folder: 'Behaviours',
    type: 'vec3',
    default: [0, 0, 0],
    min: -1e6,
    max: 1e6,
    unit: 'world units',
    doc: 'Point force position (the pointer)',
  },
  {
    name: 'attractorStrength',
    label: 'Attractor strength',
    folder: 'Behaviours',
    slider: [-50, 50],
    type: 'float',
    default: 0,
    min: -1000,
    max: 1000,
    step: 0.1,
    unit: 'world units/s²',
    doc: 'Point force: > 0 attracts, < 0 repels, 0 off',
  },
  {
    name: 'attractorRadius',
    label: 'Attractor reach',
    folder: 'Behaviours',
    slider: [1, 64],
    type: 'float',
    default: 16,
    min: 0.01,
    max: 1e6,
    step: 0.1,
    unit: 'world units',
    doc: 'Point force reach',
  },
  {
    name: 'predators',
    label: 'Predators',
    folder: 'Behaviours',
    type: 'int',
    default: 0,
    min: 0,
    max: MAX_PREDATORS,
    unit: '',
    doc: 'Predators on fixed paths (prey flee)',
  },
  {
    name: 'predatorRadius',
    label: 'Predator flee radius',
    folder: 'Behaviours',
    slider: [0.5, 32],
    type: 'float',
    default: 8,
    min: 0.01,
    max: 1000,
    step: 0.1,
    unit: 'world units',
    doc: 'Flee zone around a predator',
  },
  {
    name: 'predatorForce',
    label: 'Predator flee push',
    folder: 'Behaviours',
    slider: [0, 50],
    type: 'float',
    default: 12,
    min: 0,
    max: 1000,
    step: 0.1,
    unit: 'world units/s²',
    doc: 'Flee push next to a predator',
  },
  {
    name: 'wind',
    label: 'Wind',
    folder: 'Behaviours',
    type: 'vec3',
    default: [0, 0, 0],
    min: -1000,
    max: 1000,
    unit: 'world units/s',
    doc: 'Uniform wind (moves positions only)',
  },
  {
    name: 'turbulence',
    label: 'Turbulence',
    folder: 'Behaviours',
    slider: [0, 10],
    type: 'float',
    default: 0,
    min: 0,
    max: 1000,
    step: 0.1,
    unit: 'world units/s',
    doc: 'Turbulent flow amplitude',
  },
  {
    name: 'turbulenceScale',
    label: 'Turbulence wavelength',
    folder: 'Behaviours',
    slider: [1, 128],
    type: 'float',
    default: 16,
    min: 0.01,
    max: 1e6,
    step: 0.5,
    unit: 'world units',
    doc: 'Turbulent flow wavelength',
  },
  {
    name: 'neighborSearch',
    label: 'Neighbour search',
    folder: 'Backend',
    type: 'enum',
    default: 'grid',
    options: ['grid', 'brute'],
    unit: '',
    doc: 'Uniform grid or all pairs',
  },
  {
    name: 'sort',
    label: 'Grid sort',
    folder: 'Backend',
    type: 'enum',
    default: 'counting',
    options: ['counting', 'bitonic'],
    unit: '',
    doc: 'WebGPU grid build (WebGL2 always bitonic)',
  },
  {
    name: 'seed',
    label: 'Seed',
    folder: 'Flock',
    slider: [0, 9999],
    type: 'uint32',
    default: 1,
    min: 0,
    max: 4294967295,
    unit: '',
    reinit: true,
    doc: 'Seed of the initial state',
  },
  {
    name: 'start',
    label: 'Start',
    folder: 'Flock',
    type: 'enum',
    default: 'groups',
    options: ['groups', 'uniform'],
    unit: '',
    reinit: true,
    doc: 'Initial state: a formed flock in groups, or uniform in the box',
  },
] as ParamSpec[];
