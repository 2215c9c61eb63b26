// View options drawn on every backend (webgpu, webgl2, webgl2-tf, cpu) through createFlock, read
// back from the canvas right after flock.render() (same task, so WebGL's drawing buffer is still
// there): a transparent background reads alpha 0 where no boid is, a given background reads that
// colour, obstacles colour the pixels where they are, predators and the attractor's marker show,
// the box outline lies on the box's edges, cover fills a wide canvas where contain leaves bars,
// and bad view values are FlockErrors that keep the view. One flock per backend, ~2,000 boids, 2D
// (the camera looks straight down z, so positions map to pixels by hand: see `px`).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFlock, FlockError, type Flock } from '../../src/index';
import { SCENE_COLORS } from '../../src/core/render-draw';
import { at, grab, HALF_VIEW, px, SIZE, squareCanvas, type Grab } from '../support/still-frame';

const near = (a: number[], b: readonly number[], tol: number) =>
  b.every((v, k) => Math.abs(a[k]! - v) <= tol);
const to255 = (c: readonly number[]) => c.map((x) => Math.round(x * 255));

/** Fraction of the pixels of a disc (centre, radius in pixels) for which `pred` holds. */
function discFraction(g: Grab, cx: number, cy: number, r: number, pred: (p: number[]) => boolean) {
  let n = 0;
  let hit = 0;
  for (let y = Math.floor(cy - r); y <= cy + r; y++) {
    for (let x = Math.floor(cx - r); x <= cx + r; x++) {
      if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 > r * r) continue;
      n++;
      if (pred(at(g, x, y))) hit++;
    }
  }
  return hit / n;
}

/** Pixels over the whole canvas for which `pred` holds. */
function countWhere(g: Grab, pred: (p: number[]) => boolean, x0 = 0, x1 = g.w): number {
  let n = 0;
  for (let y = 0; y < g.h; y++) for (let x = x0; x < x1; x++) if (pred(at(g, x, y))) n++;
  return n;
}

const BG = [5, 8, 15];
const isBg = (p: number[]) => near(p, BG, 2);

const BACKENDS = ['webgl2', 'webgl2-tf', 'cpu', 'webgpu'] as const;

