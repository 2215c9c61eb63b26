/**
 * Compiling and linking a GLSL program from shader files: `#include` chunks resolved with a line
 * map, compile and link errors thrown as ShaderError naming the file and 1-based line the
 * developer edits. No twgl.js and no shader files of its own: the capability probe links its one
 * program with this and its own three files, program.ts every other program (with twgl.js's
 * uniform setters).
 */
import { ShaderError, mapShaderLog, resolveShader, type ShaderSource } from '../core/shader-source';

export type Defines = Readonly<Record<string, string | number>>;

/** The source line `line` of `file` with a marker, for an error message. */
function excerpt(files: Readonly<Record<string, string>>, file: string, line: number): string {
  const text = files[file];
  if (text === undefined) return '';
  const lines = text.split('\n');
  const out: string[] = [];
  for (let n = Math.max(1, line - 1); n <= Math.min(lines.length, line + 1); n++) {
    out.push(`${n === line ? '>' : ' '}${String(n).padStart(5)}: ${lines[n - 1]}`);
  }
  return out.join('\n');
}

/** Throws the ShaderError of a shader that did not compile (its log mapped to file:line). */
function throwCompileError(
  gl: WebGL2RenderingContext,
  shader: WebGLShader,
  src: ShaderSource,
  files: Readonly<Record<string, string>>,
): never {
  const log = gl.getShaderInfoLog(shader) ?? '';
  const { text, first, messages } = mapShaderLog(log, src);
  const where = first ? `${first.file}:${first.line}` : src.file;
  const shown = first ? `\n${excerpt(files, first.file, first.line)}` : '';
  throw new ShaderError(
    `GLSL compile error in ${where} (shader ${src.file}):\n${text.trim()}${shown}`,
    first?.file ?? src.file,
    first?.line ?? null,
    messages,
  );
}

function createShader(gl: WebGL2RenderingContext, type: number, src: ShaderSource): WebGLShader {
  const shader = gl.createShader(type);
  if (!shader)
    throw new ShaderError(`${src.file}: createShader failed (context lost?)`, src.file, null);
  gl.shaderSource(shader, src.code);
  gl.compileShader(shader);
  return shader;
}

/**
 * A program whose compile and link were started but not checked: with
 * KHR_parallel_shader_compile the driver works on it while the page goes on
 * (linkDone() polls), and finishLink() checks it (waiting, where it is not done).
 */
export interface PendingLink {
  readonly program: WebGLProgram;
  readonly name: string;
  readonly vs: WebGLShader;
  readonly fs: WebGLShader;
  readonly vsrc: ShaderSource;
  readonly fsrc: ShaderSource;
  readonly fragFile: string;
  readonly files: Readonly<Record<string, string>>;
}

/**
 * Starts compiling and linking `vertFile` + `fragFile` (names of files in `files`), with `defines`
 * inserted after `#version`, asking the driver nothing (so KHR_parallel_shader_compile can work
 * in the background). `feedback`: vertex outputs captured by transform feedback, one
 * SEPARATE_ATTRIBS buffer binding each, in order (set before linking, as GLSL ES 3.00 asks).
 * @throws ShaderError when an object cannot be created (a lost context).
 */
export function startLink(
  gl: WebGL2RenderingContext,
  vertFile: string,
  fragFile: string,
  defines: Defines,
  files: Readonly<Record<string, string>>,
  feedback: readonly string[] = [],
): PendingLink {
  const vsrc = resolveShader(vertFile, files, defines);
  const fsrc = resolveShader(fragFile, files, defines);
  const vs = createShader(gl, gl.VERTEX_SHADER, vsrc);
  let fs: WebGLShader;
  try {
    fs = createShader(gl, gl.FRAGMENT_SHADER, fsrc);
  } catch (e) {
    gl.deleteShader(vs);
    throw e;
  }
  const program = gl.createProgram();
  const name = `${vertFile} + ${fragFile}${Object.keys(defines).length ? ` ${JSON.stringify(defines)}` : ''}`;
  if (!program) {
    gl.deleteShader(vs);
    gl.deleteShader(fs);
    throw new ShaderError(`${name}: createProgram failed (context lost?)`, fragFile, null);
  }
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  if (feedback.length) gl.transformFeedbackVaryings(program, feedback, gl.SEPARATE_ATTRIBS);
  gl.linkProgram(program);
  return { program, name, vs, fs, vsrc, fsrc, fragFile, files };
}

/**
 * Whether the driver has finished `p` (KHR_parallel_shader_compile's COMPLETION_STATUS_KHR,
 * which never waits); true without the extension, where finishLink() waits instead.
 */
export function linkDone(
  gl: WebGL2RenderingContext,
  parallel: KHR_parallel_shader_compile | null,
  p: PendingLink,
): boolean {
  if (!parallel || gl.isContextLost()) return true;
  return gl.getProgramParameter(p.program, parallel.COMPLETION_STATUS_KHR) === true;
}

/**
 * Checks a started link (waiting for the driver where it has not finished) and frees its
 * shader objects; the caller owns the program (`deleteProgram`).
 * @throws ShaderError with the original file name and 1-based line of the first error.
 */
export function finishLink(
  gl: WebGL2RenderingContext,
  p: PendingLink,
): { program: WebGLProgram; name: string } {
  const { program, vs, fs } = p;
  const linked = gl.getProgramParameter(program, gl.LINK_STATUS) || gl.isContextLost();
  try {
    if (!linked) {
      // A shader that did not compile says more than the link log.
      if (!gl.getShaderParameter(vs, gl.COMPILE_STATUS)) throwCompileError(gl, vs, p.vsrc, p.files);
      if (!gl.getShaderParameter(fs, gl.COMPILE_STATUS)) throwCompileError(gl, fs, p.fsrc, p.files);
      const log = gl.getProgramInfoLog(program) ?? '';
      throw new ShaderError(`GLSL link error in ${p.name}:\n${log.trim()}`, p.fragFile, null);
    }
  } finally {
    // The program keeps what it needs; the shader objects can go now. Detached before a failed
    // program is deleted: detachShader on a deleted program is an INVALID_VALUE (a console warning).
    gl.detachShader(program, vs);
    gl.detachShader(program, fs);
    gl.deleteShader(vs);
    gl.deleteShader(fs);
    if (!linked) gl.deleteProgram(program);
  }
  return { program, name: p.name };
}

/**
 * Compiles and links `vertFile` + `fragFile` (startLink), waiting for the result (finishLink).
 * The caller owns the program (`deleteProgram`).
 * @throws ShaderError with the original file name and 1-based line of the first error.
 */
export function linkProgram(
  gl: WebGL2RenderingContext,
  vertFile: string,
  fragFile: string,
  defines: Defines,
  files: Readonly<Record<string, string>>,
  feedback: readonly string[] = [],
): { program: WebGLProgram; name: string } {
  return finishLink(gl, startLink(gl, vertFile, fragFile, defines, files, feedback));
}
