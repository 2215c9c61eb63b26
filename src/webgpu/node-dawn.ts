/**
 * Node only (never imported by the browser build): a WebGPU device through Dawn's `dawn.node`,
 * for the Node tests and the real-GPU benchmark (../shared/GPU.md).
 * Tries Dawn's default backend (Vulkan on a GPU machine) first; when that finds no adapter, the
 * OpenGL backend on Mesa in compatibility mode (EGL_PLATFORM=surfaceless, set here if unset).
 */
import { createRequire } from 'node:module';
import { describeAdapter, flockDeviceDescriptor, isFallbackAdapter } from './device';

export interface DawnDevice {
  device: GPUDevice;
  adapter: GPUAdapter;
  /** Human-readable adapter name. */
  adapterName: string;
  /** Which backend answered: 'default' (Vulkan where present) or 'opengl'. */
  backend: 'default' | 'opengl';
  featureLevel: 'core' | 'compatibility';
  isFallbackAdapter: boolean;
  /** Destroys the device and drops the GPU instance so Node can exit. */
  close(): void;
}

export interface DawnOptions {
  /** Path of a dawn.node to load instead of the `webgpu` package (the benchmark bundle). */
  dawnPath?: string;
  /** Extra Dawn options, e.g. 'disable-dawn-features=timestamp_quantization'. */
  flags?: string[];
  /** Only this backend (default: the default backend, then OpenGL). */
  backend?: 'default' | 'opengl';
  /** Request timestamps when offered (default true). */
  timestamps?: boolean;
}

interface DawnModule {
  create(flags: string[]): GPU;
  globals: Record<string, unknown>;
}

async function loadDawn(dawnPath?: string): Promise<DawnModule> {
  if (process.env.EGL_PLATFORM === undefined) process.env.EGL_PLATFORM = 'surfaceless';
  if (dawnPath) {
    const require = createRequire(import.meta.url);
    return require(dawnPath) as DawnModule;
  }
  const mod = (await import('webgpu')) as unknown as DawnModule;
  return mod;
}

/**
 * A Dawn device with the adapter's limits (and timestamps when offered), or null with the reason
 * when no backend offers an adapter.
 */
export async function createDawnDevice(
  options: DawnOptions = {},
): Promise<DawnDevice | { device: null; reason: string }> {
  let dawn: DawnModule;
  try {
    dawn = await loadDawn(options.dawnPath);
  } catch (e) {
    return { device: null, reason: `cannot load dawn.node: ${String(e)}` };
  }
  // Install GPUBufferUsage & co. for code that expects the browser's globals.
  for (const [k, v] of Object.entries(dawn.globals)) {
    if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
  }
  const attempts: { backend: 'default' | 'opengl'; featureLevel: 'core' | 'compatibility' }[] = [];
  if (options.backend !== 'opengl') attempts.push({ backend: 'default', featureLevel: 'core' });
  if (options.backend !== 'default')
    attempts.push({ backend: 'opengl', featureLevel: 'compatibility' });
  const reasons: string[] = [];
  for (const a of attempts) {
    const flags = [...(a.backend === 'opengl' ? ['backend=opengl'] : []), ...(options.flags ?? [])];
    let gpu: GPU | null = null;
    try {
      gpu = dawn.create(flags);
      const adapter = await gpu.requestAdapter({
        featureLevel: a.featureLevel,
        powerPreference: 'high-performance',
      } as GPURequestAdapterOptions);
      if (!adapter) {
        reasons.push(`${a.backend}: no adapter`);
        continue;
      }
      const device = await adapter.requestDevice(
        flockDeviceDescriptor(adapter, { timestamps: options.timestamps ?? true }),
      );
      const held = { gpu: gpu as GPU | null };
      return {
        device,
        adapter,
        adapterName: describeAdapter(adapter),
        backend: a.backend,
        featureLevel: a.featureLevel,
        isFallbackAdapter: isFallbackAdapter(adapter),
        close() {
          device.destroy();
          held.gpu = null;
        },
      };
    } catch (e) {
      reasons.push(`${a.backend}: ${String(e)}`);
    }
  }
  return { device: null, reason: `no WebGPU adapter through Dawn (${reasons.join('; ')})` };
}
