// A/B of the WebGL2 grid build between checkouts, in one run: one headless Chromium, one page per
// checkout (each served by its own Vite server), one flock per N in each, and the samples
// interleaved (round after round: every checkout, every N, `reps` steps and `reps` grid builds).
// Prints per checkout and N: the draws of one grid build (key + sort + cell table), the median wall
// ms of step(1) + finish() and of a grid build alone, and the CPU time Chromium's GPU process
// (SwiftShader: where the passes run) spent on each, and the ratios to the first checkout.
// Wall times on a shared machine follow its load; the GPU-process CPU times follow the work.
//   node scripts/sort-ab.mjs --trees /path/to/base,/path/to/this --counts 65536,262144 --rounds 3
// (e.g. base: `git worktree add --detach /tmp/base <commit>` with node_modules linked in)
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';
function gpuPids(profile) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (cmd.includes('--type=gpu-process') && cmd.includes(profile)) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
function cpuMs(pids) {
  let t = 0;
  for (const p of pids) {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      t += (Number(f[11]) + Number(f[12])) * 10; // utime + stime, 100 Hz ticks
    } catch {
      // gone meanwhile
    }
  }
  return t;
}

const { values: a } = parseArgs({
  options: {
    trees: { type: 'string', default: '' },
    counts: { type: 'string', default: '65536,262144' },
    rounds: { type: 'string', default: '3' },
    reps: { type: 'string', default: '3' },
    backend: { type: 'string', default: 'webgl2' },
    // Also time each pass kind alone: steps whose draws are all skipped but those of one program
    // kind (key, sort, unpack, table, reorder, steer), minus steps with every draw skipped.
    passes: { type: 'boolean', default: false },
    // Only the per-pass samples (no whole steps or grid builds): quicker A/Bs of one pass.
    'only-passes': { type: 'boolean', default: false },
    kinds: { type: 'string', default: 'none,key,sort,unpack,table,reorder,steer' },
    // Pin every thread of Chromium's GPU process to this CPU (taskset): SwiftShader's worker
    // threads then cannot spin on a second core, which made CPU times swing with the box's load.
    pin: { type: 'string', default: '' },
  },
});
const trees = a.trees.split(',');
const counts = a.counts.split(',').map(Number);
const servers = [];
const profile = mkdtempSync(join(tmpdir(), 'ab-sort-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: findChromium(),
  headless: true,
  args: CHROMIUM_ARGS,
});
const pages = [];
try {
  for (const root of trees) {
    const s = await createServer({
      root,
      configFile: join(root, 'vite.config.ts'),
      // Each checkout its own dependency cache (a linked node_modules would share one).
      cacheDir: join(profile, `vite-${servers.length}`),
      logLevel: 'error',
      server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    });
    await s.listen();
    servers.push(s);
    const p = await ctx.newPage();
    p.setDefaultTimeout(0);
    p.on('pageerror', (e) => console.error('[page]', root, e.message));
    p.on('console', (m) => m.type() === 'error' && console.error('[page]', root, m.text()));
    await p.goto(`${s.resolvedUrls.local[0]}bench.html`);
    await p.waitForLoadState('load');
    pages.push(p);
  }
  const setup = async (p, count, backend) =>
    p.evaluate(
      async ({ count, backend }) => {
        const { createFlock } = await import('/src/index.ts');
        const { caseParams } = await import('/src/bench/cases.ts');
        window.__f ??= {};
        const flock = await createFlock(undefined, {
          backend,
          autoStart: false,
          params: caseParams({ backend, mode: 'grid', count }),
        });
        await flock.step(1);
        await flock.finish();
        window.__f[count] = flock;
        const b = flock._backend;
        const gl = b.gl;
        const orig = gl.drawArrays.bind(gl);
        const origUse = gl.useProgram.bind(gl);
        // Which kind of pass each draw is (by its program's fragment shader), so a step can run
        // the draws of one kind only (window.__only; null: all). The other calls still run.
        const kinds = [
          ['tf-steer.vert', 'steer'],
          ['tf-reorder.vert', 'reorder'],
          ['key.frag', 'key'],
          ['bitonic-sort.frag', 'sort'],
          ['bitonic-unpack.frag', 'unpack'],
          ['cell-table.frag', 'table'],
          ['reorder.frag', 'reorder'],
          ['steer.frag', 'steer'],
        ];
        let kind = 'other';
        gl.useProgram = (prog) => {
          kind = 'other';
          for (const q of b.res.env.programs.programs.values()) {
            if (q.program !== prog) continue;
            kind = kinds.find(([f]) => q.name.includes(f))?.[1] ?? 'other';
          }
          return origUse(prog);
        };
        window.__only = null;
        let n = 0;
        gl.drawArrays = (...x) => {
          if (window.__only !== null && window.__only !== kind) return undefined;
          n++;
          return orig(...x);
        };
        const res = b.ready;
        b.buildGrid(res);
        await b.sync();
        n = 0;
        b.buildGrid(res);
        const passes = n;
        await b.sync();
        return { passes, backend: flock.backend };
      },
      { count, backend },
    );
  const once = async (p, count, what, only = null) => {
    const c0 = cpuMs(gpuPids(profile));
    const w0 = performance.now();
    await p.evaluate(
      async ({ count, what, only }) => {
        const flock = window.__f[count];
        const b = flock._backend;
        window.__only = only;
        if (what === 'step') {
          await flock.step(1);
          await flock.finish();
        } else {
          b.buildGrid(b.ready);
          await b.sync();
        }
        window.__only = null;
      },
      { count, what, only },
    );
    return [performance.now() - w0, cpuMs(gpuPids(profile)) - c0];
  };
  const measure = async (p, count, reps) => {
    const steps = [],
      builds = [],
      stepsCpu = [],
      buildsCpu = [];
    for (let r = 0; r < (a['only-passes'] ? 0 : reps); r++) {
      const [w, c] = await once(p, count, 'step');
      steps.push(w);
      stepsCpu.push(c);
      const [w2, c2] = await once(p, count, 'build');
      builds.push(w2);
      buildsCpu.push(c2);
    }
    const passes = {};
    if (a.passes)
      for (const kind of PASS_KINDS) {
        passes[kind] = [];
        for (let r = 0; r < reps; r++) passes[kind].push((await once(p, count, 'step', kind))[1]);
      }
    return { steps, builds, stepsCpu, buildsCpu, passes };
  };
  const PASS_KINDS = a.kinds.split(',');
  if (!PASS_KINDS.includes('none')) PASS_KINDS.unshift('none');
  if (a['only-passes']) a.passes = true;
  const lo = (xs) => Math.min(...xs);
  if (a.pin !== '')
    for (const pid of gpuPids(profile))
      execFileSync('taskset', ['-a', '-cp', a.pin, String(pid)], { stdio: 'ignore' });
  const info = {};
  for (let t = 0; t < trees.length; t++)
    for (const c of counts) {
      info[`${t}/${c}`] = await setup(pages[t], c, a.backend);
      console.error(trees[t], c, JSON.stringify(info[`${t}/${c}`]));
    }
  const data = {};
  for (let r = 0; r < Number(a.rounds); r++) {
    for (let t = 0; t < trees.length; t++)
      for (const c of counts) {
        const m = await measure(pages[t], c, Number(a.reps));
        const k = `${t}/${c}`;
        data[k] ??= { steps: [], builds: [], stepsCpu: [], buildsCpu: [] };
        for (const f of ['steps', 'builds', 'stepsCpu', 'buildsCpu']) data[k][f].push(...m[f]);
        data[k].passes ??= {};
        for (const [kind, xs] of Object.entries(m.passes))
          (data[k].passes[kind] ??= []).push(...xs);
        console.error(
          `round ${r} ${trees[t]} N=${c} step ${m.steps.map((x) => x.toFixed(0)).join(' ')} build ${m.builds.map((x) => x.toFixed(0)).join(' ')}`,
        );
      }
  }
  const med = (xs) => {
    const s = [...xs].sort((x, y) => x - y);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  console.log(`backend ${a.backend}; median ms over ${a.rounds}x${a.reps} interleaved samples`);
  console.log(
    'tree'.padEnd(22) +
      'N'.padStart(8) +
      'draws(key+sort+table)'.padStart(24) +
      'step ms'.padStart(10) +
      'build ms'.padStart(10) +
      ' | step cpu  build cpu (gpu process, ms)',
  );
  for (const c of counts)
    for (let t = 0; t < trees.length; t++) {
      const k = `${t}/${c}`;
      console.log(
        trees[t].padEnd(22) +
          String(c).padStart(8) +
          String(info[k].passes).padStart(24) +
          med(data[k].steps).toFixed(1).padStart(10) +
          med(data[k].builds).toFixed(1).padStart(10) +
          ' | ' +
          med(data[k].stepsCpu).toFixed(0).padStart(8) +
          med(data[k].buildsCpu).toFixed(0).padStart(11),
      );
    }
  if (a.passes) {
    console.log(
      'per pass kind: median GPU-process CPU ms of a step that draws only that kind, minus one that draws nothing',
    );
    console.log(
      'tree'.padEnd(22) + 'N'.padStart(8) + PASS_KINDS.map((k) => k.padStart(9)).join(''),
    );
    for (const [stat, f] of [
      ['median', med],
      ['min', lo],
    ])
      for (const c of counts)
        for (let t = 0; t < trees.length; t++) {
          const ps = data[`${t}/${c}`].passes;
          const none = f(ps.none);
          console.log(
            `${trees[t]} (${stat})`.padEnd(22) +
              String(c).padStart(8) +
              PASS_KINDS.map((k) =>
                (k === 'none' ? none : f(ps[k]) - none).toFixed(0).padStart(9),
              ).join(''),
          );
        }
  }
  for (const c of counts)
    for (let t = 1; t < trees.length; t++) {
      console.log(
        `N=${c} ${trees[t]} / ${trees[0]}: step cpu min ${(lo(data[`${t}/${c}`].stepsCpu) / lo(data[`0/${c}`].stepsCpu)).toFixed(3)}, step cpu ${(med(data[`${t}/${c}`].stepsCpu) / med(data[`0/${c}`].stepsCpu)).toFixed(3)}, build cpu ${(med(data[`${t}/${c}`].buildsCpu) / med(data[`0/${c}`].buildsCpu)).toFixed(3)}, step wall ${(med(data[`${t}/${c}`].steps) / med(data[`0/${c}`].steps)).toFixed(3)}, build ${(med(data[`${t}/${c}`].builds) / med(data[`0/${c}`].builds)).toFixed(3)}, passes ${info[`${t}/${c}`].passes}/${info[`0/${c}`].passes}`,
      );
    }
} finally {
  await ctx.close();
  for (const s of servers) await s.close();
  rmSync(profile, { recursive: true, force: true });
}
