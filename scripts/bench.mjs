// `npm run bench`: drives the benchmark page (bench.html, the same measuring code a user runs in
// their browser) in headless Chromium, prints a table of median step times with the grid/brute
// ratio and the N -> 4N growth of each row, and writes the numbers as JSON.
// Options (node's util.parseArgs):
//   --backends webgl2,webgpu   --modes grid,brute   --sorts counting,bitonic
//   --counts 4096,16384,65536  --brute-max 16384 (brute is left out above it: O(N^2))
//   --samples 5 --batch 2 --budget 3000 (ms per step; a row stops growing past it)
//   --out bench-results/bench.json
import { mkdirSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const { values: a } = parseArgs({
  options: {
    backends: { type: 'string', default: 'webgl2' },
    modes: { type: 'string', default: 'grid,brute' },
    sorts: { type: 'string', default: 'counting,bitonic' },
    counts: { type: 'string', default: '4096,16384,65536' },
    'brute-max': { type: 'string', default: '16384' },
    samples: { type: 'string', default: '5' },
    batch: { type: 'string', default: '2' },
    budget: { type: 'string', default: '4000' },
    out: { type: 'string', default: 'bench-results/bench.json' },
  },
});

const counts = a.counts.split(',').map(Number);
const bruteMax = Number(a['brute-max']);
const server = await createServer({ logLevel: 'error', server: { port: 0, host: '127.0.0.1' } });
await server.listen();
const url = server.resolvedUrls.local[0];
const profile = mkdtempSync(join(tmpdir(), 'gpu-flock-bench-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: findChromium(),
  headless: true,
  args: CHROMIUM_ARGS,
});
const rows = [];
try {
  for (const mode of a.modes.split(',')) {
    const cs = mode === 'brute' ? counts.filter((n) => n <= bruteMax) : counts;
    const page = await ctx.newPage();
    page.on('console', (m) => m.type() === 'error' && console.error('[page]', m.text()));
    const q = new URLSearchParams({
      auto: '1',
      backends: a.backends,
      modes: mode,
      sorts: a.sorts,
      counts: cs.join(','),
      samples: a.samples,
      batch: a.batch,
      budget: a.budget,
    });
    await page.goto(`${url}bench.html?${q}`);
    page.setDefaultTimeout(0);
    const got = await page.evaluate(() => window.benchDone);
    rows.push(...got);
    for (const n of counts.filter((n) => !cs.includes(n))) {
      for (const b of a.backends.split(',')) {
        rows.push({
          label: `${b} brute`,
          count: n,
          skipped: `brute force left out above N = ${bruteMax} (O(N^2), too slow on this machine)`,
        });
      }
    }
    await page.close();
  }
} finally {
  await ctx.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}

// Table: one line per label and N, with ratios measured in this run.
const byKey = new Map(rows.filter((r) => !r.skipped).map((r) => [`${r.label}|${r.count}`, r]));
const labels = [...new Set(rows.map((r) => r.label))];
const fmt = (x, d = 2) => (x == null || !Number.isFinite(x) ? '-' : x.toFixed(d));
const lines = [];
const device = rows.find((r) => r.device)?.device ?? '';
lines.push(`gpu-flock benchmark, ${new Date().toISOString()}, ${device}`);
lines.push(
  'median ms per step (timing: cpu-wait = CPU clock around a wait for the GPU); density constant',
);
const head = ['backend / search', 'N', 'box', 'nbrs', 'step ms', 'steps/s', 'x brute', 'N->4N'];
lines.push(head.map((h, i) => (i === 0 ? h.padEnd(18) : h.padStart(9))).join(''));
for (const label of labels) {
  for (const n of counts) {
    const r = byKey.get(`${label}|${n}`);
    const skipped = rows.find((x) => x.label === label && x.count === n && x.skipped);
    if (!r) {
      if (skipped)
        lines.push(`${label.padEnd(18)}${String(n).padStart(9)}  skipped: ${skipped.skipped}`);
      continue;
    }
    const brute = byKey.get(`${r.backend} brute|${n}`);
    const prev = byKey.get(`${label}|${n / 4}`);
    const ratio = r.mode === 'brute' || !brute ? null : brute.stepMs / r.stepMs;
    const growth = prev ? r.stepMs / prev.stepMs : null;
    lines.push(
      [
        label.padEnd(18),
        String(n).padStart(9),
        fmt(r.box, 1).padStart(9),
        fmt(r.meanNeighbors, 1).padStart(9),
        fmt(r.stepMs).padStart(9),
        fmt(r.stepsPerSecond, 1).padStart(9),
        (ratio == null ? '-' : fmt(ratio, 1) + 'x').padStart(9),
        (growth == null ? '-' : fmt(growth, 2) + 'x').padStart(9),
      ].join(''),
    );
  }
}
console.log(lines.join('\n'));
mkdirSync(dirname(a.out), { recursive: true });
writeFileSync(
  a.out,
  JSON.stringify({ date: new Date().toISOString(), device, options: a, rows }, null, 2),
);
console.log(
  `\nwrote ${a.out}  ("x brute": brute step time / this row's at the same N; "N->4N": this row's time / its time at N/4)`,
);
