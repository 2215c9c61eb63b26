// The view schema (src/core/view.ts), CSS colours, the colour tables and boid colours, framing
// (fit) and the pointer's unprojection (src/core/render-math.ts), with hand-worked numbers.
import { readFileSync } from 'node:fs';
import { mat4 } from 'gl-matrix';
import { describe, expect, test } from 'vitest';
import { colormapsSource } from '../../scripts/gen-colormaps.mjs';
import { parseCssColor, premultiply } from '../../src/core/color';
import { FlockError } from '../../src/core/errors';
import { PARAM_SCHEMA, defaultParams, validateParams } from '../../src/core/params';
import {
  COLOR_MODE_CODE,
  colorTable,
  defaultCamera,
  fitScale,
  invert4,
  unprojectToPlane,
  viewProjection,
} from '../../src/core/render-math';
import { boidColor, speedColor, viewBasis, type ColorContext } from '../../src/core/render-draw';
import { autoDensityMax, buildScene, predatorScene, viewStatic } from '../../src/core/scene';
import { predatorPosition } from '../../src/core/behaviours';
import { VIEW_SCHEMA, defaultView, validateView, viewSpec } from '../../src/core/view';
import { viewValueFromText } from '../../src/core/codec';
import { camera } from '../support/camera';

function flockError(fn: () => unknown): FlockError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FlockError);
    return e as FlockError;
  }
  throw new Error('expected a FlockError');
}

describe('VIEW_SCHEMA', () => {
  test('every spec has the params schema shape: name, type, default, unit, doc', () => {
    for (const s of VIEW_SCHEMA) {
      expect(typeof s.name).toBe('string');
      expect(['float', 'enum', 'boolean', 'color']).toContain(s.type);
      expect(typeof s.unit).toBe('string');
      expect(s.doc.length).toBeGreaterThan(3);
      // Each default passes its own validation.
      expect(validateView({ [s.name]: s.default })[s.name]).toEqual(s.default);
      if (s.type === 'float') expect(s.min).toBeLessThanOrEqual(s.max);
    }
  });

  test('view names and parameter names never collide (one URL, one set of attributes)', () => {
    const params = new Set(PARAM_SCHEMA.map((s) => s.name as string));
    for (const s of VIEW_SCHEMA) expect(params.has(s.name)).toBe(false);
  });

  test('the defaults', () => {
    expect(defaultView()).toEqual({
      background: '#05080f',
      colorMode: 'speed',
      color: '#8fd3ff',
      colorMap: 'viridis',
      densityMax: 0,
      boidSize: 0,
      fit: 'contain',
      shape: 'auto',
      flap: 1,
      lighting: 0.7,
      fog: 0.5,
      trail: 0,
      lodPixels: 3,
      antialias: true,
      palette: 'default',
      showBounds: false,
      showObstacles: true,
      showPredators: true,
      showAttractor: true,
      showGrid: false,
      showVelocities: false,
      pickedBoid: -1,
      autoBounds: false,
      density: 0,
      warmup: 0,
      pointer: 'off',
      maxFps: 0,
      resolutionScale: 1,
    });
    expect(defaultView()).not.toBe(defaultView());
  });
});

describe('validateView', () => {
  test('merges over the base and leaves the base alone', () => {
    const base = defaultView();
    const v = validateView({ colorMode: 'heading', fit: 'cover', boidSize: 0.8 }, base);
    expect(v).toMatchObject({ colorMode: 'heading', fit: 'cover', boidSize: 0.8 });
    expect(base.colorMode).toBe('speed');
    expect(validateView({ background: ' transparent ' }).background).toBe('transparent');
  });

  test.each([
    ['colorMode', 'rainbow', /one of "speed", "species", "density", "heading", "uniform"/],
    ['fit', 'fill', /"contain", "cover"/],
    ['boidSize', -1, /0 to 1000000 \(world units\)/],
    ['boidSize', Number.NaN, /finite number/],
    ['densityMax', -1, /0 to 1000000/],
    ['showBounds', 'yes', /true or false/],
    ['showObstacles', 1, /true or false/],
    ['background', 'not-a-colour', /CSS colour/],
    ['background', 42, /CSS colour/],
    ['color', 'transparent', /opaque CSS colour/],
    ['color', 'rgba(1, 2, 3, 0.5)', /opaque CSS colour/],
    ['colorMap', 'jet', /"viridis"/],
    ['shape', 'cat', /one of "arrow", "bird", "fish", "dot"$/],
    ['shape', 2, /"bird"/],
    ['flap', -0.1, /0 to 4/],
    ['flap', 4.5, /0 to 4/],
    ['flap', Number.POSITIVE_INFINITY, /finite number/],
    ['lighting', 1.01, /0 to 1/],
    ['lighting', '0.5', /0 to 1/],
    ['fog', -1, /0 to 1/],
    ['trail', 0.99, /0 to 0.98/],
    ['trail', Number.NaN, /finite number/],
    ['lodPixels', 65, /0 to 64 \(device pixels\)/],
    ['lodPixels', -1, /0 to 64/],
    ['antialias', 'no', /true or false/],
    ['palette', 'sunset', /"default", "dusk", "ocean", "ink", "paper", "ember"/],
  ])('%s = %s is a FlockError naming the field', (field, value, allowed) => {
    const e = flockError(() => validateView({ [field]: value }));
    expect(e.field).toBe(field);
    expect(e.value).toBe(value);
    expect(e.allowed).toMatch(allowed);
  });

  test('unknown keys and non-objects', () => {
    const e = flockError(() => validateView({ colour: 'red' } as never));
    expect(e.field).toBe('colour');
    expect(e.allowed).toMatch(/colorMode/);
    expect(flockError(() => validateView(null as never)).field).toBe('view');
    expect(flockError(() => validateView([] as never)).field).toBe('view');
  });
});

