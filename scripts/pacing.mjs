// `node scripts/pacing.mjs`: frame pacing and first-frame times in headless Chromium (issue 14).
// For each backend and count, on a fresh browser profile (no shader cache from an earlier case):
//   first frame: ms from createFlock() to the first drawn frame (render + finish: the GPU has
//     drawn it), and to createFlock resolving;
//   pacing: fps, steps per frame and simulated/real time over a few seconds of the running loop,
//     once per pacing mode the flock offers ('catch-up': the old loop, up to 4 steps a frame to keep
//     real time; 'adaptive': as many steps as fit the frame budget), in the same run.
// Options: --backends webgl2,webgpu --counts 16384,65536 --seconds 5 --modes catch-up,adaptive
//   --root DIR (serve another checkout, e.g. main, for a before/after) --first-only
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const { values: a } = parseArgs({
  options: {
    backends: { type: 'string', default: 'webgl2,webgpu' },
    counts: { type: 'string', default: '16384,65536' },
    seconds: { type: 'string', default: '5' },
    modes: { type: 'string', default: 'catch-up,adaptive' },
    root: { type: 'string', default: '.' },
    'first-only': { type: 'boolean', default: false },
  },
});
const root = resolve(a.root);
const { url, close } = await serveMeasurePage(root);
const rows = [];
try {
  for (const backend of a.backends.split(',')) {
    for (const count of a.counts.split(',').map(Number)) {
      await withMeasurePage(url, { width: 800, height: 600 }, async (page) => {
        const first = await page.evaluate(
          async ({ backend, count }) => {
            const t0 = performance.now();
            const flock = await window.gpuFlock.createFlock(document.getElementById('app'), {
              backend,
              params: { count },
              autoStart: false,
            });
            const created = performance.now() - t0;
            flock.render();
            await flock.finish();
            const drawn = performance.now() - t0;
            window.theFlock = flock;
            return { created, drawn };
          },
          { backend, count },
        );
        const row = { backend, count, ...first, pacing: {} };
        if (!a['first-only']) {
          for (const mode of a.modes.split(',')) {
            row.pacing[mode] = await page.evaluate(
              async ({ mode, seconds }) => {
                const flock = window.theFlock;
                if (mode === 'catch-up' && !('_pacing' in flock)) mode = 'default';
                if (mode !== 'default') flock._pacing = mode;
                const b = flock._backend;
                let steps = 0;
                const step = b.step.bind(b);
                b.step = (n) => {
                  steps += n;
                  step(n);
                };
                let frames = 0;
                let on = true;
                const tick = () => {
                  frames++;
                  if (on) requestAnimationFrame(tick);
                };
                flock.start();
                await new Promise((r) => setTimeout(r, 1500)); // warm-up: costs measured, budget known
                await flock.finish();
                steps = 0;
                frames = 0;
                requestAnimationFrame(tick);
                const t0 = performance.now();
                await new Promise((r) => setTimeout(r, seconds * 1000));
                const s = (performance.now() - t0) / 1000;
                on = false;
                const out = {
                  fps: frames / s,
                  stepsPerFrame: steps / Math.max(1, frames),
                  timeScale: (steps * flock.params.timeStep) / s,
                  statsTimeScale: flock.stats.timeScale ?? null,
                  stepMs: flock.stats.stepMs,
                  timing: flock.stats.timing,
                };
                flock.stop();
                b.step = step;
                await flock.finish();
                return out;
              },
              { mode, seconds: Number(a.seconds) },
            );
          }
        }
        await page.evaluate(() => window.theFlock.dispose());
        rows.push(row);
        console.log(JSON.stringify(row));
      });
    }
  }
} finally {
  await close();
}
const f = (x, d = 1) => (x === null || x === undefined ? '-' : x.toFixed(d));
console.log(`\nfirst frame (ms from createFlock), root ${root}`);
console.log('backend   count   createFlock  first frame drawn');
for (const r of rows)
  console.log(
    `${r.backend.padEnd(9)} ${String(r.count).padStart(6)}  ${f(r.created, 0).padStart(11)}  ${f(r.drawn, 0).padStart(17)}`,
  );
if (!a['first-only']) {
  console.log('\npacing: fps, steps/frame, simulated/real time (measured; stats.timeScale)');
  for (const r of rows)
    for (const [mode, p] of Object.entries(r.pacing))
      console.log(
        `${r.backend.padEnd(9)} ${String(r.count).padStart(6)} ${mode.padEnd(9)} fps ${f(p.fps).padStart(5)}  steps/frame ${f(p.stepsPerFrame, 2).padStart(5)}  time ${f(p.timeScale, 2)}x (${f(p.statsTimeScale, 2)})  step ${f(p.stepMs)} ms ${p.timing}`,
      );
}
