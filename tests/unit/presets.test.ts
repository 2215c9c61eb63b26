// Scenes and presets: the box that holds a count at a fixed density, every preset validated by
// the schema, the stress preset's count capped by the device, the box following the count slider.
import { describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import { validateParams } from '../../src/core/params';
import { validateView } from '../../src/core/view';
import * as presets from '../../src/core/presets';

describe('sceneBounds', () => {
  test('3D: side 64*(count/16384)^(1/3), DESIGN default box at 16,384', () => {
    expect(presets.sceneBounds(16384, 3)).toEqual({
      boundsMin: [-32, -32, -32],
      boundsMax: [32, 32, 32],
    });
    // 1,000,000 boids: 64 * (1e6/16384)^(1/3) = 64 * 3.9373 = 251.99 -> half 125.99
    expect(presets.sceneBounds(1_000_000, 3).boundsMax[0]).toBeCloseTo(125.99, 2);
    // 2,000: 64 * (2000/16384)^(1/3) = 31.75 -> half 15.87 (rounded to 1/100)
    expect(presets.sceneBounds(2000, 3).boundsMin).toEqual([-15.87, -15.87, -15.87]);
  });

  test('2D: 0.5 boid per unit², about 6 neighbours at r = 2', () => {
    const b = presets.sceneBounds(16384, 2);
    // sqrt(16384 / 0.5) = 181.02 -> half 90.51
    expect(b.boundsMax[0]).toBeCloseTo(90.51, 2);
    expect(presets.SCENE_DENSITY[2] * Math.PI * 2 * 2).toBeGreaterThan(5);
    expect(presets.SCENE_DENSITY[2] * Math.PI * 2 * 2).toBeLessThan(20);
  });

  test('density is kept across counts; small counts stop at the minimum side', () => {
    for (const n of [1000, 5003, 123457]) {
      const p = validateParams({ count: n, ...presets.sceneBounds(n, 3) });
      expect(presets.boxDensity(p)).toBeCloseTo(presets.SCENE_DENSITY[3], 3);
    }
    expect(presets.sceneBounds(3, 3).boundsMax).toEqual([6, 6, 6]);
    expect(presets.MIN_SCENE_SIDE).toBe(12);
  });

  test('bad count or density: FlockError naming it', () => {
    expect(() => presets.sceneBounds(0, 3)).toThrow(FlockError);
    expect(() => presets.sceneBounds(1.5, 2)).toThrow(/count = 1.5/);
    expect(() => presets.sceneBounds(10, 3, 0)).toThrow(/density = 0/);
  });
});

describe('presets', () => {
  test.each(presets.PRESET_NAMES)('%s validates against the parameter schema', (name) => {
    const { params, view } = presets.presetOptions(name);
    const p = validateParams(params);
    expect(p.count).toBe(
      presets.PRESETS[name].count === 'max' ? presets.STRESS_COUNT : presets.PRESETS[name].count,
    );
    expect(presets.boxDensity(p)).toBeCloseTo(presets.PRESETS[name].density, 2);
    expect(Object.keys(view).length).toBeGreaterThan(0);
    // The view options pass the view schema too.
    expect(validateView(view)).toMatchObject(view);
    // A preset never sets the box itself: the density does.
    expect(presets.PRESETS[name].params).not.toHaveProperty('boundsMin');
  });

  test('each preset is what the issue asks for', () => {
    const m = validateParams(presets.presetOptions('murmuration').params);
    expect([m.predators, m.boundary, m.dimensions]).toEqual([1, 'soft', 3]);
    expect(Math.hypot(...m.wind)).toBeGreaterThan(0);
    expect(m.count).toBeGreaterThanOrEqual(65536);
    const s = validateParams(presets.presetOptions('school').params);
    expect([s.species, s.dimensions]).toEqual([2, 3]);
    expect(s.obstacles.length).toBe(5);
    expect(s.turbulence).toBeGreaterThan(0);
    // Every rock lies inside the box.
    for (const o of s.obstacles) {
      for (let a = 0; a < 3; a++) {
        expect(Math.abs(o.center[a]!) + o.radius).toBeLessThan(s.boundsMax[a]!);
      }
    }
    const w = validateParams(presets.presetOptions('swarm').params);
    expect([w.dimensions, w.boundary]).toEqual([2, 'wrap']);
    const t = validateParams(presets.presetOptions('stress').params);
    expect([t.predators, t.species, t.obstacles.length, t.turbulence]).toEqual([0, 1, 0, 0]);
  });

  test("stress takes the device's limit, capped at 2^20; fixed counts are capped too", () => {
    expect(presets.presetOptions('stress', 4096).params.count).toBe(4096);
    expect(presets.presetOptions('stress', 16_777_216).params.count).toBe(1_048_576);
    expect(presets.presetOptions('murmuration', 5000).params.count).toBe(5000);
    // The box follows the capped count.
    expect(presets.presetOptions('stress', 4096).params.boundsMax![0]).toBeCloseTo(20.16, 2);
  });

  test('an unknown preset is a FlockError listing the names', () => {
    expect(() => presets.presetOptions('flock')).toThrow(
      'preset = "flock" is not allowed; allowed: one of "murmuration", "school", "swarm", "stress"',
    );
  });
});

describe('rescaleForCount', () => {
  test('the box and the rocks scale about the centre, the density stays', () => {
    const p = validateParams(presets.presetOptions('school').params);
    const r = presets.rescaleForCount(p, 2048);
    // 16384 -> 2048 is 1/8 of the boids: half the side.
    expect(r.boundsMax[0]).toBeCloseTo(p.boundsMax[0] / 2, 2);
    expect(r.obstacles[0]!.radius).toBeCloseTo(p.obstacles[0]!.radius / 2, 2);
    expect(r.obstacles[1]!.center[2]).toBeCloseTo(p.obstacles[1]!.center[2] / 2, 2);
    expect(presets.boxDensity({ ...p, ...r })).toBeCloseTo(presets.boxDensity(p), 2);
  });

  test('an off-centre, non-cubic 2D box keeps its shape and centre', () => {
    const p = validateParams({
      dimensions: 2,
      count: 1000,
      boundsMin: [0, 10, -1],
      boundsMax: [40, 30, 1],
    });
    const r = presets.rescaleForCount(p, 4000);
    expect(r.boundsMin).toEqual([-20, 0, -2]);
    expect(r.boundsMax).toEqual([60, 40, 2]);
    // Shrinking stops at the minimum side (20 -> 12 on y, not 5).
    const s = presets.rescaleForCount(p, 62);
    expect(s.boundsMax[1] - s.boundsMin[1]).toBeCloseTo(12, 2);
  });
});
