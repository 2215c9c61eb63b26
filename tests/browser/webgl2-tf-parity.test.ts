// WebGL2 transform-feedback path against the CPU reference (DESIGN.md section 5): 1 and 10 steps
// within the tolerance rule for bounce and wrap, 3D and 2D, grid search; brute force for 1 step.
// EXT_color_buffer_float is hidden throughout: this rung must never need it.
import { afterEach, describe, expect, test } from 'vitest';
import type { FlockParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { initialState } from '../../src/core/state';
import { createWebGL2TFBackend, type WebGL2TFBackend } from '../../src/webgl2/webgl2-tf-backend';
import { allFinite, checkTolerance, parityParams } from '../support/compare';

let backend: WebGL2TFBackend | null = null;
afterEach(() => {
  if (backend) expect(backend.gl.getError()).toBe(backend.gl.NO_ERROR);
  backend?.dispose();
  backend?.canvas.remove();
  backend = null;
});

async function make(params: FlockParams): Promise<WebGL2TFBackend> {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 64;
  document.body.append(canvas);
  backend = await createWebGL2TFBackend({
    canvas,
    params,
    state: initialState(params),
    disable: new Set(['EXT_color_buffer_float']),
  });
  return backend;
}

async function expectParity(params: FlockParams, steps: number[]): Promise<void> {
  const b = await make(params);
  const start = initialState(params);
  let done = 0;
  let want = start;
  for (const n of steps) {
    b.step(n - done);
    want = referenceSteps(want, params, n - done);
    done = n;
    const got = await b.readState();
    expect(allFinite(got)).toBe(true);
    const report = checkTolerance(got, want, params, n);
    expect(report.ok, report.message).toBe(true);
    // Species ids (positions.w) travel with their boids; velocities.w is 0.
    for (let i = 0; i < params.count; i++) {
      expect(got.positions[4 * i + 3]).toBe(start.positions[4 * i + 3]);
      expect(got.velocities[4 * i + 3]).toBe(0);
    }
  }
}

describe('webgl2-tf parity with the CPU reference', () => {
  test('3D bounce, grid: 1 and 10 steps', async () => {
    await expectParity(parityParams({ boundary: 'bounce' }), [1, 10]);
  });
  test('3D wrap, grid: 1 and 10 steps', async () => {
    await expectParity(parityParams({ boundary: 'wrap' }), [1, 10]);
  });
  test('3D bounce, brute: 1 step', async () => {
    await expectParity(parityParams({ neighborSearch: 'brute' }), [1]);
  });
  test('3D wrap, brute: 1 step', async () => {
    await expectParity(parityParams({ neighborSearch: 'brute', boundary: 'wrap' }), [1]);
  });
  test('2D wrap, grid: 1 and 10 steps', async () => {
    await expectParity(
      parityParams({ dimensions: 2, boundary: 'wrap', count: 3001, perceptionRadius: 0.9 }),
      [1, 10],
    );
  });
  test('2D bounce, grid: 1 and 10 steps', async () => {
    await expectParity(
      parityParams({ dimensions: 2, count: 3001, perceptionRadius: 0.9 }),
      [1, 10],
    );
  });
});
