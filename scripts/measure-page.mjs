// The measuring page (scripts/measure.html) of a checkout, served by Vite and opened in headless
// Chromium on a fresh profile each time, for the scripts that time first frames and start times
// (scripts/pacing.mjs, scripts/start-times.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

/**
 * Serves checkout `root` with its own vite.config.ts on a free port.
 * @returns the URL of its scripts/measure.html and `close()` to stop the server
 */
export async function serveMeasurePage(root) {
  const server = await createServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'error',
    server: { port: 0, strictPort: false },
  });
  await server.listen();
  return {
    url: `${server.resolvedUrls.local[0]}scripts/measure.html`,
    close: () => server.close(),
  };
}

/**
 * Opens `url` in headless Chromium on a fresh profile (no shader cache from an earlier case) at
 * `viewport`, waits for the page's `window.gpuFlock`, runs `use(page)` and returns its result,
 * then closes the browser and removes the profile (also when `use` throws).
 */
export async function withMeasurePage(url, viewport, use) {
  const profile = mkdtempSync(join(tmpdir(), 'flock-measure-'));
  // `viewport` may carry a deviceScaleFactor (look-shots draws at devicePixelRatio 2).
  const { deviceScaleFactor = 1, ...size } = viewport;
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium() ?? undefined,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: size,
    deviceScaleFactor,
  });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.goto(url);
    await page.waitForFunction(() => window.gpuFlock !== undefined, null, { timeout: 60_000 });
    return await use(page);
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
