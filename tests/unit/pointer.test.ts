// Pointer picking as a pure function (src/core/pointer.ts, issue 18 item 1): camera + canvas box +
// simulation box in, world point out, checked against hand-worked numbers. With fovY = 90 degrees
// (tan 45 = 1) and the camera 10 units from the plane, the visible half-height on the plane is 10
// world units; ndc = ((x - left) / width) * 2 - 1 and 1 - ((y - top) / height) * 2.
import { describe, expect, test } from 'vitest';
import { pointerToWorld, type PointerCanvas } from '../../src/core/pointer';
import type { FlockParams } from '../../src/core/params';
import { camera } from '../support/camera';

type Box = Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>;
const box3: Box = { boundsMin: [-5, -5, -5], boundsMax: [5, 5, 5], dimensions: 3 };
/** A canvas whose CSS box is `cssWidth` x `cssHeight` at (left, top), its drawing buffer `width` x `height`. */
const canvasBox = (
  left: number,
  top: number,
  cssWidth: number,
  cssHeight: number,
  width: number,
  height: number,
): PointerCanvas => ({ rect: { left, top, width: cssWidth, height: cssHeight }, width, height });
/** A 200 x 200 CSS box at (100, 50) with a 400 x 400 drawing buffer (devicePixelRatio 2). */
const square: PointerCanvas = canvasBox(100, 50, 200, 200, 400, 400);

function expectPoint(got: number[] | null, want: number[]): void {
  expect(got).not.toBeNull();
  for (let a = 0; a < 3; a++) expect(got![a], `axis ${a}`).toBeCloseTo(want[a]!, 4);
}

describe('pointerToWorld', () => {
  test('3D, camera on +z: the centre, a quarter of the way in, and a corner of the canvas', () => {
    expectPoint(pointerToWorld(200, 150, square, camera(), box3, 'contain'), [0, 0, 0]);
    // ndc (0.5, 0.5): half of the 10-unit half-height up and right.
    expectPoint(pointerToWorld(250, 100, square, camera(), box3, 'contain'), [5, 5, 0]);
    // ndc (1, -1): the bottom-right corner, inside the box grown by its size (+-15).
    expectPoint(pointerToWorld(300, 250, square, camera(), box3, 'contain'), [10, -10, 0]);
  });

  test('a pointer far off the canvas is clamped into the box grown by its own size', () => {
    // ndc x = 9 -> x = 90, clamped to 5 + 10 = 15; ndc y = -5 -> y = -50, clamped to -15.
    expectPoint(pointerToWorld(1100, 650, square, camera(), box3, 'contain'), [15, -15, 0]);
  });

  test('a tall canvas under "contain" widens the view: the vertical half-extent doubles', () => {
    // Drawing buffer 200 x 400: aspect 0.5, fitScale max(1, 1 / 0.5) = 2: tan = 2 vertically,
    // 2 * 0.5 = 1 horizontally. ndc (0.5, 0.5) -> (5, 10).
    const tall: PointerCanvas = canvasBox(0, 0, 100, 200, 200, 400);
    expectPoint(pointerToWorld(75, 50, tall, camera(), box3, 'contain'), [5, 10, 0]);
  });

  test('yaw 90 degrees: the camera on +x looks down -x; screen right is -z, the plane is x = 0', () => {
    expectPoint(
      pointerToWorld(250, 100, square, camera({ yaw: Math.PI / 2 }), box3, 'contain'),
      [0, 5, -5],
    );
  });

  test('2D: the plane z = 0 through the box centre, whatever the box z', () => {
    const box2: Box = { boundsMin: [0, 0, -3], boundsMax: [20, 10, 3], dimensions: 2 };
    const cam = camera({ target: [10, 5, 0] });
    expectPoint(pointerToWorld(200, 150, square, cam, box2, 'contain'), [10, 5, 0]);
    expectPoint(pointerToWorld(250, 100, square, cam, box2, 'contain'), [15, 10, 0]);
  });

  test('a canvas not laid out counts as its drawing buffer at the origin; one without size gives null', () => {
    const unlaid: PointerCanvas = canvasBox(0, 0, 0, 0, 100, 100);
    expectPoint(pointerToWorld(75, 25, unlaid, camera(), box3, 'contain'), [5, 5, 0]);
    const empty: PointerCanvas = canvasBox(0, 0, 0, 0, 0, 0);
    expect(pointerToWorld(75, 25, empty, camera(), box3, 'contain')).toBeNull();
  });
});