describe('viewValueFromText (URL values, element attributes)', () => {
  const spec = (n: string) => viewSpec(n)!;
  test.each([
    ['showBounds', '', true],
    ['showBounds', 'true', true],
    ['showBounds', '1', true],
    // One boolean form for URL and attributes (src/core/codec.ts): on/off are not in it.
    ['showBounds', 'on', 'on'],
    ['showBounds', 'false', false],
    ['showBounds', '0', false],
    ['showBounds', 'off', 'off'],
    ['showBounds', 'TRUE', true],
    ['showBounds', 'maybe', 'maybe'],
    ['boidSize', '0.75', 0.75],
    ['boidSize', '1e-1', 0.1],
    ['boidSize', 'big', 'big'],
    ['colorMode', ' species ', 'species'],
    ['background', '#ff0000', '#ff0000'],
  ])('%s=%j -> %j', (name, text, want) => {
    expect(viewValueFromText(spec(name), text)).toBe(want);
  });
});

describe('parseCssColor', () => {
  test.each([
    ['#05080f', [5 / 255, 8 / 255, 15 / 255, 1]],
    ['#fff', [1, 1, 1, 1]],
    ['#ff000080', [1, 0, 0, 128 / 255]],
    ['rgb(255, 128, 0)', [1, 128 / 255, 0, 1]],
    ['rgba(0, 0, 255, 0.25)', [0, 0, 1, 0.25]],
    ['hsl(120, 100%, 50%)', [0, 1, 0, 1]],
    ['rebeccapurple', [102 / 255, 51 / 255, 153 / 255, 1]],
    ['  Teal ', [0, 128 / 255, 128 / 255, 1]],
    ['transparent', [0, 0, 0, 0]],
  ])('%s', (text, want) => {
    const got = parseCssColor(text)!;
    for (let i = 0; i < 4; i++) expect(got[i]).toBeCloseTo(want[i]!, 6);
  });

  test('not colours (no DOM here, so CSS Color 4 syntax is not resolved either)', () => {
    for (const t of ['', 'nope', '#12', 'rgb(1,2)', 'rgb(0 0 0 / 50%)', 5, null]) {
      expect(parseCssColor(t)).toBeNull();
    }
  });

  test('premultiply', () => {
    expect(premultiply([1, 0.5, 0.25, 0.5])).toEqual([0.5, 0.25, 0.125, 0.5]);
  });
});

