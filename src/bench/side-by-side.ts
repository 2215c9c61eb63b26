/**
 * The side-by-side view: two flocks (by default webgl2 on the left, webgpu on the right) start
 * from the same initial state (the same bits, made once on the CPU) and advance in lock-step:
 * both take the same number of steps, both are awaited, both are drawn, and both states are read
 * back to measure how far they have drifted apart. Float32 sums in another order make them
 * differ by rounding at first; the flock is chaotic, so the gap then grows step by step.
 * Owns its two flocks (`dispose()`).
 */
import {
  createFlock,
  initialState,
  validateParams,
  type BackendKind,
  type Flock,
  type FlockParams,
  type FlockState,
} from '../index';
import { caseParams } from './cases';

/** Per-boid position difference: the largest coordinate difference (the tolerance rule's measure). */
export interface Divergence {
  steps: number;
  count: number;
  meanPos: number;
  maxPos: number;
  maxVel: number;
  /** Boids whose position differs by more than 1e-4 (the one-step tolerance), and their share. */
  over1e4: number;
  fracOver1e4: number;
  /** Boids within the one-step tolerance (1e-4 in position, 1e-3 in velocity) but for 0.05%. */
  withinOneStepTolerance: boolean;
}

function minimumImage(d: number, size: number): number {
  return d - size * Math.round(d / size);
}

/** Compares two states in boid-id order (positions by minimum image under wrap). */
export function divergence(
  a: FlockState,
  b: FlockState,
  params: FlockParams,
  steps: number,
): Divergence {
  if (a.count !== b.count) throw new Error(`counts differ: ${a.count} vs ${b.count}`);
  const axes = params.dimensions === 2 ? 2 : 3;
  let sum = 0;
  let maxPos = 0;
  let maxVel = 0;
  let over = 0;
  let overEither = 0;
  for (let i = 0; i < a.count; i++) {
    let ep = 0;
    let ev = 0;
    for (let c = 0; c < 3; c++) {
      let dp = a.positions[4 * i + c]! - b.positions[4 * i + c]!;
      if (params.boundary === 'wrap' && c < axes)
        dp = minimumImage(dp, params.boundsMax[c]! - params.boundsMin[c]!);
      const dv = a.velocities[4 * i + c]! - b.velocities[4 * i + c]!;
      ep = Math.max(ep, Number.isFinite(dp) ? Math.abs(dp) : Infinity);
      ev = Math.max(ev, Number.isFinite(dv) ? Math.abs(dv) : Infinity);
    }
    sum += ep;
    maxPos = Math.max(maxPos, ep);
    maxVel = Math.max(maxVel, ev);
    if (ep > 1e-4) over++;
    if (ep > 1e-4 || ev > 1e-3) overEither++;
  }
  return {
    steps,
    count: a.count,
    meanPos: sum / Math.max(1, a.count),
    maxPos,
    maxVel,
    over1e4: over,
    fracOver1e4: over / Math.max(1, a.count),
    withinOneStepTolerance: overEither / Math.max(1, a.count) <= 0.0005,
  };
}

export interface SideOptions {
  left: BackendKind;
  right: BackendKind;
  count: number;
  seed: number;
  dimensions: 2 | 3;
}

export class SideBySide {
  left: Flock | null = null;
  right: Flock | null = null;
  params: FlockParams | null = null;
  steps = 0;
  readonly history: Divergence[] = [];
  /** Why a side could not start, by side. */
  readonly errors: { left?: string; right?: string } = {};
  private running = false;
  private loop: Promise<void> | null = null;

  constructor(
    /** Each flock makes its own canvas in here (a canvas keeps its first context type). */
    private readonly leftBox: HTMLElement,
    private readonly rightBox: HTMLElement,
    private readonly onUpdate: (d: Divergence | null) => void,
  ) {}

  /** (Re)creates both flocks from one initial state; resolves when both exist (or failed, see errors). */
  async init(o: SideOptions): Promise<void> {
    await this.stop();
    this.disposeFlocks();
    this.steps = 0;
    this.history.length = 0;
    delete this.errors.left;
    delete this.errors.right;
    const params = validateParams(
      caseParams({
        backend: o.left,
        mode: 'grid',
        count: o.count,
        seed: o.seed,
        dimensions: o.dimensions,
      }),
    );
    this.params = params;
    const state = initialState(params);
    const make = async (backend: BackendKind, box: HTMLElement) =>
      createFlock(box, { backend, params, initialState: state, autoStart: false });
    const [l, r] = await Promise.allSettled([
      make(o.left, this.leftBox),
      make(o.right, this.rightBox),
    ]);
    if (l.status === 'fulfilled') this.left = l.value;
    else this.errors.left = reason(l.reason);
    if (r.status === 'fulfilled') this.right = r.value;
    else this.errors.right = reason(r.reason);
    this.left?.render();
    this.right?.render();
    if (this.left && this.right) await this.measure();
    else this.onUpdate(null);
  }

  /** Both flocks take k steps (awaited together), are drawn, and are compared. */
  async advance(k = 1): Promise<Divergence | null> {
    const a = this.left;
    const b = this.right;
    if (!a || !b) return null;
    await Promise.all([a.step(k), b.step(k)]);
    this.steps += k;
    a.render();
    b.render();
    return this.measure();
  }

  private async measure(): Promise<Divergence> {
    const [sa, sb] = await Promise.all([this.left!.readState(), this.right!.readState()]);
    const d = divergence(sa, sb, this.params!, this.steps);
    this.history.push(d);
    this.onUpdate(d);
    return d;
  }

  /** Both states now (boid-id order), for tests and the console. */
  async states(): Promise<[FlockState, FlockState] | null> {
    if (!this.left || !this.right) return null;
    return Promise.all([this.left.readState(), this.right.readState()]);
  }

  /** Advances k steps per tick until stop(). */
  start(k: number): void {
    if (this.running || !this.left || !this.right) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await this.advance(k);
        // Yield a frame so the page stays responsive.
        await new Promise((res) => requestAnimationFrame(() => res(undefined)));
      }
    })().catch((e: unknown) => {
      this.running = false;
      this.errors.left ??= reason(e);
      this.onUpdate(null);
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    this.loop = null;
  }

  private disposeFlocks(): void {
    this.left?.dispose();
    this.right?.dispose();
    this.left = this.right = null;
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.disposeFlocks();
  }
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