describe.each(BACKENDS)('%s: view options', (backend) => {
  let flock: Flock;
  let canvas: HTMLCanvasElement;
  beforeAll(async () => {
    canvas = squareCanvas();
    flock = await createFlock(canvas, {
      backend,
      // The uniform start: the cases count pixels over a spread flock. The default groups start
      // (c6efca8) puts 90 of the 2,003 boids over the obstacle's disc where uniform puts 46, and
      // leaves no boid with |N_i| <= 1 after 2 steps (43 with uniform; the density case asks > 30).
      params: { count: 2003, dimensions: 2, seed: 11, start: 'uniform' },
      view: { colorMode: 'uniform', color: '#00ff00' },
      disable: backend === 'webgl2-tf' ? ['EXT_color_buffer_float'] : [],
      autoStart: false,
    });
    expect(flock.backend).toBe(backend);
  });
  afterAll(() => {
    flock?.dispose();
    canvas?.remove();
  });

  test('the canvas has the background as its CSS background before the first frame', () => {
    expect(canvas.style.backgroundColor).toBe('rgb(5, 8, 15)');
  });

  test('a given background reads back as that colour; uniform boids are the colour times a shade', () => {
    flock.setView({ background: '#336699' });
    const g = grab(flock);
    expect(at(g, 1, 1)).toEqual([0x33, 0x66, 0x99, 255]);
    expect(at(g, SIZE - 2, SIZE - 2)).toEqual([0x33, 0x66, 0x99, 255]);
    // Boid pixels: pure green times a mesh shade (1, 0.8, 0.7, 0.6), never red or blue.
    const green = countWhere(g, (p) => p[1]! > 120 && p[0]! < 12 && p[2]! < 12);
    expect(green).toBeGreaterThan(0.01 * SIZE * SIZE);
    flock.setView({ background: '#05080f' });
  });

  test('transparent: alpha 0 where no boid is, opaque where boids are', () => {
    flock.setView({ background: 'transparent' });
    const g = grab(flock);
    expect(at(g, 1, 1)).toEqual([0, 0, 0, 0]);
    const clear = countWhere(g, (p) => p[3] === 0);
    const opaque = countWhere(g, (p) => p[3] === 255 && p[1]! > 120);
    expect(clear).toBeGreaterThan(0.5 * SIZE * SIZE);
    expect(opaque).toBeGreaterThan(0.01 * SIZE * SIZE);
    // Translucent: rgba(255, 0, 0, 0.5) over nothing reads back as itself (unpremultiplied).
    flock.setView({ background: 'rgba(255, 0, 0, 0.5)' });
    const t = grab(flock);
    const c = at(t, 1, 1);
    expect(near(c, [255, 0, 0, 128], 2)).toBe(true);
    // The CSS background is gone after the frame (it would double the translucent one).
    expect(canvas.style.backgroundColor).toBe('');
    flock.setView({ background: '#05080f' });
  });

  test('an obstacle colours the pixels where it is; hidden, it does not', () => {
    flock.setParams({ obstacles: [{ center: [12, -8, 0], radius: 9 }] });
    const cx = px(12);
    const cy = px(8); // world y -8 is below the centre: screen rows grow downward
    const r = ((SIZE / 2) * 9) / HALF_VIEW;
    const obstacle = to255(SCENE_COLORS.obstacle.map((x) => x * 0.8));
    const isObstacle = (p: number[]) => near(p, obstacle, 3);
    const shown = grab(flock);
    expect(discFraction(shown, cx, cy, 0.7 * r, isObstacle)).toBeGreaterThan(0.75);
    // Outside its radius the obstacle is not drawn.
    expect(discFraction(shown, px(-12), px(-8), 0.7 * r, isObstacle)).toBe(0);
    flock.setView({ showObstacles: false });
    const hidden = grab(flock);
    expect(discFraction(hidden, cx, cy, 0.7 * r, isObstacle)).toBe(0);
    flock.setView({ showObstacles: true });
    flock.setParams({ obstacles: [] });
  });

  test('predators are drawn red, larger than boids', () => {
    const red = (p: number[]) => p[0]! > 120 && p[1]! < 50 && p[2]! < 50;
    expect(countWhere(grab(flock), red)).toBe(0);
    flock.setParams({ predators: 2 });
    const withPredators = countWhere(grab(flock), red);
    // Two arrowheads 4 boid lengths long (boid length 0.96 world units = 2.7 px here).
    expect(withPredators).toBeGreaterThan(10);
    flock.setView({ showPredators: false });
    expect(countWhere(grab(flock), red)).toBe(0);
    flock.setView({ showPredators: true });
    flock.setParams({ predators: 0 });
  });

  test('the attractor marker shows while attractorStrength != 0, its colour by sign', () => {
    // The marker's core is its colour at full alpha (within a pixel of its centre).
    const marker = (c: readonly number[]) => (p: number[]) => near(p, to255(c), 40);
    flock.setParams({ attractor: [-16, 16, 0], attractorStrength: 0 });
    const off = grab(flock);
    expect(discFraction(off, px(-16), px(-16), 1, marker(SCENE_COLORS.attract))).toBe(0);
    flock.setParams({ attractorStrength: 4 });
    const on = grab(flock);
    expect(discFraction(on, px(-16), px(-16), 1, marker(SCENE_COLORS.attract))).toBeGreaterThan(
      0.9,
    );
    flock.setParams({ attractorStrength: -4 });
    const repel = grab(flock);
    expect(discFraction(repel, px(-16), px(-16), 1, marker(SCENE_COLORS.repel))).toBeGreaterThan(
      0.9,
    );
    flock.setParams({ attractorStrength: 0 });
  });

  test('showBounds draws the outline on the box edges', () => {
    const edge = to255(SCENE_COLORS.bounds);
    // A 1 px line between pixel centres (or antialiased) covers two pixels partly: the outline's
    // colour mixed with the background by at least a third.
    const isEdge = (p: number[]) => {
      const t = (p[0]! - BG[0]!) / (edge[0]! - BG[0]!);
      return t >= 0.33 && edge.every((c, k) => Math.abs(p[k]! - (BG[k]! + t * (c - BG[k]!))) <= 12);
    };
    const onLeftWall = (g: Grab) => {
      // Rows of the left wall (x = -32), between its corners; 2 px either side of the column.
      let rows = 0;
      const x = px(-32);
      for (let y = Math.ceil(px(-28)); y < px(28); y++) {
        for (let dx = -2; dx <= 2; dx++) {
          if (isEdge(at(g, x + dx, y))) {
            rows++;
            break;
          }
        }
      }
      return rows / (px(28) - px(-28));
    };
    expect(onLeftWall(grab(flock))).toBeLessThan(0.1);
    flock.setView({ showBounds: true });
    expect(onLeftWall(grab(flock))).toBeGreaterThan(0.9);
    flock.setView({ showBounds: false });
  });

  test('cover fills a wide canvas edge to edge; contain leaves bars at the sides', async () => {
    canvas.style.width = `${2 * SIZE}px`;
    const lit = (g: Grab, x0: number, x1: number) => countWhere(g, (p) => !isBg(p), x0, x1);
    const contain = grab(flock);
    expect(contain.w).toBe(2 * SIZE);
    // Contain: the box (height 0.91 of the canvas) is centred; the outer 20% columns are empty.
    expect(lit(contain, 0, 0.2 * SIZE)).toBe(0);
    expect(lit(contain, 1.8 * SIZE, 2 * SIZE)).toBe(0);
    flock.setView({ fit: 'cover' });
    const cover = grab(flock);
    // Cover: the box spans the whole width, so boids reach the outermost columns.
    expect(lit(cover, 0, 0.2 * SIZE)).toBeGreaterThan(200);
    expect(lit(cover, 1.8 * SIZE, 2 * SIZE)).toBeGreaterThan(200);
    flock.setView({ fit: 'contain' });
    canvas.style.width = `${SIZE}px`;
  });

  // The GPU rungs store |N_i| once the behaviours land on them (the renderers already read it).
  test.runIf(backend === 'cpu')(
    'density: |N_i| through the colour map (lonely boids dark purple, crowded ones yellow)',
    async () => {
      await flock.step(2);
      // The state after the steps (the cpu worker draws the newest state it has answered).
      const state = await flock.readState();
      flock.setView({ colorMode: 'density', colorMap: 'viridis', densityMax: 4 });
      const g = grab(flock);
      // viridis' ends #440154 and #fde725, times the mesh shades (0.6 .. 1).
      const top = countWhere(g, (p) => p[0]! > 140 && p[1]! > 125 && p[2]! < 60);
      // The lower quarter of the map (|N_i| <= 1): #440154 .. #3b528b, purple to blue.
      const bottom = countWhere(
        g,
        (p) => p[2]! > 40 && p[0]! > 25 && p[0]! < 75 && p[1]! < 0.7 * p[2]!,
      );
      let lonely = 0;
      let crowded = 0;
      for (let i = 0; i < state.count; i++) {
        const n = state.velocities[4 * i + 3]!;
        if (n <= 1) lonely++;
        if (n >= 4) crowded++;
      }
      expect(lonely).toBeGreaterThan(30);
      expect(crowded).toBeGreaterThan(200);
      expect(top).toBeGreaterThan(100);
      expect(bottom).toBeGreaterThan(10);
      flock.setView({ colorMode: 'uniform', densityMax: 0 });
    },
  );

  test('bad view values are FlockErrors naming the field; the view stays', () => {
    const before = flock.view;
    for (const [partial, field] of [
      [{ colorMode: 'rainbow' }, 'colorMode'],
      [{ background: 'no-such-colour' }, 'background'],
      [{ fit: 'cover', boidSize: -1 }, 'boidSize'],
      [{ showBounds: 'yes' }, 'showBounds'],
      [{ bogus: 1 }, 'bogus'],
    ] as const) {
      let err: unknown;
      try {
        flock.setView(partial as never);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FlockError);
      expect((err as FlockError).field).toBe(field);
      expect(flock.view).toEqual(before);
    }
    // And the picture is the one of the kept view.
    expect(at(grab(flock), 1, 1)).toEqual([5, 8, 15, 255]);
  });
});

