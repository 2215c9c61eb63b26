/**
 * Pointer picking: the world point under a pointer, for flock.pointer() and pointerToWorld().
 * Pure: camera, canvas box and simulation box in, world point out.
 */
import { paramSpec, type FlockParams, type Vec3, type Vec3Spec } from './params';
import {
  cameraEye,
  fitScale,
  unprojectToPlane,
  viewProjection,
  type OrbitCamera,
} from './render-math';
import type { Fit } from './view';

/** The attractor's allowed coordinates (the schema's range): a pointer point never leaves them. */
const ATTRACTOR = paramSpec('attractor') as Vec3Spec;
/**
 * Largest |NDC| a pointer coordinate is taken at (a point 5,000 canvas widths off the canvas):
 * beyond it the clamp below gives the same point, and float overflow (clientX 1e308) cannot.
 */
const NDC_LIMIT = 1e4;

/** The canvas as the pointer sees it: its CSS box in the viewport and its drawing buffer. */
export interface PointerCanvas {
  /** CSS pixels in the viewport (getBoundingClientRect); width or height 0 when not laid out. */
  rect: { left: number; top: number; width: number; height: number };
  /** Drawing-buffer size in device pixels: the picture's aspect ratio. */
  width: number;
  height: number;
}

/**
 * The world point under (clientX, clientY) on the plane through the box centre facing the camera
 * (the plane z = 0 in 2D), clamped into the box grown by its own size on every side (a pointer
 * far off the box still pulls toward its edge) and into the attractor's allowed range, so any
 * finite pointer position gives a point setParams accepts.
 * @param clientX, clientY CSS pixels in the viewport, as PointerEvent.clientX/Y
 * @param canvas where the picture is: a canvas not laid out (rect 0 x 0) counts as a box of its
 *   drawing-buffer size at the viewport's origin.
 * @param fit the view's framing (ViewOptions.fit), as the picture is drawn with it.
 * @returns world units, or null when the canvas has no size or the ray runs parallel to the plane.
 */
export function pointerToWorld(
  clientX: number,
  clientY: number,
  canvas: PointerCanvas,
  camera: OrbitCamera,
  params: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>,
  fit: Fit,
): Vec3 | null {
  const rect = canvas.rect;
  const box =
    rect.width > 0 && rect.height > 0
      ? rect
      : { left: 0, top: 0, width: canvas.width, height: canvas.height };
  if (!(box.width > 0 && box.height > 0)) return null;
  const clampNdc = (v: number) => Math.min(NDC_LIMIT, Math.max(-NDC_LIMIT, v));
  const ndcX = clampNdc(((clientX - box.left) / box.width) * 2 - 1);
  const ndcY = clampNdc(1 - ((clientY - box.top) / box.height) * 2);
  const p = params;
  const centre: Vec3 = [0, 1, 2].map((a) => (p.boundsMin[a]! + p.boundsMax[a]!) / 2) as Vec3;
  let normal: Vec3;
  if (p.dimensions === 2) {
    centre[2] = 0;
    normal = [0, 0, 1];
  } else {
    const eye = cameraEye(camera);
    normal = [0, 1, 2].map((a) => camera.target[a]! - eye[a]!) as Vec3;
  }
  // The aspect the picture is drawn with: the drawing buffer's (it follows the CSS size).
  const aspect = canvas.width / Math.max(1, canvas.height);
  const viewProj = viewProjection(camera, aspect, false, fitScale(p, fit, aspect));
  const hit = unprojectToPlane(viewProj, ndcX, ndcY, centre, normal);
  if (!hit) return null;
  for (let a = 0; a < 3; a++) {
    // Into the box grown by its size, and into the attractor's range (a box touching 1e6 grown
    // by its size would leave it: issue 21).
    const size = p.boundsMax[a]! - p.boundsMin[a]!;
    const lo = Math.max(ATTRACTOR.min, p.boundsMin[a]! - size);
    const hi = Math.min(ATTRACTOR.max, p.boundsMax[a]! + size);
    hit[a] = Math.min(hi, Math.max(lo, hit[a]!));
  }
  if (p.dimensions === 2) hit[2] = 0;
  return hit;
}
