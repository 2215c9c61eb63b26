// `npm run bench:first-frame`: the first second of the README's one-line hero (issue 27 item 5).
// Per rung (webgpu, webgl2, webgl2-tf, cpu), in 3D and 2D, on a first visit (a fresh browser
// profile: no remembered capacity, no shader cache) and on a revisit (the same profile, the page
// loaded again), headless Chromium (SwiftShader here) draws
//   <gpu-flock bounds="auto" palette="dusk" fit="cover" background="transparent" boundary="wrap"
//              pointer="page" backend=RUNG dimensions=D>
// in a 1280x720 hero and prints: ms from the element connecting to its first frame (the stage
// shown and drawn), the count at that frame, and the local order of that frame's state
// (src/core/order.ts, read before any later step: the read is queued as the stage is shown).
// Vite's compiles of the modules are done before timing (compileModules); a measured visit still
// fetches them into a fresh profile.
// Options: --rungs webgpu,webgl2,webgl2-tf,cpu --dims 3,2 --root DIR --json FILE
//
// --demo: the demo page instead (index.html, issue 27 item 5's demo row), as built by
// `npm run build:demo` (dist-demo/ of --root, served statically by `vite preview`: Vite's dev
// server compiles modules on first request, which is not what a visitor meets). In 3D and 2D
// (?dimensions=2), first visit (fresh profile) and revisit (same profile, loaded again), it
// prints: ms from navigation start to the first frame with boids (the #app container shown with
// window.flock set), the count and the local order of that frame's state (read as it is shown,
// order computed in Node by src/core/order.ts), and the count once window.flockReady settled.
// Rungs: --rungs auto (the demo's own ladder, default) or named ones (?backend=RUNG).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';
import { serveMeasurePage } from './measure-page.mjs';

const { values: a } = parseArgs({
  options: {
    rungs: { type: 'string', default: 'webgpu,webgl2,webgl2-tf,cpu' },
    dims: { type: 'string', default: '3,2' },
    root: { type: 'string', default: '.' },
    json: { type: 'string' },
    demo: { type: 'boolean', default: false },
  },
});
if (a.demo) {
  await demoRows();
  process.exit(0);
}

/** One hero on the open page: its first frame's ms, count and order, and how the count was found. */
async function hero(page, backend, dimensions) {
  return page.evaluate(
    async ({ backend, dimensions }) => {
      await import('/src/element/index.ts');
      const { localOrder } = await import('/src/core/order.ts');
      const el = document.createElement('gpu-flock');
      const attrs = {
        bounds: 'auto',
        palette: 'dusk',
        fit: 'cover',
        background: 'transparent',
        boundary: 'wrap',
        pointer: 'page',
        backend,
        dimensions: String(dimensions),
      };
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      el.style.cssText = 'display:block;width:1280px;height:720px';
      let first = null;
      const ready = new Promise((res, rej) => {
        el.addEventListener('ready', (e) => res(e.detail));
        el.addEventListener('error', (e) => {
          if (!e.detail?.attribute) rej(new Error(String(e.detail?.error)));
        });
      });
      const t0 = performance.now();
      document.body.append(el);
      // The stage is shown with the first frame: read its state then (queued before any later step).
      await new Promise((res) => {
        const check = () => {
          const stage = el.shadowRoot?.querySelector('.stage');
          const flock = el.flock;
          if (stage && flock && stage.style.visibility === '') {
            const ms = performance.now() - t0;
            const params = flock.params;
            first = { ms, count: params.count, state: flock.readState(), params };
            res();
            return true;
          }
          return false;
        };
        const mo = new MutationObserver(() => {
          if (check()) mo.disconnect();
        });
        const watch = () => {
          const stage = el.shadowRoot?.querySelector('.stage');
          if (!stage) return void requestAnimationFrame(watch);
          if (!check()) mo.observe(stage, { attributes: true, attributeFilter: ['style'] });
        };
        watch();
      });
      const detail = await ready;
      const state = await first.state;
      const o = localOrder(state, first.params);
      const out = {
        backend: el.flock.backend,
        ms: Math.round(first.ms),
        count: first.count,
        order: Number(o.order.toFixed(3)),
        finalCount: el.flock.params.count,
        readyMs: Math.round(performance.now() - t0),
        how: detail.remembered ? 'remembered' : detail.probe ? 'probed after' : 'given',
        warmup: detail.warmup
          ? { steps: detail.warmup.steps, cut: detail.warmup.cut, s: detail.warmup.seconds }
          : null,
      };
      el.remove();
      return out;
    },
    { backend, dimensions },
  );
}

