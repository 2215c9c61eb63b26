/**
 * gpu-flock's public API (DESIGN.md section 4): createFlock, the Flock object, the parameter
 * schema, FlockError. Importing this module registers every backend of the `auto` ladder; each
 * backend's code is loaded on first use (dynamic import), so a page pays only for the path it runs.
 */
import { registerBackend, SOFTWARE_RENDERER } from './backends';

registerBackend('webgpu', {
  async probe(disable) {
    if (disable.has('webgpu')) return { ok: false, reason: "hidden by disable: ['webgpu']" };
    if (typeof navigator === 'undefined' || !navigator.gpu) {
      return { ok: false, reason: 'navigator.gpu is missing (no WebGPU in this browser)' };
    }
    const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return { ok: false, reason: 'navigator.gpu.requestAdapter() returned null' };
    const { isFallbackAdapter, describeAdapter } = await import('./webgpu/device');
    const info = describeAdapter(adapter);
    return { ok: true, software: isFallbackAdapter(adapter) || SOFTWARE_RENDERER.test(info), info };
  },
  create: async (init) => (await import('./webgpu/webgpu-backend')).createWebGPUBackend(init),
});

registerBackend('webgl2', {
  async probe(disable) {
    const { probeWebGL2 } = await import('./webgl2/capabilities');
    const p = probeWebGL2(disable);
    if (!p.ok) return { ok: false, reason: p.reason ?? 'no WebGL2 context' };
    if (!p.floatRenderTarget)
      return {
        ok: false,
        reason: p.reason ?? 'no verified float colour attachment (EXT_color_buffer_float)',
      };
    return { ok: true, software: SOFTWARE_RENDERER.test(p.renderer ?? ''), info: p.renderer ?? '' };
  },
  create: async (init) => (await import('./webgl2/webgl2-backend')).createWebGL2Backend(init),
});

registerBackend('webgl2-tf', {
  async probe(disable) {
    const { probeWebGL2 } = await import('./webgl2/capabilities');
    const p = probeWebGL2(disable);
    if (!p.ok) return { ok: false, reason: p.reason ?? 'no WebGL2 context' };
    return { ok: true, software: SOFTWARE_RENDERER.test(p.renderer ?? ''), info: p.renderer ?? '' };
  },
  create: async (init) => (await import('./webgl2/webgl2-tf-backend')).createWebGL2TFBackend(init),
});

registerBackend('cpu', {
  probe: async (disable) => (await import('./cpu/cpu-backend')).probeCpuBackend(disable),
  create: async (init) => (await import('./cpu/cpu-backend')).createCpuBackend(init),
});

export { createFlock, Flock, DISABLE_NAMES, PARAM_NAMES } from './flock';
export { CPU_MAX_COUNT, PASS_NAMES } from './backend';
export type { FlockOptions, FlockStats, BackendChoice } from './flock';
export type { BackendKind, PassTimes, PassName } from './backend';
export { BACKEND_LADDER } from './backend';
export { FlockError } from './core/errors';
export { PARAM_SCHEMA, defaultParams, validateParams, paramSpec, allowedText } from './core/params';
export type {
  FlockParams,
  ParamSpec,
  Vec3,
  Boundary,
  NeighborSearch,
  SortKind,
} from './core/params';
export { initialState, validateState, mulberry32 } from './core/state';
export type { FlockState } from './core/state';
export { referenceStep, referenceSteps, neighborCounts } from './core/reference';
export { defaultCamera, type OrbitCamera } from './core/render-math';
export { ShaderError } from './core/shader-source';
