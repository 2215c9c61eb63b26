// The look's math (src/core/look.ts), the CPU twin of src/webgl2/look.glsl and render.wgsl: the
// animation has no pop when the speed changes (the angle is continuous in the velocity at any t,
// even after hours), beats faster when climbing, glides at cruise, is rigid at flap 0; meshes have
// unit normals and a bird's wings lie on both sides of its body; palettes fill only what the view
// left at its defaults.
import { describe, expect, test } from 'vitest';
import {
  DIHEDRAL,
  MESHES,
  PART,
  animateVertex,
  animationAngles,
  hash32,
  lookClock,
  meshVertices,
  shade,
  fogAmount,
} from '../../src/core/look';
import { palette } from '../../src/core/palette';
import { viewColors, viewBackground, validateView } from '../../src/core/view';
import type { Flock, FlockOptions } from '../../src/index';
import { buildScene, viewStatic } from '../../src/core/scene';
import { validateParams } from '../../src/core/params';

const MIN = 2;
const MAX = 5;
const wing = (id: number, v: number[], t: number, flap = 1, dims = 3) =>
  animationAngles(id, v[0]!, v[1]!, v[2]!, lookClock('bird', t), flap, MIN, MAX, dims).wing;

describe('animation', () => {
  test('lowbias32 matches its published outputs', () => {
    // lowbias32 of 0 is 0; 1 -> 0x5d5e... computed by the reference C (x ^= x >> 16; x *= ...).
    expect(hash32(0)).toBe(0);
    let x = 1;
    x ^= x >>> 16;
    x = Math.imul(x, 0x7feb352d) >>> 0;
    x ^= x >>> 15;
    x = Math.imul(x, 0x846ca68b) >>> 0;
    x ^= x >>> 16;
    expect(hash32(1)).toBe(x >>> 0);
    expect(new Set([1, 2, 3, 4, 5].map(hash32)).size).toBe(5);
  });

  test('no pop: a small change of velocity moves the wing a little, at t = 0 and after 10 hours', () => {
    for (const t of [0.37, 36_000.37]) {
      for (let id = 0; id < 50; id++) {
        const a = wing(id, [4.2, 0.3, 0.1], t);
        const b = wing(id, [4.21, 0.31, 0.1], t);
        expect(Math.abs(a - b)).toBeLessThan(0.05);
      }
    }
  });

  test('continuous in time: 1 ms moves a wing by less than its fastest beat allows', () => {
    for (let id = 0; id < 20; id++) {
      for (const t of [1, 2.5, 7200]) {
        const d = Math.abs(wing(id, [3, 1.5, 0], t + 1e-3) - wing(id, [3, 1.5, 0], t));
        // |d angle/dt| <= MAX_WING * 2 pi * 4.6 Hz (+ the glide envelope's slower change).
        expect(d).toBeLessThan(0.03);
      }
    }
  });

  test('a climbing boid beats faster than one at cruise; a cruising one mostly glides', () => {
    const crossings = (v: number[], id: number) => {
      let n = 0;
      let prev = wing(id, v, 0) - DIHEDRAL;
      for (let k = 1; k <= 2000; k++) {
        const cur = wing(id, v, k * 0.005) - DIHEDRAL;
        if (Math.sign(cur) !== Math.sign(prev)) n++;
        prev = cur;
      }
      return n;
    };
    let climb = 0;
    let cruise = 0;
    for (let id = 0; id < 10; id++) {
      climb += crossings([3, 4, 0], id);
      cruise += crossings([MAX, 0, 0], id);
    }
    // 10 s at 4.6 Hz vs 2.6 Hz: about 92 vs 52 crossings per boid.
    expect(climb / 10).toBeGreaterThan(80);
    expect(cruise / 10).toBeLessThan(60);
    // Gliding: over the cycle the stroke stays small for a good share of the time.
    let small = 0;
    for (let k = 0; k < 1000; k++)
      if (Math.abs(wing(3, [MAX, 0, 0], k * 0.01) - DIHEDRAL) < 0.15) small++;
    expect(small).toBeGreaterThan(250);
  });

  test('flap 0 is rigid and flat; flap scales the stroke', () => {
    for (let k = 0; k < 10; k++) expect(wing(k, [3, 2, 0], k * 0.3, 0)).toBe(0);
    const amp = (flap: number) => {
      let m = 0;
      for (let k = 0; k < 400; k++) m = Math.max(m, Math.abs(wing(1, [3, 4, 0], k * 0.01, flap)));
      return m;
    };
    expect(amp(2)).toBeGreaterThan(1.5 * amp(0.5));
  });

  test('lookClock stays in [0, 2 pi) and keeps float64 precision at large t', () => {
    const [c] = lookClock('bird', 1e6 + 0.25);
    expect(c).toBeGreaterThanOrEqual(0);
    expect(c).toBeLessThan(2 * Math.PI);
    // 2.6 Hz * (1e6 + 0.25) s = 2,600,000.65 cycles: phase 0.65 of a turn.
    expect(c / (2 * Math.PI)).toBeCloseTo(0.65, 6);
  });
});

