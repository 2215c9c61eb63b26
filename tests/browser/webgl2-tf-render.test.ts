// The transform-feedback path draws the same picture as the texture path: the same state drawn by
// both backends (same camera, same canvas size) gives the same pixels, before and after steps;
// both draw modes agree; the picture is not blank and changes as the boids move.
import { afterEach, describe, expect, test } from 'vitest';
import type { RenderView } from '../../src/backend';
import type { FlockParams } from '../../src/core/params';
import { boidSizeFor, defaultCamera, viewProjection } from '../../src/core/render-math';
import { initialState, type FlockState } from '../../src/core/state';
import { createWebGL2Backend, type WebGL2Backend } from '../../src/webgl2/webgl2-backend';
import { createWebGL2TFBackend, type WebGL2TFBackend } from '../../src/webgl2/webgl2-tf-backend';
import { parityParams } from '../support/compare';

const SIZE = 160;
const BACKGROUND = [5, 8, 15]; // round(255 * [0.02, 0.03, 0.06])

const made: (WebGL2Backend | WebGL2TFBackend)[] = [];
afterEach(() => {
  for (const b of made.splice(0)) {
    expect(b.gl.getError()).toBe(b.gl.NO_ERROR);
    b.dispose();
    b.canvas.remove();
  }
});

function canvas(): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = SIZE;
  c.height = SIZE;
  document.body.append(c);
  return c;
}

async function makeBoth(params: FlockParams, state: FlockState = initialState(params)) {
  const tex = await createWebGL2Backend({ canvas: canvas(), params, state, disable: new Set() });
  made.push(tex);
  const tf = await createWebGL2TFBackend({
    canvas: canvas(),
    params,
    state,
    disable: new Set(['EXT_color_buffer_float']),
  });
  made.push(tf);
  return { tex, tf };
}

function viewFor(params: FlockParams): RenderView {
  const viewProj = viewProjection(defaultCamera(params), 1);
  return { viewProj, width: SIZE, height: SIZE, boidSize: boidSizeFor(params) };
}

/** Draws and reads the default framebuffer back in the same task (preserveDrawingBuffer is off). */
function draw(b: WebGL2Backend | WebGL2TFBackend, view: RenderView): Uint8Array {
  b.render(view);
  const gl = b.gl;
  const px = new Uint8Array(4 * SIZE * SIZE);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, px);
  expect(gl.getError()).toBe(gl.NO_ERROR);
  return px;
}

function countDrawn(px: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < SIZE * SIZE; i++) {
    if (px[4 * i] !== BACKGROUND[0] || px[4 * i + 1] !== BACKGROUND[1]) n++;
    else if (px[4 * i + 2] !== BACKGROUND[2]) n++;
  }
  return n;
}

function countDifferent(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < SIZE * SIZE; i++) {
    if (a[4 * i] !== b[4 * i] || a[4 * i + 1] !== b[4 * i + 1] || a[4 * i + 2] !== b[4 * i + 2])
      n++;
  }
  return n;
}

/** At most this fraction of pixels may differ between the paths (float sums in another order). */
const TINY = 0.002;

describe('webgl2-tf render', () => {
  for (const dims of [3, 2] as const) {
    test(`${dims}D: 2,000 boids, the same picture as the texture path, before and after steps`, async () => {
      const params = parityParams({ count: 2000, dimensions: dims, perceptionRadius: 1 });
      const { tex, tf } = await makeBoth(params);
      const view = viewFor(params);
      const first = draw(tf, view);
      const drawn = countDrawn(first);
      expect(drawn).toBeGreaterThan(0.03 * SIZE * SIZE);
      expect(drawn).toBeLessThan(0.9 * SIZE * SIZE);
      expect(first[3]).toBe(255);
      expect(countDifferent(first, draw(tex, view))).toBe(0);

      tf.drawMode = 'vertex-id';
      expect(countDifferent(first, draw(tf, view))).toBe(0);
      tf.drawMode = 'instanced';

      tf.step(5);
      tex.step(5);
      const later = draw(tf, view);
      expect(countDifferent(first, later)).toBeGreaterThan(0.01 * SIZE * SIZE);
      expect(countDrawn(later)).toBeGreaterThan(0.03 * SIZE * SIZE);
      expect(countDifferent(later, draw(tex, view))).toBeLessThanOrEqual(TINY * SIZE * SIZE);
    });
  }

  test('brute force: the same picture after steps', async () => {
    const params = parityParams({ count: 1500, neighborSearch: 'brute', boundary: 'wrap' });
    const { tex, tf } = await makeBoth(params);
    tf.step(3);
    tex.step(3);
    const view = viewFor(params);
    expect(countDifferent(draw(tf, view), draw(tex, view))).toBeLessThanOrEqual(TINY * SIZE * SIZE);
  });
});
