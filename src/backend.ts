/**
 * The one interface every backend implements (webgpu, webgl2, webgl2-tf, cpu). The Flock object
 * (src/flock/) and the app see only this. Backends own their GPU objects; `dispose()` is idempotent.
 */
import type { DeviceLimits } from './core/limits';
import type { FlockParams } from './core/params';
import type { RenderScene } from './core/scene';
import type { FlockState } from './core/state';
import type { VariantStats } from './core/variant-cache';

/** A rung of the backend ladder: WebGPU compute, WebGL2 textures, WebGL2 transform feedback, the CPU. */
export type BackendKind = 'webgpu' | 'webgl2' | 'webgl2-tf' | 'cpu';
/** The ladder `auto` walks, best first. */
export const BACKEND_LADDER: readonly BackendKind[] = ['webgpu', 'webgl2', 'webgl2-tf', 'cpu'];

/** The most boids the cpu backend steps (the reference grid step in a Web Worker). */
export const CPU_MAX_COUNT = 4096;

/** Per-pass times in milliseconds per step, or null where not measured. */
export interface PassTimes {
  /** Cell key of every boid (WebGL2: with the sort's first blocks). */
  key: number | null;
  /** Sort by cell key (counting sort or bitonic). */
  sort: number | null;
  /** Each cell's start and end in the sorted order. */
  cellTable: number | null;
  /** Positions and velocities gathered into cell order. */
  reorder: number | null;
  /** Neighbour search, steering and integration. */
  steer: number | null;
  /** The draw (ms per frame). */
  draw: number | null;
}
/** A pass of the step (or the draw), as PassTimes names them. */
export type PassName = keyof PassTimes;
/** Every pass name, in the order a step runs them, then the draw. */
export const PASS_NAMES: readonly PassName[] = [
  'key',
  'sort',
  'cellTable',
  'reorder',
  'steer',
  'draw',
];
export const NO_PASS_TIMES: PassTimes = {
  key: null,
  sort: null,
  cellTable: null,
  reorder: null,
  steer: null,
  draw: null,
};

export interface BackendTimings {
  /** 'gpu': GPU timer queries; 'cpu-wait': CPU clock around work that waited for the GPU; 'none'. */
  timing: 'gpu' | 'cpu-wait' | 'none';
  passes: PassTimes;
  /** Granularity of the GPU timer in ms (Chrome quantises WebGPU timestamps to 0.1 ms), where known. */
  resolutionMs?: number | null;
  /** Steps the pass averages cover (timed in batches so quantised timers still mean something). */
  steps?: number;
}

/** What one draw needs from the Flock: camera and canvas size. */
export interface RenderView {
  /** Column-major 4x4 view-projection; clip z in [-1, 1] (WebGPU backends remap). */
  viewProj: Float32Array;
  /** Drawing buffer size in device pixels. */
  width: number;
  height: number;
  /** Boid length, world units. */
  boidSize: number;
  /** Background, colours and what else to draw (src/core/scene.ts); absent: the default view. */
  scene?: RenderScene;
}

/** Options every backend factory takes. */
export interface BackendInit {
  canvas: HTMLCanvasElement;
  params: FlockParams;
  state: FlockState;
  /** Capabilities hidden on purpose, e.g. 'EXT_color_buffer_float' (see FlockOptions.disable). */
  disable: ReadonlySet<string>;
  /** Device limits capped on purpose (FlockOptions.limits, e.g. a phone's); none when absent. */
  limits?: DeviceLimits | null;
  /** Called when the backend's device/context is lost (webgpu device.lost, webgl contextlost). */
  onLost?: (reason: string) => void;
  /** Called after a WebGL context is restored and every resource rebuilt. */
  onRestored?: () => void;
  /** Called when the backend runs on in a lesser way (the cpu worker could not load); the Flock adds it to fallbackReasons. */
  onDegraded?: (reason: string) => void;
  /** Called for an error that is not a loss (a WebGPU validation or out-of-memory error). */
  onError?: (error: unknown) => void;
  /**
   * The flock made this canvas: dispose() gives its context back at once (WEBGL_lose_context),
   * so churn does not make the browser evict other pages' contexts. False for a caller's canvas,
   * whose context another flock may use next.
   */
  ownsCanvas?: boolean;
  /** Simulated time of `state`, seconds (default 0): a fallback or restore resumes at it. */
  time?: number;
  /**
   * WebGL2 rungs: draw with the page's shared context (src/webgl2/shared-context.ts) and move
   * each frame into `canvas`: true, false (the default: the canvas's own context) or 'auto' (what
   * a flock asks: shared from the second live WebGL2 flock on a page on).
   */
  shareContext?: boolean | 'auto';
  /**
   * How to draw from the first frame, where the backend offers it ('vertex-id' on a software
   * GPU): its program is then the one built with the others at the start (a WebGL2 path that
   * linked 'instanced' and was switched after linked the other on its first draw, one blocking
   * link per flock: 20 elements on SwiftShader held the page for seconds, issue 31 item 7).
   */
  drawMode?: 'instanced' | 'vertex-id';
}

