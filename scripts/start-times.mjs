// `node scripts/start-times.mjs`: start times of flocks on one page in headless Chromium (issue 10
// item 4). On a fresh browser profile (no shader cache from an earlier run), one page makes
// `--flocks` flocks one after the other, each in its own 320x240 container; for each, the ms from
// createFlock() to createFlock resolving, to its first frame drawn (render + finish: the GPU has
// drawn it) and to one step done (its compute pipelines ready); the next flock starts after that.
// The first flock requests the device and compiles every pipeline; later ones on the same page
// share both.
// Options: --backends webgpu,webgl2 --count 2000 --flocks 3 --repeats 1
//   --root DIR (serve another checkout, e.g. main, for a before/after)
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const { values: a } = parseArgs({
  options: {
    backends: { type: 'string', default: 'webgpu,webgl2' },
    count: { type: 'string', default: '2000' },
    flocks: { type: 'string', default: '3' },
    repeats: { type: 'string', default: '1' },
    root: { type: 'string', default: '.' },
  },
});
const root = resolve(a.root);
const { url, close } = await serveMeasurePage(root);
const rows = [];
try {
  for (let rep = 0; rep < Number(a.repeats); rep++) {
    for (const backend of a.backends.split(',')) {
      await withMeasurePage(url, { width: 1000, height: 800 }, async (page) => {
        const times = await page.evaluate(
          async ({ backend, count, flocks }) => {
            const out = [];
            const made = [];
            for (let k = 0; k < flocks; k++) {
              const div = document.createElement('div');
              div.style.cssText = 'width:320px;height:240px;display:inline-block';
              document.body.appendChild(div);
              const t0 = performance.now();
              const flock = await window.gpuFlock.createFlock(div, {
                backend,
                params: { count: count + k, seed: 7 + k },
                autoStart: false,
              });
              const created = performance.now() - t0;
              flock.render();
              await flock.finish();
              const drawn = performance.now() - t0;
              // Then one step: the simulation's pipelines, compiled in the background after the
              // first frame, are ready before the next flock starts (they are shared too).
              await flock.step(1);
              await flock.finish();
              out.push({ created, drawn, stepped: performance.now() - t0, backend: flock.backend });
              made.push(flock);
            }
            for (const f of made) f.dispose();
            return out;
          },
          { backend, count: Number(a.count), flocks: Number(a.flocks) },
        );
        const row = { backend, count: Number(a.count), times };
        rows.push(row);
        console.log(JSON.stringify(row));
      });
    }
  }
} finally {
  await close();
}
const f = (x) => x.toFixed(0).padStart(6);
console.log(`\nstart times on one page (ms from createFlock), root ${root}`);
for (const key of ['created', 'drawn', 'stepped']) {
  console.log(`to ${key}:`);
  for (const r of rows) {
    const first = r.times[0][key];
    const later = r.times
      .slice(1)
      .map((t) => `${f(t[key])} (${(t[key] / first).toFixed(3)}x)`)
      .join('  ');
    console.log(`  ${r.backend.padEnd(8)} N=${r.count}  first ${f(first)}  then ${later}`);
  }
}
