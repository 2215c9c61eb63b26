// Issue 11 items 2, 6 (through a flock), 7, 8, 9 and issue 10 item 4: what a careless or hostile
// embedder does to a page with flocks on it.
import { afterEach, describe, expect, test } from 'vitest';
import { createFlock, FlockError, type Flock } from '../../src/index';
import type { Backend } from '../../src/backend';
import type { BoidRenderer } from '../../src/webgpu/renderer';
import { addCanvas, boxMaker, flockMaker, once, sleep } from '../support/browser';
import { parityParams } from '../support/compare';

const nodes: Element[] = [];
afterEach(() => {
  for (const n of nodes.splice(0)) n.remove();
});
const box = boxMaker();
// Registered after, so (hooks run as a stack) flocks are disposed before their nodes go.
const make = flockMaker();

const backendOf = (f: Flock) => (f as unknown as { _backend: Backend | null })._backend;
const frame = () => new Promise((r) => requestAnimationFrame(r));

async function rejection(p: Promise<unknown>): Promise<FlockError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(FlockError);
  return e as FlockError;
}

/** The canvas's pixels as a 2D canvas sees them (what the page shows). */
function pixels(c: HTMLCanvasElement): Uint8ClampedArray {
  const out = document.createElement('canvas');
  out.width = c.width;
  out.height = c.height;
  const ctx = out.getContext('2d')!;
  ctx.drawImage(c, 0, 0);
  return ctx.getImageData(0, 0, out.width, out.height).data;
}

describe('contexts released on dispose (item 2, issue 10 item 4)', () => {
  test('24 webgl2 create/dispose cycles beside a live flock: the live one keeps its context', async () => {
    const live = await make(box(120, 90), { backend: 'webgl2', params: { count: 500 } });
    let liveLost = 0;
    live.addEventListener('contextlost', () => liveLost++);
    const liveGl = live.canvas.getContext('webgl2')!;
    for (let k = 0; k < 24; k++) {
      const div = box(40, 30);
      const f = await createFlock(div, {
        backend: k % 3 === 2 ? 'webgl2-tf' : 'webgl2',
        params: { count: 200 + k },
      });
      // Beside a live WebGL2 flock, this one draws with the page's shared context (issue 21).
      const gl = (backendOf(f) as unknown as { gl: WebGL2RenderingContext }).gl;
      expect(gl).not.toBe(liveGl);
      await f.step(1);
      f.dispose();
      // The context is given back at once: the shared one when its last flock goes, like the
      // context of a canvas the flock made.
      expect(gl.isContextLost()).toBe(true);
      div.remove();
    }
    await sleep(200);
    expect(liveLost).toBe(0);
    expect(liveGl.isContextLost()).toBe(false);
    await live.step(2);
    expect((await live.readState()).count).toBe(500);
  });

  test("a caller's canvas keeps its context after dispose (another flock may use it)", async () => {
    const c = addCanvas(64, 48);
    nodes.push(c);
    const f = await createFlock(c, { backend: 'webgl2', params: { count: 100 }, autoStart: false });
    const gl = c.getContext('webgl2')!;
    f.dispose();
    expect(gl.isContextLost()).toBe(false);
    const g = await make(c, { backend: 'webgl2', params: { count: 120 }, autoStart: false });
    expect((await g.readState()).count).toBe(120);
  });

  test('webgpu flocks on one page share one device and its render pipelines; the last dispose destroys it', async () => {
    const a = await make(box(64, 48), { backend: 'webgpu', params: { count: 700 } });
    const b = await make(box(64, 48), { backend: 'webgpu', params: { count: 900 } });
    type WithRenderer = { device: GPUDevice; renderer: BoidRenderer };
    const ba = backendOf(a) as unknown as WithRenderer;
    const bb = backendOf(b) as unknown as WithRenderer;
    const da = ba.device;
    const db = bb.device;
    expect(db).toBe(da);
    // The second flock compiled no render pipeline: the first one's are the very same objects.
    expect(bb.renderer.pipelines.instanced).toBe(ba.renderer.pipelines.instanced);
    expect(bb.renderer.pipelines.vertexId).toBe(ba.renderer.pipelines.vertexId);
    expect(ba.renderer.pipelines.vertexId).not.toBeNull(); // SwiftShader reads storage in vertex
    await a.step(2);
    await b.step(3);
    a.dispose();
    // Still usable by the other flock.
    expect((await b.readState()).count).toBe(900);
    b.dispose();
    const info = await da.lost;
    expect(info.reason).toBe('destroyed');
    // A flock after that gets a fresh device and pipelines made on it.
    const c = await make(box(64, 48), { backend: 'webgpu', params: { count: 500 } });
    const bc = backendOf(c) as unknown as WithRenderer;
    expect(bc.device).not.toBe(da);
    expect(bc.renderer.pipelines.instanced).not.toBe(ba.renderer.pipelines.instanced);
    await c.step(1);
    expect((await c.readState()).count).toBe(500);
  });

  test.each(['webgl2', 'webgpu'] as const)(
    '%s: a flock with no target (its canvas not in the page) does not run its loop until started',
    async (backend) => {
      const f = await make(undefined, { backend, params: { count: 300 } });
      expect(f.canvas.isConnected).toBe(false);
      expect(f.running).toBe(false);
      const a = await f.readState();
      await sleep(300);
      expect((await f.readState()).positions).toEqual(a.positions);
      f.start();
      expect(f.running).toBe(true);
    },
  );

  test.each(['webgpu', 'webgl2'] as const)(
    '%s: while the flock starts (pipelines compiling), its canvas already shows the view background',
    async (backend) => {
      const div = box(80, 60);
      const made = make(div, {
        backend,
        params: { count: 301 },
        view: { background: '#ff8800' },
        autoStart: false,
      });
      // createFlock has put its canvas in the container before its first await.
      const canvas = div.querySelector('canvas')!;
      expect(canvas).not.toBeNull();
      expect(getComputedStyle(canvas).backgroundColor).toBe('rgb(255, 136, 0)');
      const f = await made;
      expect(f.canvas).toBe(canvas);
      await frame();
      expect(Array.from(pixels(f.canvas).subarray(0, 4))).toEqual([255, 136, 0, 255]);
    },
  );

  test.each(['webgl2', 'webgpu', 'cpu'] as const)(
    '%s: before the loop runs, the canvas shows the background colour, not garbage',
    async (backend) => {
      const f = await make(box(80, 60), {
        backend,
        params: parityParams({ count: 300 }),
        autoStart: false,
      });
      await frame();
      const px = pixels(f.canvas);
      // The top-left corner is background (the box is drawn in the middle): dark blue, opaque.
      const [r, g, b, a] = Array.from(px.subarray(0, 4));
      expect(a).toBe(255);
      for (const [got, want] of [
        [r, 5],
        [g, 8],
        [b, 15],
      ] as const)
        expect(Math.abs(got! - want)).toBeLessThanOrEqual(2);
    },
  );
});

