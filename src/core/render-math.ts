/**
 * Drawing conventions shared by every backend, so all paths draw the same picture: the boid mesh,
 * the speed colour ramp, the default boid size and the orbit camera's matrices (gl-matrix's mat4 and vec3, float32 storage; the inverse for
 * picking in float64). gl-matrix comes in by its per-function modules so that every bundler keeps
 * only the functions used here (about 1.5 KB gzip instead of 7 KB through 'gl-matrix' with esbuild).
 */
import {
  create as mat4Create,
  determinant,
  invert,
  lookAt,
  multiply,
  perspectiveNO,
  perspectiveZO,
} from 'gl-matrix/esm/mat4.js';
import { fromValues as vec3FromValues } from 'gl-matrix/esm/vec3.js';
import { DENSITY_MAP_HEX, HEADING_MAP_HEX, SPECIES_PALETTE_HEX, TABLE_SIZE } from './colormaps.gen';
import type { FlockParams } from './params';
import type { ColorMode, Fit, ViewOptions } from './view';

/**
 * The boid mesh: a flat-shaded arrowhead pointing along +x (its velocity), 4 triangles =
 * 12 vertices, xyz per vertex in units of the boid length (nose at x = +0.5).
 * Per-vertex shade in `BOID_MESH_SHADE` (0.6..1) fakes lighting without normals.
 */
export const BOID_MESH = new Float32Array([
  // top (y up) left and right
  0.5, 0, 0, -0.5, 0.15, 0, -0.5, 0, 0.25, 0.5, 0, 0, -0.5, 0, -0.25, -0.5, 0.15, 0,
  // bottom left and right
  0.5, 0, 0, -0.5, 0, 0.25, -0.5, -0.1, 0, 0.5, 0, 0, -0.5, -0.1, 0, -0.5, 0, -0.25,
]);
export const BOID_MESH_VERTICES = 12;
export const BOID_MESH_SHADE = new Float32Array([
  1, 1, 1, 0.8, 0.8, 0.8, 0.6, 0.6, 0.6, 0.7, 0.7, 0.7,
]);

/**
 * Speed colour ramp (the default palette's): t = clamp((speed - minSpeed) / (maxSpeed - minSpeed),
 * 0, 1) (t = speed/maxSpeed when minSpeed == maxSpeed is 0...), then 3 linear segments from a
 * muted steel blue (slow) through lighter blues to a warm off-white (fast). One hue that brightens
 * with speed: a flock shimmers like birds catching the light, where the former blue -> cyan ->
 * yellow -> red ramp made neighbours of slightly different speeds read as confetti (seen beside
 * three.js's GPGPU birds, docs/lab-notes.md). The GLSL and WGSL versions (`speedColor`) take
 * these stops as uniforms.
 */
export const SPEED_RAMP: readonly [number, number, number][] = [
  [0.22, 0.36, 0.62],
  [0.38, 0.56, 0.8],
  [0.62, 0.78, 0.93],
  [0.96, 0.93, 0.86],
];

/** Colour of a boid moving at `speed`, RGB in [0, 1]. */
export function speedColor(
  speed: number,
  minSpeed: number,
  maxSpeed: number,
  ramp: readonly (readonly number[])[] = SPEED_RAMP,
): [number, number, number] {
  const span = maxSpeed - minSpeed;
  let t = span > 1e-6 ? (speed - minSpeed) / span : speed / Math.max(maxSpeed, 1e-6);
  t = Math.min(1, Math.max(0, t)) * 3;
  const i = Math.min(2, Math.floor(t));
  const f = t - i;
  const a = ramp[i]!;
  const b = ramp[i + 1]!;
  return [a[0]! + (b[0]! - a[0]!) * f, a[1]! + (b[1]! - a[1]!) * f, a[2]! + (b[2]! - a[2]!) * f];
}

/** Predators are drawn this many boid lengths long, unless that is too large a part of the box. */
export const PREDATOR_SCALE = 4;

