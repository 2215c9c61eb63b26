/// <reference types="vitest/config" />
// Vite serves the demo (index.html) and the benchmark page; Vitest runs two projects:
// `unit` in Node and `browser` in headless Chromium (system binary, SwiftShader GPU).
// (and node-gpu, e2e and webkit: see docs/testing.md)
import { defineConfig, type Plugin } from 'vite';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';
import { PREBUNDLED_DEPS } from './scripts/prebundle.mjs';

const executablePath = findChromium() ?? undefined;

/**
 * dat.gui injects its styles as <style> elements when imported, which a strict
 * Content-Security-Policy (style-src 'self') blocks and reports; the demo ships them as a
 * stylesheet instead (src/app/dat-gui.css), so the build drops the injection (issue 11 item 10).
 */
function datGuiWithoutStyleInjection(): Plugin {
  return {
    name: 'dat-gui-without-style-injection',
    apply: 'build',
    transform(code, id) {
      if (!/dat\.gui[\\/]build[\\/]dat\.gui\.module\.js$/.test(id)) return null;
      const out = code
        .replace('document.head.appendChild(style);', '')
        .replace('css.inject(styleSheet);', '');
      if (
        out.length !==
        code.length - 'document.head.appendChild(style);css.inject(styleSheet);'.length
      ) {
        this.error('dat.gui changed: its style injection was not found (see src/app/dat-gui.css)');
      }
      return { code: out, map: null };
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [datGuiWithoutStyleInjection()],
  // Pre-bundle the runtime dependencies up front: a dependency discovered mid-test makes Vite
  // reload the page under a running browser test.
  optimizeDeps: {
    include: [...PREBUNDLED_DEPS, 'chart.js', 'valibot'],
  },
  // `npm run build:demo`: the demo and the benchmark page, in dist-demo/ (dist/ is the package,
  // `npm run build`).
  build: {
    outDir: 'dist-demo',
    target: 'es2022',
    rollupOptions: { input: { main: 'index.html', bench: 'bench.html' } },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // Some reference runs take seconds; a busy 2-core machine must not turn them into failures.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node-gpu',
          include: ['tests/node-gpu/**/*.test.ts'],
          environment: 'node',
          // Parity runs on Dawn's software adapter (llvmpipe): a test there took 120 s beside six
          // busy loops and the rest of the suite (about 40 s quiet). The bound guards only a hang.
          testTimeout: 600_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // WebKit through WebKitGTK's WebDriver under Xvfb (tests/webkit/webkit.test.ts).
          name: 'webkit',
          include: ['tests/webkit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath, args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
