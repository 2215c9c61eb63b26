// Many flocks on one page (issue 21, reproduction 8): N flocks of COUNT boids, each in its own
// 160x120 box, on one rung (webgl2 or webgpu), all running. Prints per case the mean and 95th
// percentile frame time (requestAnimationFrame intervals over MEASURE_MS after WARM_MS), and the
// context losses, fallbacks and final rungs seen, one JSON line per case and a table at the end.
//   node scripts/many-flocks.mjs [--counts 1,5,20] [--backends webgl2,webgpu] [--boids 2000]
//     [--root DIR[,DIR...]] (other checkouts too, e.g. main's for a before/after in one run: each
//     root is served in turn, every case in its own browser)
// Timings here are SwiftShader on a shared CPU: compare rows of one run, not across machines.
import { basename, resolve } from 'node:path';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const counts = arg('counts', '1,5,20').split(',').map(Number);
const backends = arg('backends', 'webgl2,webgpu').split(',');
const boids = Number(arg('boids', '2000'));
const WARM_MS = Number(arg('warm', '4000'));
const MEASURE_MS = Number(arg('measure', '6000'));

const roots = arg('root', '.')
  .split(',')
  .map((d) => resolve(d));
const rows = [];
for (const root of roots) {
  const { url, close } = await serveMeasurePage(root);
  try {
    for (const backend of backends) {
      for (const n of counts) {
        const row = await withMeasurePage(url, { width: 1000, height: 800 }, (page) =>
          page.evaluate(
            async ({ backend, n, boids, WARM_MS, MEASURE_MS }) => {
              const lib = window.gpuFlock;
              document.getElementById('app').style.display = 'none';
              const events = { contextlost: 0, contextrestored: 0, fallback: 0, error: 0 };
              const flocks = [];
              const t0 = performance.now();
              // All at once, as n <gpu-flock> elements on a page start (each near the viewport).
              const made = [];
              for (let i = 0; i < n; i++) {
                const div = document.createElement('div');
                div.style.cssText = 'width:160px;height:120px;display:inline-block';
                document.body.append(div);
                made.push(
                  lib
                    .createFlock(div, { backend, params: { count: boids, seed: i + 1 } })
                    .then((f) => {
                      for (const t of Object.keys(events)) f.addEventListener(t, () => events[t]++);
                      flocks.push(f);
                    })
                    .catch(() => events.error++),
                );
              }
              // Bounded: a cascade of evictions may keep some from starting for long.
              await Promise.race([Promise.all(made), new Promise((r) => setTimeout(r, 60_000))]);
              const createMs = performance.now() - t0;
              await new Promise((r) => setTimeout(r, WARM_MS));
              const frames = [];
              let last = performance.now();
              const end = last + MEASURE_MS;
              await new Promise((resolve) => {
                const tick = (now) => {
                  frames.push(now - last);
                  last = now;
                  if (now < end) requestAnimationFrame(tick);
                  else resolve();
                };
                requestAnimationFrame(tick);
              });
              frames.sort((a, b) => a - b);
              const mean = frames.reduce((a, b) => a + b, 0) / frames.length;
              const p95 = frames[Math.floor(0.95 * (frames.length - 1))];
              const rungs = {};
              for (const f of flocks) rungs[f.backend] = (rungs[f.backend] ?? 0) + 1;
              const steps = flocks.map((f) => f.time / f.params.timeStep);
              for (const f of flocks) f.dispose();
              return {
                started: flocks.length,
                backend,
                flocks: n,
                boids,
                createMs: Math.round(createMs),
                frameMs: +mean.toFixed(1),
                p95Ms: +p95.toFixed(1),
                fps: +(1000 / mean).toFixed(1),
                minSteps: Math.min(...steps),
                ...events,
                rungs,
              };
            },
            { backend, n, boids, WARM_MS, MEASURE_MS },
          ),
        );
        row.root = basename(root);
        console.log(JSON.stringify(row));
        rows.push(row);
      }
    }
  } finally {
    await close();
  }
}
console.log(
  '\nroot          backend  flocks  started  frame ms (mean / p95)  fps   losses  fallbacks  rungs at the end',
);
for (const r of rows) {
  console.log(
    `${r.root.slice(0, 12).padEnd(13)} ${r.backend.padEnd(8)} ${String(r.flocks).padStart(6)}  ${String(r.started).padStart(7)}  ${`${r.frameMs} / ${r.p95Ms}`.padStart(21)}  ${String(r.fps).padStart(5)}  ${String(r.contextlost).padStart(6)}  ${String(r.fallback).padStart(9)}  ${JSON.stringify(r.rungs)}`,
  );
}
