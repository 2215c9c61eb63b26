// Bundles scripts/bench-gpu.ts into one ES module, .gpu/bench.mjs, that a bare `node` runs on a
// machine without node_modules (../shared/GPU.md): everything is inlined (WGSL via
// import.meta.glob, gl-matrix) except Node built-ins and the optional `webgpu` package, which is
// only loaded when no dawn.node path is given.
import { defineConfig } from 'vite';

export default defineConfig({
  logLevel: 'warn',
  publicDir: false,
  ssr: { noExternal: true, external: ['webgpu'] },
  build: {
    ssr: 'scripts/bench-gpu.ts',
    outDir: '.gpu',
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    rollupOptions: {
      external: ['webgpu', /^node:/],
      output: { format: 'es', entryFileNames: 'bench.mjs', codeSplitting: false },
    },
  },
});
