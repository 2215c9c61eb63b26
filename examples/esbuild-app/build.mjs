// Bundles the hero page with esbuild into dist/ (what webpack, Parcel and Next do alike: no
// import.meta.glob, a worker only by new URL(..., import.meta.url), which esbuild leaves as it is).
// So the cpu backend's worker file is copied beside the bundle, where that URL points.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');
await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  splitting: true, // each backend stays its own chunk, loaded only when used
  format: 'esm',
  target: 'es2022',
  minify: true,
  outdir: 'dist',
  logLevel: 'warning',
});
copyFileSync('index.html', 'dist/index.html');
copyFileSync('src/style.css', 'dist/style.css');
copyFileSync('favicon.svg', 'dist/favicon.svg');
const pkg = dirname(require.resolve('gpu-flock/package.json'));
copyFileSync(join(pkg, 'dist/gpu-flock.cpu-worker.js'), 'dist/gpu-flock.cpu-worker.js');
console.log('dist/ written');
