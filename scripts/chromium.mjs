// Finds a Chromium binary and holds the launch flags that make WebGL2 and WebGPU work
// headless on a machine without a GPU (SwiftShader). See ../shared/BROWSER.md.
// Playwright's own Chromium (`npx playwright install chromium`) is the last resort: on macOS and
// Windows, or a Linux without a packaged Chromium.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

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

/**
 * Where a system Chromium or Chrome usually lives, in the order they are tried: Linux package
 * paths, then the standard macOS and Windows install paths (Windows' come from %PROGRAMFILES%,
 * %PROGRAMFILES(X86)% and %LOCALAPPDATA%, left out when unset).
 * @param {string} platform process.platform ('linux', 'darwin', 'win32', ...)
 * @param {Record<string, string | undefined>} env the environment to read Windows' folders from
 * @returns {string[]}
 */
export function systemChromiumPaths(platform, env) {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(Boolean);
    return roots.flatMap((root) => [
      `${root}\\Chromium\\Application\\chrome.exe`,
      `${root}\\Google\\Chrome\\Application\\chrome.exe`,
    ]);
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ];
}

/** The path of Playwright's own Chromium download (`npx playwright install chromium`), or null. */
function playwrightChromium() {
  try {
    return chromium.executablePath() || null;
  } catch {
    return null; // a platform Playwright has no build for
  }
}

/**
 * The Chromium to use: $CHROME_PATH (null when it names no file), then the system paths of
 * systemChromiumPaths(), then Playwright's own download where that file exists; null when none
 * exists. `deps` replaces the environment, the platform, the file check and Playwright's path
 * (for tests).
 * @param {{ env?: Record<string, string | undefined>, platform?: string,
 *   exists?: (path: string) => boolean, playwrightPath?: () => string | null }} [deps]
 * @returns {string | null}
 */
export function findChromium(deps = {}) {
  const {
    env = process.env,
    platform = process.platform,
    exists = existsSync,
    playwrightPath = playwrightChromium,
  } = deps;
  if (env.CHROME_PATH) return exists(env.CHROME_PATH) ? env.CHROME_PATH : null;
  const system = systemChromiumPaths(platform, env).find((p) => exists(p));
  if (system) return system;
  const own = playwrightPath();
  return own && exists(own) ? own : null;
}
