// Bundles scripts/order.ts (the CPU reference + the order measures) into one ES module for Node.
import { defineConfig } from 'vite';

export default defineConfig({
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: 'scripts/order.ts',
    outDir: 'node_modules/.cache/gpu-flock-order',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { format: 'es', entryFileNames: 'order.mjs' } },
  },
});
