/**
 * The WebGPU backend (DESIGN.md section 3, rung 1): the headless simulation (simulation.ts) plus
 * the renderer (renderer.ts) into the canvas's 'webgpu' context. The device is the page's shared
 * flock device (device.ts acquireSharedDevice; its compiled pipelines are shared too): dispose()
 * destroys the simulation's buffers, the renderer's, unconfigures the canvas and gives back its
 * use of the device (the last user destroys it). A device lost for any other reason is reported
 * once through init.onLost (and isLost()); what follows is decided in src/flock/recovery.ts (the
 * next rung, from the journal's snapshot); an uncaptured validation or out-of-memory error goes
 * to init.onError and is never taken for a loss.
 */
import {
  NO_PASS_TIMES,
  type Backend,
  type BackendInit,
  type BackendTimings,
  type BackendVariants,
  type RenderView,
} from '../backend';
import { FlockError } from '../core/errors';
import type { FlockParams } from '../core/params';
import type { FlockState } from '../core/state';
import {
  acquireSharedDevice,
  describeAdapter,
  isFallbackAdapter,
  candidateUnrollFor,
  cellSplitFor,
  releaseSharedDevice,
} from './device';
import {
  createBoidRenderer,
  prepareBoidRenderer,
  type BoidRenderer,
  type DrawMode,
} from './renderer';
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
  let adapter: GPUAdapter;
  let device: GPUDevice;
  try {
    // Capped to a phone's (limits.webgpu 'compatibility'): a compatibility-mode adapter and a
    // device held to that mode's default limits instead of the adapter's own.
    ({ adapter, device } = await acquireSharedDevice(gpu, {
      timestamps: !init.disable.has('timestamp-query'),
      compatibility: init.limits?.webgpu === 'compatibility',
    }));
  } catch (e) {
    throw unavailable(`no adapter or device: ${String(e)}`);
  }
  const maxCount = maxCountFor(device.limits, init.maxBufferBytes);
  if (init.params.count > maxCount) {
    const limit = bufferLimit(device.limits, init.maxBufferBytes);
    releaseSharedDevice(device);
    throw new FlockError(
      'count',
      init.params.count,
      `an integer from 1 to ${maxCount} on this WebGPU device`,
      `boid records take ${BOID_BYTES} bytes each and one storage binding holds at most ${limit} bytes (maxStorageBufferBindingSize / maxBufferSize)`,
      maxCount,
    );
  }
  const context = init.canvas.getContext('webgpu');
  if (!context) {
    releaseSharedDevice(device);
    throw new FlockError(
      'target',
      init.canvas,
      'a canvas without another context type (2d, webgl, webgl2)',
      'the canvas gives no webgpu context: it already holds another context type',
    );
  }
  const format = gpu.getPreferredCanvasFormat();
  let sim: FlockSimulation | null = null;
  let rendererReady: () => void = () => undefined;
  const warmAfter = new Promise<void>((resolve) => (rendererReady = resolve));
  try {
    // Premultiplied, so view.background may be translucent or `transparent` (WebGL2 and Canvas 2D too).
    // A 0x0 canvas is configured at its first sized frame: configuring it is a device error.
    let configured = false;
    const configure = (): boolean => {
      if (!configured && init.canvas.width && init.canvas.height) {
        context.configure({ device, format, alphaMode: 'premultiplied' });
        configured = true;
      }
      return configured;
    };
    configure();
    // The first frame's pipelines first: they compile while the simulation is made.
    prepareBoidRenderer(device, format);
    sim = await createFlockSimulation({
      device,
      params: init.params,
      initialState: init.state,
      time: init.time ?? 0,
      workgroupSize: init.workgroupSize,
      maxBufferBytes: init.maxBufferBytes,
      unroll: candidateUnrollFor(adapter),
      cellSplitX: cellSplitFor(adapter),
      label: 'flock',
      // Fast first frame: only the render pipelines are awaited; the step's compute pipelines
      // compile in the background after them, any other when a step first needs it (the first
      // frame draws the initial state without stepping).
      pipelines: 'on-use',
      warmAfter,
    });
    const renderer = await createBoidRenderer(device, format, sim, { drawMode: init.drawMode });
    rendererReady(); // then the step's pipelines compile in the background
    return new WebGPUBackendImpl(
      init,
      adapter,
      device,
      context,
      configure,
      sim,
      renderer,
      maxCount,
    );
  } catch (e) {
    sim?.dispose();
    context.unconfigure();
    releaseSharedDevice(device);
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
    /** Configures the context once the canvas is not 0x0; whether it is configured. */
    private readonly configure: () => boolean,
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
    // A validation or out-of-memory error is not a loss: the device still works (a canvas above
    // the texture limit, a bad call). It is reported, and the flock carries on.
    this.onError = (ev: Event) => {
      if (this.disposed || this.lostReported) return;
      const err = (ev as GPUUncapturedErrorEvent).error;
      this.init.onError?.(new Error(`WebGPU error: ${err?.message ?? String(err)}`));
    };
    device.addEventListener('uncapturederror', this.onError);
    this.maxCanvasSize = device.limits.maxTextureDimension2D;
    this.variants = {
      settled: () => simulation.ready(),
      get current() {
        return simulation.specialised;
      },
      stats: () => simulation.variantStats(),
    };
  }

  /** Largest drawing-buffer side: the device's maxTextureDimension2D. */
  readonly maxCanvasSize: number;

  /** The steer pipelines specialised for the params; the generic one serves meanwhile. */
  readonly variants: BackendVariants;

  /** The device was lost (or destroyed from outside). */
  isLost(): boolean {
    return this.lostReported;
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

  get time(): number {
    return this.simulation.time;
  }

  setState(state: FlockState, time = 0): void {
    if (state.count > this.maxCount) {
      throw new FlockError(
        'count',
        state.count,
        `an integer from 1 to ${this.maxCount} on this WebGPU device`,
        undefined,
        this.maxCount,
      );
    }
    this.simulation.setState(state, time);
  }

  step(n: number, live = false): void {
    if (n > 0) this.simulation.step(n, live);
  }

  readState(): Promise<FlockState> {
    return this.simulation.readState();
  }

  /** Resolves once the submitted work has finished on the device (queue.onSubmittedWorkDone). */
  sync(): Promise<void> {
    return this.device.queue.onSubmittedWorkDone();
  }

  render(view: RenderView): void {
    if (this.configure()) this.renderer.render(this.context, view);
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
    // The device is shared by the page's flocks: the last one to let go destroys it.
    releaseSharedDevice(this.device);
  }
}
