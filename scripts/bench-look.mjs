// The draw pass per shape (DESIGN section 7, issue 19): `node scripts/bench-look.mjs` (also the
// last part of `npm run bench`). For each backend, count and shape, with level of detail on
// (lodPixels 3, the default) and off (0), one flock in the 640x480 container of
// scripts/measure.html (a fresh page per backend) draws `--frames` frames of its initial state;
// each frame is timed from render() to finish() (wall clock; the render is the draw pass and the
// wait for it). The rows of one page are timed round-robin (one frame of each in turn, after one
// untimed frame each), so a load that drifts during the run hits every shape alike. (The
// backends' own pass timers are not printed: they average their last 30 frames, which here are
// other rows' frames.)
// Prints the medians and writes them to --out. Options: --backends webgpu,webgl2
// --counts 16384,262144 --shapes arrow,bird,fish,dot --frames 5 --out bench-results/look.json
// Bounded on a slow device: counts of --big-count or more time --big-frames frames (2), and a page
// stops after the pass in which its rows passed --row-ms (6,000 ms) each on average (one pass at
// least), so the default run (2 backends x 2 counts x 4 shapes x 2 LOD settings) ends in minutes
// on SwiftShader.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const { values: a } = parseArgs({
  options: {
    backends: { type: 'string', default: 'webgpu,webgl2' },
    counts: { type: 'string', default: '16384,262144' },
    shapes: { type: 'string', default: 'arrow,bird,fish,dot' },
    frames: { type: 'string', default: '5' },
    'big-count': { type: 'string', default: '100000' },
    'big-frames': { type: 'string', default: '2' },
    'row-ms': { type: 'string', default: '6000' },
    out: { type: 'string', default: 'bench-results/look.json' },
  },
});
const root = resolve(import.meta.dirname, '..');
const { url, close } = await serveMeasurePage(root);
const rows = [];
try {
  for (const backend of a.backends.split(',')) {
    for (const count of a.counts.split(',').map(Number)) {
      // A fresh page per count: a page that crashes (or reloads) loses only its own rows.
      await withMeasurePage(url, { width: 640, height: 480 }, async (page) => {
        page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
        const got = await page.evaluate(
          async ({ backend, count, shapes, frames, rowMs }) => {
            const flock = await window.gpuFlock.createFlock(document.getElementById('app'), {
              backend,
              params: { count },
              autoStart: false,
            });
            const median = (xs) => {
              const s = xs.filter((x) => x !== null).sort((p, q) => p - q);
              if (s.length === 0) return null;
              const m = s.length >> 1;
              return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
            };
            const out = [];
            try {
              // Round-robin: each pass times one frame of every row in turn, so a load that
              // drifts while the bench runs (this machine is shared) hits every row alike.
              // First one untimed frame per row to compile its variant and settle.
              const plan = [];
              for (const shape of shapes)
                for (const lodPixels of [3, 0]) plan.push({ shape, lodPixels, wall: [] });
              for (const row of plan) {
                flock.setView({ shape: row.shape, lodPixels: row.lodPixels });
                flock.render();
                await flock.finish();
              }
              const start = performance.now();
              for (let k = 0; k < frames; k++) {
                if (k > 0 && performance.now() - start > rowMs * plan.length) break;
                for (const row of plan) {
                  flock.setView({ shape: row.shape, lodPixels: row.lodPixels });
                  const t0 = performance.now();
                  flock.render();
                  await flock.finish();
                  row.wall.push(performance.now() - t0);
                }
              }
              for (const row of plan)
                out.push({
                  shape: row.shape,
                  lodPixels: row.lodPixels,
                  wallMs: median(row.wall),
                  frames: row.wall.length,
                  drawMode: flock.drawMode ?? null,
                });
              return { backend: flock.backend, rows: out };
            } finally {
              flock.dispose();
            }
          },
          {
            backend,
            count,
            shapes: a.shapes.split(','),
            frames: count >= Number(a['big-count']) ? Number(a['big-frames']) : Number(a.frames),
            rowMs: Number(a['row-ms']),
          },
        );
        for (const r of got.rows) rows.push({ backend: got.backend, count, ...r });
        console.log(`draw per shape, ${got.backend}, N = ${count.toLocaleString('en')}:`);
        // Issue 19's bar: the bird look (LOD on) costs no more than arrows in the same run.
        const ms = (shape, lod) =>
          got.rows.find((r) => r.shape === shape && r.lodPixels === lod)?.wallMs;
        const ratio = (x, y) => (x && y ? (x / y).toFixed(2) : 'n/a');
        if (ms('bird', 3) !== undefined && ms('arrow', 3) !== undefined)
          console.log(
            `  bird lod 3 / arrow lod 3: ${ratio(ms('bird', 3), ms('arrow', 3))}; ` +
              `bird lod 3 / arrow lod 0: ${ratio(ms('bird', 3), ms('arrow', 0))}`,
          );
        for (const r of got.rows) {
          console.log(
            `  ${r.shape.padEnd(6)} lod ${String(r.lodPixels).padEnd(2)}  frame ${r.wallMs.toFixed(1).padStart(7)} ms (render + finish, median of ${r.frames})`,
          );
        }
      }).catch((e) => {
        console.error(
          `draw per shape, ${backend}, N = ${count.toLocaleString('en')}: ${e.message}`,
        );
        rows.push({ backend, count, error: String(e.message).split('\n')[0] });
      });
    }
  }
} finally {
  await close();
}
mkdirSync(dirname(a.out), { recursive: true });
writeFileSync(
  a.out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      canvas: [640, 480],
      frames: Number(a.frames),
      bigFrames: Number(a['big-frames']),
      rows,
    },
    null,
    2,
  ),
);
console.log(`wrote ${a.out}`);