/**
 * The most of the box's largest active side a predator is drawn long. In a small box (a phone's
 * 512-boid murmuration: a 16-unit cube) the boid length is its floor, 0.25*perceptionRadius, so
 * PREDATOR_SCALE boid lengths was 16% of the box: a hawk about 100 px long across a phone. 8%
 * keeps it the largest thing in the sky without filling it; in the default-density scenes
 * (boid length 1.5% of the side, 6% for the predator) the cap never bites.
 */
export const PREDATOR_MAX_BOX_FRACTION = 0.08;

/** A capped predator is still at least this many boid lengths long (a hawk, not a starling). */
export const PREDATOR_MIN_SCALE = 2;

/** The largest side of the box on the active axes (x, y in 2D; x, y, z in 3D), world units. */
export function largestSide(
  p: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>,
): number {
  const axes = p.dimensions === 2 ? 2 : 3;
  let side = 0;
  for (let a = 0; a < axes; a++) side = Math.max(side, p.boundsMax[a]! - p.boundsMin[a]!);
  return side;
}

/** Boid length in world units: 1.5% of the box's largest active side, at least 0.25*perceptionRadius. */
export function boidSizeFor(
  p: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions' | 'perceptionRadius'>,
): number {
  return Math.max(0.015 * largestSide(p), 0.25 * p.perceptionRadius);
}

/**
 * Predator length in world units, the one number every renderer draws it at (RenderScene
 * .predatorSize): PREDATOR_SCALE boid lengths, at most PREDATOR_MAX_BOX_FRACTION of the box's
 * largest active side, never under PREDATOR_MIN_SCALE boid lengths:
 * max(2 b, min(4 b, 0.08 side)).
 * @param boidSize the boid length drawn, world units (view.boidSize or boidSizeFor)
 */
export function predatorSizeFor(
  p: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>,
  boidSize: number,
): number {
  const capped = Math.min(PREDATOR_SCALE * boidSize, PREDATOR_MAX_BOX_FRACTION * largestSide(p));
  return Math.max(PREDATOR_MIN_SCALE * boidSize, capped);
}

/** An orbit camera around `target`: yaw and pitch in radians, distance in world units, fovY in radians. */
export interface OrbitCamera {
  /** The point looked at, world units. */
  target: [number, number, number];
  /** From the target, world units (> 0). */
  distance: number;
  /** Rotation about the vertical axis, radians. */
  yaw: number;
  /** Elevation, radians (within ±π/2). */
  pitch: number;
  /** Vertical field of view, radians. */
  fovY: number;
}

/** A camera that frames the box: 3D from an oblique angle, 2D straight down the z axis. */
export function defaultCamera(
  p: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>,
): OrbitCamera {
  const c = [0, 1, 2].map((a) => (p.boundsMin[a]! + p.boundsMax[a]!) / 2) as [
    number,
    number,
    number,
  ];
  const sx = p.boundsMax[0] - p.boundsMin[0];
  const sy = p.boundsMax[1] - p.boundsMin[1];
  const sz = p.dimensions === 2 ? 0 : p.boundsMax[2] - p.boundsMin[2];
  const fovY = Math.PI / 4;
  if (p.dimensions === 2) {
    c[2] = 0;
    return {
      target: c,
      distance: (0.55 * Math.max(sx, sy)) / Math.tan(fovY / 2),
      yaw: 0,
      pitch: 0,
      fovY,
    };
  }
  const radius = 0.5 * Math.hypot(sx, sy, sz);
  return { target: c, distance: (1.05 * radius) / Math.sin(fovY / 2), yaw: 0.6, pitch: 0.35, fovY };
}

/** m * v for a column-major 4x4 matrix, in float64. */
function transform4(m: ArrayLike<number>, v: readonly number[]): [number, number, number, number] {
  const out: [number, number, number, number] = [0, 0, 0, 0];
  for (let r = 0; r < 4; r++) {
    out[r] = m[r]! * v[0]! + m[4 + r]! * v[1]! + m[8 + r]! * v[2]! + m[12 + r]! * v[3]!;
  }
  return out;
}

/**
 * The inverse of a column-major 4x4 matrix, computed and stored in float64 (gl-matrix's
 * mat4.invert into a Float64Array(16)), or null when it is singular or not finite.
 */