describe('flock.pointer (webgl2, 3D)', () => {
  test('the attractor under the pointer on the plane through the box centre; sign by mode', async () => {
    const canvas = document.createElement('canvas');
    canvas.style.cssText = 'width: 300px; height: 200px; display: block';
    document.body.append(canvas);
    const flock = await createFlock(canvas, {
      backend: 'webgl2',
      params: { count: 1001, boundsMin: [0, 0, 0], boundsMax: [40, 20, 40] },
      autoStart: false,
    });
    try {
      flock.render();
      const r = canvas.getBoundingClientRect();
      // The camera looks at the box centre: the canvas centre is the box centre.
      flock.pointer(r.left + r.width / 2, r.top + r.height / 2, 'attract');
      let p = flock.params;
      [20, 10, 20].forEach((c, a) => expect(p.attractor[a]).toBeCloseTo(c, 3));
      expect(p.attractorStrength).toBe(8);
      // Elsewhere the point stays on the plane through the centre, normal to the view direction.
      flock.pointer(r.left + 0.8 * r.width, r.top + 0.3 * r.height, 'repel');
      p = flock.params;
      expect(p.attractorStrength).toBe(-8);
      const cam = flock.camera;
      const eye = [
        cam.target[0] + cam.distance * Math.cos(cam.pitch) * Math.sin(cam.yaw),
        cam.target[1] + cam.distance * Math.sin(cam.pitch),
        cam.target[2] + cam.distance * Math.cos(cam.pitch) * Math.cos(cam.yaw),
      ];
      const n = [0, 1, 2].map((a) => cam.target[a]! - eye[a]!);
      const off = [0, 1, 2].map((a) => p.attractor[a]! - [20, 10, 20][a]!);
      const dot = off.reduce((s, x, a) => s + x * n[a]!, 0);
      expect(Math.abs(dot) / Math.hypot(...n)).toBeLessThan(1e-3);
      expect(Math.hypot(...off)).toBeGreaterThan(5);
      // The user's magnitude is kept; 'off' sets 0 and remembers it.
      flock.setParams({ attractorStrength: 3 });
      flock.pointer(r.left + 10, r.top + 10, 'off');
      expect(flock.params.attractorStrength).toBe(0);
      flock.pointer(r.left + 10, r.top + 10, 'repel');
      expect(flock.params.attractorStrength).toBe(-3);
      const before = flock.params;
      for (const bad of [
        () => flock.pointer(0, 0, 'push' as never),
        () => flock.pointer(Number.NaN, 0, 'attract'),
      ]) {
        expect(bad).toThrow(FlockError);
        expect(flock.params).toEqual(before);
      }
    } finally {
      flock.dispose();
      canvas.remove();
    }
  });
});
