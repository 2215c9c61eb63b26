// Issue 21, reproduction 8: many WebGL2 flocks on one page. Browsers keep about 16 live WebGL
// contexts per page and evict the oldest beyond that; 20 flocks each on its own context lost them
// in a cascade. From the second WebGL2 flock on, flocks draw with one shared context and move each
// frame into their own canvas (src/webgl2/shared-context.ts): 20 flocks hold 2 contexts, none is
// lost, each canvas shows its own flock, and a loss of the shared context is recovered by every
// flock on it with no rollback.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFlock, type Flock, type FlockState } from '../../src/index';
import type { Backend } from '../../src/backend';
import { once, sleep, until } from '../support/browser';
import { trackContexts } from '../support/contexts';
import { canvasPixels } from '../support/frames';

const N = 20;
/** Flock i's rung: every fourth on the transform-feedback path, the same shared context. */
const rung = (i: number) => (i % 4 === 3 ? 'webgl2-tf' : 'webgl2');
const EVENTS = ['contextlost', 'contextrestored', 'fallback', 'error'] as const;
type Counts = Record<(typeof EVENTS)[number], number>;

/** Flock i's background: 20 colours at least 8 apart in two channels. */
const background = (i: number): [number, number, number] => [10 + 12 * i, 200 - 8 * i, 90];

const backendOf = (f: Flock) => (f as unknown as { _backend: Backend | null })._backend;
const glOf = (f: Flock) => (backendOf(f) as unknown as { gl: WebGL2RenderingContext }).gl;

/** The most common colour of the canvas as the page shows it (drawn into a 2D canvas). */
function commonColor(c: HTMLCanvasElement): [number, number, number] {
  const data = canvasPixels(c);
  const seen = new Map<number, number>();
  for (let p = 0; p < data.length; p += 4) {
    const key = (data[p]! << 16) | (data[p + 1]! << 8) | data[p + 2]!;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const [key] = [...seen.entries()].sort((a, b) => b[1] - a[1])[0]!;
  return [(key >> 16) & 255, (key >> 8) & 255, key & 255];
}

/** Draws flock i now and checks its canvas shows its own background. */
function expectOwnPicture(f: Flock, i: number): void {
  f.render();
  const got = commonColor(f.canvas);
  const want = background(i);
  for (let k = 0; k < 3; k++) expect(Math.abs(got[k]! - want[k]!), `flock ${i}`).toBeLessThan(3);
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let k = 0; k < a.length; k++) d = Math.max(d, Math.abs(a[k]! - b[k]!));
  return d;
}

describe(`${N} WebGL2 flocks (webgl2 and webgl2-tf) on one page (issue 21, reproduction 8)`, () => {
  let track: ReturnType<typeof trackContexts>;
  const flocks: Flock[] = [];
  const counts: Counts[] = [];
  const boxes: HTMLDivElement[] = [];
  /** The flock drawing with its own canvas's context. */
  let direct = -1;

  beforeAll(async () => {
    track = trackContexts();
    // All at once, as N <gpu-flock> elements on a page start.
    const made = await Promise.all(
      Array.from({ length: N }, (_, i) => {
        const div = document.createElement('div');
        div.style.cssText = 'width:64px;height:48px;display:inline-block';
        document.body.append(div);
        boxes.push(div);
        const [r, g, b] = background(i);
        return createFlock(div, {
          backend: rung(i),
          params: { count: 300 + i, seed: i + 1 },
          view: { background: `rgb(${r}, ${g}, ${b})` },
        });
      }),
    );
    for (const f of made) {
      const c = Object.fromEntries(EVENTS.map((t) => [t, 0])) as Counts;
      for (const t of EVENTS) f.addEventListener(t, () => c[t]++);
      flocks.push(f);
      counts.push(c);
    }
  }, 120_000);

  afterAll(() => {
    for (const f of flocks) f.dispose();
    for (const b of boxes) b.remove();
    track.restore();
  });

  test('they run with no context loss or fallback, on 2 contexts, each canvas showing its own flock', async () => {
    // Running: every flock steps and draws each frame for a while. Their starts link programs
    // without waiting (ProgramCache.warm), so SwiftShader compiles each program at its first
    // draw in the loop: twenty flocks may take more than 3 s before each has stepped.
    await sleep(3000);
    await until(() => flocks.every((f) => f.time > 0), 30_000);
    for (const f of flocks) f.stop();
    const total = Object.fromEntries(EVENTS.map((t) => [t, counts.reduce((n, c) => n + c[t], 0)]));
    expect(total).toEqual({ contextlost: 0, contextrestored: 0, fallback: 0, error: 0 });
    expect(flocks.map((f) => f.backend)).toEqual(flocks.map((_, i) => rung(i)));
    // The first flock to start draws with its canvas's own context, the others with the shared
    // one (the flocks start concurrently: any of them may be first).
    expect(track.liveGL()).toBe(2);
    const byGL = new Map<WebGL2RenderingContext, number>();
    for (const f of flocks) byGL.set(glOf(f), (byGL.get(glOf(f)) ?? 0) + 1);
    expect([...byGL.values()].sort((a, b) => a - b)).toEqual([1, N - 1]);
    const own = flocks.findIndex((f) => byGL.get(glOf(f)) === 1);
    expect(flocks[own]!.canvas.getContext('webgl2')).toBe(glOf(flocks[own]!));
    direct = own;
    flocks.forEach(expectOwnPicture);
    // The flocks moved: each stepped while running.
    for (const f of flocks) expect(f.time).toBeGreaterThan(0);
  }, 60_000);

  test('a loss of the shared context: every flock on it recovers with no rollback; the first is untouched', async () => {
    const shared = flocks.filter((_, i) => i !== direct);
    // Explicit steps right before the loss: the recovery must keep them (the journal replays).
    await Promise.all(shared.map((f) => f.step(7)));
    const before: FlockState[] = await Promise.all(shared.map((f) => f.readState()));
    const times = shared.map((f) => f.time);
    const ext = glOf(shared[0]!).getExtension('WEBGL_lose_context')!;
    const lost = Promise.all(shared.map((f) => once(f, 'contextlost', 30_000)));
    ext.loseContext();
    await lost;
    await sleep(100);
    const back = Promise.all(shared.map((f) => once<CustomEvent>(f, 'contextrestored', 60_000)));
    ext.restoreContext();
    const events = await back;
    for (const ev of events) expect(ev.detail.lostSteps).toBe(0);
    expect(counts[direct]!.contextlost).toBe(0);
    expect(counts.every((c) => c.fallback + c.error === 0)).toBe(true);
    const after = await Promise.all(shared.map((f) => f.readState()));
    shared.forEach((f, k) => {
      expect(f.backend).toBe(rung(flocks.indexOf(f)));
      expect(f.time).toBeCloseTo(times[k]!, 9);
      expect(after[k]!.count).toBe(before[k]!.count);
      expect(maxDiff(after[k]!.positions, before[k]!.positions)).toBeLessThan(1e-4);
      expect(maxDiff(after[k]!.velocities, before[k]!.velocities)).toBeLessThan(1e-4);
    });
    // Still 2 contexts, and each canvas still shows its own flock.
    expect(track.liveGL()).toBe(2);
    flocks.forEach(expectOwnPicture);
    await Promise.all(flocks.map((f) => f.step(2)));
  }, 120_000);

  test('disposing every flock leaves no live context', async () => {
    for (const f of flocks.splice(0)) f.dispose();
    await sleep(100);
    expect(track.liveGL()).toBe(0);
  });
});
