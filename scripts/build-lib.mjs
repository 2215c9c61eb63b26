// `npm run build`: the package in dist/ (DESIGN.md section 2).
//   dist/index.js, dist/element.js,           ES modules for bundlers (gpu-flock, gpu-flock/element,
//   dist/reference.js + chunks                gpu-flock/reference); each backend is a chunk
//                                             loaded on first use; shaders inlined as strings;
//                                             gl-matrix stays an import (the app's bundler dedupes
//                                             and tree-shakes it); twgl.js's used functions are
//                                             inlined (see DEPENDENCIES)
//   dist/gpu-flock.element.js                 for <script type="module">: ONE self-contained file
//                                             (every backend, twgl.js's and gl-matrix's used parts
//                                             inlined), no bundler, no sibling files;
//                                             the tables' `doc` descriptions left out (docs-out.mjs)
//   dist/gpu-flock.cpu-worker.js              the cpu backend's worker (and the WebGL2 probe's),
//                                             self-contained, loaded
//                                             with new Worker(new URL('<relative path to it>',
//                                             import.meta.url)) from whichever file above
//   dist/types/**.d.ts                        declarations (only those the entries reach)
//   dist/types/element/{react,vue,svelte}.d.ts <gpu-flock> in each framework's checker (types
//                                             only: gpu-flock/react, gpu-flock/vue, ...)
//   custom-elements.json                      the Custom Elements Manifest (custom-elements.mjs), at
//                                             the package root as tools expect; generated
//   dist/THIRD-PARTY-NOTICES.md               licences of the bundled third-party code (the
//                                             single files carry theirs in a /*! banner)
// Shaders stay files (src/webgl2/*.glsl, src/webgpu/*.wgsl); Vite's build resolves their
// import.meta.glob into string constants, minified by shader-squeeze.mjs's flattenShader
// (comments, indentation and joining spaces out, the code between two preprocessor directives on
// one line: a compile error in the package names the file, not the line; in dev it names both), so
// nothing bundler-specific ships. Dev servers and tests import the files as they are.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { build } from 'vite';
import { writeCustomElementsManifest } from './custom-elements.mjs';
import { INTERNAL_DOC_TABLES, docsOutPlugin } from './docs-out.mjs';
import { flattenShader } from './shader-squeeze.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
export const WORKER_FILE = 'gpu-flock.cpu-worker.js';
export const ELEMENT_FILE = 'gpu-flock.element.js';
/** Type-only subpath exports (`gpu-flock/react`, ...): src/element/*.d.ts, shipped as they are. */
const FRAMEWORK_DECLARATIONS = ['react.d.ts', 'vue.d.ts', 'svelte.d.ts'];
/** The files that start the worker, and how their source names it. */
const WORKER_SOURCES = {
  '/src/cpu/cpu-backend.ts': "new URL('./cpu-worker.ts', import.meta.url)",
  // The WebGL2 capability probe runs in the same worker (probeInWorker).
  '/src/webgl2/capabilities.ts': "new URL('../cpu/cpu-worker.ts', import.meta.url)",
};
const WORKER_MARK = '__GPU_FLOCK_CPU_WORKER_URL__';

/**
 * Points the worker (the cpu backend's, which also runs the WebGL2 probe) at the shipped worker
 * file. The sources' `new URL('<path to>/cpu-worker.ts', import.meta.url)` (WORKER_SOURCES) is
 * hidden from Vite's own worker handling (which would inline it as a data: URL in library mode,
 * blocked by a strict CSP) and written back as a literal
 * `new URL('./gpu-flock.cpu-worker.js', import.meta.url)` (relative to the file that holds it),
 * the pattern every bundler (Vite, webpack, Parcel) recognises and a plain browser resolves.
 */
