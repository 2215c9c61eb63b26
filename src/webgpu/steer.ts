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
 * compiled in the background with createComputePipelineAsync; the generic pipeline (same results)
 * runs until then. They live in one VariantCache per device (src/core/variant-cache.ts), shared by the
 * flocks of a page: one compile at a time, only the newest wish of each flock compiled, once its
 * params have stayed the same COMPILE_QUIET_MS (a burst of setParams compiles its last variant
 * only), and at most STEER_VARIANT_BOUND pipelines kept (least recently used released). The step
 * plans' pipelines (step-plan.ts) compile through the same cache.
 */
import { nextPow2 } from '../core/numbers';
import type { FlockParams } from '../core/params';
import type { SimTime } from '../core/sim-time';
import { beginPass, dispatch, type PassEnv } from './bind-groups';
import { BufferUsage } from './constants';
import { steerTerms } from '../core/terms';
import { resolveShader } from '../core/shader-source';
import { LazyVariantCache, type VariantStats } from '../core/lazy-variant-cache';
import { createCheckedModule, type ComputeProgram } from './shaders';
import { STEP_UNIFORMS } from './uniforms';

/** Stride and initial number of the per-step StepParams slots (the ring grows for longer encodes). */
const STEP_STRIDE = 256;
const STEP_SLOTS = 64;

/**
 * Most specialised steer pipelines kept per device. A storm of random parameters wants up to
 * 2^9 masks per entry; a GUI session a handful: 16 covers the toggles a session goes back to.
 */
export const STEER_VARIANT_BOUND = 16;

/**
 * A specialised pipeline is compiled once the params have stayed the same this long, ms.
 * A compile stalls SwiftShader's frames for seconds here (createComputePipelineAsync or not), and
 * the generic pipeline gives the same numbers meanwhile: a storm of setParams compiles nothing
 * until it calms down.
 */
export const COMPILE_QUIET_MS = 300;

/** The specialised pipelines of a device and what compiles them (steer variants, step plans). */
export interface DeviceVariants {
  cache: LazyVariantCache<ComputeProgram>;
  /** How to compile each key asked for (the closure of the simulation that asked last). */
  jobs: Map<string, () => Promise<ComputeProgram>>;
  /** Shader sources by a short id, for the keys. */
  sources: Map<string, number>;
}
const deviceVariants = new WeakMap<GPUDevice, DeviceVariants>();

/** The device's variants, made with `bound` by the first caller. */
export function variantsOf(device: GPUDevice, bound = STEER_VARIANT_BOUND): DeviceVariants {
  let v = deviceVariants.get(device);
  if (!v) {
    const jobs = new Map<string, () => Promise<ComputeProgram>>();
    const compile = (key: string) => {
      const job = jobs.get(key)!;
      jobs.delete(key);
      return job();
    };
    // What serves meanwhile gives the same numbers: every change of the params postpones.
    const timing = { quietMs: COMPILE_QUIET_MS, quietFromRequest: true };
    v = {
      cache: new LazyVariantCache(bound, compile, undefined, timing),
      jobs,
      sources: new Map(),
    };
    deviceVariants.set(device, v);
  }
  return v;
}

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
  /** The device's bound when this is the first simulation on it (default STEER_VARIANT_BOUND). */
  variantBound?: number;
  /**
   * The grid's pass as two dispatches (steer.wgsl SPLIT, FlockSimulationOptions.splitIntegrate):
   * steerGrid (sums and steering), then integrateGrid.
   */
  split?: boolean;
  /**
   * The grid's x split for parameters (FlockSimulationOptions.cellSplitX resolved): where the
   * generic pipeline has SPHERE_X and this is 1, the specialised one is compiled without it (on
   * an H100 the SPHERE_X search over uncut cells cost up to 8% at fieldOfView 270).
   */
  cellSplit?: (p: FlockParams) => number;
}

/** A steer program; a split grid pass's also carries its integrateGrid pipeline. */
export type SteerProgram = ComputeProgram & { integrate?: GPUComputePipeline };

/** The steer pass of one simulation: its StepParams ring and its specialised pipelines. */
export class SteerPass {
  /** The StepParams ring: `stepSlots` slots of STEP_STRIDE bytes; `stepNext` the next one to use. */
  private stepBuffer: GPUBuffer;
  private stepSlots = STEP_SLOTS;
  private stepNext = 0;
  private stepGeneration = 0;
  private disposed = false;
  private readonly variants: DeviceVariants;
  /** The variant key of the params seen last (program() runs once per encode). */
  private keyOf: { params: FlockParams; key: string } | null = null;
  /** Id of steer.wgsl's resolved source in the device's variant keys. */
  private readonly sourceId: number;

