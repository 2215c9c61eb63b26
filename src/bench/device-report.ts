/**
 * The benchmark's device report: what the browser says about its GPU APIs, the limits that bound
 * N on each path, the extensions and features the backends use, which backends run here (and why
 * not), and the rung an `auto` flock takes with its fallback reasons. Read from throwaway
 * contexts and flocks that are freed before it returns.
 */
import { BACKEND_LADDER, type BackendKind } from '../backend';
import { createFlock, type Flock } from '../index';
import { webgl2ReportOn } from './gl-report';
import { workerAnswer } from '../core/worker-answer';

export { WEBGL_EXTENSIONS_USED } from './gl-report';

/** WebGPU features the backend asks for when the adapter has them. */
export const WEBGPU_FEATURES_USED: Record<string, string> = {
  'timestamp-query': 'per-pass GPU timers (else cpu-wait timing)',
};

export interface WebGL2Report {
  available: boolean;
  reason?: string;
  vendor?: string;
  renderer?: string;
  /** From WEBGL_debug_renderer_info, where the browser exposes it. */
  unmaskedVendor?: string;
  unmaskedRenderer?: string;
  version?: string;
  shadingLanguage?: string;
  limits: Record<string, number>;
  /** Every extension the context offers. */
  extensions: string[];
  /** The ones the backends use: name -> present here. */
  used: Record<string, boolean>;
  /** The largest N the texture path can hold: one texel per boid in MAX_TEXTURE_SIZE² textures. */
  maxBoidsByTexture?: number;
}

export interface WebGPUReport {
  available: boolean;
  reason?: string;
  info?: Record<string, string | boolean>;
  isFallbackAdapter?: boolean;
  limits: Record<string, number>;
  features: string[];
  used: Record<string, boolean>;
  /** The largest N one storage binding of vec4<f32> per boid holds (maxStorageBufferBindingSize / 16). */
  maxBoidsByStorage?: number;
}

export interface BackendAvailability {
  available: boolean;
  /** createFlock's rejection message where it cannot run. */
  reason?: string;
  /** Renderer / adapter the backend reports. */
  device?: string;
  /** The backend's own largest count on this device. */
  maxCount?: number;
}

export interface DeviceReport {
  date: string;
  userAgent: string;
  hardwareConcurrency: number;
  devicePixelRatio: number;
  webgl2: WebGL2Report;
  webgpu: WebGPUReport;
  backends: Partial<Record<BackendKind, BackendAvailability>>;
  auto: {
    backend: string | null;
    fallbackReasons: Partial<Record<BackendKind, string>>;
    device?: string;
    error?: string;
  };
}

const GPU_LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupSizeX',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupsPerDimension',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBuffersPerShaderStage',
  'maxUniformBufferBindingSize',
  'maxBindGroups',
  'maxTextureDimension2D',
] as const;