describe('meshes', () => {
  test('unit normals, vertex counts, parts', () => {
    expect(meshVertices('arrow')).toBe(12);
    expect(meshVertices('bird')).toBe(12);
    expect(meshVertices('fish')).toBe(18);
    expect(meshVertices('dot')).toBe(6);
    for (const m of Object.values(MESHES)) {
      for (let v = 0; v < m.length / 8; v++) {
        expect(Math.hypot(m[8 * v + 4]!, m[8 * v + 5]!, m[8 * v + 6]!)).toBeCloseTo(1, 6);
      }
    }
  });

  test('seen from above, a bird covers about half the area an arrow does (no more pixels to fill)', () => {
    // Sum of the triangles' areas projected on the xz plane (from above, wings at rest), in
    // square boid lengths. Hand-worked: the arrow's 4 triangles are each nose (0.5, 0) to a tail
    // corner 0.25 off the axis, 1 long: 4 * 0.5 * 1 * 0.25 = 0.5. The bird's body is 2 triangles
    // 1 long, 0.085 wide (0.085 in all); each wing a root chord of 0.22 and a tip 0.8 out:
    // 2 * 0.5 * 0.22 * 0.8 = 0.176. 0.261 in all.
    const planArea = (m: Float32Array) => {
      let sum = 0;
      for (let t = 0; t < m.length / 24; t++) {
        const [ax, az, bx, bz, cx, cz] = [0, 2, 8, 10, 16, 18].map((k) => m[24 * t + k]!);
        sum += Math.abs((bx! - ax!) * (cz! - az!) - (cx! - ax!) * (bz! - az!)) / 2;
      }
      return sum;
    };
    expect(planArea(MESHES.arrow)).toBeCloseTo(0.5, 6);
    expect(planArea(MESHES.bird)).toBeCloseTo(0.261, 6);
  });

  test("a bird's wings lie on both sides of its body and rise together", () => {
    const m = MESHES.bird;
    const angles = { wing: 0.5, tail: 0 };
    let left = 0;
    let right = 0;
    for (let v = 0; v < m.length / 8; v++) {
      const part = m[8 * v + 3];
      const { p } = animateVertex(m, v, angles);
      if (part === PART.leftWing && p[2] > 0.3) {
        left++;
        expect(p[1]).toBeGreaterThan(0.2);
      }
      if (part === PART.rightWing && p[2] < -0.3) {
        right++;
        expect(p[1]).toBeGreaterThan(0.2);
      }
    }
    expect(left).toBe(1);
    expect(right).toBe(1);
  });

  test("a fish's tail turns about its pivot: its root stays, its tip swings to the side", () => {
    const m = MESHES.fish;
    for (let v = 0; v < m.length / 8; v++) {
      if (m[8 * v + 3] !== PART.tail) continue;
      const rest = animateVertex(m, v, { wing: 0, tail: 0 }).p;
      const turned = animateVertex(m, v, { wing: 0, tail: 0.4 }).p;
      const moved = Math.hypot(turned[0] - rest[0], turned[2] - rest[2]);
      if (rest[0] > -0.3) expect(moved).toBeLessThan(1e-6);
      else {
        expect(moved).toBeGreaterThan(0.05);
        const r = (p: number[]) => Math.hypot(p[0]! + 0.26, p[2]!);
        expect(r(turned)).toBeCloseTo(r(rest), 6);
      }
    }
  });
});

