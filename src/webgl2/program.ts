/**
 * GLSL programs built from the .glsl files beside this one (compiled and linked by link.ts:
 * `#include` chunks resolved with a line map, errors thrown as ShaderError naming the file and
 * 1-based line), and twgl.js's uniform setters (textures go to the units twgl assigns to the
 * samplers). The caller owns each program (`deleteProgram`, or a ProgramCache).
 */
import { createUniformSetters, setUniforms } from 'twgl.js';
import {
  finishLink,
  linkDone,
  linkProgram,
  startLink,
  type Defines,
  type PendingLink,
} from './link';
import { gpuDone } from './readback';
import { GLSL_FILES } from './shaders';
import { BLOCK_BINDINGS, FlockBlocks } from './uniforms';

export type { Defines } from './link';
export type UniformValues = Record<string, unknown>;
/** twgl.js's setter of one uniform: a number, an array or typed array, or a WebGLTexture for a sampler. */
export type UniformSetter = (value: unknown) => void;

export interface GLProgram {
  readonly program: WebGLProgram;
  readonly setters: Record<string, UniformSetter>;
  /** `vert + frag` and the defines, for messages. */
  readonly name: string;
}

/**
 * Compiles and links `vertFile` + `fragFile` (names of files in `files`, default the .glsl files
 * of src/webgl2/), with `defines` inserted after `#version`, and makes twgl.js's uniform setters.
 * `feedback`: vertex
 * outputs captured by transform feedback (link.ts).
 * @throws ShaderError with the original file name and 1-based line of the first error.
 */
export function createProgram(
  gl: WebGL2RenderingContext,
  vertFile: string,
  fragFile: string,
  defines: Defines = {},
  files: Readonly<Record<string, string>> = GLSL_FILES,
  feedback: readonly string[] = [],
): GLProgram {
  return withSetters(gl, linkProgram(gl, vertFile, fragFile, defines, files, feedback));
}

/** A linked program's uniform blocks bound to their points, and twgl.js's setters. */
function withSetters(
  gl: WebGL2RenderingContext,
  { program, name }: { program: WebGLProgram; name: string },
): GLProgram {
  // The generated uniform blocks read the buffers FlockBlocks binds at fixed points.
  for (const [block, binding] of Object.entries(BLOCK_BINDINGS)) {
    const index = gl.getUniformBlockIndex(program, block);
    if (index !== gl.INVALID_INDEX) gl.uniformBlockBinding(program, index, binding);
  }
  const setters = createUniformSetters(gl, program) as Record<string, UniformSetter>;
  return { program, setters, name };
}

/** Binds `prog` and sets `uniforms` (textures go to the units twgl assigned to each sampler). */
export function useProgram(
  gl: WebGL2RenderingContext,
  prog: GLProgram,
  uniforms: UniformValues,
): void {
  gl.useProgram(prog.program);
  setUniforms(prog.setters, uniforms);
}

/** What one program of a ProgramCache is made from. */
export interface ProgramSpec {
  vert: string;
  frag: string;
  defines?: Defines;
  /** Transform-feedback outputs (createProgram). */
  feedback?: readonly string[];
}

/**
 * Programs by (vertex file, fragment file, defines, feedback outputs), built on first use (get)
 * or started in the background (begin, with KHR_parallel_shader_compile), and the uniform
 * buffers of the blocks they share (`blocks`); owns them all.
 */
export class ProgramCache {
  private readonly programs = new Map<string, GLProgram>();
  private readonly linking = new Map<string, PendingLink>();
  /** SimParams and StepParams (uniforms.ts): bind before a simulation pass draws. */
  readonly blocks: FlockBlocks;

