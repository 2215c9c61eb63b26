// `node scripts/first-order.mjs [--uncut] [--rungs webgpu,webgl2,webgl2-tf,cpu] [--dims 3,2]
// [--count 16384|probe]`:
// the local order (src/core/order.ts, the `npm run order` measure) of the state the <gpu-flock>
// element's first frame draws, per rung, in DESIGN's default 3D and 2D scenes (16,384 boids in
// the 64-unit box; the cpu rung at its cap of 4,096 boids in a box of the same density), after
// the element's unseen warm-up (DESIGN section 7). The element is `paused`, so no loop step comes
// between `ready` and the read. With the element's wall-clock bound (1.5 s) by default, or
// --uncut to fly the whole warm-up whatever it takes. Prints one row per case.
import { parseArgs } from 'node:util';
import { serveMeasurePage, withMeasurePage } from './measure-page.mjs';

const { values } = parseArgs({
  options: {
    uncut: { type: 'boolean', default: false },
    rungs: { type: 'string', default: 'webgpu,webgl2,webgl2-tf,cpu' },
    dims: { type: 'string', default: '3,2' },
    // A count, or `probe`: no count attribute (the element measures the device and picks one,
    // its box scaled to DESIGN's density), as the one-line embed runs.
    count: { type: 'string', default: '16384' },
  },
});

const root = new URL('..', import.meta.url).pathname;
const served = await serveMeasurePage(root);
const rows = [];
try {
  for (const rung of values.rungs.split(',')) {
    for (const dims of values.dims.split(',').map(Number)) {
      const probe = values.count === 'probe';
      const count = rung === 'cpu' ? Math.min(4096, Number(values.count)) : Number(values.count);
      // DESIGN's density: 16,384 boids in 64^d.
      const half = (32 * (count / 16384) ** (1 / dims)).toFixed(2);
      const attrs = probe
        ? { backend: rung, dimensions: String(dims), paused: '' }
        : {
            backend: rung,
            count: String(count),
            dimensions: String(dims),
            'bounds-min': `-${half},-${half},-${half}`,
            'bounds-max': `${half},${half},${half}`,
            paused: '',
          };
      const row = await withMeasurePage(served.url, { width: 800, height: 600 }, (page) =>
        page.evaluate(
          async ({ attrs, uncut }) => {
            const el = await import('/src/element/index.ts');
            const { localOrder } = await import('/src/core/order.ts');
            if (uncut) el.GpuFlockElement.warmupBudgetMs = 1e9;
            const node = document.createElement('gpu-flock');
            for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
            node.style.cssText = 'width: 640px; height: 480px';
            const ready = new Promise((r) => node.addEventListener('ready', (e) => r(e.detail)));
            document.body.append(node);
            const detail = await ready;
            const flock = detail.flock;
            const s = await flock.readState();
            const o = localOrder(s, flock.params);
            return {
              backend: flock.backend,
              count: flock.params.count,
              seconds: flock.time,
              steps: detail.warmup?.steps ?? 0,
              cut: detail.warmup?.cut ?? false,
              ms: Math.round(detail.warmup?.ms ?? 0),
              order: o.order,
              meanNeighbors: o.meanNeighbors,
            };
          },
          { attrs, uncut: values.uncut },
        ),
      );
      rows.push({ dims, ...row });
      console.log(
        `${row.backend.padEnd(9)} ${dims}D ${String(row.count).padStart(6)} boids: warm-up ${row.steps} steps ` +
          `(${row.seconds.toFixed(2)} s simulated, ${row.ms} ms wall${row.cut ? ', cut by the bound' : ''}) ` +
          `-> order at the first frame ${row.order.toFixed(3)} (mean |N_i| ${row.meanNeighbors.toFixed(1)})`,
      );
    }
  }
} finally {
  await served.close();
}
