/**
 * The `cpu` backend, last rung of the ladder: the CPU reference step (src/core/reference.ts, grid
 * or brute as the parameters say) run in a Web Worker, drawn with Canvas 2D (cpu-render.ts).
 * Requests (params, state, step, read) go to the worker in order and are answered in order, so
 * step/setState/setParams/readState keep the order they were called in. Where Workers are missing
 * (or the capability 'worker' is disabled, or the worker fails to load) the same engine runs on
 * the main thread in small slices, replaying whatever the worker had not finished.
 * Owns: the worker and the canvas's 2D context.
 */
import {
  CPU_MAX_COUNT,
  type Backend,
  type BackendInit,
  type BackendKind,
  type BackendTimings,
  type RenderView,
} from '../backend';
import { NO_PASS_TIMES } from '../backend';
import { FlockError } from '../core/errors';
import type { FlockParams } from '../core/params';
import { SimTime } from '../core/sim-time';
import { cloneState, type FlockState } from '../core/state';
import { CpuEngine, type CpuReply, type CpuRequest } from './cpu-engine';
import { Canvas2DScratch, drawFlockCanvas2D } from './cpu-render';

/** Largest count the cpu backend takes: an all-JS grid step of 4096 boids is a few ms per step. */
export { CPU_MAX_COUNT };

/** How many recent step batches the mean step time covers. */
const TIMING_WINDOW = 30;
/** Main-thread fallback: keep stepping within one slice until this many ms have passed. */
const SLICE_MS = 4;

function checkCount(count: number): void {
  if (!Number.isInteger(count) || count < 1 || count > CPU_MAX_COUNT) {
    throw new FlockError(
      'count',
      count,
      `an integer from 1 to ${CPU_MAX_COUNT} (the cpu backend's cap)`,
    );
  }
}

/** Where the engine runs: a Web Worker, or the main thread in slices. */
interface Runner {
  readonly where: 'worker' | 'main thread';
  post(req: CpuRequest): void;
  terminate(): void;
}

class WorkerRunner implements Runner {
  readonly where = 'worker';
  private readonly worker: Worker;

  constructor(onReply: (r: CpuReply) => void, onFail: (reason: string) => void) {
    // Vite bundles the worker from this URL (dev and build alike); the package build
    // (scripts/build-lib.mjs) points it at the shipped dist/gpu-flock.cpu-worker.js.
    this.worker = new Worker(new URL('./cpu-worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev: MessageEvent<CpuReply>) => onReply(ev.data);
    this.worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      onFail(ev.message || 'the worker script failed to load or threw');
    };
    this.worker.onmessageerror = () => onFail('a worker message could not be deserialised');
  }

  post(req: CpuRequest): void {
    // Structured clone copies the state: the backend keeps its own copy for a replay.
    this.worker.postMessage(req);
  }

  terminate(): void {
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.onmessageerror = null;
    this.worker.terminate();
  }
}

/** Runs the engine on the main thread, one slice (a few ms of steps) per macrotask. */
class MainThreadRunner implements Runner {
  readonly where = 'main thread';
  private readonly queue: CpuRequest[] = [];
  private readonly engine = new CpuEngine();
  /** Steps already taken, and their ms, of the 'step' request at the head of the queue. */
  private done = 0;
  private doneMs = 0;
  private scheduled = false;
  private stopped = false;
  private readonly channel: MessageChannel | null =
    typeof MessageChannel === 'function' ? new MessageChannel() : null;

  constructor(
    private readonly onReply: (r: CpuReply) => void,
    params: FlockParams | null = null,
    state: FlockState | null = null,
    time = 0,
  ) {
    this.engine.params = params;
    this.engine.state = state;
    if (params) this.engine.clock.setTimeStep(params.timeStep);
    this.engine.clock.reset(time);
    if (this.channel) this.channel.port1.onmessage = () => this.slice();
  }

  post(req: CpuRequest): void {
    this.queue.push(req);
    this.schedule();
  }

  terminate(): void {
    this.stopped = true;
    this.queue.length = 0;
    if (this.channel) {
      this.channel.port1.onmessage = null;
      this.channel.port1.close();
    }
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    // A MessageChannel message is a macrotask without setTimeout's 4 ms clamp.
    if (this.channel) this.channel.port2.postMessage(null);
    else setTimeout(() => this.slice(), 0);
  }

