// Builds the examples as a user would (DESIGN.md section 5): packs the library (`npm pack`, which
// runs build:lib), installs the tarball into each example under examples/, and builds the ones
// that have a build. An example's own tools (vite, typescript, esbuild) are the repository's:
// Node and npm find them in the root node_modules above the example, so an install takes only
// the tarball (--omit=dev) and works offline. `node scripts/examples.mjs` runs it alone.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
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
 * Packs the library into .pack/ and installs + builds every example. Returns the tarball path.
 * @throws Error with the failing command's output.
 */
export function prepareExamples(log = console.log) {
  const packDir = join(root, '.pack');
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir);
  try {
    run(npm, ['pack', '--silent', '--pack-destination', packDir], root, log);
    const tgz = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error('npm pack wrote no tarball');
    const tarball = join(packDir, tgz);
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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tarball = prepareExamples();
  console.log(`examples built from ${tarball}`);
}
