/**
 * The arithmetic of the page options (DESIGN.md section 7, second table): the box that follows
 * the canvas (autoBounds), the count from the element's area (density), the drawing buffer's size
 * (resolutionScale). No DOM, no GPU: the flock and the <gpu-flock> element call these with the
 * sizes they measure. Owns nothing (pure functions and constants).
 */
import { FlockError } from './errors';
import { MAX_COUNT, type Vec3 } from './params';

/**
 * Boids per unit³ (3D) or unit² (2D) of DESIGN's default box: 16,384 boids in a 64-unit cube
 * (0.0625 per unit³, about 2 neighbours each at r = 2) or square (4 per unit², about 50).
 */
export const DEFAULT_BOX_DENSITY: Readonly<Record<2 | 3, number>> = {
  3: 16384 / 64 ** 3,
  2: 16384 / 64 ** 2,
};

/** The smallest side of an autoBounds box, world units (a few boids still have room). */
export const MIN_AUTO_SIDE = 12;

/**
 * The autoBounds box for a canvas of `cssWidth` x `cssHeight` CSS pixels: centred on the origin,
 * x:y = width:height, and in 3D z = the shorter of the two; its volume (3D) or area (2D) is
 * count / DEFAULT_BOX_DENSITY, so any count flies at the default scene's density. Each side is
 * at least max(MIN_AUTO_SIDE, 3 * perceptionRadius) (wrap needs 3 cells per axis), which makes a
 * box from a very thin canvas a little larger. In 2D the ignored z span is the shorter side.
 * Half sides are rounded up to 1/100 unit.
 * @param count boids, an integer >= 1
 * @param cssWidth the canvas's CSS width in pixels; 0 or less (either side) gives a cube (square)
 * @param cssHeight the canvas's CSS height in pixels
 * @throws FlockError('count') for a count that is not an integer from 1 to MAX_COUNT
 */
export function autoBoundsBox(
  count: number,
  dimensions: 2 | 3,
  cssWidth: number,
  cssHeight: number,
  perceptionRadius = 2,
): {
  /** Minimum corner, world units. */
  boundsMin: Vec3;
  /** Maximum corner, world units. */
  boundsMax: Vec3;
} {
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
    throw new FlockError('count', count, `an integer from 1 to ${MAX_COUNT} (boids)`);
  }
  const ok = cssWidth > 0 && cssHeight > 0 && Number.isFinite(cssWidth * cssHeight);
  const w = ok ? cssWidth : 1;
  const h = ok ? cssHeight : 1;
  const d = Math.min(w, h);
  const volume = count / DEFAULT_BOX_DENSITY[dimensions];
  // Sides s*w, s*h (and s*d): their product is the volume.
  const s = dimensions === 3 ? Math.cbrt(volume / (w * h * d)) : Math.sqrt(volume / (w * h));
  const minSide = Math.max(MIN_AUTO_SIDE, 3 * perceptionRadius);
  const half = (side: number) => Math.ceil(Math.max(minSide, side) * 50) / 100;
  const hx = half(s * w);
  const hy = half(s * h);
  const hz = half(s * d);
  return { boundsMin: [-hx, -hy, -hz], boundsMax: [hx, hy, hz] };
}

/**
 * The count of `density` boids per 10,000 CSS px² of a cssWidth x cssHeight element: rounded,
 * at least 1, at most `cap` (the smaller of the device's probed count and params.count).
 * @returns null when density is 0 (off) or the element has no area yet
 */
export function densityCount(
  density: number,
  cssWidth: number,
  cssHeight: number,
  cap: number,
): number | null {
  if (!(density > 0) || !(cssWidth > 0) || !(cssHeight > 0)) return null;
  const wanted = Math.round((density * cssWidth * cssHeight) / 10000);
  return Math.max(1, Math.min(Math.floor(cap), wanted));
}

/** The drawing buffer of a canvas, device pixels. */
export interface BufferSize {
  /** Drawing buffer width, device pixels. */
  width: number;
  /** Drawing buffer height, device pixels. */
  height: number;
  /** True when `limit` cut it (the aspect is kept). */
  clamped: boolean;
  /** The size before the clamp. */
  wanted: {
    /** Device pixels. */
    width: number;
    /** Device pixels. */
    height: number;
  };
}

/** devicePixelRatio above this is not honoured (a 4x phone draws 16 times a 1x screen's pixels). */
export const MAX_DEVICE_PIXEL_RATIO = 3;

/**
 * The drawing buffer for a canvas of cssWidth x cssHeight CSS pixels: round(css *
 * min(devicePixelRatio, MAX_DEVICE_PIXEL_RATIO) * resolutionScale) per side, at least 1, and
 * scaled down (aspect kept, floor) when a side is over `limit` (the backend's texture /
 * viewport limit).
 * @returns null when the canvas has no CSS size (nothing to draw into yet)
 */
export function drawingBufferSize(
  cssWidth: number,
  cssHeight: number,
  devicePixelRatio: number,
  resolutionScale: number,
  limit: number,
): BufferSize | null {
  if (!(cssWidth > 0) || !(cssHeight > 0)) return null;
  const dpr = Math.min(devicePixelRatio > 0 ? devicePixelRatio : 1, MAX_DEVICE_PIXEL_RATIO);
  const k = dpr * (resolutionScale > 0 ? resolutionScale : 1);
  const width = Math.max(1, Math.round(cssWidth * k));
  const height = Math.max(1, Math.round(cssHeight * k));
  const wanted = { width, height };
  if (width <= limit && height <= limit) return { width, height, clamped: false, wanted };
  const c = limit / Math.max(width, height);
  return {
    width: Math.max(1, Math.floor(width * c)),
    height: Math.max(1, Math.floor(height * c)),
    clamped: true,
    wanted,
  };
}
