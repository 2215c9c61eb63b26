/**
 * Pass 5, steer + integrate (steer.wgsl): one invocation per boid reads the sorted records
 * (Jacobi: every boid sees the previous state), gathers its neighbours over the 3^d cells of the
 * cell table (grid) or over all boids in workgroup-memory tiles (brute force), and writes the new
 * position and velocity into `state` and |N_i| into `nbr`, in the order of `sorted`.
 * Also the per-step uniforms: each step reads its StepParams (predator positions, the flow's phase
 * at its simulated time t, from src/core/behaviours.ts in float64, packed by src/core/terms.ts)
 * from its own 256-byte slot of a ring, bound with a dynamic offset, so the many steps of one
 * submission each see their own t.
 * And the specialised pipelines: the code of terms that are off compiled out (src/core/terms.ts),
 * compiled in the background; the generic pipeline (same results) runs until then.
 */
import { nextPow2 } from '../core/numbers';
import type { FlockParams } from '../core/params';
import type { SimTime } from '../core/sim-time';
import { beginPass, dispatch, type PassEnv } from './bind-groups';
import { BufferUsage } from './constants';
import { steerTerms } from '../core/terms';
import { createComputePrograms, type ComputeProgram } from './shaders';
import { STEP_UNIFORMS } from './uniforms';

/** Stride and initial number of the per-step StepParams slots (the ring grows for longer encodes). */
const STEP_STRIDE = 256;
const STEP_SLOTS = 64;

/** The steer entry point of a neighbour search. */
export type SteerName = 'steerGrid' | 'steerBrute';

export const steerName = (p: FlockParams): SteerName =>
  p.neighborSearch === 'grid' ? 'steerGrid' : 'steerBrute';

export interface SteerOptions {
  /** Specialised pipelines (FlockSimulationOptions.specialise). */
  specialise: boolean;
  /** Specialised pipelines are compiled once this settles (the first frame's pipelines first). */
  compileAfter: Promise<unknown>;
  /** Every shader file by name (shaderFiles()). */
  files: Readonly<Record<string, string>>;
  /** Label prefix of GPU objects. */
  label: string;
}

/** The steer pass of one simulation: its StepParams ring and its specialised pipelines. */
export class SteerPass {
  /** The StepParams ring: `stepSlots` slots of STEP_STRIDE bytes; `stepNext` the next one to use. */
  private stepBuffer: GPUBuffer;
  private stepSlots = STEP_SLOTS;
  private stepNext = 0;
  private stepGeneration = 0;
  private disposed = false;
  /** Specialised steer programs by entry and TERMS mask: null while compiling or after a failure. */
  private readonly variants = new Map<
    string,
    { program: ComputeProgram | null; done: Promise<void> }
  >();

  constructor(
    private readonly env: PassEnv,
    private readonly options: SteerOptions,
  ) {
    this.stepBuffer = this.createStepBuffer();
  }

  private createStepBuffer(): GPUBuffer {
    this.stepGeneration++;
    this.stepNext = 0;
    return this.env.buffers.buffer(
      'stepParams',
      this.stepSlots * STEP_STRIDE,
      BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    );
  }

  /**
   * Byte offsets of the StepParams slots of the next n steps, their values written now; `clock`
   * advances by n steps. Steps that need no per-step value (no predators, no turbulence) all
   * share slot 0.
   */
  stepOffsets(p: FlockParams, clock: SimTime, n: number): number[] {
    if (p.predators === 0 && p.turbulence === 0) {
      clock.advance(n);
      return new Array<number>(n).fill(0);
    }
    if (n > this.stepSlots) {
      this.env.buffers.drop(this.stepBuffer);
      this.stepSlots = nextPow2(n);
      this.stepBuffer = this.createStepBuffer();
    }
    if (this.stepNext + n > this.stepSlots) this.stepNext = 0;
    const first = this.stepNext;
    const data = new ArrayBuffer(n * STEP_STRIDE);
    const offsets: number[] = [];
    for (let s = 0; s < n; s++) {
      const t = clock.time;
      STEP_UNIFORMS.pack({ params: p, time: t }, data, s * STEP_STRIDE);
      clock.advance(1);
      offsets.push((first + s) * STEP_STRIDE);
    }
    this.env.device.queue.writeBuffer(this.stepBuffer, first * STEP_STRIDE, data);
    this.stepNext = first + n;
    return offsets;
  }

  /**
   * The steer program for `p`: the specialised one once compiled (started here in the
   * background the first time), the generic one until then; `done` settles once it is compiled.
   */
  program(p: FlockParams): { program: ComputeProgram; done: Promise<void> } {
    const name = steerName(p);
    const generic = this.env.programs[name];
    if (!this.options.specialise) return { program: generic, done: Promise.resolve() };
    const terms = steerTerms(p);
    const key = `${name}:${terms}`;
    let v = this.variants.get(key);
    if (!v) {
      const spec = {
        ...generic.spec,
        constants: { ...generic.spec.constants, TERMS: terms },
      };
      const entry: { program: ComputeProgram | null; done: Promise<void> } = {
        program: null,
        done: Promise.resolve(),
      };
      entry.done = this.options.compileAfter
        .catch(() => undefined)
        .then(() => createComputePrograms(this.env.device, { [name]: spec }, this.options.files))
        .then((made) => {
          if (!this.disposed) entry.program = made[name]!;
        })
        // The generic pipeline computes the same step: keep it when a specialised one fails.
        .catch(() => undefined);
      this.variants.set(key, entry);
      v = entry;
    }
    return { program: v.program ?? generic, done: v.done };
  }

  /**
   * One steer pass of `p`'s search with `program`, reading StepParams at byte `offset` of the
   * ring (stepOffsets), as one compute pass named 'steer'.
   */
  encode(
    encoder: GPUCommandEncoder,
    p: FlockParams,
    program: ComputeProgram,
    offset: number,
    timed: boolean,
  ): void {
    const { buffers: b, groups } = this.env;
    const u = b.uniforms;
    const name = steerName(p);
    const stepGroup = groups.get(
      name,
      1,
      { 0: { buffer: this.stepBuffer, size: STEP_UNIFORMS.size } },
      `g${this.stepGeneration}`,
    );
    const main =
      name === 'steerGrid'
        ? groups.get('steerGrid', 0, {
            0: u,
            1: b.sorted!,
            2: b.cellStart!,
            3: b.state!,
            5: b.nbr!,
          })
        : groups.get('steerBrute', 0, { 0: u, 1: b.sorted!, 3: b.state!, 5: b.nbr! });
    const pass = beginPass(this.env, encoder, 'steer', timed);
    pass.setPipeline(program.pipeline);
    pass.setBindGroup(0, main);
    pass.setBindGroup(1, stepGroup, [offset]);
    dispatch(this.env, pass, b.count, this.env.wg.boid);
    pass.end();
  }

  /** Specialised pipelines that finish compiling after this are not kept. */
  dispose(): void {
    this.disposed = true;
  }
}
