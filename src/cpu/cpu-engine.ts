/**
 * The CPU backend's simulation engine: holds one state and one parameter set and applies the
 * requests of the protocol below strictly in order. The same code runs inside the Web Worker
 * (cpu-worker.ts) and, where Workers are unavailable, on the main thread (cpu-backend.ts), so
 * both paths compute bit-identical results with the reference step (src/core/reference.ts).
 */
import type { FlockParams } from '../core/params';
import { referenceStep } from '../core/reference';
import { SimTime } from '../core/sim-time';
import { cloneState, type FlockState } from '../core/state';

/** Main thread -> engine. `seq` increases by one per request; replies echo it. */
export type CpuRequest =
  | { op: 'params'; seq: number; params: FlockParams }
  | { op: 'state'; seq: number; state: FlockState; time: number }
  | { op: 'step'; seq: number; n: number }
  | { op: 'read'; seq: number };

/**
 * Engine -> main thread: one reply per request, in request order. `state` (a copy, boid-id order)
 * comes with 'step' and 'read'; `ms` is the wall time of the `steps` steps taken; `error` is set
 * when the request failed. `time` is the simulated time after the request (seconds).
 */
export interface CpuReply {
  op: CpuRequest['op'];
  seq: number;
  state?: FlockState;
  steps?: number;
  ms?: number;
  error?: string;
  time?: number;
}

export class CpuEngine {
  /** Null until the first 'params' / 'state' request (the backend always sends both first). */
  params: FlockParams | null = null;
  state: FlockState | null = null;
  /** Simulated time t, seconds (the reference step's `time`). */
  readonly clock = new SimTime(1 / 60);

  /** One reference step (the grid or brute search the parameters ask for); returns its wall time, ms. */
  stepOnce(): number {
    if (!this.params || !this.state) throw new Error('cpu engine: step before params and state');
    const t0 = performance.now();
    this.state = referenceStep(
      this.state,
      this.params,
      this.params.neighborSearch,
      this.clock.time,
    );
    this.clock.advance(1);
    return performance.now() - t0;
  }

  /** A copy of the current state (boid-id order). */
  snapshot(): FlockState {
    if (!this.state) throw new Error('cpu engine: read before state');
    return cloneState(this.state);
  }

  /** Applies a whole request (all n steps of a 'step') and returns its reply. */
  handle(req: CpuRequest): CpuReply {
    try {
      switch (req.op) {
        case 'params':
          this.params = req.params;
          this.clock.setTimeStep(req.params.timeStep);
          return { op: req.op, seq: req.seq, time: this.clock.time };
        case 'state':
          this.state = req.state;
          this.clock.reset(req.time);
          return { op: req.op, seq: req.seq, time: this.clock.time };
        case 'step': {
          let ms = 0;
          for (let k = 0; k < req.n; k++) ms += this.stepOnce();
          const time = this.clock.time;
          return { op: req.op, seq: req.seq, state: this.snapshot(), steps: req.n, ms, time };
        }
        case 'read':
          return { op: req.op, seq: req.seq, state: this.snapshot(), time: this.clock.time };
      }
    } catch (e) {
      return { op: req.op, seq: req.seq, error: e instanceof Error ? e.message : String(e) };
    }
  }
}

/** The buffers of a reply's state, to transfer rather than copy through postMessage. */
export function replyTransfer(reply: CpuReply): Transferable[] {
  return reply.state ? [reply.state.positions.buffer, reply.state.velocities.buffer] : [];
}
