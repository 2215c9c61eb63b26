// Finds a Chromium binary and holds the launch flags that make WebGL2 and WebGPU work
// headless on a machine without a GPU (SwiftShader). See ../shared/BROWSER.md.
import { existsSync } from 'node:fs';

/** Launch flags: software WebGL2 (SwiftShader) and WebGPU, including WebGPU into a canvas. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--enable-unsafe-swiftshader',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-angle=swiftshader',
  // Tests and benchmarks run in background tabs/iframes: keep their timers and rAF alive.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** The Chromium to use: $CHROME_PATH, then the usual system paths; null when none exists. */
export function findChromium() {
  const env = process.env.CHROME_PATH;
  if (env) return existsSync(env) ? env : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}
