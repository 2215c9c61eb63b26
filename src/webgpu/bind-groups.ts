/**
 * What every WebGPU pass module needs (the WebGL2 folder's pass-env.ts, mirrored): the device,
 * the compute programs, the buffers, the bind groups made over them (cached until the buffers
 * change), the pass timer and the workgroup sizes; and the helpers that begin a timed pass and
 * dispatch a program over n items. Owned by the simulation; the pass functions own nothing.
 */
import type { ProgramName } from './programs';
import type { SimBuffers } from './buffers';
import type { ComputeProgram } from './shaders';
import type { LazyPassTimer, PassName } from './pass-timer';

/** Workgroup sizes of the per-boid passes, the scan and the bitonic sort. */
export interface WorkgroupSizes {
  boid: number;
  scan: number;
  sort: number;
}

/** One bind group: buffers by binding number, optionally with a byte range. */
export type Bindings = Record<
  number,
  GPUBuffer | { buffer: GPUBuffer; offset?: number; size: number }
>;

/** Bind groups by (program, group, tag), made on first use over the buffers of the time. */
export class BindGroupCache {
  private readonly groups = new Map<string, GPUBindGroup>();

  constructor(
    private readonly device: GPUDevice,
    private readonly programs: Record<ProgramName, ComputeProgram>,
    private readonly label: string,
  ) {}

  /** The group `group` of `program` over `bindings`; `tag` tells apart groups of one program and group. */
  get(program: ProgramName, group: number, bindings: Bindings, tag = ''): GPUBindGroup {
    const k = `${program}/${group}/${tag}`;
    let g = this.groups.get(k);
    if (!g) {
      g = this.device.createBindGroup({
        label: `${this.label}.${program}.${group}${tag}`,
        layout: this.programs[program].layouts[group]!,
        entries: Object.entries(bindings).map(([b, r]) => ({
          binding: Number(b),
          resource:
            'buffer' in r
              ? { buffer: r.buffer, offset: r.offset ?? 0, size: r.size }
              : { buffer: r },
        })),
      });
      this.groups.set(k, g);
    }
    return g;
  }

  /** Forgets every group (the buffers they bind were made again). */
  clear(): void {
    this.groups.clear();
  }
}

/** What the pass functions take. */
export interface PassEnv {
  readonly device: GPUDevice;
  readonly programs: Record<ProgramName, ComputeProgram>;
  readonly buffers: SimBuffers;
  readonly groups: BindGroupCache;
  readonly timer: LazyPassTimer;
  readonly wg: WorkgroupSizes;
}

/** Dispatches ceil(items / perGroup) workgroups, folded into y above the per-dimension limit. */
export function dispatch(
  env: PassEnv,
  pass: GPUComputePassEncoder,
  items: number,
  perGroup: number,
): void {
  const groups = Math.ceil(items / perGroup);
  if (groups === 0) return;
  const maxDim = env.device.limits.maxComputeWorkgroupsPerDimension;
  const x = Math.min(groups, maxDim);
  const y = Math.ceil(groups / x);
  pass.dispatchWorkgroups(x, y);
}

/** `program` with `groups` bound (group 0, 1, ...) over `items` items. */
export function run(
  env: PassEnv,
  pass: GPUComputePassEncoder,
  program: ProgramName,
  items: number,
  perGroup: number,
  ...groups: GPUBindGroup[]
): void {
  pass.setPipeline(env.programs[program].pipeline);
  groups.forEach((g, i) => pass.setBindGroup(i, g));
  dispatch(env, pass, items, perGroup);
}

/** A compute pass labelled `name`, with timestamp writes when this step is `timed`. */
export function beginPass(
  env: PassEnv,
  encoder: GPUCommandEncoder,
  name: PassName,
  timed: boolean,
): GPUComputePassEncoder {
  const timestampWrites = timed ? env.timer.writes(name) : undefined;
  return encoder.beginComputePass(
    timestampWrites ? { label: name, timestampWrites } : { label: name },
  );
}
