// The README's palette="auto" images: `node scripts/palette-auto-shots.mjs [--out docs/images]
// [--backend webgl2] [--count 2000] [--steps 120]`. A hero as the README's one-line embed draws
// it (the box the container's shape, fit cover, a transparent background, palette auto) behind a
// heading and a button, on a light page (#f6f4ef, dark text) and on a dark page (#0e1117, light
// text): `--count` boids from the groups start, flown `--steps` steps (2 s), at 960x540 CSS px.
// The page is captured by Chromium and encoded as WebP by the page into
// palette-auto-light.webp and palette-auto-dark.webp. Opens headless Chromium on the measuring
// page (scripts/measure-page.mjs), one page at a time, and closes it.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const { values: a } = parseArgs({
  options: {
    out: { type: 'string', default: 'docs/images' },
    backend: { type: 'string', default: 'webgl2' },
    count: { type: 'string', default: '2000' },
    steps: { type: 'string', default: '120' },
  },
});
const root = resolve(import.meta.dirname, '..');
const W = 960;
const H = 540;
const PAGES = [
  { name: 'light', page: '#f6f4ef', text: '#1b1d22' },
  { name: 'dark', page: '#0e1117', text: '#e8eaf0' },
];
const { url, close } = await serveMeasurePage(root);
try {
  for (const p of PAGES) {
    await withMeasurePage(url, { width: W, height: H }, async (page) => {
      page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
      await page.addStyleTag({
        content: `body { background: ${p.page}; color: ${p.text}; font: 16px system-ui, sans-serif; }
          #app { position: fixed; inset: 0; width: ${W}px !important; height: ${H}px !important; }
          #hero { position: fixed; left: 64px; top: 170px; }
          #hero h1 { font-size: 44px; margin: 0 0 12px; }
          #hero button { font: inherit; padding: 10px 22px; border-radius: 6px; border: 0;
            background: ${p.text}; color: ${p.page}; }`,
      });
      await page.evaluate(
        async ({ backend, count, steps }) => {
          const hero = document.createElement('div');
          hero.id = 'hero';
          hero.innerHTML = '<h1>A page that flocks</h1><p>palette="auto"</p><button>Start</button>';
          document.body.append(hero);
          const flock = await window.gpuFlock.createFlock(document.getElementById('app'), {
            backend,
            params: { count, seed: 4, boundary: 'wrap' },
            view: { autoBounds: true, fit: 'cover', background: 'transparent', palette: 'auto' },
            autoStart: false,
          });
          for (let done = 0; done < steps; done += 20) {
            await flock.step(Math.min(20, steps - done));
            await flock.finish();
          }
          flock.render();
          window.resolvedPalette = flock.view.palette;
        },
        { backend: a.backend, count: Number(a.count), steps: Number(a.steps) },
      );
      const png = await page.screenshot({ type: 'png' });
      const webp = await page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        c.getContext('2d').drawImage(img, 0, 0);
        return c.toDataURL('image/webp', 0.8);
      }, png.toString('base64'));
      const bytes = Buffer.from(webp.slice(webp.indexOf(',') + 1), 'base64');
      const file = join(root, a.out, `palette-auto-${p.name}.webp`);
      writeFileSync(file, bytes);
      console.log(`${file}: ${(bytes.length / 1024).toFixed(1)} KB`);
    });
  }
} finally {
  await close();
}
