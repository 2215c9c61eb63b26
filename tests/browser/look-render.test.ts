// The look (DESIGN section 7) on every rung (webgpu, webgl2, webgl2-tf with EXT_color_buffer_float
// hidden, cpu), read back from still frames: each shape draws ~2,000 boids in 3D (not blank, and
// not the same picture as another shape); one boid placed by setState flying along +x, seen from
// above (2D), has its shape's silhouette (a bird's wings on both sides of the body axis, a fish's
// tail behind a narrow body, a round dot); a trail keeps pixels where a boid was (with smooth,
// multisampled edges where antialias is on); fog makes a far boid closer to the background than a
// near one; a palette's background reads back as its colour.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFlock, type Flock } from '../../src/index';
import { palette } from '../../src/core/palette';
import { cameraEye, defaultCamera } from '../../src/core/render-math';
import type { FlockState } from '../../src/core/state';
import { once, sleep } from '../support/browser';
import { at, grab, HALF_VIEW, px, SIZE, squareCanvas, type Grab } from '../support/still-frame';

/** The single boid's length: 14 world units, about 38 px. */
const LENGTH = 14;
const LENGTH_PX = (LENGTH / HALF_VIEW) * (SIZE / 2);

/** Drawn: differs from the black background by more than a faint edge. */
const drawn = (p: number[]) => p[0]! + p[1]! + p[2]! > 60;

/** The drawn pixels as (x, y) lists. */
function drawnPixels(g: Grab): [number, number][] {
  const out: [number, number][] = [];
  for (let y = 0; y < g.h; y++)
    for (let x = 0; x < g.w; x++) if (drawn(at(g, x, y))) out.push([x, y]);
  return out;
}

function oneBoid(x: number, y: number, z: number, v: [number, number, number]): FlockState {
  return {
    count: 1,
    positions: new Float32Array([x, y, z, 0]),
    velocities: new Float32Array([...v, 0]),
  };
}

const BACKENDS = ['webgpu', 'webgl2', 'webgl2-tf', 'cpu'] as const;
const SHAPES = ['bird', 'fish', 'arrow', 'dot'] as const;

