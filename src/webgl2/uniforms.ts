/**
 * FlockParams -> what the WebGL2 simulation shaders read: the `#define`s of a program variant and
 * the two std140 uniform blocks of glsl's generated `flock-params.gen.glsl`, SimParams (`P`) and
 * StepParams (`S`). Both come from the term table (src/core/terms.ts), whose layout and packing
 * the WebGPU backend shares: the same bytes go into a WebGL2 uniform buffer and a WebGPU one.
 * Switches marked `define` there (DIMS, WRAP, SOFT, REYNOLDS, SPECIES) pick a program variant;
 * the others are uniform branches, off when their count or strength is 0. The per-step values
 * (predator positions h_k(t), the flow's phase) are computed in float64 on the CPU.
 */
import type { FlockParams } from '../core/params';
import type { Grid } from '../core/grid';
import { SIM_UNIFORMS, STEP_UNIFORMS, switchDefines } from '../core/terms';
import type { Defines } from './link';

/** The binding point of each generated uniform block (program.ts binds every program's blocks). */
export const BLOCK_BINDINGS: Readonly<Record<string, number>> = {
  [SIM_UNIFORMS.structName]: 0,
  [STEP_UNIFORMS.structName]: 1,
};

/** The #defines of a params combination: the term table's variant switches and the search. */
export function flockDefines(p: FlockParams, search = p.neighborSearch): Defines {
  return { ...switchDefines(p), GRID: search === 'grid' ? 1 : 0 };
}

function sameBytes(a: Uint8Array, b: Uint8Array | null): boolean {
  if (!b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The uniform buffers of SimParams and StepParams on one context. `bind` packs the blocks for
 * (params, grid, time), uploads what changed since the last call and binds both buffers to their
 * points (BLOCK_BINDINGS). Owned by the ProgramCache of a path: `dispose` deletes the buffers,
 * `forget` drops them after a context loss (they are gone with it).
 */
export class FlockBlocks {
  private buffers: WebGLBuffer[] | null = null;
  private uploaded: (Uint8Array | null)[] = [null, null];
  private packedFor: { params: FlockParams; grid: Grid } | null = null;

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /**
   * Binds the blocks for `params` and `grid` at simulated time `time` (seconds, the step's start);
   * without `time` StepParams keeps its values (passes that read none of them).
   */
  bind(params: FlockParams, grid: Grid, time?: number): void {
    const gl = this.gl;
    if (!this.buffers) {
      this.buffers = [SIM_UNIFORMS.size, STEP_UNIFORMS.size].map((size) => {
        const b = gl.createBuffer();
        gl.bindBuffer(gl.UNIFORM_BUFFER, b);
        gl.bufferData(gl.UNIFORM_BUFFER, size, gl.DYNAMIC_DRAW);
        return b;
      });
      this.uploaded = [null, null];
      this.packedFor = null;
    }
    // SimParams changes with the parameters only: the same objects need no packing.
    const p = this.packedFor;
    if (!p || p.params !== params || p.grid !== grid) {
      this.upload(0, new Uint8Array(SIM_UNIFORMS.pack({ params, grid, sortSize: 0 })));
      this.packedFor = { params, grid };
    }
    if (time !== undefined) this.upload(1, new Uint8Array(STEP_UNIFORMS.pack({ params, time })));
    this.buffers.forEach((b, k) => gl.bindBufferBase(gl.UNIFORM_BUFFER, k, b));
  }

  private upload(k: number, bytes: Uint8Array): void {
    if (sameBytes(bytes, this.uploaded[k]!)) return;
    const gl = this.gl;
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.buffers![k]!);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, bytes);
    gl.bindBuffer(gl.UNIFORM_BUFFER, null);
    this.uploaded[k] = bytes;
  }

  /** Deletes the buffers (idempotent). */
  dispose(): void {
    for (const b of this.buffers ?? []) this.gl.deleteBuffer(b);
    this.forget();
  }

  /** Forgets the buffers without deleting them (after a context loss they are gone). */
  forget(): void {
    this.buffers = null;
    this.packedFor = null;
  }
}
