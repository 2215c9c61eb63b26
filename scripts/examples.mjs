// Builds the examples as a user would (DESIGN.md section 5): packs the library (`npm pack`, which
// runs `npm run build`), installs the tarball into each example under examples/, and builds the ones
// that have a build. An example's own tools (vite, typescript, esbuild) are the repository's:
// Node and npm find them in the root node_modules above the example, so an install takes only
// the tarball (--omit=dev) and works offline. `node scripts/examples.mjs` runs it alone.
// The framework examples (FRAMEWORK_EXAMPLES: React, Vue, Svelte, Next.js, SvelteKit) are
// projects of their own instead: `npm ci` from their committed lockfiles (the registry), see
// prepareFrameworkExample; tests/e2e/frameworks.test.ts builds and opens them.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const examplesDir = join(root, 'examples');
/** Each example, and the folder its built page is served from. */
export const EXAMPLES = {
  'plain-html': { serve: '.' },
  'vite-app': { serve: 'dist' },
  'esbuild-app': { serve: 'dist' },
};

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd, args, cwd, log) {
  log(`$ (${cwd.replace(root + '/', '')}) ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

/**
 * Packs the library into .pack/ (`npm pack`, which runs `npm run build`) and copies the tarball to
 * FRAMEWORK_TARBALL. Returns the tarball path. @throws Error with npm's output.
 */
export function packLibrary(log = console.log) {
  const packDir = join(root, '.pack');
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir);
  try {
    run(npm, ['pack', '--silent', '--pack-destination', packDir], root, log);
  } catch (e) {
    const out = e && typeof e === 'object' ? `${e.stdout ?? ''}${e.stderr ?? ''}` : '';
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n${out}`);
  }
  const tgz = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error('npm pack wrote no tarball');
  // Every example depends on file:../../.pack/frameworks/gpu-flock.tgz (a name that does not
  // change with the version, so the framework examples' committed lockfiles keep working).
  mkdirSync(join(packDir, 'frameworks'));
  copyFileSync(join(packDir, tgz), FRAMEWORK_TARBALL);
  return join(packDir, tgz);
}

/**
 * Packs the library (packLibrary) and installs + builds every example of EXAMPLES. Returns the
 * tarball path. @throws Error with the failing command's output.
 */
