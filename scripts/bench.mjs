// `npm run bench`: drives the benchmark page (bench.html?auto=1: the same measuring code a user
// runs in their browser) in headless Chromium, prints the capacity sentence (the most boids each
// backend holds at 60 and 30 fps), the page's table (median step, draw and frame times, the
// main-thread ms per frame, long tasks, the ratios) and writes the page's JSON export (every
// number, the capacity, the device report and the settings; import it on bench.html to compare
// devices).
//
// The default is the page's quick run (under a minute on this 2-core machine with a software
// GPU): the capacity of every backend, then webgpu (counting sort), webgl2, webgl2-tf and cpu at
// N = 1,024, 4,096 and 16,384. `--full` is the page's full sweep: every family (both WebGPU
// sorts, brute force up to 16,384, the steady and dense rows with their 600-step warm-ups),
// N = 1,024 to 1,048,576 with drawing, and the cost rows of every behaviour (many minutes).
// Options (node's util.parseArgs) override either; an option not given keeps the run's own:
//   --backends webgl2,webgpu   (also webgl2-tf, cpu)   --modes grid,brute   --sorts counting,bitonic
//   --counts 4096,16384,65536,262144   --brute-max 16384
//   --samples 5 --batch auto (steps per timed batch) --budget 4000 (ms per step)
//   --frames 0 (frames drawn per case to time drawing, fps and main-thread ms; 0: none)
//   --dims 3 --seed 1 --out bench-results/bench.json   --no-capacity (leave the capacity out)
//   --no-steady (leave the steady and dense rows out of --full: they run 600 steps each first)
//   --behaviours all | terms | none: cost rows on webgpu counting and webgl2 grid at
//     --behaviour-counts (16384,65536): the plain default flock and every variant side by side,
//     --rounds (9) rounds each timing one batch of every flock back to back; "vs plain" is the
//     median (interquartile range) of each round's ratio to plain. 'all': every behaviour on
//     (src/bench/scene.ts allBehaviours); 'terms': also each term alone, the first model, and
//     the default flock with the off terms' code cut out of the steer shaders
//     (src/bench/shader-variants.ts); or a list of variants, e.g. removed,removed-species,removed-forces
//   --no-look: skip the draw-per-shape rows (scripts/bench-look.mjs) that end the run
import { mkdirSync, writeFileSync, mkdtempSync, rmSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const { values: a } = parseArgs({
  // --no-steady and --no-capacity need negative options.
  allowNegative: true,
  options: {
    backends: { type: 'string' },
    modes: { type: 'string' },
    sorts: { type: 'string' },
    counts: { type: 'string' },
    'brute-max': { type: 'string' },
    samples: { type: 'string' },
    batch: { type: 'string' },
    budget: { type: 'string' },
    frames: { type: 'string' },
    dims: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string', default: 'bench-results/bench.json' },
    full: { type: 'boolean', default: false },
    steady: { type: 'boolean' },
    capacity: { type: 'boolean' },
    behaviours: { type: 'string' },
    'behaviour-counts': { type: 'string' },
    rounds: { type: 'string' },
    look: { type: 'boolean', default: true },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (a.help) {
  console.log(
    'npm run bench -- [--full] [--no-capacity] [--backends webgl2,webgpu,webgl2-tf,cpu] [--modes grid,brute]\n' +
      '  [--sorts counting,bitonic] [--counts 4096,16384] [--brute-max 16384] [--samples 5] [--batch auto|N]\n' +
      '  [--budget 4000] [--frames 0] [--dims 3] [--seed 1] [--out bench-results/bench.json]\n' +
      '  [--no-steady] [--behaviours all|terms|none] [--behaviour-counts 16384,65536] [--rounds 9] [--no-look]',
  );
  process.exit(0);
}

const query = new URLSearchParams({ auto: '1', preset: a.full ? 'full' : 'quick' });
const pass = {
  backends: 'backends',
  modes: 'modes',
  sorts: 'sorts',
  counts: 'counts',
  'brute-max': 'bruteMax',
  samples: 'samples',
  batch: 'batch',
  budget: 'budget',
  frames: 'frames',
  dims: 'dims',
  seed: 'seed',
  behaviours: 'behaviours',
  'behaviour-counts': 'behaviourCounts',
  rounds: 'rounds',
};
for (const [opt, key] of Object.entries(pass)) if (a[opt] !== undefined) query.set(key, a[opt]);
if (a.steady !== undefined) query.set('steady', a.steady ? '1' : '0');
if (a.capacity !== undefined) query.set('capacity', a.capacity ? '1' : '0');

/**
 * Waits for the page's auto sweep. Vite's dev server may reload the page once when it first
 * optimises a dependency; the reloaded page starts the sweep again, so wait again.
 */
async function waitForSweep(page) {
  for (let attempt = 0; ; attempt++) {
    try {
      await page.waitForFunction(() => window.bench !== undefined);
      return await page.evaluate(() => window.bench.done);
    } catch (e) {
      if (attempt >= 3 || !/context was destroyed|navigat/i.test(String(e))) throw e;
      await page.waitForLoadState('load');
    }
  }
}

/**
 * The pid of the GPU process of the Chromium whose browser process runs with `profile` as its
 * user data dir (Linux /proc; null elsewhere or when not found).
 */
function gpuProcessPid(profile) {
  const cmd = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return '';
    }
  };
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    if (!cmd(pid).includes('--type=gpu-process')) continue;
    let ppid = '';
    try {
      ppid = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1];
    } catch {
      continue;
    }
    if (cmd(ppid).includes(profile) || cmd(pid).includes(profile)) return pid;
  }
  return null;
}

