// `node scripts/bench-gpu-export.mjs bench-gpu.json [out.json]`: turns what `npm run bench:gpu`
// writes (the WebGPU simulation through Dawn in Node, on a real GPU) into the benchmark page's
// export format, so that bench.html can import it beside a browser's run: the fresh sweep's rows
// (webgpu counting / bitonic / brute, ms per step and per pass), the steady-state rows with their
// whole frames (one step + the draw into a 1920x1080 target) and the capacity at 60 and 30 fps.
// Node has no canvas and no page, so the capacity is not searched as the page searches it: it is
// interpolated (log-log) from the whole frames measured at the steady sizes, a frame at f fps
// being the steps the loop takes to keep real time (two at 30 fps) + one draw. It says so.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, out = 'docs/bench-results/nvidia-h200-dawn.json'] = process.argv.slice(2);
if (!input) {
  console.error('usage: node scripts/bench-gpu-export.mjs bench-gpu.json [out.json]');
  process.exit(2);
}
const g = JSON.parse(readFileSync(input, 'utf8'));
const adapter = String(g.adapter ?? 'unknown adapter');
const gpuName = /h200/i.test(adapter) ? 'NVIDIA H200' : adapter;
const label = `${gpuName} (WebGPU through Dawn in Node)`;

const FAMILY = {
  counting: { backend: 'webgpu', mode: 'grid', sort: 'counting', label: 'webgpu counting' },
  bitonic: { backend: 'webgpu', mode: 'grid', sort: 'bitonic', label: 'webgpu bitonic' },
  brute: { backend: 'webgpu', mode: 'brute', label: 'webgpu brute' },
};
const PASSES = ['key', 'sort', 'cellTable', 'reorder', 'steer'];
const passes = (p = {}) => ({
  ...Object.fromEntries(PASSES.map((k) => [k, p[k] ?? null])),
  draw: p.draw ?? null,
});
const row = (fam, r, extra = {}) => ({
  ...fam,
  count: r.n,
  dimensions: 3,
  seed: 1,
  box: r.box,
  meanNeighbors: r.meanNeighbors ?? null,
  stepMs: r.stepMs,
  minMs: r.minMs ?? r.stepMs,
  maxMs: r.stepMs,
  samples: [r.stepMs],
  batch: 8,
  stepsPerSecond: 1000 / r.stepMs,
  gpuStepMs: r.gpuStepMs ?? null,
  timing: g.timestamps ? 'gpu' : 'cpu-wait',
  passes: passes(r.passMs),
  drawMs: null,
  frameMs: null,
  fps: null,
  mainMs: null,
  longTasks: { count: null, ms: 0, maxMs: 0 },
  canvas: [0, 0],
  setupMs: 0,
  overBudget: false,
  device: adapter,
  sortPasses: null,
  ...extra,
});

const rows = [];
for (const r of g.rows ?? []) {
  if (r.note && !r.note.startsWith('nbrs after')) continue; // workgroup sweeps, probes
  rows.push(row(FAMILY[r.mode], { ...r, stepMs: r.stepMsMedian, minMs: r.stepMsMin }));
}
// Steady rows of the plain grid (sparse: the default density; dense: box side / 2.15; fieldOfView
// 360 or another), with whole frames where measured; the capacity from the sparse 360 rows.
const frames = [];
for (const r of g.steady ?? []) {
  if (r.state !== 'steady' || !/^grid(\+u\d+)?$/.test(r.variant)) continue;
  const fov = r.fov ?? 360;
  const label = `webgpu counting steady${r.scene === 'dense' ? ' dense' : ''}${fov === 360 ? '' : ` fov ${fov}`}`;
  const f = r.frameVertexId ?? r.frame;
  rows.push(
    row({ ...FAMILY.counting, scene: 'steady', label }, r, {
      meanNeighbors: r.meanNeighbors,
      ...(f
        ? {
            frameMs: f.wallMs,
            fps: 1000 / f.wallMs,
            drawMs: f.passMs?.draw ?? Math.max(0, f.wallMs - r.stepMs),
            canvas: [1920, 1080],
          }
        : {}),
    }),
  );
  if (f && r.scene === 'sparse' && fov === 360)
    frames.push({ n: r.n, stepMs: r.stepMs, drawMs: Math.max(0, f.wallMs - r.stepMs) });
}
frames.sort((a, b) => a.n - b.n);