function workerUrlPlugin() {
  return {
    name: 'gpu-flock-worker-url',
    enforce: 'pre',
    transform(code, id) {
      const file = Object.keys(WORKER_SOURCES).find((f) => id.endsWith(f));
      if (!file) return null;
      const source = WORKER_SOURCES[file];
      if (!code.includes(source)) this.error(`${file} no longer contains ${source}`);
      return {
        code: code.replace(source, `new URL(${WORKER_MARK}, import.meta.url)`),
        map: null,
      };
    },
    renderChunk(code, chunk) {
      if (!code.includes(WORKER_MARK)) return null;
      // Relative to the file that holds the code (a chunk in dist/chunks/, or dist/ itself).
      const rel = posix.relative(posix.dirname(chunk.fileName), WORKER_FILE);
      const url = rel.startsWith('.') ? rel : `./${rel}`;
      return { code: code.replaceAll(WORKER_MARK, `'${url}'`), map: null };
    },
  };
}

/**
 * For the worker file's own build: the WebGL2 probe it runs (capabilities.ts, imported for
 * probeWebGL2Here) also holds probeInWorker, whose `new Worker(new URL(<this file>))` would make
 * the worker name itself; Turbopack (next build 16.4.6) then bundled it without end (the build sat
 * idle for 30+ minutes). Inside the worker that factory is never called: it throws instead, and
 * the built worker file is checked to start no worker.
 */
function noWorkerInWorkerPlugin() {
  const factory = `() => new Worker(new URL(${WORKER_MARK}, import.meta.url), { type: 'module' })`;
  return {
    name: 'gpu-flock-no-worker-in-worker',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/webgl2/capabilities.ts')) return null;
      if (!code.includes(factory)) this.error(`capabilities.ts no longer contains ${factory}`);
      const thrower = "() => { throw new Error('gpu-flock: no worker from inside the worker'); }";
      return { code: code.replace(factory, thrower), map: null };
    },
  };
}

function shaderPlugin() {
  return {
    name: 'gpu-flock-shaders',
    enforce: 'pre',
    load(id) {
      const m = /^(.*\.(?:glsl|wgsl))\?raw$/.exec(id);
      if (!m) return null;
      this.addWatchFile(m[1]);
      return `export default ${JSON.stringify(flattenShader(readFileSync(m[1], 'utf8')))};`;
    },
  };
}

/**
 * dist/element.js loads the debug views (src/debug-layer.ts) with import() when a page turns one
 * on; dist/index.js exports DebugLayer too. As one module, it sat in a chunk that element.js also
 * imports statically (for the re-export), and a bundler that builds on dist/ (esbuild) then loaded
 * it with every page. The element's import() gets its own copy (the module id with `?lazy`): a
 * chunk only that import() reaches, so a page loads it only with a debug view on, and index.js's
 * DebugLayer is left out of a page that does not use it. The element keeps its copy's instance to
 * itself (no shared state, no instanceof from outside).
 */
function lazyDebugLayerPlugin() {
  return {
    name: 'gpu-flock-lazy-debug-layer',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== '../debug-layer' || !importer?.endsWith('/src/element/gpu-flock-element.ts'))
        return null;
      const r = await this.resolve(source, importer, { ...options, skipSelf: true });
      return r && { ...r, id: `${r.id}?lazy` };
    },
  };
}

/**
 * twgl.js fills lookup tables at its top level (`const t = {};` then `t[K] = v;` lines or a
 * `{ ... }` block of them). Writes to an object count as side effects, so Rolldown kept the tables
 * that createUniformSetters/setUniforms never read (glTypeToTypedArray, formatInfo,
 * attachmentsByFormat, renderbufferFormats). Each table becomes a pure IIFE that returns it
 * (`const t = /* @__PURE__ *\/ (() => { const t = {}; ...; return t; })();`): the same object
 * where it is used, dropped where nothing reads it. (Rolldown's treeshake.propertyWriteSideEffects
 * would do it for every module, and drops the cpu worker's `self.onmessage = ...` with them.)
 */
