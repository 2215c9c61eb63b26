/**
 * A fake backend for Node tests of the Flock (issue 18 item 2): a real `Backend` (src/backend.ts)
 * that keeps a real state, stepped by the CPU reference (src/core/reference.ts), records every
 * call, and can be told to lose its context (onLost, later onRestored), to fail at creation or at
 * a call, or to be slow (a read or sync that waits until the test lets it go). Not part of the
 * public API: tests build flocks with it through createFlockWith (src/flock/create.ts), beside a
 * FakeSurface and FakeFrames (no DOM in Node).
 */
import type { Backend, BackendInit, BackendKind, BackendTimings, RenderView } from '../backend';
import { BACKEND_LADDER, NO_PASS_TIMES } from '../backend';
import type { ProbeResult } from '../backend-ladder';
import { FlockError } from '../core/errors';
import type { FlockParams } from '../core/params';
import { referenceStep } from '../core/reference';
import { cloneState, type FlockState } from '../core/state';
import type { BackendProvider } from '../flock/backend-host';
import type { FrameSource } from '../flock/frame-loop';
import type { ClientRect, FlockSurface, SurfaceEvents } from '../flock/surface';

/** The calls a FakeBackend records, in order. */
export type FakeCall =
  | { op: 'setParams'; params: FlockParams }
  | { op: 'setState'; count: number; time: number }
  | { op: 'step'; n: number }
  | { op: 'readState' | 'sync' | 'render' | 'dispose' };

/** A call that can be made to fail or wait. */
export type FakeOp = 'setParams' | 'setState' | 'step' | 'readState' | 'sync' | 'render';

/** A promise the test settles by hand. */
export interface Gate {
  readonly promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

export class FakeBackend implements Backend {
  readonly kind: BackendKind;
  readonly canvas: HTMLCanvasElement;
  maxCount: number;
  /** Every call made to this backend, in order. */
  readonly calls: FakeCall[] = [];
  /** The parameters it holds. */
  params: FlockParams;
  /** The state after every submitted step (stepped at once by the CPU reference). */
  state: FlockState;
  time: number;
  disposed = false;
  /** Milliseconds per step its "GPU timers" report (timing 'gpu'), or null: no timer ('none'). */
  gpuStepMs: number | null = null;
  /** Steps submitted and not finished, as the frame loop sees them (backpressure). */
  pendingSteps = 0;
  private _lost = false;
  private readonly _failures = new Map<FakeOp, unknown>();
  private readonly _gates = new Map<FakeOp, Gate>();
  private readonly _lossAt = new Map<FakeOp, { silent: boolean }>();

  constructor(
    private readonly _init: BackendInit,
    kind: BackendKind,
    maxCount: number,
  ) {
    this.kind = kind;
    this.canvas = _init.canvas;
    this.maxCount = maxCount;
    this.params = _init.params;
    this.state = cloneState(_init.state);
    this.time = _init.time ?? 0;
  }

  /** Steps taken so far (recorded step calls, replays included). */
  get stepsTaken(): number {
    let n = 0;
    for (const c of this.calls) if (c.op === 'step') n += c.n;
    return n;
  }

  /** The next call of `op` throws `error` (once). */
  failNext(op: FakeOp, error: unknown = new Error(`fake ${op} failed`)): void {
    this._failures.set(op, error);
  }

  /**
   * The next call of `op` loses the context as it is made (the call goes on on a lost context, as
   * WebGL's calls do: no error). `silent`: isLost() turns true, the event comes only later (when
   * the flock notices the loss itself), as after WEBGL_lose_context.loseContext().
   */
  loseAt(op: FakeOp, { silent = false } = {}): void {
    this._lossAt.set(op, { silent });
  }

  /** Every later readState / sync waits for the returned gate (until `open()`). */
  slow(op: 'readState' | 'sync'): Gate {
    const g = gate();
    this._gates.set(op, g);
    return g;
  }