/** CPU time of every thread of process `pid` so far, ms (/proc/PID/task/TID/schedstat, ns). */
function processCpuMs(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return ns / 1e6;
}

const t0 = Date.now();
const server = await createServer({
  logLevel: 'error',
  server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
});
await server.listen();
const url = server.resolvedUrls.local[0];
const profile = mkdtempSync(join(tmpdir(), 'gpu-flock-bench-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: findChromium(),
  headless: true,
  args: CHROMIUM_ARGS,
});
let result;
try {
  const page = await ctx.newPage();
  // The cost rows also time the CPU that Chromium's GPU process spends (with a software GPU
  // that is where the simulation runs): on a machine shared with other work, CPU time is a far
  // steadier measure than wall time. The page calls this around each batch when it exists.
  let gpuPid = null;
  await page.exposeFunction('benchGpuProcessCpuMs', () => {
    try {
      gpuPid ??= gpuProcessPid(profile);
      return gpuPid ? processCpuMs(gpuPid) : null;
    } catch {
      gpuPid = null;
      return null;
    }
  });
  page.setDefaultTimeout(0);
  page.on('console', (m) => m.type() === 'error' && console.error('[page]', m.text()));
  page.on('pageerror', (e) => console.error('[page]', e.message));
  await page.goto(`${url}bench.html?${query}`);
  // Progress on stderr, so the table on stdout stays clean.
  let last = '';
  const progress = setInterval(async () => {
    const s = await page
      .evaluate(() => document.getElementById('status')?.textContent ?? '')
      .catch(() => '');
    if (s && s !== last) process.stderr.write(`  ${s}\n`);
    last = s;
  }, 5000);
  try {
    await waitForSweep(page);
  } finally {
    clearInterval(progress);
  }
  result = await page.evaluate(() => ({
    table: window.bench.tableText(),
    export: window.bench.exportJSON(),
    sentence: window.bench.sentence(),
    winner: window.bench.winner(),
  }));
  await page.close();
} finally {
  await ctx.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}

const dev = result.export.device;
const gl = dev?.webgl2;
const gpu = dev?.webgpu;
const lines = [];
lines.push(
  `gpu-flock benchmark, ${result.export.date}, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
);
// Which backend holds the most boids at 60 and 30 fps here, and by what ratio: the first line
// after the header (issue 31 item 2).
if (result.winner) lines.push(result.winner);
if (gl?.available) lines.push(`webgl2: ${gl.unmaskedRenderer ?? gl.renderer}`);
if (gpu?.available)
  lines.push(
    `webgpu: ${Object.values(gpu.info ?? {})
      .filter((v) => typeof v === 'string' && v)
      .join(' ')}${gpu.isFallbackAdapter ? ' (fallback adapter)' : ''}`,
  );
for (const [k, b] of Object.entries(dev?.backends ?? {}))
  if (!b.available) lines.push(`${k}: not available here: ${b.reason}`);
if (result.sentence) {
  lines.push('');
  lines.push(result.sentence);
  for (const c of result.export.capacity ?? [])
    if (c.available)
      lines.push(
        `  ${c.backend}: ${c.results.map((r) => `${r.fps} fps ${r.count}${r.bounded ? '+' : ''} (${r.steps} step${r.steps > 1 ? 's' : ''} + draw ${r.frameMs === null ? '-' : r.frameMs.toFixed(1)} ms; fails at ${r.failsAt ?? '-'})`).join(', ')}; ${c.probes.length} probes in ${(c.ms / 1000).toFixed(1)} s`,
      );
}
lines.push(
  'median ms per step over batches, CPU clock around step + finish (cpu-wait) on every row; ' +
    'density constant; "passes": where per-pass times came from',
);
lines.push('');
lines.push(result.table);
lines.push('');
lines.push(
  '"x brute": brute step / this row\'s, same backend and N; "vs webgl2": this row\'s / webgl2\'s, same search; ' +
    '"N->4N": this row\'s / its own at N/4; "!": over the budget; "vs plain (IQR)": cost rows, ' +
    "this row's batch / the plain default flock's of the same round, median (interquartile range) " +
    'over the rounds; "steer vs plain": the same for the steer pass; "gpu-proc cpu ms": CPU time of ' +
    'Chromium\'s GPU process per step (where a software GPU runs), "cpu vs plain" its ratio; ' +
    '"main ms": main-thread ms per frame (step + draw submitted, not the wait for the device); ' +
    '"long tasks": main-thread tasks over 50 ms while the case ran',
);
console.log(lines.join('\n'));
mkdirSync(dirname(a.out), { recursive: true });
writeFileSync(a.out, JSON.stringify({ ...result.export, cli: a }, null, 2));
console.log(`wrote ${a.out}`);

// The draw pass per shape at 16,384 and 262,144, level of detail on and off (issue 19):
// scripts/bench-look.mjs, on the backends of this run that draw on a GPU; --no-look skips it.
if (a.look) {
  const { spawnSync } = await import('node:child_process');
  const backends = (a.backends ?? 'webgpu,webgl2,webgl2-tf,cpu')
    .split(',')
    .filter((b) => b === 'webgpu' || b === 'webgl2')
    .join(',');
  if (backends) {
    spawnSync(
      process.execPath,
      [
        join(import.meta.dirname, 'bench-look.mjs'),
        '--backends',
        backends,
        '--out',
        join(dirname(a.out), 'look.json'),
      ],
      { stdio: 'inherit' },
    );
  }
}