describe('colour tables and boid colours', () => {
  test('the generated tables are what the generator writes from d3-scale-chromatic', () => {
    const file = readFileSync(new URL('../../src/core/colormaps.gen.ts', import.meta.url), 'utf8');
    expect(file).toBe(colormapsSource());
  });

  test('viridis runs from #440154 to #fde725; the species palette is Tableau 10 without red', () => {
    const t = colorTable({ colorMode: 'density', colorMap: 'viridis' });
    expect(t.length).toBe(4 * 64);
    expect(Array.from(t.subarray(0, 3)).map((x) => Math.round(x * 255))).toEqual([68, 1, 84]);
    expect(Array.from(t.subarray(4 * 63, 4 * 63 + 3)).map((x) => Math.round(x * 255))).toEqual([
      253, 231, 37,
    ]);
    const s = colorTable({ colorMode: 'species', colorMap: 'viridis' });
    const hex = (i: number) =>
      Array.from(s.subarray(4 * i, 4 * i + 3))
        .map((x) =>
          Math.round(x * 255)
            .toString(16)
            .padStart(2, '0'),
        )
        .join('');
    expect([0, 1, 2, 3].map(hex)).toEqual(['4e79a7', 'f28e2c', '76b7b2', 'edc949']);
    expect(hex(4)).toBe('4e79a7'); // repeats
  });

  const ctx = (mode: keyof typeof COLOR_MODE_CODE, dimensions = 3): ColorContext => {
    const view = validateView({ colorMode: mode });
    return {
      mode: COLOR_MODE_CODE[mode],
      dimensions,
      minSpeed: 2,
      maxSpeed: 5,
      table: colorTable(view),
      color: [0.25, 0.5, 0.75],
      densityMax: 20,
    };
  };

  test('speed and uniform', () => {
    expect(boidColor(ctx('speed'), 3, 0, 0, 0, 0)).toEqual(speedColor(3, 2, 5));
    expect(boidColor(ctx('uniform'), 3, 0, 0, 2, 9)).toEqual([0.25, 0.5, 0.75]);
  });

  test('species: palette entry s', () => {
    const c = ctx('species');
    expect(boidColor(c, 1, 0, 0, 2, 0)).toEqual(Array.from(c.table.subarray(8, 11)));
  });

  test('density: |N_i| / densityMax along the map, clamped', () => {
    const c = ctx('density');
    const at = (i: number) => Array.from(c.table.subarray(4 * i, 4 * i + 3));
    expect(boidColor(c, 1, 0, 0, 0, 0)).toEqual(at(0));
    expect(boidColor(c, 1, 0, 0, 0, 20)).toEqual(at(63));
    expect(boidColor(c, 1, 0, 0, 0, 500)).toEqual(at(63));
    // 10 of 20 neighbours: t = 0.5, x = 31.5, halfway between entries 31 and 32.
    const mid = boidColor(c, 1, 0, 0, 0, 10);
    for (let k = 0; k < 3; k++) expect(mid[k]).toBeCloseTo((at(31)[k]! + at(32)[k]!) / 2, 6);
  });

  test('heading: angle to the cyclic map; in 3D climbing lightens and diving darkens', () => {
    const c2 = ctx('heading', 2);
    const at = (i: number) => Array.from(c2.table.subarray(4 * i, 4 * i + 3));
    // +x: angle 0, t = 0.5 -> entry 32. -x: angle pi, t = 1 -> wraps to entry 0. +y: t = 0.75 -> 48.
    expect(boidColor(c2, 3, 0, 0, 0, 0)).toEqual(at(32));
    expect(boidColor(c2, -3, 0, 0, 0, 0)).toEqual(at(0));
    expect(boidColor(c2, 0, 3, 0, 0, 0)).toEqual(at(48));
    expect(boidColor(c2, 0, 0, 0, 0, 0)).toEqual(at(32)); // at rest: +x
    const c3 = ctx('heading', 3);
    // 3D uses x and z: +z is angle pi/2 -> entry 48; straight up mixes halfway to white.
    expect(boidColor(c3, 0, 0, 2, 0, 0)).toEqual(at(48));
    expect(boidColor(c3, 0, 4, 0, 0, 0)).toEqual(at(32).map((x) => x + (1 - x) * 0.5));
    expect(boidColor(c3, 0, -4, 0, 0, 0)).toEqual(at(32).map((x) => x * 0.5));
  });
});

