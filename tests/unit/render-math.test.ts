// The predator's drawn length (src/core/render-math.ts predatorSizeFor, through buildScene and
// frameView to every renderer): PREDATOR_SCALE boid lengths, capped at 8% of the box's largest
// active side, never under 2 boid lengths. Hand-worked numbers.
import { describe, expect, test } from 'vitest';
import { validateParams } from '../../src/core/params';
import { PRESETS, presetOptions } from '../../src/core/presets';
import * as renderMath from '../../src/core/render-math';
import { buildScene, viewStatic } from '../../src/core/scene';
import { validateView } from '../../src/core/view';
import { frameView } from '../../src/flock/frame-view';

describe('predator length', () => {
  test('the numbers: 4 boid lengths, at most 8% of the largest side, at least 2 boid lengths', () => {
    expect([
      renderMath.PREDATOR_SCALE,
      renderMath.PREDATOR_MAX_BOX_FRACTION,
      renderMath.PREDATOR_MIN_SCALE,
    ]).toEqual([4, 0.08, 2]);
    const cube = (side: number) => ({
      dimensions: 3 as const,
      boundsMin: [-side / 2, -side / 2, -side / 2] as [number, number, number],
      boundsMax: [side / 2, side / 2, side / 2] as [number, number, number],
    });
    // A 64-unit box, boid 0.96 (1.5% of 64): 4 x 0.96 = 3.84 < 0.08 x 64 = 5.12, uncapped.
    expect(renderMath.predatorSizeFor(cube(64), 0.96)).toBeCloseTo(3.84, 12);
    // A 16-unit box, boid 0.625: 4 x 0.625 = 2.5 > 0.08 x 16 = 1.28 > 2 x 0.625 = 1.25: capped.
    expect(renderMath.predatorSizeFor(cube(16), 0.625)).toBeCloseTo(1.28, 12);
    // A 16-unit box, boid 1: the cap 1.28 is under 2 boid lengths, so 2.
    expect(renderMath.predatorSizeFor(cube(16), 1)).toBeCloseTo(2, 12);
    // 2D: z is not an active axis. x 10, y 40, z 1000: side 40, cap 3.2; boid 1 -> 3.2.
    const flat = {
      dimensions: 2 as const,
      boundsMin: [0, 0, 0] as [number, number, number],
      boundsMax: [10, 40, 1000] as [number, number, number],
    };
    expect(renderMath.predatorSizeFor(flat, 1)).toBeCloseTo(3.2, 12);
    // The same box in 3D: side 1000, cap 80, so 4 boid lengths.
    expect(renderMath.predatorSizeFor({ ...flat, dimensions: 3 }, 1)).toBeCloseTo(4, 12);
  });

  test('murmuration on a phone (512 boids, a 16-unit cube): the hawk 1.28 units, not 2.5; at 65,536 unchanged', () => {
    const withPredators = Object.values(PRESETS).filter((p) => (p.params.predators ?? 0) > 0);
    expect(withPredators.map((p) => p.name)).toEqual(['murmuration']);
    const view = validateView(presetOptions('murmuration').view);
    const fixed = viewStatic(view);
    // 512 boids at 2 x 16384 / 64^3 = 0.125 per unit^3: a cube of side 4096^(1/3) = 16.
    const phone = validateParams(presetOptions('murmuration', 512).params);
    expect(phone.boundsMax[0] - phone.boundsMin[0]).toBe(16);
    // Boid length max(0.015 x 16 = 0.24, 0.25 x 2.5 = 0.625) = 0.625; the hawk was 4 x 0.625 = 2.5
    // (16% of the box); now min(2.5, 0.08 x 16 = 1.28) = 1.28, above 2 x 0.625 = 1.25.
    expect(renderMath.boidSizeFor(phone)).toBeCloseTo(0.625, 12);
    const small = frameView(390, 844, renderMath.defaultCamera(phone), phone, view, fixed, 0);
    expect(small.boidSize).toBeCloseTo(0.625, 12);
    expect(small.scene!.predators.length).toBe(8);
    expect(small.scene!.predatorSize).toBeCloseTo(1.28, 6);
    // 65,536 boids: side 2 x round(50 x 524288^(1/3)) / 100 = 80.64; boid 0.015 x 80.64 = 1.2096;
    // the hawk 4 x 1.2096 = 4.8384 (6% of the box), under the cap 6.4512.
    const full = validateParams(presetOptions('murmuration').params);
    expect(full.boundsMax[0] - full.boundsMin[0]).toBeCloseTo(80.64, 9);
    const large = frameView(1280, 800, renderMath.defaultCamera(full), full, view, fixed, 0);
    expect(large.scene!.predatorSize).toBeCloseTo(4.8384, 6);
  });

  test('an explicit view.boidSize: the same rule on that length', () => {
    // Default 3D box (64): boid 2 -> 4 x 2 = 8 > 5.12 > 4 = 2 x 2: 5.12.
    const params = validateParams({ predators: 2 });
    const view = validateView({ boidSize: 2 });
    expect(buildScene(params, view, viewStatic(view), 2).predatorSize).toBeCloseTo(5.12, 12);
    const fv = frameView(
      800,
      600,
      renderMath.defaultCamera(params),
      params,
      view,
      viewStatic(view),
      0,
    );
    expect(fv.boidSize).toBe(2);
    expect(fv.scene!.predatorSize).toBeCloseTo(5.12, 12);
  });
});
