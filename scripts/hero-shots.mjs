// Screenshots of the plain-HTML hero (examples/plain-html) for a person to look at:
// `npm run build && node scripts/hero-shots.mjs OUTDIR name[@phone|@WxH][+seconds] ...`,
// e.g. `desk phone@phone wide@1600x900+6`. Serves examples/plain-html from a static server with
// the example's strict Content-Security-Policy, its node_modules/gpu-flock/dist/ answered from
// this repository's dist/ (so no pack or install), opens the page in the system Chromium
// (SwiftShader) at 1280x800 (390x844 touch with @phone, W x H with @WxH), waits for the flock
// and then the given wall seconds (default 4), saves OUTDIR/name.png, and closes everything.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const [outDir, ...jobs] = process.argv.slice(2);
if (!outDir || jobs.length === 0) {
  console.error('usage: node scripts/hero-shots.mjs OUTDIR name[@phone|@WxH][+seconds] ...');
  process.exit(2);
}
const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
if (!existsSync(join(dist, 'gpu-flock.element.js'))) {
  console.error('dist/gpu-flock.element.js is missing: run `npm run build` first');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const hero = join(root, 'examples/plain-html');
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};
const LIB = '/node_modules/gpu-flock/dist/';
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  const [dir, rest] = path.startsWith(LIB) ? [dist, path.slice(LIB.length)] : [hero, path];
  let file = normalize(join(dir, rest));
  if (!file.startsWith(dir + sep) && file !== dir) return res.writeHead(403).end();
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (!existsSync(file)) return res.writeHead(404).end('not found');
  res.writeHead(200, {
    'content-type': MIME[extname(file)] ?? 'application/octet-stream',
    'content-security-policy': "default-src 'self'",
  });
  res.end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
try {
  for (const job of jobs) {
    const m = /^([\w.-]+)(@phone|@\d+x\d+)?(\+[\d.]+)?$/.exec(job);
    if (!m) throw new Error(`bad job ${job}`);
    const [, name, at, secs] = m;
    const phone = at === '@phone';
    const size = at && !phone ? at.slice(1).split('x').map(Number) : [1280, 800];
    const context = await browser.newContext(
      phone
        ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
        : { viewport: { width: size[0], height: size[1] } },
    );
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`${name}: page error: ${e.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning')
        console.error(`${name}: ${msg.text()}`);
    });
    await page.goto(base);
    const info = await page.evaluate(async () => {
      const el = document.querySelector('gpu-flock');
      await customElements.whenDefined('gpu-flock');
      const flock = await el.ready;
      return { backend: flock.backend, count: flock.params.count };
    });
    await page.waitForTimeout(1000 * (secs ? Number(secs.slice(1)) : 4));
    const file = join(outDir, `${name}.png`);
    await page.screenshot({ path: file });
    console.log(`${file}: ${JSON.stringify(info)}`);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
