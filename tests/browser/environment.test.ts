import { expect, test } from 'vitest';

test('webgl2 and webgpu exist in the test browser', async () => {
  const gl = document.createElement('canvas').getContext('webgl2');
  expect(gl).not.toBeNull();
  expect(gl!.getExtension('EXT_color_buffer_float')).not.toBeNull();
  const adapter = await navigator.gpu?.requestAdapter();
  expect(adapter).toBeTruthy();
});
