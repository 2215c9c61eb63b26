// The README's "The look" images: `node scripts/look-shots.mjs [--out docs/images] [--backend
// webgl2] [--count 500] [--steps 300] [--size 1] [--quality 0.75] [--png DIR]`. One flock of
// `--count` boids in a scene box (sceneBounds: DESIGN's density, so they form groups), flown
// `--steps` steps from its seed, drawn into a 480x270 CSS px container at devicePixelRatio 2
// (960x540 pixels) with the boids `--size` units long and the camera close to the densest group
// (about 24 boid lengths of it fill the picture's height): each bird is tens of pixels wide, so
// the shape, its shading and the palette read at README size. One still frame per shape (bird,
// fish, arrow, dot; default palette, 3D) and per palette (default, dusk, ocean, ink, paper,
// ember; birds), encoded by the browser as WebP into look-<shape>.webp and palette-<name>.webp;
// `--png DIR` also writes PNGs there to look at.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const { values: a } = parseArgs({
  options: {
    out: { type: 'string', default: 'docs/images' },
    backend: { type: 'string', default: 'webgl2' },
    count: { type: 'string', default: '500' },
    steps: { type: 'string', default: '300' },
    size: { type: 'string', default: '1' },
    quality: { type: 'string', default: '0.75' },
    png: { type: 'string' },
  },
});
const root = resolve(import.meta.dirname, '..');
const out = resolve(root, a.out);
mkdirSync(out, { recursive: true });
const SHOTS = [
  ...['bird', 'fish', 'arrow', 'dot'].map((shape) => ({
    file: `look-${shape}.webp`,
    view: { shape },
  })),
  ...['default', 'dusk', 'ocean', 'ink', 'paper', 'ember'].map((palette) => ({
    file: `palette-${palette}.webp`,
    view: { shape: 'bird', palette },
  })),
];
const CSS = { width: 480, height: 270 };
const { url, close } = await serveMeasurePage(root);
try {
  await withMeasurePage(url, { ...CSS, deviceScaleFactor: 2 }, async (page) => {
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.addStyleTag({
      content: `#app { width: ${CSS.width}px !important; height: ${CSS.height}px !important; }`,
    });
    const images = await page.evaluate(
      async ({ backend, count, steps, size, quality, shots }) => {
        const lib = window.gpuFlock;
        const flock = await lib.createFlock(document.getElementById('app'), {
          backend,
          params: { count, seed: 7, ...lib.sceneBounds(count, 3) },
          view: { fit: 'cover', boidSize: size },
          autoStart: false,
        });
        for (let done = 0; done < steps; done += 20) {
          await flock.step(20);
          await flock.finish();
        }
        // The camera on the boid with the most others within 4 lengths (the densest group),
        // close enough that about 24 boid lengths fill the picture's height.
        const s = await flock.readState();
        const p = s.positions;
        let best = 0;
        let bestN = -1;
        for (let i = 0; i < s.count; i++) {
          let n = 0;
          for (let j = 0; j < s.count; j++) {
            const d = Math.hypot(
              p[4 * i] - p[4 * j],
              p[4 * i + 1] - p[4 * j + 1],
              p[4 * i + 2] - p[4 * j + 2],
            );
            if (d < 4 * size) n++;
          }
          if (n > bestN) [best, bestN] = [i, n];
        }
        const cam = flock.camera;
        flock.camera = {
          ...cam,
          target: [p[4 * best], p[4 * best + 1], p[4 * best + 2]],
          distance: (12 * size) / Math.tan(cam.fovY / 2),
        };
        const result = [];
        for (const s of shots) {
          flock.setView({ shape: 'auto', palette: 'default', ...s.view });
          flock.render();
          const copy = document.createElement('canvas');
          copy.width = flock.canvas.width;
          copy.height = flock.canvas.height;
          copy.getContext('2d').drawImage(flock.canvas, 0, 0);
          result.push({
            file: s.file,
            size: [copy.width, copy.height],
            data: copy.toDataURL('image/webp', quality),
            png: copy.toDataURL('image/png'),
          });
        }
        flock.dispose();
        return result;
      },
      {
        backend: a.backend,
        count: Number(a.count),
        steps: Number(a.steps),
        size: Number(a.size),
        quality: Number(a.quality),
        shots: SHOTS,
      },
    );
    for (const im of images) {
      const bytes = Buffer.from(im.data.slice(im.data.indexOf(',') + 1), 'base64');
      writeFileSync(join(out, im.file), bytes);
      console.log(
        `${join(a.out, im.file)}: ${im.size.join('x')}, ${(bytes.length / 1024).toFixed(1)} KB`,
      );
      if (a.png) {
        mkdirSync(a.png, { recursive: true });
        const png = Buffer.from(im.png.slice(im.png.indexOf(',') + 1), 'base64');
        writeFileSync(join(a.png, im.file.replace(/\.webp$/, '.png')), png);
      }
    }
  });
} finally {
  await close();
}
