// What the JavaScript of an embedding page holds, by source module (issue 10 item 5's sizes):
// bundles a page like the examples' (the element plus FlockError from the API) from src/ with
// esbuild (--bundle --splitting --minify, as examples/esbuild-app does from the package), then
// prints, for a page that runs WebGPU and one that runs WebGL2, every chunk it loads with its gzip
// size and the source modules in it with their minified bytes. The examples test prints the
// sizes of the built examples themselves; this says where the bytes come from.
//   node scripts/page-sizes.mjs [--all]     (--all: every module, not the 8 largest per chunk)
// The source's modules split into more chunks than the package's, so the totals run a few %
// above the built examples'.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSize, kB, pageFiles } from './gzip-size.mjs';
import { flattenShader } from './shader-squeeze.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const all = process.argv.includes('--all');

/** Shader files as build-lib.mjs ships them: `?raw` imports and the two import.meta.glob maps. */
const shaders = {
  name: 'shaders',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (a) => ({
      path: resolve(a.resolveDir, a.path.replace(/\?raw$/, '')),
      namespace: 'raw',
    }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, (a) => ({
      contents: `export default ${JSON.stringify(flattenShader(readFileSync(a.path, 'utf8')))};`,
      loader: 'js',
    }));
    b.onLoad({ filter: /[\\/]src[\\/](webgl2|webgpu)[\\/]shaders\.ts$/ }, (a) => {
      const code = readFileSync(a.path, 'utf8').replace(
        /import\.meta\.glob\(\s*'([^']+)'[^)]*\)/s,
        (_, pattern) => {
          const dir = resolve(dirname(a.path), dirname(pattern));
          const ext = pattern.slice(pattern.lastIndexOf('.'));
          const entries = readdirSync(dir)
            .filter((f) => f.endsWith(ext))
            .map((f) => {
              const text = flattenShader(readFileSync(join(dir, f), 'utf8'));
              return `${JSON.stringify(`./${f}`)}: ${JSON.stringify(text)}`;
            });
          return `({${entries.join(',')}})`;
        },
      );
      if (code.includes('import.meta.glob')) throw new Error(`${a.path}: glob not replaced`);
      return { contents: code, loader: 'ts' };
    });
  },
};

const out = mkdtempSync(join(tmpdir(), 'gpu-flock-sizes-'));
try {
  const result = await build({
    stdin: {
      contents: `import { defineGpuFlockElement } from './src/element/index';
        import { FlockError } from './src/index';
        defineGpuFlockElement();
        console.log(FlockError);`,
      resolveDir: root,
      loader: 'ts',
      sourcefile: 'page.ts',
    },
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    outdir: out,
    metafile: true,
    logLevel: 'warning',
    plugins: [shaders],
  });
  const outputs = result.metafile.outputs;
  const nameOf = (p) => basename(p);
  const chunk = new Map(
    Object.entries(outputs)
      .filter(([p]) => p.endsWith('.js'))
      .map(([p, o]) => [nameOf(p), { ...o, path: p, gzip: gzipSize(readFileSync(p)) }]),
  );
  const entry = [...chunk].find(([, o]) => o.entryPoint)[0];
  /** The chunk whose entry point (a dynamic import) is `src/<path>`. */
  const dynamic = (path) =>
    [...chunk].find(([, o]) => o.entryPoint && o.entryPoint.endsWith(path))?.[0];
  const load = (names) =>
    [
      ...pageFiles(
        outputs,
        names.filter(Boolean).map((n) => chunk.get(n).path),
      ),
    ].map(nameOf);
  const pages = {
    // The ladder probes webgpu (its device module) and webgl2 (the probe) on every page.
    webgpu: [entry, dynamic('webgpu/device.ts'), dynamic('webgpu/webgpu-backend.ts')],
    webgl2: [entry, dynamic('webgl2/webgl2-backend.ts')],
  };
  for (const names of Object.values(pages)) names.push(dynamic('webgl2/capabilities.ts'));
  for (const [page, names] of Object.entries(pages)) {
    const files = load(names).sort((a, b) => chunk.get(b).gzip - chunk.get(a).gzip);
    const total = files.reduce((s, n) => s + chunk.get(n).gzip, 0);
    console.log(`\n${page} page: ${kB(total)} gzip in ${files.length} chunks`);
    for (const n of files) {
      const c = chunk.get(n);
      const inputs = Object.entries(c.inputs)
        .filter(([, i]) => i.bytesInOutput > 0)
        .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
      console.log(`  ${kB(c.gzip).padStart(8)}  ${n === entry ? 'entry' : n} (${c.bytes} B min)`);
      for (const [id, i] of all ? inputs : inputs.slice(0, 8)) {
        const name = relative(root, id.replace(/^raw:/, '')).replace(/^node_modules\//, '');
        console.log(`            ${String(i.bytesInOutput).padStart(6)} B  ${name}`);
      }
      if (!all && inputs.length > 8) console.log(`            ... ${inputs.length - 8} more`);
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
