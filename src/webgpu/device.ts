/**
 * Device set-up shared by the browser backend, the Node tests and the benchmark: ask for the
 * adapter's own limits (Dawn's compatibility mode and browsers otherwise hand out the low defaults:
 * 128 invocations per workgroup, 4 storage buffers per stage) and 'timestamp-query' when offered.
 */

import { COMPATIBILITY_LIMITS } from '../core/limits-apply';

/**
 * The limits the simulation and renderer depend on; each is requested at the adapter's maximum
 * (only those the adapter reports: an unknown key would make requestDevice reject).
 */
export const REQUESTED_LIMITS = [
  'maxStorageBuffersPerShaderStage',
  'maxStorageBuffersInVertexStage',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupsPerDimension',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBufferBindingSize',
  'maxBufferSize',
] as const;

export interface FlockDeviceOptions {
  /** Request 'timestamp-query' when the adapter has it (default true). */
  timestamps?: boolean;
  /** Request at most these limits (e.g. WebGPU compatibility mode's defaults): min(adapter, cap). */
  capLimits?: Readonly<Record<string, number>>;
  label?: string;
}

/** The descriptor requestDevice gets: the adapter's limits above, plus timestamps when offered. */
export function flockDeviceDescriptor(
  adapter: GPUAdapter,
  options: FlockDeviceOptions = {},
): GPUDeviceDescriptor {
  const requiredLimits: Record<string, number> = {};
  for (const k of REQUESTED_LIMITS) {
    const v = (adapter.limits as unknown as Record<string, number | undefined>)[k];
    const cap = options.capLimits?.[k];
    if (typeof v === 'number') requiredLimits[k] = cap === undefined ? v : Math.min(v, cap);
  }
  const requiredFeatures: GPUFeatureName[] = [];
  if ((options.timestamps ?? true) && adapter.features.has('timestamp-query')) {
    requiredFeatures.push('timestamp-query');
  }
  return { label: options.label ?? 'gpu-flock', requiredFeatures, requiredLimits };
}

/** requestDevice with flockDeviceDescriptor(adapter, options). */
export function requestFlockDevice(
  adapter: GPUAdapter,
  options: FlockDeviceOptions = {},
): Promise<GPUDevice> {
  return adapter.requestDevice(flockDeviceDescriptor(adapter, options));
}