describe.each(BACKENDS)('%s: the look', (backend) => {
  let canvas: HTMLCanvasElement;
  let flock: Flock;
  const make = (dimensions: 2 | 3, count: number) => {
    // A CSS background left by the last flock on this canvas would count as the page's own.
    canvas.style.backgroundColor = '';
    return createFlock(canvas, {
      backend,
      params: { count, dimensions, seed: 5 },
      view: { colorMode: 'uniform', color: '#ffffff', background: '#000000' },
      disable: backend === 'webgl2-tf' ? ['EXT_color_buffer_float'] : [],
      autoStart: false,
    });
  };
  beforeAll(() => {
    canvas = squareCanvas();
  });
  afterAll(() => {
    flock?.dispose();
    canvas?.remove();
  });

  test('each shape draws 2,003 boids in 3D, each its own picture', async () => {
    flock = await make(3, 2003);
    expect(flock.backend).toBe(backend);
    const counts: number[] = [];
    const pictures: Grab[] = [];
    for (const shape of SHAPES) {
      flock.setView({ shape, lodPixels: 0 });
      const g = grab(flock);
      counts.push(drawnPixels(g).length);
      pictures.push(g);
    }
    for (const n of counts) {
      expect(n).toBeGreaterThan(0.02 * SIZE * SIZE);
      expect(n).toBeLessThan(0.9 * SIZE * SIZE);
    }
    for (let a = 0; a < SHAPES.length; a++) {
      for (let b = a + 1; b < SHAPES.length; b++) {
        let diff = 0;
        for (let i = 0; i < pictures[a]!.data.length; i += 4)
          if (pictures[a]!.data[i] !== pictures[b]!.data[i]) diff++;
        expect(diff, `${SHAPES[a]} vs ${SHAPES[b]}`).toBeGreaterThan(0.005 * SIZE * SIZE);
      }
    }
    flock.dispose();
  });

  describe('one boid along +x, seen from above (2D)', () => {
    beforeAll(async () => {
      flock = await make(2, 1);
      await flock.setState(oneBoid(0, 0, 0, [4, 0, 0]));
      flock.setView({ boidSize: LENGTH, flap: 0, lighting: 0, lodPixels: 0 });
    });

    /** Extents of the drawn pixels: along the body (x) and across it (rows above/below y). */
    function silhouette(shape: (typeof SHAPES)[number]) {
      flock.setView({ shape });
      const pts = drawnPixels(grab(flock));
      const cx = px(0);
      const cy = SIZE - px(0);
      const xs = pts.map((p) => p[0] + 0.5 - cx);
      const ys = pts.map((p) => p[1] + 0.5 - cy);
      return {
        n: pts.length,
        minX: Math.min(...xs),
        maxX: Math.max(...xs),
        above: Math.max(...ys.map((y) => -y)),
        below: Math.max(...ys),
        pts: pts.map((p, k) => [xs[k]!, ys[k]!] as const),
      };
    }

    test('bird: wings reach far on both sides of the body axis, the body nose to tail', () => {
      const s = silhouette('bird');
      // Span 1.6 lengths: each wing tip 0.8 L from the axis; the body 1 L long.
      expect(s.above).toBeGreaterThan(0.65 * LENGTH_PX);
      expect(s.below).toBeGreaterThan(0.65 * LENGTH_PX);
      expect(s.maxX).toBeGreaterThan(0.4 * LENGTH_PX);
      expect(s.minX).toBeLessThan(-0.4 * LENGTH_PX);
      // Swept wings: the tips lie behind the centre.
      const tips = s.pts.filter(([, y]) => Math.abs(y) > 0.6 * LENGTH_PX);
      expect(tips.length).toBeGreaterThan(0);
      for (const [x] of tips) expect(x).toBeLessThan(0);
    });

    test('fish: a narrow body and a tail fin behind it', () => {
      const s = silhouette('fish');
      expect(s.above).toBeLessThan(0.25 * LENGTH_PX);
      expect(s.below).toBeLessThan(0.25 * LENGTH_PX);
      expect(s.maxX).toBeGreaterThan(0.4 * LENGTH_PX);
      // The tail: pixels past the body's tail root (x < -0.3 L) spread across the axis.
      const tail = s.pts.filter(([x]) => x < -0.32 * LENGTH_PX);
      expect(tail.length).toBeGreaterThan(10);
      expect(Math.max(...tail.map(([, y]) => Math.abs(y)))).toBeGreaterThan(0.08 * LENGTH_PX);
    });

    test('arrow: longer along the flight than across it', () => {
      const s = silhouette('arrow');
      expect(s.maxX - s.minX).toBeGreaterThan(1.5 * (s.above + s.below));
    });

    test('dot: round (as wide as tall, its bounding box corners empty)', () => {
      const s = silhouette('dot');
      const wide = s.maxX - s.minX;
      const tall = s.above + s.below;
      expect(Math.abs(wide - tall)).toBeLessThanOrEqual(2);
      // Radius 0.3 L: a disc of about pi r^2 pixels, not a square of 4 r^2.
      const r = 0.3 * LENGTH_PX;
      expect(s.n).toBeGreaterThan(0.8 * Math.PI * r * r);
      expect(s.n).toBeLessThan(1.15 * Math.PI * r * r);
    });

    test('lodPixels: a boid shorter on screen than lodPixels is a small dot', () => {
      flock.setView({ shape: 'bird', lodPixels: 64 });
      const s = silhouette('bird');
      flock.setView({ lodPixels: 0 });
      // LOD_DOT: radius 0.25 of the projected length, round.
      const r = 0.25 * LENGTH_PX;
      expect(s.n).toBeLessThan(1.2 * Math.PI * r * r);
      expect(s.above).toBeLessThan(r + 2);
    });

    test('trail: pixels persist where the boid was; without a trail they do not', async () => {
      flock.setView({ shape: 'dot', trail: 0.9 });
      grab(flock);
      await flock.setState(oneBoid(20, 0, 0, [4, 0, 0]));
      const g = grab(flock);
      const old = at(g, px(0), SIZE - px(0));
      expect(drawn(old)).toBe(true);
      // Faded by 0.9 (less one 8-bit step): dimmer than the boid now drawn.
      expect(old[0]!).toBeLessThan(at(g, px(20), SIZE - px(0))[0]!);
      flock.setView({ trail: 0 });
      await flock.setState(oneBoid(0, 0, 0, [4, 0, 0]));
      grab(flock);
      await flock.setState(oneBoid(20, 0, 0, [4, 0, 0]));
      expect(drawn(at(grab(flock), px(0), SIZE - px(0)))).toBe(false);
      await flock.setState(oneBoid(0, 0, 0, [4, 0, 0]));
    });

    test('trail with antialias: smooth edges (partly covered pixels) while the trail persists, after a resize and a lost context too; antialias off: none', async () => {
      /** Pixels around the boid now drawn at x = 20, between background and boid: edge coverage. */
      const partial = (g: Grab) => {
        let n = 0;
        for (let y = SIZE - px(0) - 0.6 * LENGTH_PX; y < SIZE - px(0) + 0.6 * LENGTH_PX; y++)
          for (let x = px(20) - 0.6 * LENGTH_PX; x < px(20) + 0.6 * LENGTH_PX; x++) {
            const v = at(g, x, y)[0]!;
            if (v > 40 && v < 215) n++;
          }
        return n;
      };
      const trailFrame = async (antialias: boolean) => {
        flock.setView({ shape: 'arrow', trail: 0.9, antialias });
        await flock.setState(oneBoid(0, 0, 0, [4, 0, 0]));
        grab(flock);
        await flock.setState(oneBoid(20, 0, 0, [4, 0, 0]));
        return grab(flock);
      };
      const smooth = await trailFrame(true);
      // The trail: the boid's last place still drawn (faded).
      expect(drawn(at(smooth, px(0), SIZE - px(0)))).toBe(true);
      // An arrow ~38 px long has slanted edges: dozens of partly covered pixels with 4x samples.
      expect(partial(smooth)).toBeGreaterThan(15);
      const hard = await trailFrame(false);
      expect(drawn(at(hard, px(0), SIZE - px(0)))).toBe(true);
      // Canvas 2D always antialiases its paths (the cpu rung: antialias has no effect).
      if (backend !== 'cpu') expect(partial(hard)).toBe(0);
      // A resize (drawn at another size, then back) re-makes the targets: still smooth trails.
      await trailFrame(true);
      flock.canvas.style.width = `${SIZE + 40}px`;
      grab(flock);
      flock.canvas.style.width = `${SIZE}px`;
      const resized = await trailFrame(true);
      expect(drawn(at(resized, px(0), SIZE - px(0)))).toBe(true);
      expect(partial(resized)).toBeGreaterThan(15);
      if (backend === 'webgl2' || backend === 'webgl2-tf') {
        // A lost and restored context: the multisampled trail is made again on the new one.
        const gl = flock.canvas.getContext('webgl2') as WebGL2RenderingContext;
        const ext = gl.getExtension('WEBGL_lose_context')!;
        const lost = once(flock, 'contextlost');
        ext.loseContext();
        await lost;
        await sleep(100);
        const back = once(flock, 'contextrestored');
        ext.restoreContext();
        await back;
        const restored = await trailFrame(true);
        expect(drawn(at(restored, px(0), SIZE - px(0)))).toBe(true);
        expect(partial(restored)).toBeGreaterThan(15);
      }
      flock.setView({ trail: 0, antialias: true });
      await flock.setState(oneBoid(0, 0, 0, [4, 0, 0]));
    });

    test("palette: the background reads back as the palette's, the boids in its light", () => {
      // null: no background given (the '#000000' set above undone), so the palette's shows; an
      // explicit '#05080f' would win now.
      flock.setView({ palette: 'ocean', background: null, colorMode: 'speed' });
      const g = grab(flock);
      const bg = palette('ocean').background.map((c) => Math.round(c * 255));
      expect(at(g, 2, 2).slice(0, 3)).toEqual(bg.slice(0, 3));
      // An explicit background wins over the palette's.
      flock.setView({ background: '#102030' });
      expect(at(grab(flock), 2, 2).slice(0, 3)).toEqual([0x10, 0x20, 0x30]);
      flock.setView({ palette: 'default', background: '#000000', colorMode: 'uniform' });
    });
  });

  test('fog: a far boid is closer to the background than a near one', async () => {
    flock.dispose();
    flock = await make(3, 1);
    flock.setView({ shape: 'dot', lighting: 0, fog: 1, lodPixels: 0, boidSize: 3 });
    const cam = defaultCamera(flock.params);
    const eye = cameraEye(cam);
    const d = eye.map((e) => e / Math.hypot(...eye));
    const brightest = async (k: number) => {
      await flock.setState(oneBoid(28 * k * d[0]!, 28 * k * d[1]!, 28 * k * d[2]!, [4, 0, 0]));
      const g = grab(flock);
      let m = 0;
      for (let i = 0; i < g.data.length; i += 4) m = Math.max(m, g.data[i]!);
      return m;
    };
    const near = await brightest(1);
    const far = await brightest(-1);
    expect(near).toBeGreaterThan(150);
    expect(far).toBeLessThan(near - 60);
    flock.setView({ fog: 0 });
    // Without fog the far boid is as bright as the near one.
    expect(await brightest(-1)).toBeGreaterThan(200);
  });
});