const TWGL_DEAD_TABLES = [
  'glTypeToTypedArray',
  'formatInfo',
  'attachmentsByFormat',
  'renderbufferFormats',
];
function twglTablesPlugin() {
  const TABLE = /^const (\w+) = \{\};\n((?:\{\n[\s\S]*?\n\}\n)|(?:\1\[[^\n]*;\n)+)/gm;
  return {
    name: 'gpu-flock-twgl-tables',
    transform(code, id) {
      if (!/[\\/]twgl\.js[\\/]/.test(id)) return null;
      const wrapped = [];
      const out = code.replace(TABLE, (_m, name, body) => {
        wrapped.push(name);
        return `const ${name} = /* @__PURE__ */ (() => {\nconst ${name} = {};\n${body}return ${name};\n})();\n`;
      });
      const missing = TWGL_DEAD_TABLES.filter((n) => !wrapped.includes(n));
      if (missing.length)
        this.error(`twgl.js changed: no table ${missing.join(', ')} (twglTablesPlugin)`);
      return { code: out, map: null };
    },
  };
}

/**
 * The runtime dependency left as an import in dist/index.js and its chunks: gl-matrix, one ES
 * module per function, which every bundler tree-shakes. twgl.js is inlined into the chunk that
 * uses it (src/webgl2/program.ts: createUniformSetters, setUniforms), only the code those reach
 * (Rollup's tree-shaking, about 10 kB minified): its package is one ES module that runs code at
 * top level, so esbuild and webpack keep all of it when it stays an import (measured: 9.8 kB
 * gzip more on an esbuild WebGL2 page, 2.5 kB inlined). It stays in package.json's dependencies.
 */
const DEPENDENCIES = /^gl-matrix(?:\/|$)/;

const common = {
  root,
  configFile: false,
  logLevel: 'warn',
  publicDir: false,
  plugins: [workerUrlPlugin(), shaderPlugin(), twglTablesPlugin()],
};

async function buildModules() {
  await build({
    ...common,
    plugins: [
      ...common.plugins,
      lazyDebugLayerPlugin(),
      bundledPackagesPlugin(),
      docsOutPlugin(INTERNAL_DOC_TABLES),
    ],
    build: {
      outDir: dist,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      sourcemap: false,
      lib: {
        entry: {
          index: 'src/index.ts',
          element: 'src/element/index.ts',
          reference: 'src/reference.ts',
        },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      rollupOptions: {
        external: (id) => DEPENDENCIES.test(id),
        // Rolldown by default merges common chunks into a chunk that already imports them; a
        // bundler that builds on dist/ then keeps what the backends share in the first load
        // (esbuild keeps a chunk file's live code together). Unmerged (2026-12-07, package:check):
        // createFlock 34.87 -> 34.76 kB, vite-app 79.8 -> 79.4 (webgpu) and 85.5 -> 85.1 kB.
        experimental: { chunkOptimization: { mergeCommonChunks: false } },
        output: { chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  });
}

/**
 * The third-party packages bundled into each output file (package names by file name): their
 * licence texts go into dist/THIRD-PARTY-NOTICES.md and into the banner of each single file.
 */
const bundled = new Map();
function bundledPackagesPlugin() {
  return {
    name: 'gpu-flock-bundled-packages',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const names = new Set();
        for (const id of Object.keys(chunk.modules)) {
          const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id);
          if (m) names.add(m[1].replace('\\', '/'));
        }
        bundled.set(chunk.fileName, names);
      }
    },
  };
}

/** A bundled package's licence notice: name, version, licence and the text of its licence file. */
function notice(name) {
  const dir = join(root, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((f) => /^licen[cs]e(\.|$)/i.test(f));
  if (!file) throw new Error(`${name} has no licence file to ship`);
  const text = readFileSync(join(dir, file), 'utf8').trim();
  return { title: `${name} ${pkg.version} (${pkg.license})`, text };
}

/**
 * For the single element file: the lazy faces (src/webgpu/pass-timer.ts, src/core/
 * lazy-variant-cache.ts) put the code they front behind import() for a bundled page's first load;
 * the one file holds that code anyway (staticImportsPlugin), so there each face is the class it
 * fronts, as before the faces (2026-12-07: element 109,562 -> 109,210 B gzip).
 */
const EAGER_FACES = {
  '/src/webgpu/pass-timer.ts': "export { PassTimer as LazyPassTimer } from './timing';",
  '/src/core/lazy-variant-cache.ts':
    "export { VariantCache as LazyVariantCache } from './variant-cache';",
};
function eagerFacesPlugin() {
  return {
    name: 'gpu-flock-eager-faces',
    enforce: 'pre',
    load(id) {
      const face = Object.keys(EAGER_FACES).find((f) => id.endsWith(f));
      return face ? EAGER_FACES[face] : null;
    },
  };
}

/**
 * For the single files: each `import('./x')` of the library's own modules becomes a static import
 * (`import * as` at the top, `Promise.resolve(namespace)` where it was). The one file holds every
 * module anyway; as dynamic imports, Rolldown wrapped each module they reach in a lazy init
 * function (132 of them), which also kept it from dropping their unused top-level code.
 */
function staticImportsPlugin() {
  return {
    name: 'gpu-flock-static-imports',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id)) return null;
      const found = [];
      const out = code.replace(/\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g, (_m, _q, spec) => {
        let n = found.indexOf(spec);
        if (n < 0) n = found.push(spec) - 1;
        return `Promise.resolve(__gfStatic${n})`;
      });
      if (found.length === 0) return null;
      const head = found.map((spec, n) => `import * as __gfStatic${n} from '${spec}';`).join('');
      return { code: head + out, map: null };
    },
  };
}