  constructor(
    private readonly env: PassEnv,
    private readonly options: SteerOptions,
  ) {
    this.stepBuffer = this.createStepBuffer();
    this.variants = variantsOf(env.device, options.variantBound ?? STEER_VARIANT_BOUND);
    const code = resolveShader(env.programs.steerGrid.spec.file, options.files).code;
    const sources = this.variants.sources;
    if (!sources.has(code)) sources.set(code, sources.size);
    this.sourceId = sources.get(code)!;
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

  /** The key of `p`'s specialised program in the device's cache, with what compiles it. */
  private variant(p: FlockParams): { key: string; compile: () => Promise<ComputeProgram> } {
    const generic = this.env.programs[steerName(p)];
    const terms = steerTerms(p);
    const constants: Record<string, number> = { ...generic.spec.constants, TERMS: terms };
    if (constants.SPHERE_X && this.options.cellSplit?.(p) === 1) delete constants.SPHERE_X;
    const spec = { ...generic.spec, constants };
    const key = `${this.sourceId}|${JSON.stringify(spec)}`;
    this.keyOf = { params: p, key };
    const { device } = this.env;
    const { compileAfter, files } = this.options;
    const split = this.options.split === true && spec.entry === 'steerGrid';
    const integrateSpec = this.env.programs.integrateGrid.spec;
    const compile = async (): Promise<SteerProgram> => {
      await compileAfter.catch(() => undefined);
      const module = await createCheckedModule(device, spec.file, files);
      const layout = device.createPipelineLayout({ bindGroupLayouts: generic.layouts });
      const pipeline = await device.createComputePipelineAsync({
        label: `${spec.file}:${spec.entry}:TERMS=${terms}`,
        layout,
        compute: {
          module,
          entryPoint: spec.entry,
          constants: { WG: spec.workgroupSize, ...spec.constants },
        },
      });
      if (!split) return { pipeline, layouts: generic.layouts, spec };
      const integrate = await device.createComputePipelineAsync({
        label: `${spec.file}:integrateGrid:TERMS=${terms}`,
        layout,
        compute: {
          module,
          entryPoint: 'integrateGrid',
          constants: {
            WG: integrateSpec.workgroupSize,
            ...integrateSpec.constants,
            TERMS: terms,
          },
        },
      });
      return { pipeline, layouts: generic.layouts, spec, integrate };
    };
    return { key, compile };
  }

  /**
   * `p` is the new parameters: asks for its specialised program (compiled in the background when
   * the device's compiler is free, unless newer parameters replace the wish first).
   */
  request(p: FlockParams): void {
    if (!this.options.specialise || this.disposed) return;
    const { key, compile } = this.variant(p);
    if (!this.variants.cache.get(key)) this.variants.jobs.set(key, compile);
    this.variants.cache.request(this, key);
  }

  /**
   * The steer program for `p`: the specialised one once compiled, the generic one (same results)
   * until then or when specialisation is off or failed.
   */
  program(p: FlockParams): ComputeProgram {
    const generic = this.env.programs[steerName(p)];
    if (!this.options.specialise) return generic;
    const key = this.keyOf?.params === p ? this.keyOf.key : this.variant(p).key;
    return this.variants.cache.get(key) ?? generic;
  }

  /** Whether program(p) is the specialised program (false: the generic one serves). */
  specialised(p: FlockParams): boolean {
    return this.options.specialise && this.program(p) !== this.env.programs[steerName(p)];
  }

  /** Resolves once the newest parameters' specialised program is compiled (or failed). */
  settled(): Promise<void> {
    return this.variants.cache.settled(this);
  }

  /** The device's variant cache counts (shared by the flocks on the device). */
  stats(): VariantStats {
    return this.variants.cache.stats();
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
    if (this.options.split === true && name === 'steerGrid') {
      // The second dispatch reads what the first wrote into `state` (a barrier between them).
      const integrate =
        (program as SteerProgram).integrate ?? this.env.programs.integrateGrid.pipeline;
      pass.setPipeline(integrate);
      dispatch(this.env, pass, b.count, this.env.wg.boid);
    }
    pass.end();
  }

  /** Withdraws this pass's wish from the device's cache (its pipelines stay for other flocks). */
  dispose(): void {
    this.disposed = true;
    this.variants.cache.withdraw(this);
  }
}
