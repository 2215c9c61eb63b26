// The WebGPU tests' error-scope watch (tests/support/gpu-error-scopes.ts) catches what it is for:
// a validation error on a device it was given, on a device requested during the case, and on a
// device destroyed during the case; a clean case reports nothing and leaves no scope pushed.
import { describe, expect, test } from 'vitest';
import { watchGpuErrors } from '../support/gpu-error-scopes';

async function newDevice(): Promise<GPUDevice> {
  const adapter = await navigator.gpu.requestAdapter();
  expect(adapter, 'the test browser must offer a WebGPU adapter').toBeTruthy();
  return adapter!.requestDevice({ label: 'scope-test' });
}

/** A buffer with no usage at all: a validation error ("usage must not be 0"). */
const badBuffer = (device: GPUDevice) => device.createBuffer({ size: 16, usage: 0 });

describe('watchGpuErrors', () => {
  test('a clean case: no errors, and the scopes are all popped again', async () => {
    const device = await newDevice();
    const w = watchGpuErrors([device]);
    device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    expect(await w.finish()).toEqual([]);
    // Nothing of ours is left on the stack: popping once more finds no scope.
    await expect(device.popErrorScope()).rejects.toThrow();
    device.destroy();
  });

  test('a validation error on a device it was given', async () => {
    const device = await newDevice();
    const w = watchGpuErrors([device]);
    badBuffer(device);
    const errors = await w.finish();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^scope-test validation: /);
    device.destroy();
  });

  test('a validation error on a device requested during the case', async () => {
    const w = watchGpuErrors();
    const device = await newDevice();
    badBuffer(device);
    expect(await w.finish()).toEqual([expect.stringMatching(/^scope-test validation: /)]);
    device.destroy();
  });

  test('a validation error on a device destroyed during the case', async () => {
    const w = watchGpuErrors();
    const device = await newDevice();
    badBuffer(device);
    device.destroy();
    expect(await w.finish()).toEqual([expect.stringMatching(/^scope-test validation: /)]);
  });

  test("the code under test's own scope keeps its error", async () => {
    const device = await newDevice();
    const w = watchGpuErrors([device]);
    device.pushErrorScope('validation');
    badBuffer(device);
    expect(await device.popErrorScope()).toBeInstanceOf(GPUValidationError);
    expect(await w.finish()).toEqual([]);
    device.destroy();
  });
});
