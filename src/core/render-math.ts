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
