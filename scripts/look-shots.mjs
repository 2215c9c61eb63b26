// The README's "The look" images: `node scripts/look-shots.mjs [--out docs/images] [--backend
// webgl2] [--count 3000] [--steps 240]`. One flock in scripts/measure.html's container (360x225
// CSS px), flown `--steps` steps from its seed so it has formed groups, then one still frame per
// shape (bird, fish, arrow, dot; default palette, 3D) and per palette (default, dusk, ocean, ink,
// paper, ember; birds), each encoded by the browser as WebP (quality 0.7, about 10-20 KB) into
// look-<shape>.webp and palette-<name>.webp; `--png DIR` also writes PNGs there to look at.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const { values: a } = parseArgs({
  options: {
    out: { type: 'string', default: 'docs/images' },
    backend: { type: 'string', default: 'webgl2' },
    count: { type: 'string', default: '3000' },
    steps: { type: 'string', default: '240' },
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
const { url, close } = await serveMeasurePage(root);
try {
  await withMeasurePage(url, { width: 360, height: 225 }, async (page) => {
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.addStyleTag({
      content: '#app { width: 360px !important; height: 225px !important; }',
    });
    const images = await page.evaluate(
      async ({ backend, count, steps, shots }) => {
        const flock = await window.gpuFlock.createFlock(document.getElementById('app'), {
          backend,
          params: { count, seed: 7 },
          view: { fit: 'cover' },
          autoStart: false,
        });
        for (let done = 0; done < steps; done += 20) {
          await flock.step(20);
          await flock.finish();
        }
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
            data: copy.toDataURL('image/webp', 0.7),
            png: copy.toDataURL('image/png'),
          });
        }
        flock.dispose();
        return result;
      },
      { backend: a.backend, count: Number(a.count), steps: Number(a.steps), shots: SHOTS },
    );
    for (const im of images) {
      const bytes = Buffer.from(im.data.slice(im.data.indexOf(',') + 1), 'base64');
      writeFileSync(join(out, im.file), bytes);
      console.log(`${join(a.out, im.file)}: ${(bytes.length / 1024).toFixed(1)} KB`);
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
