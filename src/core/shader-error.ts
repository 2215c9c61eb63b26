/**
 * ShaderError and its messages, apart from src/core/shader-source.ts (the include resolver and
 * the log mapping, which only the backends run): the public index exports ShaderError, so the
 * module that holds it goes into the chunk every page loads first; alone here, it takes none of
 * the shader code with it.
 */

/** One compiler message of a shader, at the file and line the developer edits. */
export interface ShaderMessage {
  /** The original file (an included chunk's own name), or the compiled shader's file where the message names no line. */
  readonly file: string;
  /** 1-based line in `file`, or null where the compiler named none (or `<defines>`: 0). */
  readonly line: number | null;
  /** 1-based column (WGSL compilers give one), or null. */
  readonly column: number | null;
  /** 'error', 'warning' or 'info' (GLSL logs: from their ERROR: / WARNING: prefix). */
  readonly type: 'error' | 'warning' | 'info';
  /** The compiler's text, without its location prefix. */
  readonly text: string;
}

/**
 * Thrown for a shader that fails to compile or link. `message` holds the whole mapped log;
 * `file` and `line` are those of the first error; `messages` holds every compiler message (errors
 * and warnings alike, in the compiler's order), each at its original file and line.
 */
export class ShaderError extends Error {
  constructor(
    message: string,
    /** The shader file at fault. */
    readonly file: string,
    /** Its 1-based line, or null when the driver named none. */
    readonly line: number | null,
    /** Every compiler message, mapped (empty where there was no compiler log, e.g. a lost context). */
    readonly messages: readonly ShaderMessage[] = [],
  ) {
    super(message);
    this.name = 'ShaderError';
  }
}
