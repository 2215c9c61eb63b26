/**
 * Drawing conventions shared by every backend, so all paths draw the same picture: the boid mesh,
 * the speed colour ramp, the default boid size and the orbit camera's matrices (./mat4.ts).
 */
import { mat4, vec3 } from './mat4';
import type { FlockParams } from './params';

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
 * Speed colour ramp: t = clamp((speed - minSpeed) / (maxSpeed - minSpeed), 0, 1) (t = speed/maxSpeed
 * when minSpeed == maxSpeed is 0...), then blue (slow) -> cyan -> yellow -> red (fast).
 * The GLSL and WGSL versions (`speedColor`) implement exactly these stops.
 */
export const SPEED_RAMP: readonly [number, number, number][] = [
  [0.15, 0.35, 1.0],
  [0.1, 0.85, 0.9],
  [1.0, 0.85, 0.15],
  [1.0, 0.2, 0.1],
];

/** Colour of a boid moving at `speed`, RGB in [0, 1]. */
export function speedColor(
  speed: number,
  minSpeed: number,
  maxSpeed: number,
): [number, number, number] {
  const span = maxSpeed - minSpeed;
  let t = span > 1e-6 ? (speed - minSpeed) / span : speed / Math.max(maxSpeed, 1e-6);
  t = Math.min(1, Math.max(0, t)) * 3;
  const i = Math.min(2, Math.floor(t));
  const f = t - i;
  const a = SPEED_RAMP[i]!;
  const b = SPEED_RAMP[i + 1]!;
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/** Boid length in world units: 1.5% of the box's largest active side, at least 0.25*perceptionRadius. */
export function boidSizeFor(
  p: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions' | 'perceptionRadius'>,
): number {
  const axes = p.dimensions === 2 ? 2 : 3;
  let side = 0;
  for (let a = 0; a < axes; a++) side = Math.max(side, p.boundsMax[a]! - p.boundsMin[a]!);
  return Math.max(0.015 * side, 0.25 * p.perceptionRadius);
}

/** An orbit camera around `target`: yaw and pitch in radians, distance in world units, fovY in radians. */
export interface OrbitCamera {
  target: [number, number, number];
  distance: number;
  yaw: number;
  pitch: number;
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

/** View-projection matrix (column-major Float32Array(16), WebGL clip space z in [-1, 1]). */
export function viewProjection(
  cam: OrbitCamera,
  aspect: number,
  zeroToOneDepth = false,
): Float32Array {
  const eye = vec3.fromValues(
    cam.target[0] + cam.distance * Math.cos(cam.pitch) * Math.sin(cam.yaw),
    cam.target[1] + cam.distance * Math.sin(cam.pitch),
    cam.target[2] + cam.distance * Math.cos(cam.pitch) * Math.cos(cam.yaw),
  );
  const view = mat4.lookAt(mat4.create(), eye, cam.target, [0, 1, 0]);
  const near = Math.max(0.01, cam.distance * 0.01);
  const far = cam.distance * 10;
  const proj = zeroToOneDepth
    ? mat4.perspectiveZO(mat4.create(), cam.fovY, aspect, near, far)
    : mat4.perspectiveNO(mat4.create(), cam.fovY, aspect, near, far);
  return new Float32Array(mat4.multiply(mat4.create(), proj, view));
}