async function buildSingleFile(entry, fileName, extraPlugins = []) {
  await build({
    ...common,
    plugins: [...common.plugins, bundledPackagesPlugin(), ...extraPlugins],
    build: {
      outDir: dist,
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: { entry, formats: ['es'], fileName: () => fileName },
      rollupOptions: { output: { codeSplitting: false } },
    },
  });
}

/** Relative specifiers in .d.ts files get a `.js` (or `/index.js`) ending, as Node16 resolution needs. */
function fixDeclarations(typesDir) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.d.ts')) files.push(p);
    }
  };
  walk(typesDir);
  // Relative specifiers, `..` and `.` alone included (tsc writes `import("..").FlockParams`).
  const spec = /((?:from|import)\s*\(?\s*['"])(\.{1,2}(?:\/[^'"]*)?)(['"])/g;
  const edges = new Map();
  for (const f of files) {
    const deps = [];
    const text = readFileSync(f, 'utf8').replace(spec, (whole, pre, s, post) => {
      const base = resolve(dirname(f), s);
      let target = s;
      if (existsSync(`${base}.d.ts`)) target = `${s}.js`;
      else if (existsSync(join(base, 'index.d.ts'))) target = `${s}/index.js`;
      else throw new Error(`${relative(root, f)}: cannot resolve ${s}`);
      deps.push(resolve(dirname(f), target.replace(/\.js$/, '.d.ts')));
      return `${pre}${target}${post}`;
    });
    writeFileSync(f, text);
    edges.set(f, deps);
  }
  // Keep only the declarations the entries reach (the backends' internals stay out).
  const keep = new Set();
  const visit = (f) => {
    if (keep.has(f)) return;
    keep.add(f);
    for (const d of edges.get(f) ?? []) visit(d);
  };
  visit(join(typesDir, 'index.d.ts'));
  visit(join(typesDir, 'element/index.d.ts'));
  visit(join(typesDir, 'reference.d.ts'));
  for (const f of FRAMEWORK_DECLARATIONS) visit(join(typesDir, 'element', f));
  for (const f of files) if (!keep.has(f)) rmSync(f);
  const prune = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        prune(p);
        if (readdirSync(p).length === 0) rmSync(p, { recursive: true });
      }
    }
  };
  prune(typesDir);
  // Declarations may not lean on the build's ambient types (vite/client, node). WebGPU object
  // types they name are shipped as empty global interfaces (dist/types/webgpu-shim.d.ts), which
  // merge with @webgpu/types where a consumer has it.
  const gpuNames = new Set();
  for (const f of keep) {
    // The framework declarations import their framework's types (the consumer has them).
    if (FRAMEWORK_DECLARATIONS.some((d) => f.endsWith(`/element/${d}`))) continue;
    const text = readFileSync(f, 'utf8');
    if (/\/\/\/\s*<reference/.test(text)) {
      throw new Error(`${relative(root, f)} needs ambient types a consumer does not have`);
    }
    const names = [...text.matchAll(/\bGPU[A-Z]\w*/g)].map((m) => m[0]);
    if (names.length === 0) continue;
    for (const n of names) gpuNames.add(n);
    const shim = relative(dirname(f), join(typesDir, 'webgpu-shim.d.ts')).replaceAll('\\', '/');
    writeFileSync(
      f,
      `/// <reference path="${shim.startsWith('.') ? shim : `./${shim}`}" />\n${text}`,
    );
  }
  if (gpuNames.size > 0) {
    const body = [...gpuNames]
      .sort()
      .map((n) => `interface ${n} {}`)
      .join('\n');
    writeFileSync(
      join(typesDir, 'webgpu-shim.d.ts'),
      `// WebGPU types the declarations name, as empty interfaces (they merge with @webgpu/types).\n${body}\n`,
    );
  }
}

