/**
 * The WebGPU backend (DESIGN.md section 3, rung 1): the headless simulation (simulation.ts) plus
 * the renderer (renderer.ts) into the canvas's 'webgpu' context. Owns the device it requests:
 * dispose() destroys the simulation's buffers, the renderer's, unconfigures the canvas and
 * destroys the device. A device lost for any other reason, or an uncaptured GPU error, is
 * reported once through init.onLost so the Flock can fall back to the next rung.
 */
import {
  NO_PASS_TIMES,
  type Backend,
  type BackendInit,
  type BackendTimings,
  type RenderView,
} from '../backend';
import { FlockError } from '../core/errors';
import { COMPATIBILITY_LIMITS, capGPUDevice } from '../core/limits';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import { describeAdapter, isFallbackAdapter, requestFlockDevice } from './device';
import { createBoidRenderer, type BoidRenderer, type DrawMode } from './renderer';
import {
  BOID_BYTES,
  bufferLimit,
  createFlockSimulation,
  maxCountFor,
  type FlockSimulation,
} from './simulation';

export type { DrawMode } from './renderer';

/** Options of createWebGPUBackend beyond the common BackendInit. */
export interface WebGPUBackendInit extends BackendInit {
  /** 'instanced' (default) or 'vertex-id' where the device allows storage in the vertex stage. */
  drawMode?: DrawMode;
  /** Workgroup size of the per-boid compute passes (default 128). */
  workgroupSize?: number;
  /** Use at most this many bytes per buffer, below the device's limits (tests, memory budgets). */
  maxBufferBytes?: number;
}

/** The WebGPU backend's extras over Backend. */
export interface WebGPUBackend extends Backend {
  readonly kind: 'webgpu';
  /** The adapter's info (vendor, architecture, device, description). */
  readonly adapterInfo: GPUAdapterInfo;
  /** adapter.info.isFallbackAdapter (or the older adapter.isFallbackAdapter): a software adapter. */
  readonly isFallbackAdapter: boolean;
  /** "vendor architecture device description". */
  readonly adapterName: string;
  /** The device (tests destroy it to exercise onLost). */
  readonly device: GPUDevice;
  readonly simulation: FlockSimulation;
  /** How render() draws; 'vertex-id' only where the device allows it (drawModes). */
  drawMode: DrawMode;
  readonly drawModes: readonly DrawMode[];
}

const UNAVAILABLE = 'a backend this browser can run: webgl2, webgl2-tf or cpu';

function unavailable(reason: string): FlockError {
  return new FlockError('backend', 'webgpu', UNAVAILABLE, reason);
}

/**
 * navigator.gpu -> adapter -> device (adapter limits, 'timestamp-query' when offered and not
 * hidden with disable: ['timestamp-query']) -> simulation + renderer on `init.canvas`.
 * @throws FlockError field 'backend' when `init.disable` has 'webgpu', navigator.gpu is missing,
 * there is no adapter or device, or the canvas gives no 'webgpu' context; field 'count' when the
 * count exceeds the device's buffer limits (naming the limit and the largest count that fits).
 */
export async function createWebGPUBackend(init: WebGPUBackendInit): Promise<WebGPUBackend> {
  if (init.disable.has('webgpu')) throw unavailable("hidden by disable: ['webgpu']");
  const gpu = typeof navigator !== 'undefined' ? navigator.gpu : undefined;
  if (!gpu) throw unavailable('navigator.gpu is missing (no WebGPU in this browser)');
  // Capped to a phone's (limits.webgpu 'compatibility'): a compatibility-mode adapter and a
  // device held to that mode's default limits instead of the adapter's own.
  const compat = init.limits?.webgpu === 'compatibility';
  const adapter = await gpu.requestAdapter({
    powerPreference: 'high-performance',
    ...(compat ? { featureLevel: 'compatibility' } : {}),
  } as GPURequestAdapterOptions);
  if (!adapter) throw unavailable('navigator.gpu.requestAdapter() returned null');
  let device: GPUDevice;
  try {
    device = await requestFlockDevice(adapter, {
      timestamps: !init.disable.has('timestamp-query'),
      capLimits: compat ? COMPATIBILITY_LIMITS : undefined,
    });
  } catch (e) {
    throw unavailable(`requestDevice failed: ${String(e)}`);
  }
  if (compat) capGPUDevice(device, COMPATIBILITY_LIMITS);
  const maxCount = maxCountFor(device.limits, init.maxBufferBytes);
  if (init.params.count > maxCount) {
    const limit = bufferLimit(device.limits, init.maxBufferBytes);
    device.destroy();
    throw new FlockError(
      'count',
      init.params.count,
      `an integer from 1 to ${maxCount} on this WebGPU device`,
      `boid records take ${BOID_BYTES} bytes each and one storage binding holds at most ${limit} bytes (maxStorageBufferBindingSize / maxBufferSize)`,
    );
  }
  const context = init.canvas.getContext('webgpu');
  if (!context) {
    device.destroy();
    throw unavailable('the canvas gives no webgpu context (it already has another context type)');
  }
  const format = gpu.getPreferredCanvasFormat();
  let sim: FlockSimulation | null = null;
  let rendererReady: () => void = () => undefined;
  const warmAfter = new Promise<void>((resolve) => (rendererReady = resolve));
  try {
    // Premultiplied, so view.background may be translucent or `transparent` (WebGL2 and Canvas 2D too).
    context.configure({ device, format, alphaMode: 'premultiplied' });
    sim = await createFlockSimulation({
      device,
      params: init.params,
      initialState: init.state,
      workgroupSize: init.workgroupSize,
      maxBufferBytes: init.maxBufferBytes,
      label: 'flock',
      // Fast first frame: only the render pipelines are awaited; the step's compute pipelines
      // compile in the background after them, any other when a step first needs it (the first
      // frame draws the initial state without stepping).
      pipelines: 'on-use',
      warmAfter,
    });
    const renderer = await createBoidRenderer(device, format, sim, { drawMode: init.drawMode });
    rendererReady(); // then the step's pipelines compile in the background
    return new WebGPUBackendImpl(init, adapter, device, context, sim, renderer, maxCount);
  } catch (e) {
    sim?.dispose();
    context.unconfigure();
    device.destroy();
    throw e;
  }
}

