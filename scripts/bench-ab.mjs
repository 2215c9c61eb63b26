// `npm run bench` on several checkouts in one run, interleaved: round after round, each checkout's
// scripts/bench.mjs once with the same flags (A B C A B C ...), so a machine whose load drifts
// (other work on it) weighs on every checkout alike. Prints per backend and N the median step ms of
// each checkout over the rounds and its ratio to the first checkout: the median of the per-round
// ratios (each round's checkouts ran minutes apart, not hours) and the ratio of the medians; then
// the fastest batch of any round per checkout ("best", load only ever adds time) and its ratio.
//   node scripts/bench-ab.mjs --trees /work/main,/tmp/base --rounds 3 --counts 16384,65536
//     [--backends webgpu,webgl2,webgl2-tf] [--lock /tmp/gf-browser.lock] [--out bench-results/ab.json]
// A checkout of an older commit: `git worktree add --detach /tmp/base <commit>`, then
// `cp -al node_modules /tmp/base/` (each checkout's bench.mjs serves its own source with Vite).
// --lock FILE runs each bench.mjs under `flock FILE` (a browser shared with other work is held
// one invocation at a time, not for the whole series). Extra flags after `--` go to bench.mjs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: a, positionals: extra } = parseArgs({
  allowPositionals: true,
  options: {
    trees: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    counts: { type: 'string', default: '16384,65536' },
    backends: { type: 'string', default: 'webgpu,webgl2,webgl2-tf' },
    lock: { type: 'string' },
    out: { type: 'string', default: 'bench-results/ab.json' },
  },
});
if (!a.trees) {
  console.error('usage: node scripts/bench-ab.mjs --trees DIR1,DIR2[,...] [--rounds 3] [...]');
  process.exit(2);
}
const trees = a.trees.split(',').map((t) => resolve(t));
const rounds = Number(a.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds ${a.rounds}: a whole number from 1 up`);
  process.exit(2);
}
const tmp = mkdtempSync(join(tmpdir(), 'gpu-flock-ab-'));
const git = (dir, ...args) =>
  spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).stdout.trim();
const names = trees.map((t) => `${git(t, 'rev-parse', '--short', 'HEAD')} (${t})`);

/** steps[tree][round] = Map(label@count -> { step: median ms per step, best: fastest batch }). */
const steps = trees.map(() => []);
const t0 = Date.now();
try {
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < trees.length; i++) {
      const out = join(tmp, `t${i}-r${r}.json`);
      const bench = [
        'scripts/bench.mjs',
        '--no-capacity',
        '--no-look',
        '--counts',
        a.counts,
        '--backends',
        a.backends,
        '--out',
        out,
        ...extra,
      ];
      const [cmd, args] = a.lock
        ? ['flock', [a.lock, process.execPath, ...bench]]
        : [process.execPath, bench];
      const s = Date.now();
      const run = spawnSync(cmd, args, { cwd: trees[i], encoding: 'utf8' });
      if (run.status !== 0) {
        console.error(run.stdout, run.stderr);
        throw new Error(`bench.mjs in ${trees[i]} exited ${run.status}`);
      }
      const rows = new Map();
      for (const row of JSON.parse(readFileSync(out, 'utf8')).rows)
        if (typeof row.stepMs === 'number')
          rows.set(`${row.label} @ ${row.count}`, { step: row.stepMs, best: row.minMs });
      steps[i].push(rows);
      process.stderr.write(
        `round ${r + 1}/${rounds}, ${names[i]}: ${((Date.now() - s) / 1000).toFixed(0)} s\n`,
      );
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const keys = [...new Set(steps.flat().flatMap((m) => [...m.keys()]))];
const lines = [
  `bench A/B, ${rounds} rounds interleaved, ${((Date.now() - t0) / 60000).toFixed(1)} min; ` +
    `median step ms over the rounds, ratio to A (median of per-round ratios; ratio of medians) | ` +
    `best batch ms of any round, ratio to A`,
  ...names.map((n, i) => `  ${String.fromCharCode(65 + i)}: ${n}`),
  '',
];
const table = [];
for (const k of keys) {
  const runs = trees.map((_, i) => steps[i].map((m) => m.get(k)));
  if (runs.some((xs) => xs.some((x) => x === undefined))) {
    lines.push(`${k.padEnd(26)} not measured in every run (skipped or over the budget there)`);
    continue;
  }
  const per = runs.map((xs) => xs.map((x) => x.step));
  const best = runs.map((xs) => Math.min(...xs.map((x) => x.best)));
  const meds = per.map(median);
  const cells = meds.map((m, i) => {
    const tag = String.fromCharCode(65 + i);
    if (i === 0) return `${tag} ${m.toFixed(1)} | ${best[0].toFixed(1)}`;
    const roundRatio = median(per[i].map((x, r) => x / per[0][r]));
    return (
      `${tag} ${m.toFixed(1)} (${roundRatio.toFixed(2)}; ${(m / meds[0]).toFixed(2)}) | ` +
      `${best[i].toFixed(1)} (${(best[i] / best[0]).toFixed(2)})`
    );
  });
  lines.push(`${k.padEnd(26)} ${cells.join('   ')}`);
  table.push({ row: k, stepMs: per, bestMs: best, medians: meds });
}
console.log(lines.join('\n'));
mkdirSync(dirname(a.out), { recursive: true });
writeFileSync(a.out, JSON.stringify({ trees: names, rounds, counts: a.counts, table }, null, 2));
console.log(`wrote ${a.out}`);
