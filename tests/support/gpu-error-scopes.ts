/**
 * WebGPU error scopes around each test case (browser and node-gpu tests): a case passes only when
 * no 'validation', 'out-of-memory' or 'internal' error was raised on any device it used. Errors
 * inside a scope never reach `uncapturederror`, so without this a wrong bind group or an
 * oversized buffer in a test could go unseen.
 *
 * A watch pushes the three scopes on the devices it is given and, where `GPUAdapter` exists (the
 * browser), on every device requested while it runs; a device destroyed during the case has its
 * scopes popped just before it goes (its `destroy` is wrapped for that). Scopes the code under
 * test pushes itself (src/webgpu/shaders.ts does for compiles) nest inside these and keep theirs.
 */
import { afterEach, beforeEach, expect } from 'vitest';

const FILTERS: readonly GPUErrorFilter[] = ['validation', 'out-of-memory', 'internal'];

/** One case's watch over its devices. */
export interface GpuErrorWatch {
  /** Pushes the three scopes on `device` (once: a device already watched is left alone). */
  watch(device: GPUDevice): void;
  /**
   * Pops every scope still pushed, stops watching new devices, and returns the errors caught, one
   * line each (`<device label> <filter>: <message>`), in the order popped.
   */
  finish(): Promise<string[]>;
}

/** Starts a watch: `devices` now, and every device requested (in the browser) until finish(). */
export function watchGpuErrors(
  devices: readonly (GPUDevice | null | undefined)[] = [],
): GpuErrorWatch {
  const pending: Promise<string | null>[] = [];
  const watched = new Map<GPUDevice, () => void>();

  const popAll = (device: GPUDevice) => {
    const undo = watched.get(device);
    if (!undo) return;
    watched.delete(device);
    // Popped in reverse order of pushing: each pop takes its own filter's scope.
    for (const filter of [...FILTERS].reverse()) {
      pending.push(
        device.popErrorScope().then(
          (e) => (e ? `${device.label || 'device'} ${filter}: ${e.message}` : null),
          // A device lost some other way has no scopes left to pop: nothing more to learn there.
          () => null,
        ),
      );
    }
    undo();
  };

  const watch = (device: GPUDevice) => {
    if (watched.has(device)) return;
    for (const filter of FILTERS) device.pushErrorScope(filter);
    const destroy = device.destroy;
    const own = Object.prototype.hasOwnProperty.call(device, 'destroy');
    device.destroy = function (this: GPUDevice) {
      popAll(device);
      return destroy.call(this);
    };
    watched.set(device, () => {
      if (own) device.destroy = destroy;
      else delete (device as Partial<GPUDevice>).destroy;
    });
  };

  const proto = typeof GPUAdapter === 'undefined' ? null : GPUAdapter.prototype;
  const requestDevice = proto?.requestDevice;
  if (proto && requestDevice) {
    proto.requestDevice = async function (this: GPUAdapter, d?: GPUDeviceDescriptor) {
      const device = await requestDevice.call(this, d);
      watch(device);
      return device;
    };
  }
  for (const d of devices) if (d) watch(d);

  return {
    watch,
    async finish() {
      if (proto && requestDevice) proto.requestDevice = requestDevice;
      for (const d of [...watched.keys()]) popAll(d);
      const found = await Promise.all(pending.splice(0));
      return found.filter((m): m is string => m !== null);
    },
  };
}

/**
 * Registers, for every test of the file or describe block it is called in, a watch
 * (watchGpuErrors) started before the test (on `devices()`, e.g. a device made in beforeAll,
 * and every device the test requests) and finished after it, failing the test on any error.
 * Call it before any afterEach hook that disposes the test's backends, or after: a device
 * destroyed first has its scopes popped just before.
 */
export function useGpuErrorScopes(
  devices: () => readonly (GPUDevice | null | undefined)[] = () => [],
): void {
  let current: GpuErrorWatch | null = null;
  beforeEach(() => {
    current = watchGpuErrors(devices());
  });
  afterEach(async () => {
    const w = current;
    current = null;
    if (w) expect(await w.finish(), 'WebGPU errors in this test').toEqual([]);
  });
}