async function webgpuReport(): Promise<WebGPUReport> {
  const none = { limits: {}, features: [], used: {} };
  if (typeof navigator === 'undefined' || !navigator.gpu)
    return { available: false, reason: 'navigator.gpu is missing (no WebGPU here)', ...none };
  let adapter: GPUAdapter | null;
  try {
    adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (e) {
    return { available: false, reason: `requestAdapter() threw: ${String(e)}`, ...none };
  }
  if (!adapter) return { available: false, reason: 'requestAdapter() returned null', ...none };
  const info: Record<string, string | boolean> = {};
  const ai = adapter.info as unknown as Record<string, unknown>;
  for (const k of ['vendor', 'architecture', 'device', 'description', 'isFallbackAdapter']) {
    const v = ai?.[k];
    if (typeof v === 'string' || typeof v === 'boolean') info[k] = v;
  }
  const legacyFallback = (adapter as unknown as { isFallbackAdapter?: boolean }).isFallbackAdapter;
  const limits: Record<string, number> = {};
  const al = adapter.limits as unknown as Record<string, number>;
  for (const name of GPU_LIMITS) if (typeof al[name] === 'number') limits[name] = al[name];
  const features = [...adapter.features].map(String).sort();
  const used: Record<string, boolean> = {};
  for (const f of Object.keys(WEBGPU_FEATURES_USED)) used[f] = features.includes(f);
  const binding = limits.maxStorageBufferBindingSize ?? 0;
  return {
    available: true,
    info,
    isFallbackAdapter: Boolean(info.isFallbackAdapter ?? legacyFallback),
    limits,
    features,
    used,
    maxBoidsByStorage: Math.floor(binding / 16),
  };
}

/**
 * The WebGL2 report read in a worker (gl-report.worker.ts, an OffscreenCanvas), so the main
 * thread does not wait for the GPU process while a context is made; on the main thread where the
 * worker cannot (no WebGL2 on an OffscreenCanvas in workers) or does not answer in `timeoutMs`.
 */
async function webgl2ReportOffThread(timeoutMs = 30_000): Promise<WebGL2Report> {
  const reply = await workerAnswer<{ ok: boolean; report?: WebGL2Report }>(
    () => new Worker(new URL('./gl-report.worker.ts', import.meta.url), { type: 'module' }),
    undefined,
    timeoutMs,
  );
  const fromWorker = reply?.ok && reply.report?.available ? reply.report : null;
  return fromWorker ?? webgl2ReportOn(document.createElement('canvas'));
}

/** Resolves after the next macrotask: the page handles input and paints between the steps. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Frees a flock of the report once the device has finished its work (awaited, not waited for
 * on the main thread): giving a WebGL context back while the GPU process still compiles or draws
 * for it blocks the page until it is done (a second or more on a busy software GPU).
 */
async function release(f: Flock): Promise<void> {
  try {
    await f.finish();
  } catch {
    // lost or failed: dispose all the same
  }
  f.dispose();
  await pause();
}

/**
 * Collects the device report. Availability is checked the way the benchmark uses a backend: an
 * explicit createFlock at a small count (on a throwaway canvas in `container`), then dispose.
 * The WebGL2 limits and extensions are read in a worker first (the main thread makes no context
 * for them), and each flock is freed only once its device work is done, so no step of the report
 * holds the main thread for long (issue 31 item 1).
 */
export async function collectDeviceReport(container: HTMLElement): Promise<DeviceReport> {
  const webgl2 = await webgl2ReportOffThread();
  const webgpu = await webgpuReport();
  const found: DeviceReport['backends'] = {};
  // The WebGL2 rungs first: their sync calls (a context, a link, a read) then meet an idle GPU
  // process, not one still busy with the WebGPU flock's pipelines (the report lists the rungs in
  // ladder order all the same).
  const order = [...BACKEND_LADDER].sort((a, b) => Number(a === 'webgpu') - Number(b === 'webgpu'));
  for (const kind of order) {
    await pause();
    try {
      const f = await createFlock(container, {
        backend: kind,
        autoStart: false,
        params: { count: 256 },
      });
      found[kind] = { available: true, device: f.deviceInfo, maxCount: f.maxCount };
      await release(f);
    } catch (e) {
      found[kind] = { available: false, reason: e instanceof Error ? e.message : String(e) };
    }
  }
  const backends: DeviceReport['backends'] = {};
  for (const kind of BACKEND_LADDER) backends[kind] = found[kind];
  let auto: DeviceReport['auto'];
  try {
    const f = await createFlock(container, { autoStart: false, params: { count: 1024 } });
    auto = { backend: f.backend, fallbackReasons: f.fallbackReasons, device: f.deviceInfo };
    await release(f);
  } catch (e) {
    auto = {
      backend: null,
      fallbackReasons: {},
      error: e instanceof Error ? e.message : String(e),
    };
  }
  return {
    date: new Date().toISOString(),
    userAgent: navigator.userAgent,
    hardwareConcurrency: navigator.hardwareConcurrency ?? 0,
    devicePixelRatio: window.devicePixelRatio || 1,
    webgl2,
    webgpu,
    backends,
    auto,
  };
}

/**
 * What a backend runs on: its own device string, else the renderer (WebGL paths) or adapter
 * (WebGPU) this report read.
 */
export function deviceOf(r: DeviceReport, kind: BackendKind | 'none', own = ''): string {
  if (own) return own;
  if (kind === 'webgl2' || kind === 'webgl2-tf')
    return r.webgl2.unmaskedRenderer ?? r.webgl2.renderer ?? '';
  if (kind === 'webgpu') {
    const i = r.webgpu.info ?? {};
    const s = ['vendor', 'architecture', 'device', 'description']
      .map((k) => i[k])
      .filter((v) => typeof v === 'string' && v)
      .join(' ');
    return s + (r.webgpu.isFallbackAdapter ? ' (fallback adapter)' : '');
  }
  if (kind === 'none') return '';
  return r.backends[kind]?.device ?? '';
}

/** The report as label/value lines (page and CSV header). */
export function reportLines(r: DeviceReport): [string, string][] {
  const out: [string, string][] = [];
  const gl = r.webgl2;
  const gpu = r.webgpu;
  out.push(['browser', r.userAgent]);
  out.push(['CPU threads', String(r.hardwareConcurrency)]);
  if (gl.available) {
    out.push(['WebGL2 renderer', gl.unmaskedRenderer ?? `${gl.renderer} (masked)`]);
    out.push(['WebGL2 vendor', gl.unmaskedVendor ?? gl.vendor ?? '']);
    out.push(['WebGL2 version', `${gl.version}; ${gl.shadingLanguage}`]);
    for (const [k, v] of Object.entries(gl.limits)) out.push([`gl.${k}`, String(v)]);
    out.push(['WebGL2 max N (texels)', String(gl.maxBoidsByTexture)]);
    out.push([
      'WebGL2 extensions used',
      Object.entries(gl.used)
        .map(([k, v]) => `${k}: ${v ? 'yes' : 'no'}`)
        .join('; '),
    ]);
    out.push(['WebGL2 extensions offered', gl.extensions.join(' ')]);
  } else {
    out.push(['WebGL2', `not available: ${gl.reason}`]);
  }
  if (gpu.available) {
    const i = gpu.info ?? {};
    out.push([
      'WebGPU adapter',
      ['vendor', 'architecture', 'device', 'description']
        .map((k) => (i[k] ? `${k}=${String(i[k])}` : ''))
        .filter(Boolean)
        .join(', ') || 'no adapter info',
    ]);
    out.push(['WebGPU fallback adapter', String(gpu.isFallbackAdapter)]);
    for (const [k, v] of Object.entries(gpu.limits)) out.push([`gpu.${k}`, String(v)]);
    out.push(['WebGPU max N (storage binding / 16 B)', String(gpu.maxBoidsByStorage)]);
    out.push([
      'WebGPU features used',
      Object.entries(gpu.used)
        .map(([k, v]) => `${k}: ${v ? 'yes' : 'no'}`)
        .join('; '),
    ]);
    out.push(['WebGPU features offered', gpu.features.join(' ')]);
  } else {
    out.push(['WebGPU', `not available: ${gpu.reason}`]);
  }
  for (const kind of BACKEND_LADDER) {
    const b = r.backends[kind];
    if (!b) continue;
    out.push([
      `backend ${kind}`,
      b.available
        ? `available (${deviceOf(r, kind, b.device)}; largest N ${b.maxCount})`
        : `not available: ${b.reason}`,
    ]);
  }
  out.push(['auto picks', r.auto.backend ?? `nothing: ${r.auto.error}`]);
  for (const [k, why] of Object.entries(r.auto.fallbackReasons))
    out.push([`auto skipped ${k}`, why ?? '']);
  return out;
}
