// The element's first second (issue 27) and its count seams (issue 31 items 5 and 7): a first
// visit shows at once and measures on screen; a revisit starts at the remembered count with no
// probe; removing `count` returns to the device's count; an explicit cpu rung caps the count;
// many elements share one probe.
import { describe, expect, test } from 'vitest';
import '../../src/element/index';
import type { StartDetail } from '../../src/element/gpu-flock-element';
import { CAPACITY_KEY_PREFIX, rememberCapacity, sharedMeasure } from '../../src/capacity-memory';
import { capacityKeyOf } from '../../src/element/count-plan';
import { autoBoundsBox } from '../../src/core/page';
import { localOrder } from '../../src/core/order';
import { CPU_MAX_COUNT, initialState, type Flock } from '../../src/index';
import { elementMaker, once, sleep, until } from '../support/browser';

const { addFlock } = elementMaker();

/** Forgets every remembered capacity (a first visit). */
function clearCapacityMemory(): void {
  for (const k of Object.keys(localStorage))
    if (k.startsWith(CAPACITY_KEY_PREFIX)) localStorage.removeItem(k);
}

const readyDetail = (el: HTMLElement) =>
  once<CustomEvent<StartDetail & { flock: Flock }>>(el, 'ready', 120_000);

describe('<gpu-flock> without count: the first second', () => {
  test('a first visit shows before it measures; a revisit starts at the remembered count, no probe, formed', async () => {
    clearCapacityMemory();
    const attrs = { backend: 'webgl2', bounds: 'auto', boundary: 'wrap', paused: '' };
    const style = 'width: 400px; height: 240px';
    const first = addFlock(attrs, style);
    const made = performance.now();
    const d1 = (await readyDetail(first)).detail;
    const readyAt = performance.now() - made;
    const f1 = await first.ready;
    // Shown at the start count, then measured on screen: the first frame came before the probe.
    expect(d1.probe).toBeDefined();
    expect(d1.sharedProbe).toBeUndefined();
    expect(d1.firstFrameMs).toBeDefined();
    expect(d1.firstFrameMs! + d1.probe!.ms).toBeLessThanOrEqual(readyAt + 50);
    const counted = f1.params.count;
    expect(counted).toBe(d1.probe!.count);

    // A revisit (same device, rung, dimensions, version): the remembered count, no probe.
    first.remove();
    const again = addFlock(attrs, style);
    const d2 = (await readyDetail(again)).detail;
    const f2 = await again.ready;
    expect(d2.probe).toBeUndefined();
    expect(d2.remembered?.count).toBe(counted);
    expect(f2.params.count).toBe(counted);
    expect(f2.params.boundsMax).toEqual(autoBoundsBox(counted, 3, 400, 240).boundsMax);
    // Its first frame (paused: no loop step since) is a formed flock.
    const o = localOrder(await f2.readState(), f2.params);
    expect(o.order).toBeGreaterThanOrEqual(0.8);
  });

  test("a formed start is drawn before any step: the first frame is the seed's start state", async () => {
    // 1,234 boids, 3D then 2D: paused, so no loop step follows the first frame.
    for (const dimensions of [3, 2] as const) {
      const el = addFlock(
        {
          backend: 'webgl2',
          count: '1234',
          seed: '7',
          bounds: 'auto',
          paused: '',
          dimensions: String(dimensions),
        },
        'width: 400px; height: 240px',
      );
      const ready = readyDetail(el);
      const flock = await el.ready;
      const { detail } = await ready;
      // The warm-up (2 s in 3D, 3 s in 2D: 20 or 30 steps of 0.1 s) is cut at 0 s, shown as reached.
      expect(detail.warmup).toMatchObject({ steps: 0, cut: true, seconds: 0 });
      expect(flock.time).toBe(0);
      expect(flock.view.warmup).toBe(dimensions === 2 ? 3 : 2);
      const s = await flock.readState();
      const seed = initialState(flock.params);
      expect(s.count).toBe(1234);
      // Exactly the CPU reference's start state of seed 7 (float32 in, float32 out).
      expect(s.positions).toEqual(seed.positions);
      expect(s.velocities).toEqual(seed.velocities);
      // A formed flock (DESIGN section 1, start 'groups': local order >= 0.9 at t = 0).
      expect(localOrder(s, flock.params).order).toBeGreaterThanOrEqual(0.9);
      el.remove();
    }
  });

  test('removing count returns to the count an element without count runs (issue 31 item 5)', async () => {
    const el = addFlock(
      { backend: 'webgl2', bounds: 'auto', count: '3000', paused: '' },
      'width: 400px; height: 240px',
    );
    const flock = await el.ready;
    expect(flock.params.count).toBe(3000);
    // This device's remembered capacity (what an element without count starts at).
    rememberCapacity(capacityKeyOf(flock), { count: 1300, holds: true, at: Date.now() });
    el.removeAttribute('count');
    await until(() => flock.params.count !== 3000, 30_000);
    // Not DESIGN's default 16,384 in the 64-unit box: the device's count in the element's box.
    expect(flock.params.count).toBe(1300);
    expect(flock.params.boundsMax).toEqual(autoBoundsBox(1300, 3, 400, 240).boundsMax);
    expect((await flock.readState()).count).toBe(1300);
  });

  test('backend="cpu" count="20000" caps the count as auto does and says so (issue 31 item 5)', async () => {
    const el = addFlock({ backend: 'cpu', count: '20000', paused: '' });
    const ready = readyDetail(el);
    const flock = await el.ready;
    expect([flock.backend, flock.params.count]).toEqual(['cpu', CPU_MAX_COUNT]);
    expect((await ready).detail.capped).toBe(
      "count capped from 20000 to 4096, the cpu backend's limit",
    );
    // A running element switched to cpu: the same.
    const el2 = addFlock({ backend: 'webgl2', count: '20000', paused: '' });
    const first = await el2.ready;
    el2.setAttribute('backend', 'cpu');
    await until(() => el2.flock !== null && el2.flock !== first, 60_000);
    const second = await el2.ready;
    expect([second.backend, second.params.count]).toEqual(['cpu', CPU_MAX_COUNT]);
  });

  test('twelve elements started at once share one probe (issue 31 item 7)', async () => {
    clearCapacityMemory();
    const els = Array.from({ length: 12 }, () =>
      addFlock(
        { backend: 'webgl2', paused: '' },
        'width: 100px; height: 60px; display: inline-block',
      ),
    );
    const details = await Promise.all(els.map((el) => readyDetail(el)));
    const measured = details.filter((d) => d.detail.probe && !d.detail.sharedProbe);
    // One measured; the rest waited for its answer (or, started after it, found it remembered).
    expect(measured.length).toBe(1);
    for (const d of details) {
      if (d === measured[0]) continue;
      expect(d.detail.sharedProbe === true || d.detail.remembered !== undefined).toBe(true);
    }
    const counts = new Set(details.map((d) => d.detail.flock.params.count));
    expect(counts.size).toBe(1);
  });

  // An outside tester's two sequences (SwiftShader, whose probe answers 512): before, the probe's
  // answer replaced a count the page gave while it measured (777 -> 512, 600 -> 512), no event.
  test('a count given while the probe measures wins over its answer', async () => {
    const probe = { count: 512, fps: 30, holds: false, capped: false, bounded: true };
    const k = await addFlock({ backend: 'cpu', count: '900', paused: '' }).ready;
    /** A slow device's probe of this key, in flight: the elements share its answer (512). */
    const slowProbe = (ms: number) =>
      sharedMeasure(capacityKeyOf(k), () => new Promise((r) => setTimeout(() => r(probe), ms)))
        .result;
    clearCapacityMemory();
    let answer = slowProbe(1500);
    const el = addFlock({ backend: 'cpu', paused: '' });
    await until(() => el.flock !== null, 30_000);
    el.setAttribute('count', '777'); // while the element waits for the probe's answer
    await answer;
    const f = await el.ready;
    await sleep(200);
    expect([f.params.count, el.getAttribute('count')]).toEqual([777, '777']);
    // Removed, then given at once: the removal's probe answers after the new count.
    clearCapacityMemory();
    answer = slowProbe(800);
    el.removeAttribute('count');
    el.setAttribute('count', '600');
    await answer;
    await sleep(200);
    expect([el.flock, f.params.count]).toEqual([f, 600]);
  });
});
