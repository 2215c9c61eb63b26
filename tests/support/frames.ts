/**
 * Pixels of a drawn flock for the browser backend tests: a canvas's frame read through a 2D
 * canvas, with the count of pixels that are not the shared background #05080f (rgb 0.02, 0.03,
 * 0.06), and the check that a later frame of the same flock is drawn, has moved and takes its
 * colours from the speed ramp (steel blue .. warm white). Browser project (canvasPixels also runs in
 * an end-to-end test's page).
 */
import { expect } from 'vitest';

/** A frame's RGBA bytes (row-major, top row first) and its lit pixel count. */
export interface Frame {
  /** Pixels farther than 24 (|dR|+|dG|+|dB|) from the background (5, 8, 15). */
  lit: number;
  data: Uint8ClampedArray;
}

/**
 * The RGBA bytes (row-major, top row first) of `canvas` (any context: 2D, WebGL2, WebGPU) as the
 * page shows it, copied through a 2D canvas (a WebGL canvas: in the task that drew it). It refers
 * to nothing outside its body, so an end-to-end test runs it in a page too:
 * `handle.evaluate(canvasPixels)` (Playwright sends the bytes back as a Uint8ClampedArray).
 */
export function canvasPixels(canvas: HTMLCanvasElement): Uint8ClampedArray {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(canvas, 0, 0);
  return ctx.getImageData(0, 0, copy.width, copy.height).data;
}

/** The pixels of `canvas` (any context: 2D, WebGL2, WebGPU), copied through a 2D canvas. */
export function grabFrame(canvas: HTMLCanvasElement): Frame {
  const data = canvasPixels(canvas);
  let lit = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i]! - 5) + Math.abs(data[i + 1]! - 8) + Math.abs(data[i + 2]! - 15) > 24)
      lit++;
  }
  return { lit, data };
}

/**
 * Expects `later`, a frame of the same flock as `first` some steps on (~2,000 boids), to be
 * drawn (over 500 lit pixels), to differ from `first` (over 200 pixels whose red byte changed)
 * and to hold distinctly blue boids from the speed ramp, not only grey or white ones (over 200
 * pixels whose blue exceeds red by more than 40).
 */
export function expectMovedAndBlue(first: Frame, later: Frame): void {
  expect(later.lit).toBeGreaterThan(500);
  let changed = 0;
  for (let i = 0; i < first.data.length; i += 4) if (first.data[i] !== later.data[i]) changed++;
  expect(changed).toBeGreaterThan(200);
  let blue = 0;
  for (let i = 0; i < later.data.length; i += 4) {
    if (later.data[i + 2]! > later.data[i]! + 40) blue++;
  }
  expect(blue).toBeGreaterThan(200);
}