/**
 * Vite's library mode keeps whitespace in ES output (for pure annotations): squeeze the single
 * files. Each starts with the licence notices of the third-party code bundled into it (a `/*!`
 * comment, which minifiers keep), so a copy of the one file carries them.
 */
async function minifyFile(fileName) {
  const file = join(dist, fileName);
  const out = await transform(readFileSync(file, 'utf8'), {
    minify: true,
    format: 'esm',
    target: 'es2022',
    legalComments: 'none',
  });
  const names = [...(bundled.get(fileName) ?? [])].sort();
  const banner = names.length
    ? `/*! gpu-flock (MIT). Bundled third-party code and its licence notices:\n${names
        .map((n) => notice(n))
        .map(({ title, text }) => `\n${title}\n\n${text.replaceAll('*/', '* /')}\n`)
        .join('')}*/\n`
    : '';
  writeFileSync(file, banner + out.code);
}

/** dist/THIRD-PARTY-NOTICES.md: every third-party package bundled into any file of dist/. */
function writeNotices() {
  const names = new Set(['gl-matrix']); // imported by dist/index.js, bundled into the single files
  for (const set of bundled.values()) for (const n of set) names.add(n);
  const parts = [...names].sort().map((n) => {
    const { title, text } = notice(n);
    return `## ${title}\n\n\`\`\`text\n${text}\n\`\`\`\n`;
  });
  writeFileSync(
    join(dist, 'THIRD-PARTY-NOTICES.md'),
    `# Third-party notices\n\nThird-party code bundled into the files of \`dist/\` (the package itself is MIT, see LICENSE).\n\n${parts.join('\n')}`,
  );
}

await buildModules();
// gpu-flock.element.js for a <script type="module"> tag: one file, every dynamic import inlined.
const docsOut = docsOutPlugin();
await buildSingleFile('src/element/standalone.ts', ELEMENT_FILE, [
  docsOut,
  staticImportsPlugin(),
  eagerFacesPlugin(),
]);
await buildSingleFile('src/cpu/cpu-worker.ts', WORKER_FILE, [noWorkerInWorkerPlugin()]);
if (readFileSync(join(dist, WORKER_FILE), 'utf8').includes('new Worker(')) {
  throw new Error(`${WORKER_FILE} starts a worker (itself): see noWorkerInWorkerPlugin`);
}
await minifyFile(ELEMENT_FILE);
docsOut.check(readFileSync(join(dist, ELEMENT_FILE), 'utf8'), ELEMENT_FILE);
await minifyFile(WORKER_FILE);
const tsc = join(root, 'node_modules/typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.lib.json'], { cwd: root, stdio: 'inherit' });
// The framework declarations are hand-written .d.ts files (tsc copies none): they join the
// emitted ones before the specifiers are fixed.
for (const f of FRAMEWORK_DECLARATIONS) {
  copyFileSync(join(root, 'src/element', f), join(dist, 'types/element', f));
}
fixDeclarations(join(dist, 'types'));
// Declarations of the two single files (their export paths: gpu-flock/gpu-flock.element.js, ...).
writeFileSync(
  join(dist, 'gpu-flock.element.d.ts'),
  `// ${ELEMENT_FILE}: defines <gpu-flock> when loaded; exports what a page script may use beside it.\n` +
    `export { GpuFlockElement, defineGpuFlockElement } from './types/element/index.js';\n` +
    `export { createFlock, FlockError } from './types/index.js';\n`,
);
writeFileSync(
  join(dist, 'gpu-flock.cpu-worker.d.ts'),
  `// ${WORKER_FILE}: the cpu backend's worker script; it exports nothing.\nexport {};\n`,
);
await writeCustomElementsManifest(dist, root);
writeNotices();
console.log('dist/ written');
