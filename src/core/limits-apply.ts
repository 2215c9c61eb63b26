/**
 * The device caps applied (FlockOptions.limits, src/core/limits.ts): a WebGL2 context held to
 * them, and the limits of a WebGPU compatibility device. Apart from limits.ts (the option's
 * checking, which createFlock runs at first load) because only the backends apply them: each
 * backend's chunk loads this when it starts.
 */
import type { DeviceLimits } from './limits';

/** WebGPU compatibility mode's default limits (the ones a 'compatibility' device is held to). */
export const COMPATIBILITY_LIMITS: Readonly<Record<string, number>> = {
  maxTextureDimension2D: 4096,
  maxStorageBuffersPerShaderStage: 4,
  maxStorageBuffersInVertexStage: 0,
  maxComputeInvocationsPerWorkgroup: 128,
  maxComputeWorkgroupSizeX: 128,
  maxComputeWorkgroupStorageSize: 16384,
  maxComputeWorkgroupsPerDimension: 65535,
  maxStorageBufferBindingSize: 134217728,
  maxBufferSize: 268435456,
};

/**
 * Caps what this WebGL2 context reports and accepts (instance properties shadow the prototype's):
 * getParameter answers min(device, cap) for the capped limits, and texImage2D/texStorage2D larger
 * than maxTextureSize or drawBuffers with more than maxDrawBuffers throw, as a phone would fail.
 */
export function capWebGL2(gl: WebGL2RenderingContext, limits: DeviceLimits | null): void {
  if (!limits) return;
  const caps = new Map<number, number>();
  if (limits.maxTextureSize !== undefined) {
    caps.set(gl.MAX_TEXTURE_SIZE, limits.maxTextureSize);
    caps.set(gl.MAX_RENDERBUFFER_SIZE, limits.maxTextureSize);
  }
  if (limits.maxVertexTextureImageUnits !== undefined) {
    caps.set(gl.MAX_VERTEX_TEXTURE_IMAGE_UNITS, limits.maxVertexTextureImageUnits);
  }
  if (limits.maxDrawBuffers !== undefined) {
    caps.set(gl.MAX_DRAW_BUFFERS, limits.maxDrawBuffers);
    caps.set(gl.MAX_COLOR_ATTACHMENTS, limits.maxDrawBuffers);
  }
  const getParameter = gl.getParameter.bind(gl);
  gl.getParameter = (pname: number): unknown => {
    const v: unknown = getParameter(pname);
    const cap = caps.get(pname);
    return cap !== undefined && typeof v === 'number' ? Math.min(v, cap) : v;
  };
  const maxTex = limits.maxTextureSize;
  if (maxTex !== undefined) {
    const check = (w: number, h: number): void => {
      if (w > maxTex || h > maxTex) {
        throw new Error(`a ${w} x ${h} texture exceeds the capped MAX_TEXTURE_SIZE ${maxTex}`);
      }
    };
    const texStorage2D = gl.texStorage2D.bind(gl);
    gl.texStorage2D = (target, levels, format, w, h) => {
      check(w, h);
      texStorage2D(target, levels, format, w, h);
    };
    const texImage2D = gl.texImage2D.bind(gl) as (...a: unknown[]) => void;
    (gl as unknown as { texImage2D: (...a: unknown[]) => void }).texImage2D = (...a) => {
      // (target, level, internalformat, width, height, ...) when width/height are given.
      if (a.length >= 8 && typeof a[3] === 'number' && typeof a[4] === 'number') check(a[3], a[4]);
      texImage2D(...a);
    };
  }
  const maxDraw = limits.maxDrawBuffers;
  if (maxDraw !== undefined) {
    const drawBuffers = gl.drawBuffers.bind(gl);
    gl.drawBuffers = (buffers: Iterable<number>) => {
      const list = [...buffers];
      if (list.length > maxDraw) {
        throw new Error(
          `drawBuffers with ${list.length} buffers exceeds the capped MAX_DRAW_BUFFERS ${maxDraw}`,
        );
      }
      drawBuffers(list);
    };
  }
}