describe('fit', () => {
  const p2 = validateParams({ dimensions: 2 }); // box 64 x 64, default 2D camera: 0.55 * 64 half-height
  test('contain: the square framing on wide canvases, widened for tall ones', () => {
    expect(fitScale(p2, 'contain', 1)).toBe(1);
    expect(fitScale(p2, 'contain', 2.5)).toBe(1);
    expect(fitScale(p2, 'contain', 0.5)).toBe(2);
  });

  test('cover (2D): the box side fills the tighter direction exactly', () => {
    // Silhouette half-extent 32 / (0.55 * 64) = 0.90909 of the frame in both directions.
    expect(fitScale(p2, 'cover', 1)).toBeCloseTo(1 / 1.1, 3);
    // Wide 2:1: the width is tighter, 0.90909 / 2.
    expect(fitScale(p2, 'cover', 2)).toBeCloseTo(1 / 2.2, 3);
    // Tall 1:2: the height is tighter, 0.90909.
    expect(fitScale(p2, 'cover', 0.5)).toBeCloseTo(1 / 1.1, 3);
  });

  test('cover on a wide canvas puts the box edges exactly on the canvas edges (2D)', () => {
    const aspect = 2;
    const vp = viewProjection(defaultCamera(p2), aspect, false, fitScale(p2, 'cover', aspect));
    const clip = (x: number, y: number) => {
      const m = vp;
      const w = m[3]! * x + m[7]! * y + m[15]!;
      return [(m[0]! * x + m[4]! * y + m[12]!) / w, (m[1]! * x + m[5]! * y + m[13]!) / w];
    };
    expect(clip(32, 0)[0]).toBeCloseTo(1, 5); // right wall on the right edge
    expect(clip(-32, 0)[0]).toBeCloseTo(-1, 5);
    expect(clip(0, 32)[1]).toBeCloseTo(2, 5); // top wall cropped: twice beyond the top edge
  });

  test('cover in 3D zooms in (the box fills more than contain shows)', () => {
    const p3 = defaultParams();
    expect(fitScale(p3, 'cover', 1)).toBeLessThan(1);
    expect(fitScale(p3, 'cover', 3)).toBeLessThan(fitScale(p3, 'cover', 1));
  });
});

describe('unprojectToPlane (the pointer) with hand-worked numbers', () => {
  // A camera at distance 10 on +z looking at the origin, fovY 90 degrees (tan 45 = 1), square:
  // NDC (x, y) on the plane z = 0 is (10 x, 10 y, 0).
  const cam = camera();

  test('2D-style: camera on +z, plane z = 0', () => {
    const vp = viewProjection(cam, 1);
    const p = unprojectToPlane(vp, 0.5, 0.5, [0, 0, 0], [0, 0, 1])!;
    expect(p[0]).toBeCloseTo(5, 3);
    expect(p[1]).toBeCloseTo(5, 3);
    expect(p[2]).toBeCloseTo(0, 3);
    const q = unprojectToPlane(vp, -1, 0.25, [0, 0, 0], [0, 0, 1])!;
    expect(q[0]).toBeCloseTo(-10, 3);
    expect(q[1]).toBeCloseTo(2.5, 3);
  });

  test('aspect 2: x spans twice as far', () => {
    const vp = viewProjection(cam, 2);
    const p = unprojectToPlane(vp, 0.5, -0.25, [0, 0, 0], [0, 0, 1])!;
    expect(p[0]).toBeCloseTo(10, 3); // 0.5 * 10 * aspect 2
    expect(p[1]).toBeCloseTo(-2.5, 3);
  });

  test('camera turned 90 degrees (yaw): eye on +x, plane x = 0, screen right is -z', () => {
    const vp = viewProjection({ ...cam, yaw: Math.PI / 2 }, 1);
    const p = unprojectToPlane(vp, 0.5, 0.25, [0, 0, 0], [-1, 0, 0])!;
    expect(p[0]).toBeCloseTo(0, 3);
    expect(p[1]).toBeCloseTo(2.5, 3);
    expect(p[2]).toBeCloseTo(-5, 3);
  });

  test('a plane through a point off the target: the ray meets it farther along', () => {
    // Plane z = -10 (20 from the eye): NDC 0.5 -> x = 0.5 * 20 = 10.
    const vp = viewProjection(cam, 1);
    const p = unprojectToPlane(vp, 0.5, 0, [0, 0, -10], [0, 0, 1])!;
    expect(p[0]).toBeCloseTo(10, 3);
    expect(p[2]).toBeCloseTo(-10, 3);
  });

  test('a ray parallel to the plane, or a singular matrix, gives null', () => {
    const vp = viewProjection(cam, 1);
    expect(unprojectToPlane(vp, 0, 0, [0, 0, 0], [1, 0, 0])).toBeNull();
    expect(unprojectToPlane(new Float32Array(16), 0, 0, [0, 0, 0], [0, 0, 1])).toBeNull();
  });

  test('invert4: a hand-worked inverse, the inverse of the inverse, null when singular', () => {
    // scale (2, 4, 5) then translate (1, -2, 3), column-major: the inverse scales by
    // (1/2, 1/4, 1/5) and translates by (-1/2, 2/4, -3/5).
    const m = [2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 5, 0, 1, -2, 3, 1];
    const want = [0.5, 0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0.2, 0, -0.5, 0.5, -0.6, 1];
    const inv = invert4(m)!;
    want.forEach((w, k) => expect(inv[k]).toBeCloseTo(w, 14));
    const vp = viewProjection({ ...cam, yaw: 0.6, pitch: 0.35 }, 1.7);
    const id = invert4(invert4(vp)!)!;
    expect(id).toBeInstanceOf(Float64Array);
    for (let i = 0; i < 16; i++) expect(id[i]).toBeCloseTo(vp[i]!, 5);
    expect(invert4(new Float32Array(16))).toBeNull();
    expect(invert4([1e300, 0, 0, 0, 0, 1e300, 0, 0, 0, 0, 1e300, 0, 0, 0, 0, 1])).toBeNull();
  });

  test('viewBasis recovers the eye and axes of the camera', () => {
    const b = viewBasis(viewProjection({ ...cam, yaw: Math.PI / 2 }, 1.5));
    const close = (a: number[], want: number[]) =>
      want.forEach((w, i) => expect(a[i]).toBeCloseTo(w, 4));
    close(b.eye, [10, 0, 0]);
    close(b.right, [0, 0, -1]);
    close(b.up, [0, 1, 0]);
    close(b.forward, [-1, 0, 0]);
    const m = mat4.create();
    expect(viewBasis(m as unknown as Float32Array).right).toEqual([1, 0, 0]);
  });
});

