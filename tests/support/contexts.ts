/**
 * Counts the WebGL2 contexts (on canvases and OffscreenCanvases) and WebGPU devices a page makes
 * from the call on (browser tests only):
 * `liveGL()` those not lost, `liveDevices()` those not lost; `restore()` undoes the patches.
 */
export function trackContexts(): {
  liveGL: () => number;
  liveDevices: () => number;
  restore: () => void;
} {
  const gls: WebGL2RenderingContext[] = [];
  const devices: { device: GPUDevice; lost: boolean }[] = [];
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (
    this: HTMLCanvasElement,
    type: string,
    ...rest: unknown[]
  ) {
    const ctx = (getContext as (...a: unknown[]) => unknown).call(this, type, ...rest);
    if (type === 'webgl2' && ctx && !gls.includes(ctx as WebGL2RenderingContext)) {
      gls.push(ctx as WebGL2RenderingContext);
    }
    return ctx;
  } as typeof getContext;
  // The page's shared WebGL2 context lives on an OffscreenCanvas (src/webgl2/shared-context.ts).
  const hasOffscreen = typeof OffscreenCanvas !== 'undefined';
  const offscreenGetContext = hasOffscreen ? OffscreenCanvas.prototype.getContext : null;
  if (hasOffscreen) {
    OffscreenCanvas.prototype.getContext = function (
      this: OffscreenCanvas,
      type: string,
      ...rest: unknown[]
    ) {
      const ctx = (offscreenGetContext as (...a: unknown[]) => unknown).call(this, type, ...rest);
      if (type === 'webgl2' && ctx && !gls.includes(ctx as WebGL2RenderingContext)) {
        gls.push(ctx as WebGL2RenderingContext);
      }
      return ctx;
    } as typeof offscreenGetContext & object;
  }
  const hasGPU = typeof GPUAdapter !== 'undefined';
  const requestDevice = hasGPU ? GPUAdapter.prototype.requestDevice : null;
  if (hasGPU) {
    GPUAdapter.prototype.requestDevice = async function (
      this: GPUAdapter,
      d?: GPUDeviceDescriptor,
    ) {
      const device = await requestDevice!.call(this, d);
      const entry = { device, lost: false };
      devices.push(entry);
      void device.lost.then(() => (entry.lost = true));
      return device;
    };
  }
  return {
    liveGL: () => gls.filter((g) => !g.isContextLost()).length,
    liveDevices: () => devices.filter((d) => !d.lost).length,
    restore: () => {
      HTMLCanvasElement.prototype.getContext = getContext;
      if (hasOffscreen) OffscreenCanvas.prototype.getContext = offscreenGetContext!;
      if (hasGPU) GPUAdapter.prototype.requestDevice = requestDevice!;
    },
  };
}
