/**
 * What one frame draws besides the boids, resolved once on the CPU for every renderer (WebGL2,
 * WebGPU, Canvas 2D), so they all draw the same picture: background, boid colouring, the box
 * outline, obstacles, predators (positions at the simulated time, DESIGN.md section 1) and the
 * attractor marker.
 */
import { predatorPosition } from './behaviours';
import type { RGBA } from './color';
import type { Shape } from './look';
import type { FlockParams, Vec3 } from './params';
import { COLOR_MODE_CODE, colorTable, predatorSizeFor } from './render-math';
import { resolvedShape, viewColors, type ViewOptions } from './view';

/** The scene of one frame. Arrays are owned by the scene (renderers only read them). */
export interface RenderScene {
  /** Straight-alpha sRGB background; alpha 0 is `transparent`. */
  background: RGBA;
  /** COLOR_MODE_CODE of view.colorMode. */
  colorMode: number;
  /** The uniform mode's colour, sRGB. */
  color: [number, number, number];
  /** colorTable(view): Float32Array(4 * COLOR_TABLE_SIZE). */
  table: Float32Array;
  /** Neighbour count at the top of the density map. */
  densityMax: number;
  /** The box to outline, or null. In 2D z is ignored (drawn at z = 0). */
  bounds: { min: Vec3; max: Vec3 } | null;
  /** Obstacles to draw: Float32Array(4 * n), centre xyz + radius (world units); empty when hidden. */
  obstacles: Float32Array;
  /** Predators to draw: Float32Array(8 * n), position xyz + 0, then heading xyz + 0 (unit length). */
  predators: Float32Array;
  /** Predator length, world units: predatorSizeFor (render-math.ts), on every renderer. */
  predatorSize: number;
  /** The attractor while active and shown: xyz (world units) + strength (> 0 attracts); else null. */
  attractor: [number, number, number, number] | null;
  /** The attractor's reach, world units. */
  attractorRadius: number;
  dimensions: 2 | 3;
  /** The look (src/core/look.ts): the mesh (`auto` resolved by the dimensions) and its options. */
  shape: Shape;
  flap: number;
  lighting: number;
  fog: number;
  trail: number;
  lodPixels: number;
  antialias: boolean;
  /** The speed mode's 4 stops (slow .. fast), sRGB: the palette's. */
  ramp: [number, number, number][];
  /** The key light's colour: the palette's. */
  light: [number, number, number];
}

/** The parts of a view that change only with the view (cached by the Flock between frames). */
export interface ViewStatic {
  background: RGBA;
  color: [number, number, number];
  colorMode: number;
  table: Float32Array;
  ramp: [number, number, number][];
  light: [number, number, number];
}

/** Resolves a validated view's colours and colour table. */
export function viewStatic(view: ViewOptions): ViewStatic {
  const c = viewColors(view);
  return {
    background: c.background,
    color: c.color,
    colorMode: COLOR_MODE_CODE[view.colorMode],
    table: colorTable(view),
    ramp: c.ramp,
    light: c.light,
  };
}

/**
 * The density map's top when view.densityMax is 0: twice the mean |N_i| the default rules reach
 * (README "The model": about 24 in the default 3D scene, 200 in 2D), scaled by the neighbours a
 * uniform spread would give, u = count * (pi r^2 / area) in 2D, count * (4/3 pi r^3 / volume) in
 * 3D: flocking gathers about 11 u in 3D and 4 u in 2D. At least 4.
 */
export function autoDensityMax(
  p: Pick<FlockParams, 'count' | 'dimensions' | 'boundsMin' | 'boundsMax' | 'perceptionRadius'>,
): number {
  const r = p.perceptionRadius;
  const sx = p.boundsMax[0] - p.boundsMin[0];
  const sy = p.boundsMax[1] - p.boundsMin[1];
  if (p.dimensions === 2) return Math.max(4, 8 * ((p.count * Math.PI * r * r) / (sx * sy)));
  const sz = p.boundsMax[2] - p.boundsMin[2];
  return Math.max(4, 22 * ((p.count * (4 / 3) * Math.PI * r ** 3) / (sx * sy * sz)));
}

/**
 * Predator positions and headings at simulated time t (seconds), Float32Array(8 * predators) as
 * RenderScene.predators: predatorPosition (src/core/behaviours.ts), and the direction of its
 * derivative (a central difference over 1 ms; a predator at a turning point keeps +x).
 */
export function predatorScene(
  params: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions' | 'predators'>,
  t: number,
): Float32Array {
  const out = new Float32Array(8 * params.predators);
  const h = 1e-3;
  for (let k = 0; k < params.predators; k++) {
    const p = predatorPosition(params, k, t);
    const a = predatorPosition(params, k, t - h);
    const b = predatorPosition(params, k, t + h);
    const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const len = Math.hypot(d[0]!, d[1]!, d[2]!);
    out.set([p[0], p[1], p[2], 0], 8 * k);
    out.set(len > 1e-12 ? [d[0]! / len, d[1]! / len, d[2]! / len, 0] : [1, 0, 0, 0], 8 * k + 4);
  }
  return out;
}

/**
 * The scene of one frame.
 * @param predators positions and headings, Float32Array(8 * n) as RenderScene.predators
 *   (predatorScene gives them for the simulated time)
 */
export function buildScene(
  params: FlockParams,
  view: ViewOptions,
  fixed: ViewStatic,
  boidSize: number,
  predators: Float32Array = new Float32Array(0),
): RenderScene {
  const dims = params.dimensions === 2 ? 2 : 3;
  const obstacleList = view.showObstacles ? params.obstacles : [];
  const obstacles = new Float32Array(4 * obstacleList.length);
  obstacleList.forEach((o, k) => {
    obstacles.set([o.center[0], o.center[1], dims === 2 ? 0 : o.center[2], o.radius], 4 * k);
  });
  const strength = params.attractorStrength;
  const a = params.attractor;
  return {
    background: fixed.background,
    colorMode: fixed.colorMode,
    color: fixed.color,
    table: fixed.table,
    densityMax: view.densityMax > 0 ? view.densityMax : autoDensityMax(params),
    bounds: view.showBounds ? { min: params.boundsMin, max: params.boundsMax } : null,
    obstacles,
    predators: view.showPredators ? predators : new Float32Array(0),
    predatorSize: predatorSizeFor(params, boidSize),
    attractor:
      view.showAttractor && strength !== 0 ? [a[0], a[1], dims === 2 ? 0 : a[2], strength] : null,
    attractorRadius: params.attractorRadius,
    dimensions: dims,
    shape: resolvedShape(view.shape, dims),
    flap: view.flap,
    lighting: view.lighting,
    fog: view.fog,
    trail: view.trail,
    lodPixels: view.lodPixels,
    antialias: view.antialias,
    ramp: fixed.ramp,
    light: fixed.light,
  };
}