  private slice(): void {
    this.scheduled = false;
    const t0 = performance.now();
    while (!this.stopped && this.queue.length > 0 && performance.now() - t0 < SLICE_MS) {
      const req = this.queue[0]!;
      if (req.op === 'step' && this.done < req.n) {
        try {
          this.doneMs += this.engine.stepOnce();
          this.done++;
        } catch (e) {
          this.queue.shift();
          this.done = this.doneMs = 0;
          this.onReply({
            op: 'step',
            seq: req.seq,
            error: e instanceof Error ? e.message : String(e),
          });
        }
        continue;
      }
      this.queue.shift();
      if (req.op === 'step') {
        const reply: CpuReply = {
          op: 'step',
          seq: req.seq,
          state: this.engine.snapshot(),
          steps: req.n,
          ms: this.doneMs,
          time: this.engine.clock.time,
        };
        this.done = this.doneMs = 0;
        this.onReply(reply);
      } else {
        this.onReply(this.engine.handle(req));
      }
    }
    if (this.queue.length > 0) this.schedule();
  }
}

interface Waiter {
  resolve(s: FlockState): void;
  reject(e: Error): void;
}

class CpuBackend implements Backend {
  readonly kind: BackendKind = 'cpu';
  readonly maxCount = CPU_MAX_COUNT;
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly scratch = new Canvas2DScratch();
  private runner: Runner;
  private params: FlockParams;
  private seq = 0;
  /** Posted requests not yet answered, oldest first (replayed if the worker dies). */
  private readonly pending: CpuRequest[] = [];
  /** Parameters and state after the last answered request (the replay's starting point). */
  private confirmedParams: FlockParams;
  private confirmedState: FlockState;
  private confirmedTime: number;
  /** Simulated time of the requests posted so far (the engine catches up in order). */
  private readonly clock: SimTime;
  private readonly waiters = new Map<number, Waiter>();
  /** The state drawn by render(): the newest one known, and the request it reflects. */
  private shown: FlockState;
  private shownSeq = 0;
  private readonly stepTimes: { ms: number; steps: number }[] = [];
  private disposed = false;

  constructor(
    private readonly init: BackendInit,
    ctx: CanvasRenderingContext2D,
  ) {
    this.canvas = init.canvas;
    this.ctx = ctx;
    this.params = init.params;
    this.confirmedParams = init.params;
    this.confirmedState = cloneState(init.state);
    this.confirmedTime = init.time ?? 0;
    this.clock = new SimTime(init.params.timeStep);
    this.clock.reset(this.confirmedTime);
    this.shown = this.confirmedState;
    const onReply = (r: CpuReply) => this.onReply(r);
    let runner: Runner | null = null;
    if (typeof Worker === 'function' && !init.disable.has('worker')) {
      try {
        runner = new WorkerRunner(onReply, (reason) => this.onWorkerFailed(reason));
      } catch (e) {
        const reason = `no worker (${String(e)}): stepping on the main thread`;
        console.warn(`gpu-flock cpu backend: ${reason}`);
        init.onDegraded?.(reason);
      }
    }
    this.runner = runner ?? new MainThreadRunner(onReply);
    this.post({ op: 'params', seq: 0, params: this.params });
    this.post({ op: 'state', seq: 0, state: this.confirmedState, time: this.confirmedTime });
  }

  get time(): number {
    return this.clock.time;
  }

  /** Where the steps run now. */
  get deviceInfo(): string {
    return `CPU reference step (${this.runner.where}), Canvas 2D`;
  }

  /** Steps submitted and not yet finished (a frame loop can skip stepping while this is high). */
  get pendingSteps(): number {
    let n = 0;
    for (const r of this.pending) if (r.op === 'step') n += r.n;
    return n;
  }

  private post(req: CpuRequest): number {
    if (this.disposed) throw new Error('gpu-flock: the cpu backend was disposed');
    req.seq = ++this.seq;
    this.pending.push(req);
    this.runner.post(req);
    return req.seq;
  }

