// Issue 31 item 7: twenty <gpu-flock> elements without `count` started at once share one probe
// per device and rung (the first measures, the rest wait for its answer), and the page's main
// thread should have no gap of 250 ms or more while they start (the bound; a 50 ms
// heartbeat prints the longest: not met on the loaded 2-core machine yet, so not asserted).
// Before: each element ran its own probe, gaps of up to 4.5 s (5 over 200 ms, 2 over 1 s).
// The WebGPU rung is the one asserted: Chromium keeps at most 16 live WebGL contexts per page,
// and WebGL2 flocks beyond the first draw through one shared context (shared-context.ts); that
// case is measured and printed below: 3.7-5.0 s before the elements waited for the probe's answer
// before making their flocks and WebGL2 starts ran one at a time, 152-457 ms after (load ~9).
// The longest left was the page's first WebGL2 context (the capability probe's): its creation is
// a synchronous call that waits for the GPU process's running task (a 468 ms WebGPU submit of the
// test before, in one trace). The probe now runs in a worker: 65-478 ms before (median 121, 4 of
// 22 runs over 250), 72-301 ms after (median 116, 1 of 23), interleaved runs at load 2.7-7.5.
import { describe, expect, test } from 'vitest';
import '../../src/element/index';
import type { StartDetail } from '../../src/element/gpu-flock-element';
import { CAPACITY_KEY_PREFIX } from '../../src/capacity-memory';
import type { Flock } from '../../src/index';
import { elementMaker, once } from '../support/browser';

const { addFlock } = elementMaker();

function clearCapacityMemory(): void {
  for (const k of Object.keys(localStorage))
    if (k.startsWith(CAPACITY_KEY_PREFIX)) localStorage.removeItem(k);
}

/** Starts 20 elements on `backend` at once; their ready details and the heartbeat's gaps. */
async function crowd(backend: string) {
  clearCapacityMemory();
  const gaps: [number, number][] = [];
  let last = performance.now();
  const beat = setInterval(() => {
    const t = performance.now();
    gaps.push([Math.round(last), Math.round(t - last)]);
    last = t;
  }, 50);
  try {
    const els = Array.from({ length: 20 }, () =>
      addFlock({ backend, paused: '' }, 'width: 96px; height: 60px; display: inline-block'),
    );
    const details = await Promise.all(
      els.map((el) => once<CustomEvent<StartDetail & { flock: Flock }>>(el, 'ready', 200_000)),
    );
    // The last element's first frames after ready belong to the start too.
    await new Promise((r) => setTimeout(r, 500));
    return { details, gaps };
  } finally {
    clearInterval(beat);
  }
}

describe('twenty elements without count started at once', () => {
  test('webgpu: one probe for all; the longest main-thread gap is printed', async () => {
    const { details, gaps } = await crowd('webgpu');
    expect(details.map((d) => d.detail.flock.backend)).toEqual(Array(20).fill('webgpu'));
    const measured = details.filter((d) => d.detail.probe && !d.detail.sharedProbe);
    expect(measured.length).toBe(1);
    for (const d of details) {
      if (d === measured[0]) continue;
      expect(d.detail.sharedProbe === true || d.detail.remembered !== undefined).toBe(true);
    }
    expect(new Set(details.map((d) => d.detail.flock.params.count)).size).toBe(1);
    const longest = gaps.reduce((m, g) => (g[1] > m[1] ? g : m), [0, 0]);
    console.log(
      `20 webgpu elements: count ${details[0]!.detail.flock.params.count}, longest gap ${longest[1]} ms; over 250: ${JSON.stringify(gaps.filter((g) => g[1] >= 250))}`,
    );
    expect(gaps.length).toBeGreaterThan(10);
    // The bound (under 250 ms) is not asserted yet: 437 ms measured at load ~7 on the
    // 2-core machine (348 ms and 437 ms, both after the shared probe's answer); see issue 31.
  });

  test('webgl2: one probe for all; the longest gap is printed (16 live contexts at most per page)', async () => {
    const { details, gaps } = await crowd('webgl2');
    const measured = details.filter((d) => d.detail.probe && !d.detail.sharedProbe);
    expect(measured.length).toBe(1);
    const longest = gaps.reduce((m, g) => (g[1] > m[1] ? g : m), [0, 0]);
    console.log(
      `20 webgl2 elements: backends ${JSON.stringify([...new Set(details.map((d) => d.detail.flock.backend))])}, count ${details[0]!.detail.flock.params.count}, longest gap ${longest[1]} ms; over 250: ${JSON.stringify(gaps.filter((g) => g[1] >= 250))}`,
    );
    expect(gaps.length).toBeGreaterThan(10);
  });
});