export function invert4(a: ArrayLike<number>): Float64Array | null {
  const src = a instanceof Float64Array || a instanceof Float32Array ? a : Float64Array.from(a);
  const det = determinant(src);
  if (!det || !Number.isFinite(det)) return null;
  return invert(new Float64Array(16), src) as Float64Array | null;
}

/** The eye position of an orbit camera, world units. */
export function cameraEye(cam: OrbitCamera): [number, number, number] {
  return [
    cam.target[0] + cam.distance * Math.cos(cam.pitch) * Math.sin(cam.yaw),
    cam.target[1] + cam.distance * Math.sin(cam.pitch),
    cam.target[2] + cam.distance * Math.cos(cam.pitch) * Math.cos(cam.yaw),
  ];
}

/**
 * View-projection matrix (column-major Float32Array(16), WebGL clip space z in [-1, 1]).
 * @param fovScale multiplies tan(fovY / 2): the framing `fitScale` gives for the canvas's shape
 *   (1: the camera's own fovY vertically).
 */
export function viewProjection(
  cam: OrbitCamera,
  aspect: number,
  zeroToOneDepth = false,
  fovScale = 1,
): Float32Array {
  const eye = vec3FromValues(...cameraEye(cam));
  const view = lookAt(mat4Create(), eye, cam.target, [0, 1, 0]);
  const near = Math.max(0.01, cam.distance * 0.01);
  const far = cam.distance * 10;
  const fovY = 2 * Math.atan(Math.tan(cam.fovY / 2) * fovScale);
  const proj = zeroToOneDepth
    ? perspectiveZO(mat4Create(), fovY, aspect, near, far)
    : perspectiveNO(mat4Create(), fovY, aspect, near, far);
  return new Float32Array(multiply(mat4Create(), proj, view));
}

/**
 * How much of the box the default camera's square frame shows: the half-extents of the box's
 * silhouette, horizontal and vertical, as fractions of the frame's half-height tan(fovY/2).
 */
function boxSilhouette(
  p: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>,
): [number, number] {
  const cam = defaultCamera(p);
  const view = lookAt(mat4Create(), cameraEye(cam), cam.target, [0, 1, 0]);
  const t = Math.tan(cam.fovY / 2);
  let ex = 0;
  let ey = 0;
  const zs = p.dimensions === 2 ? [0] : [p.boundsMin[2], p.boundsMax[2]];
  for (const x of [p.boundsMin[0], p.boundsMax[0]]) {
    for (const y of [p.boundsMin[1], p.boundsMax[1]]) {
      for (const z of zs) {
        const v = transform4(view, [x, y, z, 1]);
        const depth = Math.max(1e-6, -v[2]);
        ex = Math.max(ex, Math.abs(v[0]) / depth / t);
        ey = Math.max(ey, Math.abs(v[1]) / depth / t);
      }
    }
  }
  return [ex, ey];
}

/**
 * The framing of a canvas of shape `aspect` (width / height): the factor viewProjection's
 * fovScale takes. `contain`: the default camera's framing for a square, widened for a tall canvas
 * (so the box is never cropped); `cover`: narrowed until the box's silhouette, seen from the
 * default camera, spans the whole canvas in its tighter direction (cropped in the other one).
 */
export function fitScale(
  p: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>,
  fit: Fit,
  aspect: number,
): number {
  const a = aspect > 0 && Number.isFinite(aspect) ? aspect : 1;
  if (fit === 'contain') return Math.max(1, 1 / a);
  const [ex, ey] = boxSilhouette(p);
  const s = Math.min(ey, ex / a);
  return s > 1e-6 ? s : 1;
}

/**
 * Where the ray under a point of the canvas meets a plane.
 * @param viewProj the column-major Float32Array(16) the picture was drawn with (GL clip space)
 * @param ndcX, ndcY the point in normalised device coordinates (-1..1, y up)
 * @param point a point of the plane, world units; @param normal its normal (any length)
 * @returns the world point, or null when the ray runs parallel to the plane or the matrix is singular
 */
