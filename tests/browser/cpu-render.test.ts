// The cpu backend's Canvas 2D drawing: not blank, flock colours over the shared background, and
// the picture changes as the flock moves.
import { expect, test } from 'vitest';
import { createCpuBackend } from '../../src/cpu/cpu-backend';
import { defaultCamera, boidSizeFor, viewProjection } from '../../src/core/render-math';
import { validateParams } from '../../src/core/params';
import { initialState } from '../../src/core/state';

const W = 320;
const H = 240;

/** Pixels that differ from the background #05080f, and the pixel data. */
function grab(canvas: HTMLCanvasElement): { lit: number; data: Uint8ClampedArray } {
  const data = canvas.getContext('2d')!.getImageData(0, 0, W, H).data;
  let lit = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i]! - 5) + Math.abs(data[i + 1]! - 8) + Math.abs(data[i + 2]! - 15) > 24)
      lit++;
  }
  return { lit, data };
}

for (const dimensions of [3, 2] as const) {
  test(`render draws the flock and the picture changes between frames (${dimensions}D)`, async () => {
    const params = validateParams({ count: 2000, dimensions, seed: 3 });
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = H;
    const b = await createCpuBackend({
      canvas,
      params,
      state: initialState(params),
      disable: new Set(),
    });
    const view = {
      viewProj: viewProjection(defaultCamera(params), W / H),
      width: W,
      height: H,
      boidSize: boidSizeFor(params),
    };
    b.render(view);
    const a = grab(canvas);
    // Background in a corner-free spot is exactly the shared clear colour where no boid is.
    expect(a.lit).toBeGreaterThan(500);
    expect(a.lit).toBeLessThan(W * H * 0.9);
    b.step(30);
    await b.readState();
    b.render(view);
    const c = grab(canvas);
    expect(c.lit).toBeGreaterThan(500);
    let changed = 0;
    for (let i = 0; i < a.data.length; i += 4) if (a.data[i] !== c.data[i]) changed++;
    expect(changed).toBeGreaterThan(200);
    // Colours come from the speed ramp (steel blue .. warm white): distinctly blue boids, not
    // only grey or white ones.
    let blue = 0;
    for (let i = 0; i < c.data.length; i += 4) {
      const [r, bl] = [c.data[i]!, c.data[i + 2]!];
      if (bl > r + 40) blue++;
    }
    expect(blue).toBeGreaterThan(200);
    b.dispose();
  });
}
