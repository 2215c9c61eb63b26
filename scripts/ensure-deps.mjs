// `npm start` and `npm test` run this first (prestart, pretest), so that the README's two
// commands work in a fresh clone: when node_modules is missing, or a package the lockfile pins is
// absent or at another version (a pull changed package-lock.json), it runs `npm ci`. Plain Node,
// no dependencies: it must run before any are installed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Why the installed packages do not match package-lock.json, or null when they do. */
export function staleReason(dir = root) {
  const lockFile = join(dir, 'package-lock.json');
  if (!existsSync(lockFile)) return null; // nothing pinned: leave it to the user
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  if (!existsSync(join(dir, 'node_modules'))) return 'node_modules is missing';
  for (const name of names) {
    const want = lock.packages?.[`node_modules/${name}`]?.version;
    const file = join(dir, 'node_modules', name, 'package.json');
    if (!existsSync(file)) return `${name} is not installed`;
    const have = JSON.parse(readFileSync(file, 'utf8')).version;
    if (want && have !== want) return `${name} is ${have}, package-lock.json pins ${want}`;
  }
  return null;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const why = staleReason();
  if (why) {
    console.log(`${why}: installing the dependencies (npm ci)`);
    execFileSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['ci', '--no-audit', '--no-fund'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
  }
}
