// Screenshots of the demo for a person to look at: `node scripts/demo-shots.mjs OUTDIR
// name=query[@phone|@WxH][+seconds] ...`, e.g. `default=?backend=webgl2+3
// phone=?preset=swarm@phone narrow=?dimensions=2@1000x700`. Starts Vite's dev server and the
// system Chromium (SwiftShader), opens each query at 1280x800 (390x844 touch with @phone, W x H
// with @WxH), waits the given seconds of running (default 3), saves OUTDIR/name.png, and closes
// everything.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';
import { PREBUNDLED_DEPS } from './prebundle.mjs';

const [outDir, ...jobs] = process.argv.slice(2);
if (!outDir || jobs.length === 0) {
  console.error('usage: node scripts/demo-shots.mjs OUTDIR name=?query[@phone][+seconds] ...');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const root = join(import.meta.dirname, '..');
const server = await createServer({
  root,
  logLevel: 'error',
  cacheDir: join(tmpdir(), 'gpu-flock-shots-vite'),
  optimizeDeps: {
    include: [...PREBUNDLED_DEPS],
  },
  server: { host: '127.0.0.1', port: 0, hmr: false },
});
await server.listen();
const addr = server.httpServer.address();
const base = `http://127.0.0.1:${addr.port}/`;
const profile = mkdtempSync(join(tmpdir(), 'gpu-flock-shots-'));
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
try {
  for (const job of jobs) {
    const m = /^([\w.-]+)=(.*?)(@phone|@\d+x\d+)?(\+[\d.]+)?$/.exec(job);
    if (!m) throw new Error(`bad job ${job}`);
    const [, name, query, at, secs] = m;
    const phone = at === '@phone';
    const size = at && !phone ? at.slice(1).split('x').map(Number) : [1280, 800];
    const context = await browser.newContext(
      phone
        ? {
            viewport: { width: 390, height: 844 },
            isMobile: true,
            hasTouch: true,
            deviceScaleFactor: 1,
          }
        : { viewport: { width: size[0], height: size[1] } },
    );
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`${name}: page error: ${e.message}`));
    await page.goto(base + query);
    await page.waitForFunction(() => window.flockReady !== undefined, null, { timeout: 120_000 });
    await page.evaluate(() => window.flockReady.then(() => undefined));
    // Simulated seconds, not wall seconds: SwiftShader on a busy box runs slow motion.
    const seconds = secs ? Number(secs.slice(1)) : 3;
    await page.evaluate(async (s) => {
      const f = window.flock;
      const steps = Math.round(s / f.params.timeStep);
      const running = f.running;
      f.stop();
      await f.step(steps);
      await f.readState(); // after every step
      f.render();
      // Left paused: a software GPU on a busy box may not give the screenshot a frame otherwise.
      return running;
    }, seconds);
    await page.waitForTimeout(300);
    const file = join(outDir, `${name}.png`);
    await page.screenshot({ path: file });
    const info = await page.evaluate(() => ({
      backend: window.flock.backend,
      count: window.flock.params.count,
      caption: document.getElementById('caption')?.textContent,
    }));
    console.log(`${file}: ${JSON.stringify(info)}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}