describe('canvas size (item 7)', () => {
  test('a container wider than the device limit keeps webgpu: the drawing buffer is clamped', async () => {
    const div = box(9000, 24);
    const f = await make(div, { params: { count: 400 }, autoStart: true });
    expect(f.backend).toBe('webgpu');
    let fell = false;
    f.addEventListener('fallback', () => (fell = true));
    for (let k = 0; k < 5; k++) await frame();
    await sleep(300);
    expect(fell).toBe(false);
    expect(f.backend).toBe('webgpu');
    const limit = (backendOf(f) as unknown as { device: GPUDevice }).device.limits
      .maxTextureDimension2D;
    expect(f.canvas.width).toBeLessThanOrEqual(limit);
    expect(f.canvas.width).toBeGreaterThan(limit / 2);
    expect(f.canvas.clientWidth).toBe(9000);
    expect(f.stats.notes.join(' ')).toMatch(/clamped/);
  });

  test('a WebGPU validation error is reported, not taken for a device loss', async () => {
    const f = await make(box(64, 48), { backend: 'webgpu', params: { count: 400 } });
    const errors: unknown[] = [];
    f.addEventListener('error', (e) => errors.push((e as CustomEvent).detail.error));
    let fell = false;
    f.addEventListener('fallback', () => (fell = true));
    const device = (backendOf(f) as unknown as { device: GPUDevice }).device;
    device.createBuffer({ size: 4, usage: 0 }); // invalid: no usage
    await sleep(500);
    expect(fell).toBe(false);
    expect(f.backend).toBe('webgpu');
    expect((await f.readState()).count).toBe(400);
    expect(errors.length).toBeGreaterThanOrEqual(1);
  });
});