export function prepareExamples(log = console.log) {
  const tarball = packLibrary(log);
  try {
    for (const name of Object.keys(EXAMPLES)) {
      const dir = join(examplesDir, name);
      rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
      rmSync(join(dir, 'dist'), { recursive: true, force: true });
      run(
        npm,
        [
          'install',
          '--no-save',
          '--no-package-lock',
          '--omit=dev',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
          tarball,
        ],
        dir,
        log,
      );
    }
    // The vite template's own build (tsc && vite build), then a stricter consumer check: the
    // shipped .d.ts files themselves type-checked (skipLibCheck off).
    run(npm, ['run', 'build'], join(examplesDir, 'vite-app'), log);
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    run(process.execPath, [tsc, '-p', 'tsconfig.strict.json'], join(examplesDir, 'vite-app'), log);
    run(npm, ['run', 'build'], join(examplesDir, 'esbuild-app'), log);
    return tarball;
  } catch (e) {
    const out = e && typeof e === 'object' ? `${e.stdout ?? ''}${e.stderr ?? ''}` : '';
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n${out}`);
  }
}

/** The tarball the framework examples install (see prepareExamples). */
export const FRAMEWORK_TARBALL = join(root, '.pack/frameworks/gpu-flock.tgz');

const bin = (name) => `node_modules/.bin/${name}`;
/**
 * The framework examples (issue 20): each has its own package.json and committed lockfile, so
 * `npm ci` installs its framework from the registry as a user's project would, and the packed
 * library from FRAMEWORK_TARBALL. `build`: the commands a user's build runs (the template's type
 * check included), then a stricter consumer check of the shipped declarations (skipLibCheck
 * off). `wrong`: a check of type-errors/, which must fail on exactly the lines marked `wrong:`.
 * `serve`: how the built app is served (static files, `next start`, `vite preview`).
 */
export const FRAMEWORK_EXAMPLES = {
  'react-app': {
    build: [
      ['npm', 'run', 'build'],
      [bin('tsc'), '-p', 'tsconfig.strict.json'],
    ],
    wrong: [bin('tsc'), '-p', 'tsconfig.wrong.json'],
    wrongFile: 'type-errors/wrong.tsx',
    serve: { kind: 'static', dir: 'dist' },
  },
  'vue-app': {
    build: [
      ['npm', 'run', 'build'],
      [bin('vue-tsc'), '-p', 'tsconfig.strict.json', '--noEmit'],
    ],
    wrong: [bin('vue-tsc'), '-p', 'tsconfig.wrong.json', '--noEmit'],
    wrongFile: 'type-errors/Wrong.vue',
    serve: { kind: 'static', dir: 'dist' },
  },
  'svelte-app': {
    build: [
      ['npm', 'run', 'check'],
      ['npm', 'run', 'build'],
      [bin('svelte-check'), '--tsconfig', './tsconfig.strict.json'],
    ],
    wrong: [bin('svelte-check'), '--tsconfig', './tsconfig.wrong.json', '--output', 'machine'],
    wrongFile: 'type-errors/Wrong.svelte',
    serve: { kind: 'static', dir: 'dist' },
  },
  'next-app': {
    build: [['npm', 'run', 'build']],
    serve: { kind: 'next' },
  },
  'sveltekit-app': {
    build: [
      ['npm', 'run', 'check'],
      ['npm', 'run', 'build'],
    ],
    serve: { kind: 'vite-preview' },
  },
};

/** Environment of the framework tools: no telemetry calls from a test machine. */
export const FRAMEWORK_ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/**
 * A framework example's command, bounded: `next build` (16.4.6) once sat idle in epoll for over
 * 30 minutes in a full `npm test` (2026-12-07), and a synchronous child blocks Vitest's own
 * timeouts. Where coreutils' `timeout` exists it runs the command in a process group of its own
 * (npm's children included), killed after EXAMPLE_COMMAND_LIMIT_S, and a command that timed out
 * runs once more; elsewhere the command runs unbounded, as before.
 */
export const EXAMPLE_COMMAND_LIMIT_S = 180;
const TIMEOUT_BIN = ['/usr/bin/timeout', '/bin/timeout'].find((p) => existsSync(p));

function runExampleCommand(file, args, options, log) {
  if (!TIMEOUT_BIN) return execFileSync(file, args, options);
  const bounded = ['-k', '10', String(EXAMPLE_COMMAND_LIMIT_S), file, ...args];
  for (let attempt = 1; ; attempt++) {
    try {
      return execFileSync(TIMEOUT_BIN, bounded, options);
    } catch (e) {
      const timedOut = e && typeof e === 'object' && (e.status === 124 || e.status === 137);
      if (!timedOut || attempt === 2) throw e;
      log(`timed out after ${EXAMPLE_COMMAND_LIMIT_S} s; once more: ${file} ${args.join(' ')}`);
    }
  }
}

/**
 * `npm ci` in one framework example (the registry's packages at the lockfile's versions, the
 * library from FRAMEWORK_TARBALL; no install scripts), then its build commands. Returns the
 * seconds each part took. @throws Error with the failing command's output.
 */
export function prepareFrameworkExample(name, log = console.log) {
  const dir = join(examplesDir, name);
  const { build } = FRAMEWORK_EXAMPLES[name];
  const timed = (cmds) => {
    const t0 = performance.now();
    for (const [cmd, ...args] of cmds) {
      log(`$ (examples/${name}) ${cmd} ${args.join(' ')}`);
      const options = {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        env: FRAMEWORK_ENV,
      };
      runExampleCommand(cmd === 'npm' ? npm : cmd, args, options, log);
    }
    return (performance.now() - t0) / 1000;
  };
  try {
    const installS = timed([
      ['npm', 'ci', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'],
    ]);
    const buildS = timed(build);
    return { installS, buildS };
  } catch (e) {
    const out = e && typeof e === 'object' ? `${e.stdout ?? ''}${e.stderr ?? ''}` : '';
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n${out}`);
  }
}

/**
 * The lockfile of a framework example without the tarball's integrity (the tarball changes with
 * every build of the library; npm ci would refuse it). Run after `npm install` in an example:
 * `node scripts/examples.mjs --unpin-tarball`.
 */
export function unpinTarball(name) {
  const file = join(examplesDir, name, 'package-lock.json');
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  const entry = lock.packages?.['node_modules/gpu-flock'];
  if (!entry) throw new Error(`${file} has no gpu-flock entry`);
  delete entry.integrity;
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
}

if (process.argv.includes('--unpin-tarball')) {
  for (const name of Object.keys(FRAMEWORK_EXAMPLES)) unpinTarball(name);
} else if (process.argv.includes('--pack-only')) {
  // `npm run examples:pack`: only the tarball every example's package.json names
  // (file:../../.pack/frameworks/gpu-flock.tgz), for `npm install` in an example (its README).
  packLibrary();
  console.log(`packed: ${FRAMEWORK_TARBALL}`);
} else if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tarball = prepareExamples();
  console.log(`examples built from ${tarball}`);
}