class WebGPUBackendImpl implements WebGPUBackend {
  readonly kind = 'webgpu' as const;
  readonly canvas: HTMLCanvasElement;
  readonly adapterInfo: GPUAdapterInfo;
  readonly isFallbackAdapter: boolean;
  readonly adapterName: string;
  private disposed = false;
  private lostReported = false;
  private readonly onError: (ev: Event) => void;

  constructor(
    private readonly init: BackendInit,
    adapter: GPUAdapter,
    readonly device: GPUDevice,
    private readonly context: GPUCanvasContext,
    readonly simulation: FlockSimulation,
    private readonly renderer: BoidRenderer,
    readonly maxCount: number,
  ) {
    this.canvas = init.canvas;
    this.adapterInfo = adapter.info;
    this.isFallbackAdapter = isFallbackAdapter(adapter);
    this.adapterName = describeAdapter(adapter);
    void device.lost.then((info) => {
      this.reportLost(`WebGPU device lost (${info.reason}): ${info.message || 'no message'}`);
    });
    this.onError = (ev: Event) => {
      const err = (ev as GPUUncapturedErrorEvent).error;
      this.reportLost(`WebGPU error: ${err?.message ?? String(err)}`);
    };
    device.addEventListener('uncapturederror', this.onError);
  }

  private reportLost(reason: string): void {
    // Our own dispose() destroys the device too: that is not a loss.
    if (this.disposed || this.lostReported) return;
    this.lostReported = true;
    this.init.onLost?.(reason);
  }

  get drawMode(): DrawMode {
    return this.renderer.drawMode;
  }
  set drawMode(m: DrawMode) {
    this.renderer.drawMode = m;
  }
  get drawModes(): readonly DrawMode[] {
    return this.renderer.modes;
  }

  setParams(params: FlockParams): void {
    this.simulation.setParams(params);
  }

  setState(state: FlockState): void {
    if (state.count > this.maxCount) {
      throw new FlockError(
        'count',
        state.count,
        `an integer from 1 to ${this.maxCount} on this WebGPU device`,
      );
    }
    this.simulation.setState(state);
  }

  step(n: number): void {
    if (n > 0) this.simulation.step(n);
  }

  readState(): Promise<FlockState> {
    return this.simulation.readState();
  }

  render(view: RenderView): void {
    this.renderer.render(this.context, view);
  }

  timings(): BackendTimings {
    const t = this.simulation.timings();
    if (t.kind === 'none') return { timing: 'none', passes: { ...NO_PASS_TIMES } };
    return {
      timing: 'gpu',
      passes: { ...t.passes, draw: this.renderer.drawMs() },
      resolutionMs: t.resolutionMs,
      steps: t.steps,
    };
  }

  debugNeighborCounts(): Promise<Uint32Array> {
    return this.simulation.debugNeighborCounts();
  }

  debugSortedKeys(): Promise<{ keys: Uint32Array; ids: Uint32Array }> {
    return this.simulation.debugSortedKeys();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.device.removeEventListener('uncapturederror', this.onError);
    this.simulation.dispose();
    this.renderer.dispose();
    try {
      this.context.unconfigure();
    } catch {
      // A lost device may already have dropped the configuration.
    }
    this.device.destroy();
  }
}