const round2 = (n) => {
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
};
/** Largest N whose frame (steps + draw) fits 1000 / fps, interpolated log-log between sizes. */
function capacityAt(fps) {
  const steps = Math.max(1, Math.round(60 / fps));
  const budget = 1000 / fps;
  const cost = frames.map((f) => ({ n: f.n, ms: steps * f.stepMs + f.drawMs }));
  let count = 0;
  let failsAt = null;
  let frameMs = null;
  for (let i = 0; i < cost.length; i++) {
    const c = cost[i];
    if (c.ms <= budget) {
      count = c.n;
      frameMs = c.ms;
      continue;
    }
    failsAt = c.n;
    const prev = cost[i - 1];
    if (prev && prev.ms <= budget) {
      // ms = a * n^b through the two sizes; the n where it meets the budget.
      const b = Math.log(c.ms / prev.ms) / Math.log(c.n / prev.n);
      const n = prev.n * (budget / prev.ms) ** (1 / b);
      count = round2(Math.min(c.n, Math.max(prev.n, n)));
      frameMs = budget;
    }
    break;
  }
  if (count === 0 && cost.length)
    console.warn(
      `capacity at ${fps} fps: 0, the smallest size with a frame (N = ${cost[0].n}) already takes ` +
        `${cost[0].ms.toFixed(1)} ms; measure frames at smaller sizes (--steady-n) to interpolate`,
    );
  return { fps, steps, count, frameMs, failsAt, bounded: false };
}
const capacity = frames.length
  ? [
      {
        backend: 'webgpu',
        available: true,
        device: adapter,
        results: [capacityAt(60), capacityAt(30)],
        probes: frames.map((f) => ({
          count: f.n,
          steps: 1,
          frameMs: f.stepMs + f.drawMs,
          mainMs: null,
        })),
        ms: 0,
        note:
          'interpolated from whole frames measured through Dawn in Node (one step + the draw into a ' +
          `1920x1080 target, steady state) at N = ${frames.map((f) => f.n.toLocaleString('en-US')).join(', ')}; ` +
          "the H200's graphics pipeline runs on a small part of the chip, so its draw is slower than a desktop GPU's",
      },
    ]
  : [];
const fmt = (n) => n.toLocaleString('en-US');
const sentence = capacity.length
  ? `On this device: WebGPU holds ${fmt(capacity[0].results[0].count)} boids at 60 fps and ${fmt(capacity[0].results[1].count)} at 30 fps (interpolated from measured frames).`
  : '';
const device = {
  date: g.date,
  userAgent: `Node ${process.version}, Dawn (webgpu package), ${g.backend ?? ''} backend`,
  hardwareConcurrency: 0,
  devicePixelRatio: 1,
  webgl2: {
    available: false,
    reason: 'Node through Dawn: no WebGL2',
    limits: {},
    extensions: [],
    used: {},
  },
  webgpu: {
    available: true,
    info: {
      description: adapter,
      backend: String(g.backend ?? ''),
      featureLevel: String(g.featureLevel ?? ''),
    },
    isFallbackAdapter: Boolean(g.isFallbackAdapter),
    limits: g.limits ?? {},
    features: g.timestamps ? ['timestamp-query'] : [],
    used: { 'timestamp-query': Boolean(g.timestamps) },
  },
  backends: { webgpu: { available: true, device: adapter } },
  auto: { backend: 'webgpu', fallbackReasons: {} },
};
const exported = {
  tool: 'gpu-flock bench',
  date: g.date,
  label,
  settings: {
    families: [...new Set(rows.map((r) => r.label))],
    counts: [...new Set(rows.map((r) => r.count))].sort((a, b) => a - b),
    bruteMax: 262144,
    samples: 0,
    batch: 8,
    frames: 0,
    budgetMs: 0,
    dimensions: 3,
    seed: 1,
    behaviours: 'none',
    behaviourCounts: [],
    rounds: 0,
  },
  scene: {
    seed: 1,
    dimensions: 3,
    box: 'cube of side 64 * (N / 16384)^(1/d) centred on 0 (constant density)',
    params: 'every other parameter at its default (src/core/params.ts)',
  },
  device,
  rows,
  capacity,
  capacitySentence: sentence,
  source: { command: g.command, elapsedS: g.elapsedS, copyGBps: g.copyGBps },
};
writeFileSync(out, JSON.stringify(exported, null, 2) + '\n');
console.log(`wrote ${out}: ${rows.length} rows; ${sentence}`);