  /** Loses the context or device: isLost() turns true and onLost is called (its event). */
  loseContext(reason = 'fake context lost', { silent = false } = {}): void {
    this._lost = true;
    if (!silent) this._init.onLost?.(reason);
  }

  /** Brings a lost context back: onRestored is called (a WebGL rung rebuilds in place). */
  restoreContext(): void {
    this._lost = false;
    this._init.onRestored?.();
  }

  /** Reports a non-fatal error (as a WebGPU validation error would). */
  reportError(error: unknown): void {
    this._init.onError?.(error);
  }

  isLost(): boolean {
    return this._lost;
  }

  setParams(params: FlockParams): void {
    this._check('setParams');
    this.calls.push({ op: 'setParams', params });
    this.params = params;
  }

  setState(state: FlockState, time = 0): void {
    this._check('setState');
    this.calls.push({ op: 'setState', count: state.count, time });
    this.state = cloneState(state);
    this.time = time;
  }

  step(n: number): void {
    this._check('step');
    this.calls.push({ op: 'step', n });
    // A lost context drops its work (as WebGL does); the replay rebuilds it.
    if (this._lost) return;
    for (let k = 0; k < n; k++) {
      this.state = referenceStep(this.state, this.params, undefined, this.time);
      this.time += this.params.timeStep;
    }
  }

  async readState(): Promise<FlockState> {
    this._check('readState');
    this.calls.push({ op: 'readState' });
    const s = cloneState(this.state);
    await this._gates.get('readState')?.promise;
    if (this._lost) throw new Error('fake readState: context lost');
    return s;
  }

  async sync(): Promise<void> {
    this._check('sync');
    this.calls.push({ op: 'sync' });
    await this._gates.get('sync')?.promise;
  }

  render(_view: RenderView): void {
    this._check('render');
    this.calls.push({ op: 'render' });
  }

  timings(): BackendTimings {
    if (this.gpuStepMs === null) return { timing: 'none', passes: { ...NO_PASS_TIMES } };
    return {
      timing: 'gpu',
      passes: { ...NO_PASS_TIMES, steer: this.gpuStepMs },
      resolutionMs: 0.1,
    };
  }

  dispose(): void {
    if (!this.disposed) this.calls.push({ op: 'dispose' });
    this.disposed = true;
  }

  private _check(op: FakeOp): void {
    if (this.disposed) throw new Error(`fake ${op} after dispose()`);
    const loss = this._lossAt.get(op);
    if (loss) {
      this._lossAt.delete(op);
      this.loseContext(`fake context lost at ${op}`, loss);
    }
    if (!this._failures.has(op)) return;
    const e = this._failures.get(op);
    this._failures.delete(op);
    throw e;
  }
}

/**
 * The ladder made of fake backends: every rung runs unless told otherwise. Pass it as
 * `backends` to createFlockWith.
 */
export class FakeBackends implements BackendProvider {
  /** Every backend created, in order. */
  readonly created: FakeBackend[] = [];
  /** Rungs whose probe fails, with the reason. */
  readonly unavailable: Partial<Record<BackendKind, string>> = {};
  /** Rungs whose creation throws, with the message. */
  readonly failCreate: Partial<Record<BackendKind, string>> = {};
  /** The count each rung holds at most (default 100,000; cpu 4,096 as the real one). */
  readonly maxCount: Partial<Record<BackendKind, number>> = { cpu: 4096 };
  /** When set, creation waits for this gate. */
  createGate: Gate | null = null;

  /** The backend created last. */
  get last(): FakeBackend {
    const b = this.created[this.created.length - 1];
    if (!b) throw new Error('no fake backend was created');
    return b;
  }

  async plan(
    disable: ReadonlySet<string>,
  ): Promise<{ order: BackendKind[]; reasons: Partial<Record<BackendKind, string>> }> {
    const order: BackendKind[] = [];
    const reasons: Partial<Record<BackendKind, string>> = {};
    for (const kind of BACKEND_LADDER) {
      const p = await this.probe(kind, disable);
      if (p.ok) order.push(kind);
      else reasons[kind] = p.reason ?? 'unavailable';
    }
    return { order, reasons };
  }