  /**
   * `parallel`: the context's KHR_parallel_shader_compile, or null (begin() then links at once,
   * as get() does).
   */
  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly parallel: KHR_parallel_shader_compile | null = null,
  ) {
    this.blocks = new FlockBlocks(gl);
  }

  /** The cache key of a program. */
  static key(s: ProgramSpec): string {
    return `${s.vert}|${s.frag}|${JSON.stringify(Object.entries(s.defines ?? {}).sort())}|${(s.feedback ?? []).join(',')}`;
  }

  /** `feedback`: transform-feedback outputs (createProgram); part of the cache key. */
  get(
    vertFile: string,
    fragFile: string,
    defines: Defines = {},
    feedback: readonly string[] = [],
  ): GLProgram {
    const spec = { vert: vertFile, frag: fragFile, defines, feedback };
    const key = ProgramCache.key(spec);
    let p = this.programs.get(key);
    if (!p) {
      const pending = this.linking.get(key);
      if (pending) {
        // Asked for before the driver finished: wait for it here.
        this.linking.delete(key);
        p = this.finish(pending);
      } else {
        p = createProgram(this.gl, vertFile, fragFile, defines, GLSL_FILES, feedback);
      }
      this.programs.set(key, p);
    }
    return p;
  }

  /** The program, its link checked, with its blocks bound and its setters. */
  private finish(pending: PendingLink): GLProgram {
    return withSetters(this.gl, finishLink(this.gl, pending));
  }

  /**
   * Starts `spec` in the background when it is neither built nor started (without the extension:
   * builds it now).
   * @throws ShaderError (without the extension) as get() does.
   */
  begin(spec: ProgramSpec): void {
    const key = ProgramCache.key(spec);
    if (this.programs.has(key) || this.linking.has(key)) return;
    if (!this.parallel) {
      this.get(spec.vert, spec.frag, spec.defines, spec.feedback);
      return;
    }
    this.linking.set(
      key,
      startLink(this.gl, spec.vert, spec.frag, spec.defines ?? {}, GLSL_FILES, spec.feedback ?? []),
    );
  }

  /**
   * Builds every program of `specs` without holding the page while the driver compiles: all are
   * started at once (startLink), then the page waits for the GPU process (gpuDone: a fence
   * polled from timers; with KHR_parallel_shader_compile, COMPLETION_STATUS_KHR polled too) and
   * checks them one task at a time, so no call waits for a link in progress. On SwiftShader
   * (no parallel-compile extension) a WebGL2 path's 8-10 programs took 200-400 ms of one task
   * linked one by one with get().
   * @throws ShaderError (rejects) as get() does; the programs of `specs` that linked are kept.
   */
  async warm(specs: readonly ProgramSpec[]): Promise<void> {
    const todo: ProgramSpec[] = [];
    for (const s of specs) {
      const key = ProgramCache.key(s);
      if (this.programs.has(key)) continue;
      if (!this.linking.has(key)) {
        this.linking.set(
          key,
          startLink(this.gl, s.vert, s.frag, s.defines ?? {}, GLSL_FILES, s.feedback ?? []),
        );
      }
      todo.push(s);
    }
    if (!todo.length) return;
    await gpuDone(this.gl);
    for (const s of todo) {
      const key = ProgramCache.key(s);
      const pending = this.linking.get(key);
      if (!pending) continue; // built (get()) or deleted meanwhile
      for (let t0 = performance.now(); performance.now() - t0 < 10_000;) {
        if (linkDone(this.gl, this.parallel, pending)) break;
        await new Promise((resolve) => setTimeout(resolve, 4));
      }
      if (this.linking.get(key) !== pending) continue;
      this.linking.delete(key);
      this.programs.set(key, this.finish(pending));
      // One program's checks and setters per task.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /**
   * Whether `spec` is built, checking (never waiting) on one started with begin(): a finished
   * one is checked and built now.
   * @throws ShaderError when its compile or link failed.
   */
  ready(spec: ProgramSpec): boolean {
    const key = ProgramCache.key(spec);
    if (this.programs.has(key)) return true;
    const pending = this.linking.get(key);
    if (!pending || !linkDone(this.gl, this.parallel, pending)) return false;
    this.linking.delete(key);
    this.programs.set(key, this.finish(pending));
    return true;
  }

  /** Whether `spec` is built (asks the driver nothing). */
  built(spec: ProgramSpec): boolean {
    return this.programs.has(ProgramCache.key(spec));
  }

  /** Deletes the program of `spec` (built or started); the next get() builds it again. */
  delete(spec: ProgramSpec): void {
    const key = ProgramCache.key(spec);
    const built = this.programs.get(key);
    if (built) this.gl.deleteProgram(built.program);
    const pending = this.linking.get(key);
    if (pending) this.dropPending(pending);
    this.programs.delete(key);
    this.linking.delete(key);
  }

  private dropPending(p: PendingLink): void {
    this.gl.deleteProgram(p.program);
    this.gl.deleteShader(p.vs);
    this.gl.deleteShader(p.fs);
  }

  /** Programs built, and started but not built. */
  get size(): { built: number; linking: number } {
    return { built: this.programs.size, linking: this.linking.size };
  }

  /** Deletes every program and the blocks' buffers (idempotent). */
  dispose(): void {
    for (const p of this.programs.values()) this.gl.deleteProgram(p.program);
    for (const p of this.linking.values()) this.dropPending(p);
    this.programs.clear();
    this.linking.clear();
    this.blocks.dispose();
  }

  /** Forgets every program and buffer without deleting (after a context loss they are gone). */
  forget(): void {
    this.programs.clear();
    this.linking.clear();
    this.blocks.forget();
  }
}
