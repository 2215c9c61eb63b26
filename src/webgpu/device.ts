/**
 * Device set-up shared by the browser backend, the Node tests and the benchmark: ask for the
 * adapter's own limits (Dawn's compatibility mode and browsers otherwise hand out the low defaults:
 * 128 invocations per workgroup, 4 storage buffers per stage) and 'timestamp-query' when offered.
 */

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

/** "vendor architecture device description" of an adapter, for logs and benchmark tables. */
export function describeAdapter(adapter: GPUAdapter): string {
  const i = adapter.info;
  if (!i) return 'unknown adapter';
  const parts = [i.vendor, i.architecture, i.device, i.description].filter((s) => s);
  return [...new Set(parts)].join(' ') || 'unknown adapter';
}
