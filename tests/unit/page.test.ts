// The page options' arithmetic (src/core/page.ts, DESIGN.md section 7): the autoBounds box, the
// count from a density, the drawing buffer's size; hand-worked numbers.
import { describe, expect, test } from 'vitest';
import * as page from '../../src/core/page';
import { validateParams } from '../../src/core/params';
import { FlockError } from '../../src/core/errors';

/** The box centred on the origin with half sides `half`, as autoBoundsBox returns it. */
const centred = (half: [number, number, number]) => ({
  boundsMin: half.map((h) => -h),
  boundsMax: half,
});

describe('autoBoundsBox', () => {
  test("DESIGN's default box: 16,384 boids in a square canvas is the 64-unit cube", () => {
    expect(page.DEFAULT_BOX_DENSITY[3]).toBe(0.0625);
    expect(page.DEFAULT_BOX_DENSITY[2]).toBe(4);
    expect(page.autoBoundsBox(16384, 3, 700, 700)).toEqual(centred([32, 32, 32]));
  });

  test('3D: x:y is the canvas aspect, z the shorter side, the volume count / 0.0625', () => {
    // 4,096 boids: 65,536 units³ = 64 x 32 x 32 for a 2:1 canvas.
    expect(page.autoBoundsBox(4096, 3, 1000, 500)).toEqual(centred([32, 16, 16]));
    // Portrait: 32 x 64 x 32.
    expect(page.autoBoundsBox(4096, 3, 500, 1000)).toEqual(centred([16, 32, 16]));
  });

  test('2D: the area count / 4; the ignored z span is the shorter side', () => {
    // 8,192 boids: 2,048 units² = 64 x 32.
    expect(page.autoBoundsBox(8192, 2, 1000, 500)).toEqual(centred([32, 16, 16]));
  });

  test('sides at least max(12, 3 r); half sides rounded up to 1/100; no size gives a cube', () => {
    // One boid: 16 units³ would be a 2.52 cube; 12 instead.
    expect(page.autoBoundsBox(1, 3, 300, 150).boundsMax).toEqual([6, 6, 6]);
    expect(page.autoBoundsBox(1, 3, 300, 150, 5).boundsMax).toEqual([7.5, 7.5, 7.5]);
    // 2:1, 2a³ = 262144 -> a = 50.7968...: half sides 50.80 and 25.40 (up).
    expect(page.autoBoundsBox(16384, 3, 800, 400).boundsMax).toEqual([50.8, 25.4, 25.4]);
    expect(page.autoBoundsBox(16384, 3, 0, 0).boundsMax).toEqual([32, 32, 32]);
  });

  test('the box validates under wrap with the radius it was given; bad counts throw', () => {
    const box = page.autoBoundsBox(10, 3, 2000, 100, 4);
    expect(() =>
      validateParams({ count: 10, boundary: 'wrap', perceptionRadius: 4, ...box }),
    ).not.toThrow();
    expect(() => page.autoBoundsBox(0, 3, 10, 10)).toThrow(FlockError);
    expect(() => page.autoBoundsBox(1.5, 3, 10, 10)).toThrow(/count/);
  });
});

describe('densityCount', () => {
  test('boids per 10,000 CSS px², rounded, capped, at least 1; 0 is off', () => {
    // 1920 x 1080 = 207.36 x 10,000 px².
    expect(page.densityCount(10, 1920, 1080, 1e6)).toBe(2074);
    expect(page.densityCount(10, 1920, 1080, 1000)).toBe(1000);
    expect(page.densityCount(0.001, 10, 10, 1000)).toBe(1);
    expect(page.densityCount(0, 1920, 1080, 1000)).toBeNull();
    expect(page.densityCount(10, 0, 1080, 1000)).toBeNull();
  });
});

describe('drawingBufferSize', () => {
  test('CSS size x devicePixelRatio x resolutionScale', () => {
    expect(page.drawingBufferSize(800, 600, 2, 0.5, 4096)).toMatchObject({
      width: 800,
      height: 600,
      clamped: false,
    });
    expect(page.drawingBufferSize(801, 601, 1, 0.25, 4096)).toMatchObject({
      width: 200,
      height: 150,
    });
    // devicePixelRatio above 3 counts as 3.
    expect(page.drawingBufferSize(100, 50, 4, 1, 8192)).toMatchObject({ width: 300, height: 150 });
  });

  test('clamped to the device limit, aspect kept', () => {
    expect(page.drawingBufferSize(1000, 500, 1, 2, 1024)).toEqual({
      width: 1024,
      height: 512,
      clamped: true,
      wanted: { width: 2000, height: 1000 },
    });
    expect(page.drawingBufferSize(0, 500, 1, 1, 1024)).toBeNull();
  });
});
