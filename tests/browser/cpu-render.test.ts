// The cpu backend's Canvas 2D drawing: not blank, flock colours over the shared background, and
// the picture changes as the flock moves.
import { expect, test } from 'vitest';
import { createCpuBackend } from '../../src/cpu/cpu-backend';
import { defaultCamera, boidSizeFor, viewProjection } from '../../src/core/render-math';
import { validateParams } from '../../src/core/params';
import { initialState } from '../../src/core/state';
import { expectMovedAndBlue, grabFrame as grab } from '../support/frames';

const W = 320;
const H = 240;

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
    expectMovedAndBlue(a, grab(canvas));
    b.dispose();
  });
}