export function unprojectToPlane(
  viewProj: ArrayLike<number>,
  ndcX: number,
  ndcY: number,
  point: readonly [number, number, number],
  normal: readonly [number, number, number],
): [number, number, number] | null {
  const inv = invert4(viewProj);
  if (!inv) return null;
  const near = transform4(inv, [ndcX, ndcY, -1, 1]);
  const far = transform4(inv, [ndcX, ndcY, 1, 1]);
  if (Math.abs(near[3]) < 1e-12 || Math.abs(far[3]) < 1e-12) return null;
  const o = [near[0] / near[3], near[1] / near[3], near[2] / near[3]];
  const d = [far[0] / far[3] - o[0]!, far[1] / far[3] - o[1]!, far[2] / far[3] - o[2]!];
  const denom = d[0]! * normal[0] + d[1]! * normal[1] + d[2]! * normal[2];
  const len = Math.hypot(d[0]!, d[1]!, d[2]!) * Math.hypot(normal[0], normal[1], normal[2]);
  if (!(len > 0) || Math.abs(denom) < 1e-9 * len) return null;
  const s =
    ((point[0] - o[0]!) * normal[0] +
      (point[1] - o[1]!) * normal[1] +
      (point[2] - o[2]!) * normal[2]) /
    denom;
  return [o[0]! + s * d[0]!, o[1]! + s * d[1]!, o[2]! + s * d[2]!];
}

/** Colour modes as the shaders number them (uniform `colorMode`). */
export const COLOR_MODE_CODE: Readonly<Record<ColorMode, number>> = {
  speed: 0,
  uniform: 1,
  species: 2,
  density: 3,
  heading: 4,
};

/** Entries of the colour table every renderer looks boid colours up in. */
export const COLOR_TABLE_SIZE = TABLE_SIZE;

function decodeHex(hex: string, out: Float32Array): Float32Array {
  const n = Math.min(hex.length / 6, out.length / 4);
  for (let i = 0; i < COLOR_TABLE_SIZE; i++) {
    const k = i % n;
    for (let c = 0; c < 3; c++)
      out[4 * i + c] = parseInt(hex.slice(6 * k + 2 * c, 6 * k + 2 * c + 2), 16) / 255;
    out[4 * i + 3] = 1;
  }
  return out;
}

/**
 * The colour table of a view's mode, Float32Array(4 * COLOR_TABLE_SIZE) (sRGB + 1): `density`
 * its colorMap, `heading` the cyclic sinebow, `species` the 4-colour categorical palette
 * (repeated), other modes the density map (unused).
 */
export function colorTable(view: Pick<ViewOptions, 'colorMode' | 'colorMap'>): Float32Array {
  const out = new Float32Array(4 * COLOR_TABLE_SIZE);
  if (view.colorMode === 'heading') return decodeHex(HEADING_MAP_HEX, out);
  if (view.colorMode === 'species') return decodeHex(SPECIES_PALETTE_HEX, out);
  return decodeHex(DENSITY_MAP_HEX[view.colorMap] ?? DENSITY_MAP_HEX.viridis, out);
}

/** Linear lookup at t in [0, 1]: sequential (entry 0 .. last) or cyclic (t = 1 wraps to entry 0). */
function lookup(table: Float32Array, t: number, cyclic: boolean): [number, number, number] {
  const n = COLOR_TABLE_SIZE;
  let i: number;
  let j: number;
  let f: number;
  if (cyclic) {
    const x = (t - Math.floor(t)) * n;
    i = Math.min(n - 1, Math.floor(x));
    f = x - i;
    j = (i + 1) % n;
  } else {
    const x = Math.min(1, Math.max(0, t)) * (n - 1);
    i = Math.min(n - 2, Math.floor(x));
    f = x - i;
    j = i + 1;
  }
  return [0, 1, 2].map((c) => table[4 * i + c]! + (table[4 * j + c]! - table[4 * i + c]!) * f) as [
    number,
    number,
    number,
  ];
}

/** What boidColor needs besides the boid. */
export interface ColorContext {
  mode: number;
  dimensions: number;
  minSpeed: number;
  maxSpeed: number;
  /** colorTable(view). */
  table: Float32Array;
  /** The uniform mode's colour, sRGB. */
  color: readonly [number, number, number];
  densityMax: number;
  /** The speed mode's 4 stops (the palette's); SPEED_RAMP when absent. */
  ramp?: readonly (readonly number[])[];
}

