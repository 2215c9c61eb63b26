// `npm run storm`: the compile-storm benchmark (issue 21, reproduction 5). Per rung, in headless
// Chromium on a fresh profile: a running flock gets `--partials` random valid setParams partials
// (seeded; every key but the re-initialising ones and the box, values around the defaults) at
// `--rate` a second, as a GUI drag would send them, while a requestAnimationFrame loop counts
// frames. Prints per rung: fps before the storm, fps per second during it (the minimum and the
// mean) and the longest frame gap, the time from the last partial until the calls settled (every
// promise) and until the backend runs the final params' own program variant (where the backend
// can tell), and the variant cache's hits / misses / compiles / evictions / size / bound.
// A benchmark: it prints numbers, it asserts nothing.
// Options: --backends webgpu,webgl2 --count 1000 --partials 1000 --rate 250 --seed 7
//   --root DIR[,DIR...] (serve other checkouts too, e.g. a worktree of main for a before/after:
//   each root runs in its own browser, in the order given) --settle-timeout 240 (seconds)
//   --trace: also count the GPU API calls made during the storm (pipelines, programs, buffers,
//   bind groups, reads) and print the longest frame gaps with the calls and keys inside each.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const { values: a } = parseArgs({
  options: {
    backends: { type: 'string', default: 'webgpu,webgl2' },
    count: { type: 'string', default: '1000' },
    partials: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '250' },
    seed: { type: 'string', default: '7' },
    root: { type: 'string', default: '.' },
    'settle-timeout': { type: 'string', default: '240' },
    trace: { type: 'boolean', default: false },
  },
});