describe('palettes and shading', () => {
  test('a palette fills the background and uniform colour left at their defaults; explicit ones win', () => {
    const dusk = palette('dusk');
    const v = validateView({ palette: 'dusk' });
    expect(viewColors(v).background).toEqual(dusk.background);
    expect(viewColors(v).ramp).toEqual(dusk.ramp);
    expect(viewColors(v).color).toEqual(dusk.ramp[2]);
    const own = validateView({ palette: 'dusk', background: '#ff0000', color: '#00ff00' });
    expect(viewColors(own).background).toEqual([1, 0, 0, 1]);
    expect(viewColors(own).color).toEqual([0, 1, 0]);
    expect(viewBackground(validateView({ palette: 'ink' }))).toBe('rgb(244, 242, 236)');
    expect(viewBackground(validateView({}))).toBe('#05080f');
    // Given colours equal to the defaults win too (before: dusk's rgb(226, 164, 138) was drawn for
    // #05080f, while #05080e was honoured), at creation and over a view (setView); null (a removed
    // attribute) is not given: the palette's again.
    const dark = validateView({ palette: 'dusk', background: '#05080f', color: '#8fd3ff' });
    expect(viewBackground(dark)).toBe('#05080f');
    expect(viewColors(dark).color).toEqual(viewColors(validateView({})).color);
    const later = validateView({ background: '#05080f' }, v);
    expect(viewBackground(later)).toBe('#05080f');
    expect(viewBackground(validateView({ fog: 0.2 }, later))).toBe('#05080f'); // kept
    // The types take null for the colours (npm run typecheck; before: TS2322 on the two lines
    // below, null not assignable to string): createFlock's view, setView and validateView.
    const fresh: NonNullable<FlockOptions['view']> = { palette: 'dusk', background: null };
    const change: Parameters<Flock['setView']>[0] = { background: null, color: null };
    // @ts-expect-error: null is "not given" for the colours only
    const other: Parameters<Flock['setView']>[0] = { fog: null };
    expect(() => validateView(other)).toThrow(/fog/);
    expect(viewBackground(validateView(fresh))).toBe('rgb(226, 164, 138)');
    const unset = validateView(change, dark);
    expect([unset.background, viewBackground(unset)]).toEqual(['#05080f', 'rgb(226, 164, 138)']);
    expect(viewColors(unset).color).toEqual(dusk.ramp[2]);
    for (const name of ['dusk', 'ocean', 'ink', 'paper', 'ember'] as const) {
      const p = palette(name);
      expect(p.ramp).toHaveLength(4);
      expect(p.background[3]).toBe(1);
    }
  });

  test('the scene resolves auto to bird in 3D and arrow in 2D, and carries the look', () => {
    const view = validateView({ flap: 2, fog: 0.3 });
    const s3 = buildScene(validateParams({ dimensions: 3 }), view, viewStatic(view), 1);
    const s2 = buildScene(validateParams({ dimensions: 2 }), view, viewStatic(view), 1);
    expect(s3.shape).toBe('bird');
    expect(s2.shape).toBe('arrow');
    expect(s3).toMatchObject({ flap: 2, fog: 0.3, lighting: 0.7, lodPixels: 3, trail: 0 });
    const fish = validateView({ shape: 'fish' });
    expect(buildScene(validateParams({}), fish, viewStatic(fish), 1).shape).toBe('fish');
  });

  test('lighting 0 is the flat colour; lit faces toward the light are brighter than away', () => {
    const f = {
      lightDir: [0, 1, 0] as [number, number, number],
      skyDir: [0, 1, 0] as [number, number, number],
      lightColor: [1, 1, 1] as [number, number, number],
      skyColor: [1, 1, 1] as [number, number, number],
      groundColor: [0.36, 0.34, 0.33] as [number, number, number],
    };
    expect(shade([0.5, 0.4, 0.3], [0, 1, 0], 0, f)).toEqual([0.5, 0.4, 0.3]);
    const lit = shade([0.5, 0.5, 0.5], [0, 1, 0], 1, f);
    const under = shade([0.5, 0.5, 0.5], [0, -1, 0], 1, f);
    expect(lit[0]).toBeGreaterThan(under[0] + 0.2);
    expect(fogAmount(5, 0.5, { fogNear: 10, fogInvSpan: 0.1 })).toBe(0);
    expect(fogAmount(15, 0.5, { fogNear: 10, fogInvSpan: 0.1 })).toBeCloseTo(0.25, 12);
    expect(fogAmount(40, 0.5, { fogNear: 10, fogInvSpan: 0.1 })).toBe(0.5);
  });
});
