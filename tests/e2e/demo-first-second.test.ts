// The demo's first second (issue 27 item 1), end to end: Vite's dev server, the system Chromium
// (SwiftShader), a 1,280 px window, one browser profile for the file (so its localStorage carries
// from one load to the next, as a visitor's does). A first visit draws its first frame at the
// probe's start count, a formed flock, and only then measures the device; a revisit takes the
// count measured then (no probe); a storage that throws or is full is no error (the device is
// measured again on every visit). Timings are the benchmark's (npm run bench:first-frame --
// --demo), not asserted here.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { PROBE_START_COUNT, type CountProbe } from '../../src/count-probe';
import { localOrder } from '../../src/core/order';
import type { FlockParams } from '../../src/core/params';
import { chromiumPath } from '../support/chromium';
import { demoSession, openDemo } from '../support/demo-page';

/** What the page saw when #app was first shown with the flock made (its first frame). */
interface AtFirstFrame {
  count: number;
  probed: boolean;
  remembered: boolean;
  params: FlockParams;
  positions: number[];
  velocities: number[];
}

declare global {
  interface Window {
    __atFirstFrame?: Promise<AtFirstFrame>;
    /** The count window.flock had when the page set it (createFlock settled). */
    __createdCount?: number;
  }
}

/**
 * Watches for the first frame: #app's visibility no longer hidden with window.flock set. The
 * state is read there (queued before any later step).
 */
async function watchFirstFrame(page: Page): Promise<void> {
  await page.addInitScript(() => {
    let made: typeof window.flock;
    Object.defineProperty(window, 'flock', {
      configurable: true,
      get: () => made,
      set: (v: typeof window.flock) => {
        made = v;
        window.__createdCount ??= v?.params.count;
      },
    });
    const mo = new MutationObserver((records) => {
      const app = document.getElementById('app');
      const flock = window.flock;
      if (!app || !flock || app.style.visibility !== '') return;
      if (!records.some((r) => r.target === app)) return;
      mo.disconnect();
      const count = flock.params.count;
      const params = flock.params;
      const state = window.demo?.state;
      const probed = state?.probe !== undefined;
      const remembered = state?.remembered !== undefined;
      window.__atFirstFrame = flock.readState().then((st) => ({
        count,
        probed,
        remembered,
        params,
        positions: Array.from(st.positions),
        velocities: Array.from(st.velocities),
      }));
    });
    mo.observe(document, { subtree: true, attributes: true, attributeFilter: ['style'] });
  });
}

/** The local order (src/core/order.ts) of the first frame's state. */
const orderOf = (f: AtFirstFrame) =>
  localOrder(
    {
      count: f.count,
      positions: Float32Array.from(f.positions),
      velocities: Float32Array.from(f.velocities),
    },
    f.params,
  ).order;

const after = (page: Page) =>
  page.evaluate(async () => ({
    first: await window.__atFirstFrame!,
    count: window.flock!.params.count,
    probe: (window.demo!.state.probe as CountProbe | undefined) ?? null,
    remembered: window.demo!.state.remembered ?? null,
    firstFrame: window.demo!.state.firstFrame ?? null,
    created: window.__createdCount ?? null,
  }));

describe.skipIf(!chromiumPath)('demo: the first second', () => {
  const demo = demoSession('e2e-first-second', { width: 1280, height: 720 });

  for (const dims of [3, 2] as const) {
    test(`${dims}D: a first visit shows a formed flock before it measures; a revisit takes the measured count, no probe`, async () => {
      const query = `?backend=webgl2${dims === 2 ? '&dimensions=2' : ''}`;
      const page = await demo.context.newPage();
      await watchFirstFrame(page);
      await openDemo(page, demo.baseUrl, query);
      const visit = await after(page);
      // The first frame: the probe's start count (the default scene holds 16,384), no probe yet,
      // and already a flock (the groups start). Before: the probe ran first, and the first
      // frame drew its choice (512 here) with state.probe set.
      expect(visit.first.count).toBe(PROBE_START_COUNT);
      expect(visit.first.probed).toBe(false);
      expect(orderOf(visit.first)).toBeGreaterThanOrEqual(0.8);
      expect(visit.firstFrame?.count).toBe(PROBE_START_COUNT);
      // Then measured on screen, from that count: the flock runs the probe's choice.
      expect(visit.probe).not.toBeNull();
      expect(visit.probe!.atCount).toBe(PROBE_START_COUNT);
      expect(visit.count).toBe(visit.probe!.count);
      expect(visit.remembered).toBeNull();

      // The revisit (same profile): the remembered count from the first frame on, no probe.
      await openDemo(page, demo.baseUrl, query);
      const again = await after(page);
      expect(again.probe).toBeNull();
      expect(again.remembered?.count).toBe(visit.probe!.count);
      expect(again.remembered?.holds).toBe(visit.probe!.holds);
      expect(again.first.remembered).toBe(true);
      expect(again.first.count).toBe(visit.probe!.count);
      // Made at that count (the element's startCountGuess), not made at the start count and
      // changed before the first frame (a second initialisation on the first frame's path).
      expect(again.created).toBe(visit.probe!.count);
      expect(orderOf(again.first)).toBeGreaterThanOrEqual(0.8);
      expect(again.count).toBe(visit.probe!.count);
      // The overlay says where the count came from (it is under the scene's 16,384 here).
      expect(await page.locator('[data-field=probe]').textContent()).toContain(
        `${again.count.toLocaleString('en-US')} boids`,
      );
      await page.close();
    });
  }

  test('a storage that throws (blocked) or is full is no error: the device is measured again', async () => {
    for (const mode of ['blocked', 'full'] as const) {
      const page = await demo.context.newPage();
      await page.addInitScript((m) => {
        if (m === 'blocked') {
          Object.defineProperty(window, 'localStorage', {
            get() {
              throw new DOMException('The operation is insecure.', 'SecurityError');
            },
          });
        } else {
          Storage.prototype.setItem = () => {
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          };
        }
      }, mode);
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      for (let load = 0; load < 2; load++) {
        // A scene not measured before in this profile (the school preset's own key).
        await openDemo(page, demo.baseUrl, '?backend=webgl2&preset=school');
        const got = await page.evaluate(() => ({
          probe: (window.demo!.state.probe as CountProbe | undefined) ?? null,
          remembered: window.demo!.state.remembered ?? null,
          count: window.flock!.params.count,
        }));
        // Nothing recalled (blocked: nothing read; full: nothing could be written), so measured.
        expect(got.remembered, `${mode}, load ${load}`).toBeNull();
        expect(got.probe, `${mode}, load ${load}`).not.toBeNull();
        expect(got.count).toBe(got.probe!.count);
      }
      expect(problems, mode).toEqual([]);
      await page.close();
    }
  });
});