  private onReply(r: CpuReply): void {
    if (this.disposed) return;
    const req = this.pending.shift();
    if (!req || req.seq !== r.seq) {
      // Cannot happen with an in-order runner; say so loudly rather than mis-assign a state.
      console.error(`gpu-flock cpu backend: reply ${r.seq} does not match request ${req?.seq}`);
    }
    if (req?.op === 'params') this.confirmedParams = req.params;
    if (req?.op === 'state') this.confirmedState = req.state;
    if (r.time !== undefined && r.error === undefined) this.confirmedTime = r.time;
    const waiter = this.waiters.get(r.seq);
    this.waiters.delete(r.seq);
    if (r.error !== undefined) {
      const err = new Error(`gpu-flock cpu backend: ${r.op} failed: ${r.error}`);
      if (waiter) waiter.reject(err);
      else {
        console.error(err);
        this.init.onLost?.(err.message);
      }
      return;
    }
    if (r.op === 'step' && r.state) {
      this.confirmedState = r.state;
      if (r.seq >= this.shownSeq) {
        this.shown = r.state;
        this.shownSeq = r.seq;
      }
      this.stepTimes.push({ ms: r.ms ?? 0, steps: r.steps ?? 1 });
      if (this.stepTimes.length > TIMING_WINDOW) this.stepTimes.shift();
    }
    // A read's state goes to the caller, who may modify it: never keep it.
    if (r.op === 'read' && r.state && waiter) waiter.resolve(r.state);
  }

  /** The worker failed (typically: it could not load): carry on on the main thread from the last answer. */
  private onWorkerFailed(reason: string): void {
    if (this.disposed || this.runner.where !== 'worker') return;
    const why = `the worker failed (${reason}): stepping on the main thread`;
    console.warn(`gpu-flock cpu backend: ${why}`);
    this.init.onDegraded?.(why);
    this.runner.terminate();
    this.runner = new MainThreadRunner(
      (r) => this.onReply(r),
      this.confirmedParams,
      this.confirmedState,
      this.confirmedTime,
    );
    for (const req of this.pending) this.runner.post(req);
  }

  setParams(params: FlockParams): void {
    checkCount(params.count);
    this.params = params;
    this.clock.setTimeStep(params.timeStep);
    this.post({ op: 'params', seq: 0, params });
  }

  setState(state: FlockState, time = 0): void {
    checkCount(state.count);
    const copy = cloneState(state);
    this.clock.reset(time);
    const seq = this.post({ op: 'state', seq: 0, state: copy, time });
    this.shown = copy;
    this.shownSeq = seq;
  }

  step(n: number): void {
    if (!(n > 0)) return;
    this.clock.advance(Math.floor(n));
    this.post({ op: 'step', seq: 0, n: Math.floor(n) });
  }

  readState(): Promise<FlockState> {
    if (this.disposed) return Promise.reject(new Error('gpu-flock: the cpu backend was disposed'));
    return new Promise<FlockState>((resolve, reject) => {
      const seq = this.post({ op: 'read', seq: 0 });
      this.waiters.set(seq, { resolve, reject });
    });
  }

  async sync(): Promise<void> {
    await this.readState();
  }

  render(view: RenderView): void {
    if (this.disposed) return;
    drawFlockCanvas2D(this.ctx, this.shown, this.params, view, this.scratch, this.time);
  }

  timings(): BackendTimings {
    let ms = 0;
    let steps = 0;
    for (const t of this.stepTimes) {
      ms += t.ms;
      steps += t.steps;
    }
    return {
      timing: 'cpu-wait',
      passes: { ...NO_PASS_TIMES, steer: steps > 0 ? ms / steps : null },
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.runner.terminate();
    this.pending.length = 0;
    const err = new Error('gpu-flock: the cpu backend was disposed');
    for (const w of this.waiters.values()) w.reject(err);
    this.waiters.clear();
  }
}

/**
 * Creates the cpu backend on `init.canvas` (which must not hold a WebGL/WebGPU context).
 * @throws FlockError('count', ...) above CPU_MAX_COUNT; FlockError('backend', ...) without Canvas 2D.
 */
export async function createCpuBackend(init: BackendInit): Promise<Backend> {
  checkCount(init.params.count);
  checkCount(init.state.count);
  const ctx = init.canvas.getContext('2d');
  if (!ctx) {
    throw new FlockError(
      'backend',
      'cpu',
      'a canvas that can give a Canvas 2D context (this one already holds another context type)',
    );
  }
  return new CpuBackend(init, ctx);
}

export { probeCpuBackend } from './cpu-probe';