  probe(kind: BackendKind, disable: ReadonlySet<string>): Promise<ProbeResult> {
    if (disable.has(kind)) {
      return Promise.resolve({ ok: false, reason: `hidden by disable: ['${kind}']` });
    }
    const reason = this.unavailable[kind];
    if (reason) return Promise.resolve({ ok: false, reason });
    return Promise.resolve({ ok: true, info: `fake ${kind}` });
  }

  entry(kind: BackendKind): { create(init: BackendInit): Promise<Backend> } {
    return {
      create: async (init) => {
        await this.createGate?.promise;
        const fail = this.failCreate[kind];
        if (fail) throw new Error(fail);
        const max = this.maxCount[kind] ?? 100_000;
        // As the real rungs do: more boids than the device holds is a count error with its limit.
        if (kind !== 'cpu' && init.state.count > max) {
          throw new FlockError(
            'count',
            init.state.count,
            `an integer from 1 to ${max}`,
            undefined,
            max,
          );
        }
        const b = new FakeBackend(init, kind, max);
        this.created.push(b);
        return b;
      },
    };
  }
}

/** A surface without a page: a canvas stand-in of a fixed size; idle and resize by hand. */
export class FakeSurface implements FlockSurface {
  canvas: HTMLCanvasElement;
  /** How many times a fallback asked for a fresh canvas. */
  canvasesMade = 0;
  onCallerCanvas = false;
  idle = false;
  rect: ClientRect;
  background: string | null = null;
  framesDrawn = 0;
  disposed = false;
  private _events: SurfaceEvents | null = null;

  constructor(width = 640, height = 480) {
    this.canvas = FakeSurface._canvas(width, height);
    this.rect = { left: 0, top: 0, width, height };
  }

  private static _canvas(width: number, height: number): HTMLCanvasElement {
    return { width, height, style: {} } as unknown as HTMLCanvasElement;
  }

  nextCanvas(): void {
    this.canvasesMade++;
    this.canvas = FakeSurface._canvas(this.canvas.width, this.canvas.height);
  }

  fitDrawingBuffer(): string | null {
    return null;
  }

  clientRect(): ClientRect {
    return this.rect;
  }

  showBackground(css: string): void {
    this.background = css;
  }

  frameDrawn(): void {
    this.framesDrawn++;
  }

  watch(events: SurfaceEvents): void {
    this._events = events;
  }

  /** The canvas takes a new CSS size (its box in `rect`), as a ResizeObserver would report it. */
  resize(width: number, height: number): void {
    this.rect = { ...this.rect, width, height };
    this._events?.resized();
  }

  /** The page hides or shows, or the canvas leaves or enters the viewport. */
  setIdle(idle: boolean): void {
    this.idle = idle;
    this._events?.idleChanged(idle);
  }

  dispose(): void {
    this.disposed = true;
    this._events = null;
  }
}

/** A frame source driven by hand: `frame(dtMs)` runs the frame asked for, `dtMs` later. */
export class FakeFrames implements FrameSource {
  /** Milliseconds on this clock. */
  time = 1000;
  private _pending: ((t: number) => void) | null = null;
  private _next = 1;

  /** True while a frame is asked for. */
  get pending(): boolean {
    return this._pending !== null;
  }

  request(cb: (timeMs: number) => void): number {
    this._pending = cb;
    return this._next++;
  }

  cancel(): void {
    this._pending = null;
  }

  now(): number {
    return this.time;
  }

  /** Advances the clock by `dtMs` and runs the frame asked for, if any. */
  frame(dtMs: number): void {
    this.time += dtMs;
    const cb = this._pending;
    this._pending = null;
    cb?.(this.time);
  }
}