/**
 * A boid's colour, sRGB in [0, 1]: the CPU twin of src/webgl2/boid-color.glsl and render.wgsl's
 * boidColor. `speed`: speedColor; `uniform`: the colour; `species`: palette[s]; `density`:
 * the map at clamp(|N_i| / densityMax, 0, 1); `heading`: the cyclic map at the flight
 * direction's angle (atan2(vy, vx) in 2D, atan2(vz, vx) in 3D) / 2 pi + 1/2, and in 3D mixed
 * halfway toward white when climbing straight up (toward black when diving).
 */
export function boidColor(
  ctx: ColorContext,
  vx: number,
  vy: number,
  vz: number,
  species: number,
  neighbours: number,
): [number, number, number] {
  switch (ctx.mode) {
    case 1:
      return [ctx.color[0], ctx.color[1], ctx.color[2]];
    case 2: {
      const s = Math.min(COLOR_TABLE_SIZE - 1, Math.max(0, Math.round(species)));
      return [ctx.table[4 * s]!, ctx.table[4 * s + 1]!, ctx.table[4 * s + 2]!];
    }
    case 3:
      return lookup(ctx.table, neighbours / ctx.densityMax, false);
    case 4: {
      const speed = Math.hypot(vx, vy, vz);
      // As the shaders: no direction (atan2(0, 0)) points along +x.
      const hy = ctx.dimensions === 2 ? vy : vz;
      const angle = vx * vx + hy * hy > 0 ? Math.atan2(hy, vx) : 0;
      const c = lookup(ctx.table, angle / (2 * Math.PI) + 0.5, true);
      if (ctx.dimensions === 2 || !(speed > 0)) return c;
      const u = vy / speed;
      return c.map((x) => (u > 0 ? x + (1 - x) * 0.5 * u : x * (1 + 0.5 * u))) as [
        number,
        number,
        number,
      ];
    }
    default:
      return speedColor(Math.hypot(vx, vy, vz), ctx.minSpeed, ctx.maxSpeed, ctx.ramp);
  }
}

/** Colours of the scene's other objects, sRGB (every renderer uses these). */
export const SCENE_COLORS = {
  obstacle: [0.42, 0.48, 0.58] as const,
  predator: [0.95, 0.12, 0.1] as const,
  bounds: [0.42, 0.48, 0.58] as const,
  attract: [0.5, 1.0, 0.72] as const,
  repel: [1.0, 0.55, 0.25] as const,
};

/** Camera axes recovered from a perspective view-projection (column-major, GL clip space). */
export interface ViewBasis {
  /** Eye position, world units. */
  eye: [number, number, number];
  /** Unit vectors: screen right, screen up, and the viewing direction (into the screen). */
  right: [number, number, number];
  up: [number, number, number];
  forward: [number, number, number];
}

function unit(x: number, y: number, z: number): [number, number, number] {
  const l = Math.hypot(x, y, z) || 1;
  return [x / l, y / l, z / l];
}

/**
 * The camera of a perspective view-projection P*V: rows 0 and 1 of P*V are the view's right and up
 * rows scaled by the projection, row 3 is the viewing direction (P's last row is (0, 0, -1, 0));
 * the eye is the point P*V maps to clip (0, 0, c, 0), i.e. inverse(P*V) * (0, 0, 1, 0).
 */
export function viewBasis(viewProj: ArrayLike<number>): ViewBasis {
  const m = viewProj;
  const inv = invert4(viewProj);
  let eye: [number, number, number] = [0, 0, 0];
  if (inv && Math.abs(inv[11]!) > 1e-20)
    eye = [inv[8]! / inv[11]!, inv[9]! / inv[11]!, inv[10]! / inv[11]!];
  return {
    eye,
    right: unit(m[0]!, m[4]!, m[8]!),
    up: unit(m[1]!, m[5]!, m[9]!),
    forward: unit(m[3]!, m[7]!, m[11]!),
  };
}
