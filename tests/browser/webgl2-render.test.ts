// Drawing on both WebGL2 paths (the feedback path with EXT_color_buffer_float hidden): ~2,000 boids
// draw something, the picture changes as they move, both draw modes give the same pixels, and a
// boid's colour is the speed ramp of src/core/render-math.ts. The transform-feedback path draws the
// same picture as the texture path: the same state drawn by both backends (same camera, same
// canvas size) gives the same pixels, before and after steps.
import { afterEach, describe, expect, test } from 'vitest';
import type { RenderView } from '../../src/backend';
import type { FlockParams } from '../../src/core/params';
import { MESHES, lookFrame, shade } from '../../src/core/look';
import { boidSizeFor, defaultCamera, viewProjection } from '../../src/core/render-math';
import { speedColor, viewBasis } from '../../src/core/render-draw';
import { initialState, type FlockState } from '../../src/core/state';
import type { WebGL2PathBackend } from '../../src/webgl2/webgl2-path-base';
import { addCanvas } from '../support/browser';
import { parityParams } from '../support/compare';
import {
  FEEDBACK_PATH,
  TEXTURE_PATH,
  WEBGL2_PATHS,
  type WebGL2Path,
} from '../support/webgl2-paths';

const SIZE = 160;
const BACKGROUND = [5, 8, 15]; // round(255 * [0.02, 0.03, 0.06])

const made: WebGL2PathBackend[] = [];
afterEach(() => {
  for (const b of made.splice(0)) {
    expect(b.gl.getError()).toBe(b.gl.NO_ERROR);
    b.dispose();
    b.canvas.remove();
  }
});

async function make(path: WebGL2Path, params: FlockParams, state = initialState(params)) {
  const b = await path.create({ canvas: addCanvas(SIZE), params, state });
  made.push(b);
  return b;
}

function viewFor(params: FlockParams, boidSize = boidSizeFor(params)): RenderView {
  const viewProj = viewProjection(defaultCamera(params), 1);
  return { viewProj, width: SIZE, height: SIZE, boidSize };
}

/** Draws and reads the default framebuffer back in the same task (preserveDrawingBuffer is off). */
function draw(b: WebGL2PathBackend, view: RenderView): Uint8Array {
  b.render(view);
  const gl = b.gl;
  const px = new Uint8Array(4 * SIZE * SIZE);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, px);
  expect(gl.getError()).toBe(gl.NO_ERROR);
  return px;
}

function isBackground(px: Uint8Array, i: number): boolean {
  return (
    px[4 * i] === BACKGROUND[0] &&
    px[4 * i + 1] === BACKGROUND[1] &&
    px[4 * i + 2] === BACKGROUND[2]
  );
}

function countDrawn(px: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < SIZE * SIZE; i++) if (!isBackground(px, i)) n++;
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

describe.each(WEBGL2_PATHS)('$kind render', (path) => {
  for (const dims of [3, 2] as const) {
    test(`${dims}D: 2,000 boids draw, move, and both draw modes agree`, async () => {
      const params = parityParams({ count: 2000, dimensions: dims, perceptionRadius: 1 });
      const b = await make(path, params);
      const view = viewFor(params);
      const first = draw(b, view);
      expect(isBackground(first, 0)).toBe(true); // a corner shows the clear colour
      const drawn = countDrawn(first);
      expect(drawn).toBeGreaterThan(0.03 * SIZE * SIZE);
      expect(drawn).toBeLessThan(0.9 * SIZE * SIZE);
      expect(first[3]).toBe(255);

      b.drawMode = 'vertex-id';
      const vertexId = draw(b, view);
      expect(countDifferent(first, vertexId)).toBe(0);
      b.drawMode = 'instanced';

      b.step(5);
      const later = draw(b, view);
      expect(countDifferent(first, later)).toBeGreaterThan(0.01 * SIZE * SIZE);
      expect(countDrawn(later)).toBeGreaterThan(0.03 * SIZE * SIZE);
    });
  }

  test('a boid is coloured by its speed with the SPEED_RAMP stops, oriented along its velocity', async () => {
    const params = parityParams({ count: 1, dimensions: 2 });
    const speed = 3.5;
    const state: FlockState = initialState(params);
    state.positions.set([0, 0, 0, 0]);
    state.velocities.set([speed, 0, 0, 0]);
    const b = await make(path, params, state);
    const px = draw(b, viewFor(params, 12));
    // Tally the drawn colours; edges blend with the background under MSAA, the inside does not.
    const tally = new Map<string, number>();
    let minX = SIZE;
    let maxX = 0;
    let minY = SIZE;
    let maxY = 0;
    for (let i = 0; i < SIZE * SIZE; i++) {
      if (isBackground(px, i)) continue;
      const key = `${px[4 * i]},${px[4 * i + 1]},${px[4 * i + 2]}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
      const x = i % SIZE;
      const y = Math.floor(i / SIZE);
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const [top] = [...tally.entries()].sort((a, c) => c[1] - a[1]);
    const got = top![0].split(',').map(Number);
    // The ramp's colour lit by look.ts's shade (the default view: arrow, lighting 0.7) on one of
    // the arrow's 4 faces: in 2D the mesh's x is the velocity (+x), y points at the camera (+z)
    // and z is the velocity's right (-y).
    const ramp = speedColor(speed, params.minSpeed, params.maxSpeed);
    const view = viewFor(params, 12);
    const frame = lookFrame(
      params,
      'arrow',
      [1, 1, 1],
      viewBasis(view.viewProj),
      view.viewProj,
      SIZE,
      0,
    );
    const m = MESHES.arrow;
    const faces = [0, 3, 6, 9].map((v) => {
      const n = [m[8 * v + 4]!, -m[8 * v + 6]!, m[8 * v + 5]!];
      // Turned toward the eye (above the plane).
      const toward = n[2]! < 0 ? n.map((x) => -x) : n;
      return shade(ramp, toward, 0.7, frame);
    });
    const closest = Math.min(
      ...faces.map((f) => Math.max(...f.map((c, k) => Math.abs(c * 255 - got[k]!)))),
    );
    expect(closest).toBeLessThanOrEqual(1.5);
    // Moving along +x: the arrow is longer along x (1 boid length) than across (0.5).
    expect(maxX - minX).toBeGreaterThan(1.5 * (maxY - minY));
  });
});

/** At most this fraction of pixels may differ between the paths (float sums in another order). */
const TINY = 0.002;

describe('webgl2-tf draws the texture path picture', () => {
  async function makeBoth(params: FlockParams, state: FlockState = initialState(params)) {
    const tex = await make(TEXTURE_PATH, params, state);
    const tf = await make(FEEDBACK_PATH, params, state);
    return { tex, tf };
  }

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
