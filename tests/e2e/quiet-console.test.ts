// Issue 21 item 10: a running WebGL2 flock prints nothing to the console. Chromium logs
// "GPU stall due to ReadPixels" (a browser message, not a console.* call, so only the driver sees
// it) when a read makes the page wait for the GPU; snapshots, timings and readState read back
// asynchronously (src/webgl2/readback.ts) in the attachment's own format, so none may appear.
import { describe, expect, test } from 'vitest';
import { chromiumPath } from '../support/chromium';
import { demoSession } from '../support/demo-page';

describe.skipIf(!chromiumPath)('console of a running flock', () => {
  const demo = demoSession('quiet', { width: 640, height: 480 });

  for (const backend of ['webgl2', 'webgl2-tf'] as const) {
    test(`${backend}: seconds of running, stepping and reading state log no ReadPixels stall`, async () => {
      const page = await demo.context.newPage();
      const messages: string[] = [];
      page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
      page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
      await page.goto(`${demo.baseUrl}/scripts/measure.html`);
      await page.waitForFunction(() => 'gpuFlock' in window, null, { timeout: 120_000 });
      const ran = await page.evaluate(async (backend) => {
        type Lib = typeof import('../../src/index');
        const lib = (window as unknown as { gpuFlock: Lib }).gpuFlock;
        const f = await lib.createFlock(document.getElementById('app')!, {
          backend,
          params: { count: 2000 },
        });
        // The loop takes snapshots and cpu-wait timings; then explicit steps, reads and the
        // debug reads (sorted keys, neighbour counts) on top.
        await new Promise((r) => setTimeout(r, 3000));
        await f.step(3);
        const s = await f.readState();
        const out = { backend: f.backend, count: s.count, frames: f.stats.fps };
        f.dispose();
        return out;
      }, backend);
      expect(ran.backend).toBe(backend);
      expect(ran.count).toBe(2000);
      expect(ran.frames).toBeGreaterThan(0);
      await page.close();
      expect(messages.filter((m) => /ReadPixels|GPU stall/i.test(m))).toEqual([]);
    });
  }
});
