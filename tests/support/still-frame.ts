import type { Flock } from '../../src/index';

/**
 * Still frames read back from a flock's canvas, for the browser tests of what each rung draws
 * (look-render, view-render): a SIZE x SIZE CSS px canvas, a 2D flock in the default box and
 * `contain` fit, so that world x and y map to pixels by hand (`px`). Browser project only.
 */

/** The canvas's CSS width and height, px. */
export const SIZE = 200;
/** Half the visible height in 2D (contain, square): 0.55 of the 64-unit box side. */
export const HALF_VIEW = 0.55 * 64;
/** Pixel column (or row from the top, for -y) of world x (y) in a SIZE x SIZE contain view. */
export const px = (world: number): number => SIZE / 2 + (SIZE / 2) * (world / HALF_VIEW);

/** A frame's pixels: `data` is RGBA, Uint8ClampedArray(4*w*h), rows from the top. */
export interface Grab {
  w: number;
  h: number;
  data: Uint8ClampedArray;
}

/** A block canvas of SIZE x SIZE CSS px, appended to the page body. */
export function squareCanvas(): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.style.width = `${SIZE}px`;
  canvas.style.height = `${SIZE}px`;
  canvas.style.display = 'block';
  document.body.append(canvas);
  return canvas;
}

/**
 * Draws and copies the canvas into a 2D canvas (alpha kept: the copy starts cleared), in the same
 * task as the render, so WebGL's drawing buffer is still there.
 */
export function grab(flock: Flock): Grab {
  flock.render();
  const src = flock.canvas;
  const copy = document.createElement('canvas');
  copy.width = src.width;
  copy.height = src.height;
  const ctx = copy.getContext('2d', { willReadFrequently: true })!;
  ctx.clearRect(0, 0, copy.width, copy.height);
  ctx.drawImage(src, 0, 0);
  return {
    w: copy.width,
    h: copy.height,
    data: ctx.getImageData(0, 0, copy.width, copy.height).data,
  };
}

/** RGBA (0..255) of the pixel that contains the point (x, y) (pixel k spans [k, k + 1)). */
export function at(g: Grab, x: number, y: number): number[] {
  const i = 4 * (Math.floor(y) * g.w + Math.floor(x));
  return [g.data[i]!, g.data[i + 1]!, g.data[i + 2]!, g.data[i + 3]!];
}
