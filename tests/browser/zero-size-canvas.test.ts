// A canvas whose drawing buffer is 0x0 (<canvas width="0" height="0">, nothing styling it: the
// flock keeps the buffer it finds when the canvas's box is empty) on WebGPU: configuring its
// context and drawing a frame there are device errors (the flock fired about 9 'error' events a
// second: "The texture size ... is empty", "Could not create a swapchain texture of size 0"), so
// the context is configured at the first sized frame and a 0x0 frame draws nothing. Once the
// canvas has a size it draws; back at 0x0 it draws nothing again.
import { describe, expect, test } from 'vitest';
import { addCanvas, flockMaker } from '../support/browser';
import { canvasPixels } from '../support/frames';
import { watchGpuErrors } from '../support/gpu-error-scopes';

const make = flockMaker();

describe('a 0x0 canvas', () => {
  test('webgpu: render() raises no WebGPU error; the flock steps; a sized canvas draws again', async () => {
    const canvas = addCanvas(0, 0);
    const watch = watchGpuErrors();
    const flock = await make(canvas, {
      backend: 'webgpu',
      params: { count: 400, dimensions: 2, seed: 5 },
      view: { background: '#336699', color: '#ffffff', colorMode: 'uniform', fit: 'cover' },
      autoStart: false,
    });
    flock.render();
    await flock.step(2);
    flock.render();
    await flock.finish();
    const state = await flock.readState();
    expect([canvas.width, canvas.height]).toEqual([0, 0]);
    expect(state.positions.every(Number.isFinite)).toBe(true);
    canvas.width = 48;
    canvas.height = 32;
    // Drawn and read in one task: the background (#336699) in a corner, some boids (white).
    flock.render();
    const px = canvasPixels(canvas);
    expect([...px.subarray(0, 4)]).toEqual([0x33, 0x66, 0x99, 255]);
    let white = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i]! > 160 && px[i + 2]! > 160) white++;
    expect(white).toBeGreaterThan(0);
    // Back to 0x0 once configured: render() draws nothing again.
    canvas.width = 0;
    canvas.height = 0;
    flock.render();
    await flock.finish();
    expect(await watch.finish()).toEqual([]);
    canvas.remove();
  });
});
