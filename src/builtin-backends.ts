/**
 * The four rungs of the `auto` ladder (DESIGN.md section 3): each probe works by doing, and each
 * backend's code is a dynamic import, loaded the first time that rung is probed or built (the cpu
 * rung's probe is tiny and static, so a GPU page never loads the cpu backend).
 * Registered by createFlock on its first call rather than on import, so importing the package has
 * no side effects (bundlers may then drop whatever a page does not use).
 */
import { registerBackend, SOFTWARE_RENDERER } from './backend-ladder';
import { probeCpuBackend } from './cpu/cpu-probe';

let registered = false;

/** Registers webgpu, webgl2, webgl2-tf and cpu once; later calls do nothing. */
export function registerBuiltinBackends(): void {
  if (registered) return;
  registered = true;
  registerBackend('webgpu', {
    async probe(disable) {
      if (disable.has('webgpu')) return { ok: false, reason: "hidden by disable: ['webgpu']" };
      if (typeof navigator === 'undefined' || !navigator.gpu) {
        return { ok: false, reason: 'navigator.gpu is missing (no WebGPU in this browser)' };
      }
      // The backend's code loads while the adapter is asked for (create imports the same module),
      // and so does the WebGL2 renderer check's (under 1 kB, no context made), which a software
      // adapter is followed by (planLadder).
      void import('./webgpu/webgpu-backend').catch(() => undefined);
      void import('./webgl2/probe-context').catch(() => undefined);
      const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
      if (!adapter) return { ok: false, reason: 'navigator.gpu.requestAdapter() returned null' };
      const { isFallbackAdapter, describeAdapter } = await import('./webgpu/device');
      const info = describeAdapter(adapter);
      return {
        ok: true,
        software: isFallbackAdapter(adapter) || SOFTWARE_RENDERER.test(info),
        info,
      };
    },
    create: async (init) => (await import('./webgpu/webgpu-backend')).createWebGPUBackend(init),
  });

  registerBackend('webgl2', {
    async probe(disable) {
      // No early import of the backend here (the webgpu probe has one): a page on a software
      // WebGPU adapter probes WebGL2 too, and a bundled WebGPU page must load no WebGL2 path code
      // (tests/e2e/examples.test.ts).
      const { probeWebGL2 } = await import('./webgl2/capabilities');
      const p = await probeWebGL2(disable);
      if (!p.ok) return { ok: false, reason: p.reason ?? 'no WebGL2 context' };
      if (!p.floatRenderTarget)
        return {
          ok: false,
          reason: p.reason ?? 'no verified float colour attachment (EXT_color_buffer_float)',
        };
      return {
        ok: true,
        software: SOFTWARE_RENDERER.test(p.renderer ?? ''),
        info: p.renderer ?? '',
      };
    },
    // Beside a software WebGPU adapter planLadder asks only whether this renderer is software.
    quickSoftware: async (disable) =>
      (await import('./webgl2/probe-context')).rendererIsSoftware(disable),
    create: async (init) => (await import('./webgl2/webgl2-backend')).createWebGL2Backend(init),
  });

  registerBackend('webgl2-tf', {
    async probe(disable) {
      const { probeWebGL2 } = await import('./webgl2/capabilities');
      const p = await probeWebGL2(disable);
      if (!p.ok) return { ok: false, reason: p.reason ?? 'no WebGL2 context' };
      return {
        ok: true,
        software: SOFTWARE_RENDERER.test(p.renderer ?? ''),
        info: p.renderer ?? '',
      };
    },
    create: async (init) =>
      (await import('./webgl2/webgl2-tf-backend')).createWebGL2TFBackend(init),
  });

  registerBackend('cpu', {
    probe: probeCpuBackend,
    create: async (init) => (await import('./cpu/cpu-backend')).createCpuBackend(init),
  });
}