describe("the caller's canvases (item 8)", () => {
  test('a second webgpu flock on the same canvas is a FlockError on target; the first runs on', async () => {
    const c = addCanvas(64, 48);
    nodes.push(c);
    const f = await make(c, { backend: 'webgpu', params: { count: 300 } });
    const errors: unknown[] = [];
    f.addEventListener('error', (e) => errors.push(e));
    const err = await rejection(createFlock(c, { backend: 'webgpu', params: { count: 300 } }));
    expect(err.field).toBe('target');
    expect(c.isConnected).toBe(true);
    expect(f.canvas).toBe(c);
    await sleep(300);
    expect(errors).toEqual([]);
    expect(f.backend).toBe('webgpu');
  });

  test('auto on a canvas holding a 2d context is a FlockError on target; the canvas stays', async () => {
    const c = addCanvas(64, 48);
    nodes.push(c);
    c.getContext('2d')!.fillRect(0, 0, 4, 4);
    const parent = c.parentElement;
    const err = await rejection(createFlock(c, { params: { count: 300 } }));
    expect(err.field).toBe('target');
    expect(c.parentElement).toBe(parent);
    expect(c.getContext('2d')).not.toBeNull();
  });

  test("a fallback never removes the caller's canvas; opting in draws into a sibling", async () => {
    for (const fallbackCanvas of ['detached', 'sibling'] as const) {
      const div = box(100, 80);
      const c = document.createElement('canvas');
      div.appendChild(c);
      const f = await make(c, { params: { count: 300 }, autoStart: false, fallbackCanvas });
      expect(f.backend).toBe('webgpu');
      const fell = once(f, 'fallback', 60_000);
      (backendOf(f) as unknown as { device: GPUDevice }).device.destroy();
      await fell;
      expect(f.backend).toBe('webgl2');
      expect(c.parentElement).toBe(div);
      expect(f.canvas).not.toBe(c);
      if (fallbackCanvas === 'sibling') expect(f.canvas.parentElement).toBe(div);
      else expect(f.canvas.isConnected).toBe(false);
      f.dispose();
      expect(c.parentElement).toBe(div);
      expect(div.querySelectorAll('canvas')).toHaveLength(1);
    }
  });
});

describe('no events after dispose; the camera (item 9)', () => {
  test.each(['cpu', 'webgl2', 'webgl2-tf', 'webgpu'] as const)(
    '%s: disposing while a timing read is in flight fires nothing',
    async (backend) => {
      let events = 0;
      for (const frames of [1, 2, 4]) {
        const f = await createFlock(box(64, 48), {
          backend,
          params: { count: 500 },
          disable: ['EXT_disjoint_timer_query_webgl2', 'timestamp-query'],
        });
        for (const t of ['error', 'fallback', 'contextlost']) f.addEventListener(t, () => events++);
        // Wait until the loop's CPU-clock timing read is in flight, then a few frames more.
        const busy = () => (f as unknown as { _timingBusy: boolean })._timingBusy;
        for (let k = 0; k < 200 && !busy(); k++) await frame();
        expect(busy()).toBe(true);
        for (let k = 1; k < frames; k++) await frame();
        f.dispose();
      }
      await sleep(500);
      expect(events).toBe(0);
    },
  );

  test('a bad camera is a FlockError at assignment and the flock keeps drawing', async () => {
    const f = await make(box(64, 48), { backend: 'webgl2', params: { count: 300 } });
    const errors: unknown[] = [];
    f.addEventListener('error', (e) => errors.push(e));
    const good = f.camera;
    for (const bad of [
      null,
      undefined,
      5,
      {},
      { ...good, distance: NaN },
      { ...good, target: [0, 0] },
    ]) {
      let err: unknown = null;
      try {
        f.camera = bad as never;
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(bad)).toBeInstanceOf(FlockError);
      expect((err as FlockError).field).toMatch(/^camera/);
    }
    expect(f.camera).toEqual(good);
    f.camera = { ...good, yaw: good.yaw + 0.5 };
    expect(f.camera.yaw).toBeCloseTo(good.yaw + 0.5);
    for (let k = 0; k < 5; k++) await frame();
    expect(errors).toEqual([]);
  });
});
