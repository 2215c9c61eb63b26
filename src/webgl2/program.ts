/**
 * GLSL programs built from the files in glsl/ (compiled and linked by link.ts: `#include` chunks
 * resolved with a line map, errors thrown as ShaderError naming the file and 1-based line), and
 * twgl.js's uniform setters (textures go to the units twgl assigns to the samplers). The caller
 * owns each program (`deleteProgram`, or a ProgramCache).
 */
import { createUniformSetters, setUniforms } from 'twgl.js';
import { linkProgram, type Defines } from './link';
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
 * Compiles and links `vertFile` + `fragFile` (names of files in `files`, default glsl/), with
 * `defines` inserted after `#version`, and makes twgl.js's uniform setters. `feedback`: vertex
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
  const { program, name } = linkProgram(gl, vertFile, fragFile, defines, files, feedback);
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

/**
 * Programs by (vertex file, fragment file, defines), built on first use, and the uniform buffers
 * of the blocks they share (`blocks`); owns them all.
 */
export class ProgramCache {
  private readonly programs = new Map<string, GLProgram>();
  /** SimParams and StepParams (uniforms.ts): bind before a simulation pass draws. */
  readonly blocks: FlockBlocks;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.blocks = new FlockBlocks(gl);
  }

  /** `feedback`: transform-feedback outputs (createProgram); part of the cache key. */
  get(
    vertFile: string,
    fragFile: string,
    defines: Defines = {},
    feedback: readonly string[] = [],
  ): GLProgram {
    const key = `${vertFile}|${fragFile}|${JSON.stringify(Object.entries(defines).sort())}|${feedback.join(',')}`;
    let p = this.programs.get(key);
    if (!p) {
      p = createProgram(this.gl, vertFile, fragFile, defines, GLSL_FILES, feedback);
      this.programs.set(key, p);
    }
    return p;
  }

  /** Deletes every program and the blocks' buffers (idempotent). */
  dispose(): void {
    for (const p of this.programs.values()) this.gl.deleteProgram(p.program);
    this.programs.clear();
    this.blocks.dispose();
  }

  /** Forgets every program and buffer without deleting (after a context loss they are gone). */
  forget(): void {
    this.programs.clear();
    this.blocks.forget();
  }
}