/** Runs in the page: the storm on one rung; returns what was measured. */
async function stormInPage({ backend, count, partials, rate, seed, settleTimeoutMs, trace }) {
  const lib = window.gpuFlock;
  // --trace: every call of these methods is logged with its time (what a frame gap holds).
  const calls = [];
  if (trace) {
    const wrap = (proto, names) => {
      for (const name of names) {
        const f = proto?.[name];
        if (typeof f !== 'function') continue;
        proto[name] = function (...args) {
          const t0 = performance.now();
          const r = f.apply(this, args);
          calls.push({ t: t0, name, ms: performance.now() - t0 });
          return r;
        };
      }
    };
    wrap(globalThis.GPUDevice?.prototype, [
      'createComputePipeline',
      'createComputePipelineAsync',
      'createRenderPipeline',
      'createRenderPipelineAsync',
      'createShaderModule',
      'createBuffer',
      'createBindGroup',
      'createTexture',
    ]);
    wrap(globalThis.GPUQueue?.prototype, ['submit', 'writeBuffer', 'onSubmittedWorkDone']);
    wrap(globalThis.GPUBuffer?.prototype, ['mapAsync']);
    wrap(globalThis.WebGL2RenderingContext?.prototype, [
      'linkProgram',
      'compileShader',
      'readPixels',
      'getBufferSubData',
      'texImage2D',
      'bufferData',
      'fenceSync',
    ]);
  }
  const flock = await lib.createFlock(document.getElementById('app'), {
    backend,
    params: { count, seed: 1 },
  });
  // The same frames the flock draws: every rAF callback of the page fires in one frame.
  const frames = [];
  let counting = true;
  const tick = (t) => {
    frames.push(t);
    if (counting) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  await flock.finish();
  // Start-up compiles (the step's pipelines, the first variant) stall frames here for seconds:
  // the storm starts once they are done and frames flow (5 in a second, 30 s at most), then 2 s
  // of frames give the rate before it.
  await flock._debug?.variants?.settled();
  for (let t = performance.now(); performance.now() - t < 30_000;) {
    await sleep(250);
    const now = performance.now();
    if (frames.filter((f) => f > now - 1000).length >= 5) break;
  }
  await sleep(2000);

  // Partials: one or two keys, valid against the params before them (validateParams decides).
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const skip = new Set(['count', 'dimensions', 'seed', 'boundsMin', 'boundsMax']);
  const specs = lib.PARAM_SCHEMA.filter((p) => !skip.has(p.name) && !p.reinit);
  const valueOf = (spec) => {
    switch (spec.type) {
      case 'enum':
        return spec.options[Math.floor(rand() * spec.options.length)];
      case 'vec3':
        return [0, 1, 2].map(() => Math.round((rand() * 40 - 20) * 100) / 100);
      case 'obstacles':
        return Array.from({ length: Math.floor(rand() * 4) }, () => ({
          center: [0, 1, 2].map(() => Math.round((rand() * 40 - 20) * 10) / 10),
          radius: 1 + Math.round(rand() * 40) / 10,
        }));
      default: {
        const d = typeof spec.default === 'number' ? spec.default : 0;
        // Around the default (a quarter to twice it), or 0..8 where the default is 0.
        let v = d !== 0 ? d * (0.25 + 1.75 * rand()) : 8 * rand();
        if (spec.name === 'perceptionRadius') v = Math.max(v, 1); // keeps the grid's cell count sane
        if (spec.type !== 'float') v = Math.round(v);
        return Math.min(spec.max, Math.max(spec.min, v));
      }
    }
  };
  const list = [];
  let cur = flock.params;
  while (list.length < partials) {
    const partial = {};
    const keys = 1 + Math.floor(rand() * 2);
    for (let k = 0; k < keys; k++) {
      const spec = specs[Math.floor(rand() * specs.length)];
      partial[spec.name] = valueOf(spec);
    }
    try {
      cur = lib.validateParams(partial, cur);
      list.push(partial);
    } catch {
      // invalid against the params before it: draw another
    }
  }
  const finalParams = cur;

  const stormStart = performance.now();
  const pending = [];
  const sent = [];
  let errors = 0;
  const perTick = Math.max(1, Math.round(rate / 100));
  for (let i = 0; i < list.length;) {
    for (let k = 0; k < perTick && i < list.length; k++, i++) {
      sent.push({ t: performance.now(), keys: Object.keys(list[i]) });
      pending.push(flock.setParams(list[i]).catch(() => errors++));
    }
    await sleep((1000 * perTick) / rate);
  }
  const stormEnd = performance.now();
  await Promise.all(pending);
  const drained = performance.now();
  // The backend's own signal that the final params' variant is in use (absent before issue 21).
  const b = flock._debug ?? null;
  const hooks = b && 'variants' in b ? b : (flock._backend ?? null);
  let settled = null;
  if (hooks?.variants) {
    await Promise.race([hooks.variants.settled(), sleep(settleTimeoutMs)]);
    settled = performance.now();
  }
  // Frames again: the first second after the storm with half the frames of the second before it
  // (and at most 10 fps asked: a slow baseline is not a freeze).
  const baseline = frames.filter((t) => t >= stormStart - 1000 && t < stormStart).length;
  const need = Math.max(1, Math.min(10, Math.floor(baseline / 2)));
  let recovered = null;
  const deadline = performance.now() + settleTimeoutMs;
  while (recovered === null && performance.now() < deadline) {
    await sleep(250);
    const now = performance.now();
    for (let t0 = stormEnd; t0 + 1000 <= now; t0 += 100) {
      const inside = frames.filter((t) => t >= t0 && t <= t0 + 1000);
      if (inside.length >= need) {
        recovered = t0;
        break;
      }
    }
  }
  const end = performance.now();
  counting = false;
  const paramsMatch = JSON.stringify(flock.params) === JSON.stringify(finalParams);
  const stats = hooks?.variants?.stats ? { ...hooks.variants.stats() } : null;
  const ran = flock.backend;
  flock.dispose();

  const fpsIn = (t0, t1) => frames.filter((t) => t >= t0 && t < t1).length / ((t1 - t0) / 1000);
  const windows = [];
  for (let t0 = stormStart; t0 + 1000 <= stormEnd; t0 += 1000) windows.push(fpsIn(t0, t0 + 1000));
  let gap = 0;
  for (let k = 1; k < frames.length; k++) {
    if (frames[k] >= stormStart && frames[k - 1] <= end)
      gap = Math.max(gap, frames[k] - frames[k - 1]);
  }
  // --trace: the calls of the storm (from its start to frames back) by name, and the longest
  // gaps with what was called and which keys were sent inside them.
  let traced = null;
  if (trace) {
    const tally = (list) => {
      const by = {};
      for (const c of list) {
        const e = (by[c.name] ??= { n: 0, ms: 0 });
        e.n++;
        e.ms += c.ms ?? 0;
      }
      return Object.entries(by)
        .map(([k, e]) => `${k} ${e.n}${e.ms >= 1 ? ` (${e.ms.toFixed(0)} ms)` : ''}`)
        .join(', ');
    };
    const inStorm = calls.filter((c) => c.t >= stormStart && c.t <= end);
    const gaps = [];
    for (let k = 1; k < frames.length; k++) {
      const [a0, a1] = [frames[k - 1], frames[k]];
      if (a1 < stormStart || a0 > end) continue;
      gaps.push({ at: a0 - stormStart, ms: a1 - a0, a0, a1 });
    }
    gaps.sort((x, y) => y.ms - x.ms);
    traced = {
      storm: tally(inStorm),
      gaps: gaps.slice(0, 8).map((g) => {
        const keys = {};
        for (const e of sent.filter((e) => e.t >= g.a0 && e.t < g.a1))
          for (const k of e.keys) keys[k] = (keys[k] ?? 0) + 1;
        return (
          `at ${(g.at / 1000).toFixed(2)} s: ${g.ms.toFixed(0)} ms; calls: ` +
          `${tally(calls.filter((c) => c.t >= g.a0 && c.t < g.a1)) || 'none'}; keys: ` +
          Object.entries(keys)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')
        );
      }),
    };
  }
  return {
    traced,
    backend: ran,
    baselineFps: fpsIn(stormStart - 2000, stormStart),
    stormSeconds: (stormEnd - stormStart) / 1000,
    stormFps: fpsIn(stormStart, stormEnd),
    minFps: windows.length ? Math.min(...windows) : fpsIn(stormStart, stormEnd),
    windows,
    longestGapMs: gap,
    drainedMs: drained - stormEnd,
    settledMs: settled === null ? null : settled - stormEnd,
    recoveredMs: recovered === null ? null : recovered - stormEnd,
    errors,
    paramsMatch,
    stats,
  };
}

const f1 = (x) => (x === null ? 'n/a' : x.toFixed(1));
const f0 = (x) => (x === null ? 'n/a' : x.toFixed(0));
for (const dir of a.root.split(',')) {
  const root = resolve(dir);
  const { url, close } = await serveMeasurePage(root);
  try {
    for (const backend of a.backends.split(',')) {
      const r = await withMeasurePage(url, { width: 640, height: 480 }, (page) =>
        page.evaluate(stormInPage, {
          backend,
          count: Number(a.count),
          partials: Number(a.partials),
          rate: Number(a.rate),
          seed: Number(a.seed),
          settleTimeoutMs: 1000 * Number(a['settle-timeout']),
          trace: a.trace,
        }),
      );
      const s = r.stats;
      console.log(
        `${root} ${backend} (ran on ${r.backend}), N=${a.count}, ${a.partials} partials in ${r.stormSeconds.toFixed(1)} s:` +
          ` fps before ${f1(r.baselineFps)}, during ${f1(r.stormFps)} (min 1-s window ${f1(r.minFps)}),` +
          ` longest frame gap ${f0(r.longestGapMs)} ms; after the last partial: calls settled ${f0(r.drainedMs)} ms,` +
          ` final variant in use ${f0(r.settledMs)} ms, frames back (half the fps before, or 10) ${f0(r.recoveredMs)} ms;` +
          ` errors ${r.errors}, params end right ${r.paramsMatch};` +
          ` variants ${s ? `hits ${s.hits} misses ${s.misses} compiles ${s.compiles} evictions ${s.evictions} size ${s.size}/${s.bound}` : 'n/a'}`,
      );
      console.log(`  fps per second of the storm: ${r.windows.map((w) => w.toFixed(0)).join(' ')}`);
      if (r.traced) {
        console.log(`  calls from the storm's start until frames were back: ${r.traced.storm}`);
        for (const g of r.traced.gaps) console.log(`  gap ${g}`);
      }
    }
  } finally {
    await close();
  }
}