export interface Backend {
  readonly kind: BackendKind;
  readonly canvas: HTMLCanvasElement;
  /** Largest count this device can hold. */
  readonly maxCount: number;
  /** New parameters (validated). Keeps the state; count changes come with setState. */
  setParams(params: FlockParams): void;
  /**
   * Uploads a state in boid-id order; its count equals the params' count. The simulated time
   * restarts at `time` seconds (default 0).
   */
  setState(state: FlockState, time?: number): void;
  /**
   * Submits n fixed steps (no drawing); each adds params.timeStep to `time`. `live`: steps of the
   * running animation (the frame loop), which may keep the running program variant while the one
   * for newer params compiles (BackendVariants); explicit steps (false) run with the params last
   * given, waiting for their variant where they must.
   */
  step(n: number, live?: boolean): void;
  /**
   * Simulated time t in seconds at the start of the next submitted step (DESIGN.md section 1):
   * 0 at creation and setState, + timeStep per submitted step.
   */
  readonly time: number;
  /** The state after all submitted work, in boid-id order. */
  readState(): Promise<FlockState>;
  /** Draws the current state. */
  render(view: RenderView): void;
  /** Timing of recent steps. */
  timings(): BackendTimings;
  /** Resolves once all submitted work has finished on the device (cheaper than readState). */
  sync?(): Promise<void>;
  /** Steps submitted but not finished yet, where the backend can tell (the frame loop holds back above a few). */
  readonly pendingSteps?: number;
  /** True once the context or device is lost (WebGL knows at once, before its event). */
  isLost?(): boolean;
  /** Largest drawing-buffer side in pixels (texture, renderbuffer and viewport limits). */
  readonly maxCanvasSize?: number;
  /** Renderer or adapter description, for the device report. */
  readonly deviceInfo?: string;
  /** Fragment passes of one step's sort (WebGL2 bitonic sort, grid search), for the benchmark. */
  readonly sortPasses?: number | null;
  /** The program variants of the params (absent on cpu): compiled in the background, bounded. */
  readonly variants?: BackendVariants;
  /** Test hook: |N_i| per boid id for the current state, counted the way the step counts. */
  debugNeighborCounts?(): Promise<Uint32Array>;
  /** Test hook: the sorted (cellKey, id) pairs of the current state, `count` of each. */
  debugSortedKeys?(): Promise<{ keys: Uint32Array; ids: Uint32Array }>;
  dispose(): void;
}

/**
 * Program variants specialised for the params (issue 21: a burst of setParams must not freeze
 * the page). webgpu: steer pipelines with the code of terms that are off compiled out; the
 * generic pipeline (same numbers) serves until one is compiled. webgl2, webgl2-tf: the steer
 * (and key) programs of each #define combination, linked with KHR_parallel_shader_compile; live
 * steps keep the params whose programs are linked until the newest ones are (see step()).
 */
export interface BackendVariants {
  /** Resolves once the newest params' variant is in use (or failed to compile). */
  settled(): Promise<void>;
  /** True while the newest params' own variant is in use. */
  readonly current: boolean;
  /** What the variant cache did: hits, misses, compiles, failures, evictions, size, bound. */
  stats(): VariantStats;
}
