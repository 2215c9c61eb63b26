// palette: 'auto' on a real page (issue 27 item 4): over a transparent background the flock reads
// the colour behind its canvas, so its birds are light on a dark page and dark on a light one;
// setView reads the page again. The drawn pixels say which (canvasPixels: premultiplied, over
// nothing, so a pixel's colour is the bird's).
import { describe, expect, test } from 'vitest';
import { boxMaker, flockMaker } from '../support/browser';
import { canvasPixels } from '../support/frames';

const box = boxMaker();
const make = flockMaker();

/** The mean of (R + G + B) / 3 over pixels at least half covered, 0..1, and how many. */
function birdTone(canvas: HTMLCanvasElement): { tone: number; pixels: number } {
  const d = canvasPixels(canvas);
  let sum = 0;
  let pixels = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3]! < 128) continue;
    sum += (d[i]! + d[i + 1]! + d[i + 2]!) / 3 / d[i + 3]!;
    pixels++;
  }
  return { tone: pixels > 0 ? sum / pixels : NaN, pixels };
}

describe("palette: 'auto'", () => {
  for (const backend of ['webgl2', 'cpu'] as const) {
    test(`${backend}: light birds on a dark page, dark birds on a light page`, async () => {
      const div = box(320, 200);
      div.style.background = '#111318';
      const f = await make(div, {
        backend,
        params: { count: 601, seed: 3 },
        view: { palette: 'auto', background: 'transparent', boidSize: 2.5, fog: 0 },
        autoStart: false,
      });
      expect(f.view.palette).toBe('auto');
      f.render();
      const dark = birdTone(f.canvas);
      expect(dark.pixels).toBeGreaterThan(200);
      // `default`'s ramp: steel blue .. warm white, mean tone well above mid grey.
      expect(dark.tone).toBeGreaterThan(0.4);
      div.style.background = 'rgb(247, 245, 240)';
      f.setView({ palette: 'auto' }); // read again
      f.render();
      const light = birdTone(f.canvas);
      expect(light.pixels).toBeGreaterThan(200);
      // `ink`'s ramp: greys to black.
      expect(light.tone).toBeLessThan(0.3);
    });
  }
});
