// Both WebGL2 paths (texture, transform feedback with EXT_color_buffer_float hidden) against the
// CPU reference (DESIGN.md section 5): 1 and 10 steps within the tolerance rule for bounce and
// wrap, 3D and 2D, grid search; brute force for 1 step.
import { describe, test } from 'vitest';
import { parityParams } from '../support/compare';
import { parityCheck } from '../support/webgl2-parity';
import { WEBGL2_PATHS, pathSlot } from '../support/webgl2-paths';

describe.each(WEBGL2_PATHS)('$kind parity with the CPU reference', (path) => {
  const expectParity = parityCheck(pathSlot(path));

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