describe('the scene', () => {
  test('obstacles, attractor and bounds follow params and the show* options', () => {
    const params = validateParams({
      dimensions: 2,
      obstacles: [{ center: [1, 2, 3], radius: 4 }],
      attractor: [5, 6, 7],
      attractorStrength: -3,
      attractorRadius: 9,
    });
    const view = validateView({ showBounds: true });
    const s = buildScene(params, view, viewStatic(view), 0.5);
    expect(Array.from(s.obstacles)).toEqual([1, 2, 0, 4]); // z = 0 in 2D
    expect(s.attractor).toEqual([5, 6, 0, -3]);
    expect(s.attractorRadius).toBe(9);
    expect(s.bounds).toEqual({ min: params.boundsMin, max: params.boundsMax });
    expect(s.predatorSize).toBeCloseTo(2, 9);
    expect(s.background[3]).toBe(1);
    const hidden = validateView({ showObstacles: false, showAttractor: false });
    const h = buildScene(params, hidden, viewStatic(hidden), 0.5);
    expect(h.obstacles.length).toBe(0);
    expect(h.attractor).toBeNull();
    expect(h.bounds).toBeNull();
    const off = buildScene({ ...params, attractorStrength: 0 }, view, viewStatic(view), 0.5);
    expect(off.attractor).toBeNull();
    const clear = validateView({ background: 'transparent' });
    expect(viewStatic(clear).background).toEqual([0, 0, 0, 0]);
  });

  test('densityMax 0: twice the mean |N_i| of the default scenes (about 24 in 3D, 200 in 2D)', () => {
    // 16,384 boids, r = 2, box 64: uniform spread 2.11 neighbours in 3D, 50.3 in 2D.
    expect(autoDensityMax(defaultParams())).toBeCloseTo(
      22 * ((16384 * (4 / 3) * Math.PI * 8) / 64 ** 3),
      9,
    );
    expect(autoDensityMax(defaultParams())).toBeCloseTo(46.08, 2);
    expect(autoDensityMax(validateParams({ dimensions: 2 }))).toBeCloseTo(402.1, 1);
    expect(autoDensityMax(validateParams({ count: 3 }))).toBe(4);
    const view = defaultView();
    expect(buildScene(defaultParams(), view, viewStatic(view), 1).densityMax).toBeCloseTo(46.08, 2);
    const fixed = validateView({ densityMax: 30 });
    expect(buildScene(defaultParams(), fixed, viewStatic(fixed), 1).densityMax).toBe(30);
  });

  test('predators: positions at t and unit headings along the path', () => {
    const params = validateParams({ predators: 3 });
    const t = 7.25;
    const s = predatorScene(params, t);
    expect(s.length).toBe(24);
    for (let k = 0; k < 3; k++) {
      const p = predatorPosition(params, k, t);
      for (let a = 0; a < 3; a++) expect(s[8 * k + a]).toBeCloseTo(p[a]!, 4);
      const h = Array.from(s.subarray(8 * k + 4, 8 * k + 7));
      expect(Math.hypot(...h)).toBeCloseTo(1, 5);
      // Heading along the path: a small step forward moves the predator along it.
      const q = predatorPosition(params, k, t + 0.01);
      const d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
      const cos = (d[0]! * h[0]! + d[1]! * h[1]! + d[2]! * h[2]!) / Math.hypot(...d);
      expect(cos).toBeGreaterThan(0.999);
    }
  });
});