const root = resolve(a.root);
const { url, close } = await serveMeasurePage(root);
const rows = [];
/** Every module a hero may load, the rungs' chunks included (each first asked for lazily). */
const MODULES = [
  '/src/element/index.ts',
  '/src/core/order.ts',
  '/src/webgpu/webgpu-backend.ts',
  '/src/webgpu/device.ts',
  '/src/webgl2/capabilities.ts',
  '/src/webgl2/webgl2-backend.ts',
  '/src/webgl2/webgl2-tf-backend.ts',
  '/src/cpu/cpu-backend.ts',
];
/**
 * Vite compiles each module on its first request (hundreds of ms for a rung's chunk), which a
 * served build does not: every module is requested once from a throwaway profile before timing,
 * so each measured visit still fetches them (fresh profile: no HTTP or shader cache) but finds
 * them compiled.
 */
async function compileModules() {
  const profile = mkdtempSync(join(tmpdir(), 'flock-first-warm-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium() ?? undefined,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.goto(url);
    await page.waitForFunction(() => window.gpuFlock !== undefined, null, { timeout: 60_000 });
    const files = MODULES.filter((m) => existsSync(join(root, m)));
    await page.evaluate((files) => Promise.all(files.map((f) => import(f))), files);
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
try {
  await compileModules();
  for (const rung of a.rungs.split(',')) {
    for (const dims of a.dims.split(',').map(Number)) {
      const profile = mkdtempSync(join(tmpdir(), 'flock-first-'));
      const ctx = await chromium.launchPersistentContext(profile, {
        executablePath: findChromium() ?? undefined,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 1280, height: 720 },
      });
      try {
        const page = ctx.pages()[0] ?? (await ctx.newPage());
        for (const visit of ['first visit', 'revisit']) {
          await page.goto(url);
          await page.waitForFunction(() => window.gpuFlock !== undefined, null, {
            timeout: 60_000,
          });
          // Vite compiles the modules on the first request: load them once before timing.
          await page.evaluate(() =>
            Promise.all([import('/src/element/index.ts'), import('/src/core/order.ts')]),
          );
          const r = await hero(page, rung, dims);
          const row = { rung, dims, visit, ...r };
          rows.push(row);
          console.log(
            `${rung.padEnd(9)} ${dims}D ${visit.padEnd(11)} first frame ${String(r.ms).padStart(5)} ms, ` +
              `${String(r.count).padStart(6)} boids, order ${r.order.toFixed(3)}  ` +
              `(ran ${r.backend}; count ${r.how}: ${r.finalCount} at ready, ${r.readyMs} ms; ` +
              `warm-up ${r.warmup ? `${r.warmup.steps} steps${r.warmup.cut ? ', cut' : ''}` : 'none'})`,
          );
        }
      } finally {
        await ctx.close();
        rmSync(profile, { recursive: true, force: true });
      }
    }
  }
} finally {
  await close();
}
if (a.json) writeFileSync(a.json, JSON.stringify({ tool: 'bench-first-frame', rows }, null, 2));

/**
 * The demo's rows (--demo): see the header. Serves `dist-demo/` of --root with `vite preview`
 * and loads the order measure into Node with Vite's SSR loader (Node 20 runs no TypeScript).
 */
async function demoRows() {
  const { createServer, preview } = await import('vite');
  const root = resolve(a.root);
  const server = await preview({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'error',
    preview: { port: 0, strictPort: false, host: '127.0.0.1' },
  });
  const base = server.resolvedUrls.local[0];
  const loader = await createServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false },
    appType: 'custom',
  });
  const { localOrder } = await loader.ssrLoadModule('/src/core/order.ts');
  const rungs = a.rungs === 'webgpu,webgl2,webgl2-tf,cpu' ? ['auto'] : a.rungs.split(',');
  const out = [];
  try {
    for (const rung of rungs) {
      for (const dims of a.dims.split(',').map(Number)) {
        const q = new URLSearchParams();
        if (rung !== 'auto') q.set('backend', rung);
        if (dims === 2) q.set('dimensions', '2');
        const url = `${base}${q.size ? `?${q}` : ''}`;
        const profile = mkdtempSync(join(tmpdir(), 'flock-demo-first-'));
        const ctx = await chromium.launchPersistentContext(profile, {
          executablePath: findChromium() ?? undefined,
          headless: true,
          args: CHROMIUM_ARGS,
          viewport: { width: 1280, height: 720 },
        });
        // The first frame: #app shown (its visibility no longer hidden) with the flock made.
        await ctx.addInitScript(() => {
          // When createFlock settled (window.flock set), for the breakdown.
          let flock;
          Object.defineProperty(window, 'flock', {
            configurable: true,
            get: () => flock,
            set: (v) => {
              flock = v;
              window.__flockMs ??= performance.now();
            },
          });
          // When window.flockReady settled.
          let ready;
          Object.defineProperty(window, 'flockReady', {
            configurable: true,
            get: () => ready,
            set: (v) => {
              ready = v;
              v.then(() => (window.__readyMs = performance.now()));
            },
          });
          const mo = new MutationObserver((records) => {
            const app = document.getElementById('app');
            if (!app || !window.flock || app.style.visibility !== '') return;
            if (!records.some((r) => r.target === app)) return;
            mo.disconnect();
            const f = window.flock;
            window.__firstFrame = {
              ms: performance.now(),
              count: f.params.count,
              params: f.params,
              // Read after the first frame's draw: it settles once the device has drawn it.
              state: f.readState().then((st) => {
                window.__drawnMs = performance.now();
                return st;
              }),
            };
          });
          mo.observe(document, { subtree: true, attributes: true, attributeFilter: ['style'] });
        });
        try {
          const page = ctx.pages()[0] ?? (await ctx.newPage());
          for (const visit of ['first visit', 'revisit']) {
            await page.goto(url);
            await page.waitForFunction(() => window.flockReady !== undefined, null, {
              timeout: 120_000,
            });
            const r = await page.evaluate(async () => {
              await window.flockReady;
              const ff = window.__firstFrame;
              const s = await ff.state;
              const st = window.demo.state;
              return {
                ms: Math.round(ff.ms),
                count: ff.count,
                params: ff.params,
                positions: Array.from(s.positions),
                velocities: Array.from(s.velocities),
                backend: window.flock.backend,
                finalCount: window.flock.params.count,
                readyMs: Math.round(window.__readyMs),
                createdMs: Math.round(window.__flockMs),
                scriptMs: Math.round(
                  performance.getEntriesByType('navigation')[0]?.domContentLoadedEventStart ?? 0,
                ),
                how: st.remembered ? 'remembered' : st.probe ? 'probed' : 'given',
                drawnMs: Math.round(window.__drawnMs),
              };
            });
            const state = {
              count: r.count,
              positions: Float32Array.from(r.positions),
              velocities: Float32Array.from(r.velocities),
            };
            const order = localOrder(state, r.params).order;
            const row = {
              page: 'demo',
              rung,
              backend: r.backend,
              dims,
              visit,
              ms: r.ms,
              count: r.count,
              order: Number(order.toFixed(3)),
              finalCount: r.finalCount,
              readyMs: r.readyMs,
              createdMs: r.createdMs,
              drawnMs: r.drawnMs,
              scriptMs: r.scriptMs,
              how: r.how,
            };
            out.push(row);
            console.log(
              `demo ${rung}(${r.backend}) ${dims}D ${visit.padEnd(11)} first frame ` +
                `${String(r.ms).padStart(5)} ms, ${String(r.count).padStart(6)} boids, order ` +
                `${order.toFixed(3)}  (count ${r.how}: ${r.finalCount} at flockReady, ${r.readyMs} ms; ` +
                `DOMContentLoaded ${r.scriptMs} ms, flock created ${r.createdMs} ms, ` +
                `first frame drawn ${r.drawnMs} ms)`,
            );
          }
        } finally {
          await ctx.close();
          rmSync(profile, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await loader.close();
    await new Promise((res) => server.httpServer.close(res));
  }
  if (a.json) {
    writeFileSync(a.json, JSON.stringify({ tool: 'bench-first-frame --demo', rows: out }, null, 2));
  }
}