/** adapter.info.isFallbackAdapter (current spec) or adapter.isFallbackAdapter (older browsers). */
export function isFallbackAdapter(adapter: GPUAdapter): boolean {
  const info = adapter.info as (GPUAdapterInfo & { isFallbackAdapter?: boolean }) | undefined;
  const old = (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter;
  return Boolean(info?.isFallbackAdapter ?? old ?? false);
}

/**
 * Whether an adapter runs on the CPU: flagged as a fallback, or named like one of the software
 * rasterisers (SwiftShader, llvmpipe / lavapipe / softpipe, Microsoft WARP / Basic Render).
 */
export function isCpuAdapter(adapter: GPUAdapter): boolean {
  if (isFallbackAdapter(adapter)) return true;
  return /swiftshader|llvmpipe|lavapipe|softpipe|basic render|\bwarp\b/i.test(
    describeAdapter(adapter),
  );
}

/**
 * The steer pass's candidate-loop unrolling for an adapter (steer.wgsl UNROLL): 4 on a hardware
 * GPU (H200: steer 1.2x faster at the steady state), 1 on a CPU adapter, where the unrolled loop
 * measured 2-3x slower (llvmpipe through Dawn; docs/real-gpu.md).
 */
export function candidateUnrollFor(adapter: GPUAdapter): 1 | 4 {
  return isCpuAdapter(adapter) ? 1 : 4;
}

/**
 * The grid's x split for an adapter (FlockSimulationOptions.cellSplitX): 'auto' on a hardware GPU,
 * 1 on a CPU adapter, where more cells to count and scan cost more than the candidates saved
 * (llvmpipe through Dawn, 65,536 boids: 1.05x slower at k = 2, 1.46x at k = 4).
 */
export function cellSplitFor(adapter: GPUAdapter): 1 | 'auto' {
  return isCpuAdapter(adapter) ? 1 : 'auto';
}

/** "vendor architecture device description" of an adapter, for logs and benchmark tables. */
export function describeAdapter(adapter: GPUAdapter): string {
  const i = adapter.info;
  if (!i) return 'unknown adapter';
  const parts = [i.vendor, i.architecture, i.device, i.description].filter((s) => s);
  return [...new Set(parts)].join(' ') || 'unknown adapter';
}

interface SharedDevice {
  adapter: GPUAdapter;
  device: GPUDevice;
  users: number;
}

/** One device per page and option set, shared by every flock on the page (issue 10 item 4). */
const shared = new Map<string, Promise<SharedDevice>>();
const inUse = new Map<
  GPUDevice,
  { key: string; promise: Promise<SharedDevice>; entry: SharedDevice }
>();

/**
 * The page's shared flock device (adapter limits, 'timestamp-query' when asked and offered),
 * requested on first use and counted: every acquire needs one releaseSharedDevice. Flocks on one
 * page thereby share the device and the pipelines compiled on it (shaders.ts caches them per
 * device). A lost device is forgotten at once, so the next acquire requests a fresh one.
 * @throws Error when navigator.gpu is missing or there is no adapter; requestDevice's error.
 */
export async function acquireSharedDevice(
  gpu: GPU,
  options: Omit<FlockDeviceOptions, 'capLimits'> & { compatibility?: boolean } = {},
): Promise<{ adapter: GPUAdapter; device: GPUDevice }> {
  const compat = options.compatibility === true;
  const key = `${options.timestamps === false ? 'no-timestamps' : 'timestamps'}|${compat ? 'compatibility' : 'core'}`;
  let p = shared.get(key);
  if (!p) {
    p = (async () => {
      const adapter = await gpu.requestAdapter({
        powerPreference: 'high-performance',
        ...(compat ? { featureLevel: 'compatibility' } : {}),
      } as GPURequestAdapterOptions);
      if (!adapter) throw new Error('navigator.gpu.requestAdapter() returned null');
      const device = await requestFlockDevice(adapter, {
        timestamps: options.timestamps,
        label: options.label,
        capLimits: compat ? COMPATIBILITY_LIMITS : undefined,
      });
      if (compat) capGPUDevice(device, COMPATIBILITY_LIMITS);
      const entry: SharedDevice = { adapter, device, users: 0 };
      void device.lost.then(() => {
        if (shared.get(key) === p) shared.delete(key);
      });
      return entry;
    })();
    shared.set(key, p);
    p.catch(() => {
      if (shared.get(key) === p) shared.delete(key);
    });
  }
  const entry = await p;
  entry.users++;
  inUse.set(entry.device, { key, promise: p, entry });
  return { adapter: entry.adapter, device: entry.device };
}

/** Gives back one use of a shared device; the last user destroys it (its memory is freed at once). */
export function releaseSharedDevice(device: GPUDevice): void {
  const use = inUse.get(device);
  if (!use) {
    device.destroy();
    return;
  }
  use.entry.users--;
  if (use.entry.users > 0) return;
  inUse.delete(device);
  if (shared.get(use.key) === use.promise) shared.delete(use.key);
  device.destroy();
}

/**
 * Holds this device to `caps` as far as our code can see: `device.limits` (an instance property
 * shadowing the prototype's getter) answers min(device, cap). Needed where a browser hands out a
 * core adapter for featureLevel 'compatibility' (Chromium 156 here: 8 storage buffers per stage,
 * 256 invocations), so the backend still sizes workgroups, bindings and draw modes as a phone's
 * compatibility-mode device would let it. (Here, not in core/limits.ts: the public declarations
 * may not name WebGPU's ambient types.)
 */
export function capGPUDevice(device: GPUDevice, caps: Readonly<Record<string, number>>): void {
  const real = device.limits as unknown as Record<string, number>;
  const capped: Record<string, number> = {};
  for (const k in real) {
    const v = real[k];
    if (typeof v !== 'number') continue;
    const cap = caps[k];
    capped[k] = cap === undefined ? v : Math.min(v, cap);
  }
  Object.defineProperty(device, 'limits', { value: Object.freeze(capped), configurable: true });
}
