/**
 * Compiling and linking a GLSL program from shader files: `#include` chunks resolved with a line
 * map, compile and link errors thrown as ShaderError naming the file and 1-based line the
 * developer edits. No twgl.js and no shader files of its own: the capability probe links its one
 * program with this and its own three files, program.ts every other program (with twgl.js's
 * uniform setters).
 */
import { ShaderError, mapShaderLog, resolveShader, type ShaderSource } from '../core/shader-source';

export type Defines = Readonly<Record<string, string | number>>;

/** The source line `line` of `file` with a marker, twgl-style, for an error message. */
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

function compileShader(
  gl: WebGL2RenderingContext,
  type: number,
  src: ShaderSource,
  files: Readonly<Record<string, string>>,
): WebGLShader {
  const shader = gl.createShader(type);
  if (!shader)
    throw new ShaderError(`${src.file}: createShader failed (context lost?)`, src.file, null);
  gl.shaderSource(shader, src.code);
  gl.compileShader(shader);
  if (gl.getShaderParameter(shader, gl.COMPILE_STATUS) || gl.isContextLost()) return shader;
  const log = gl.getShaderInfoLog(shader) ?? '';
  gl.deleteShader(shader);
  const { text, first } = mapShaderLog(log, src);
  const where = first ? `${first.file}:${first.line}` : src.file;
  const shown = first ? `\n${excerpt(files, first.file, first.line)}` : '';
  throw new ShaderError(
    `GLSL compile error in ${where} (shader ${src.file}):\n${text.trim()}${shown}`,
    first?.file ?? src.file,
    first?.line ?? null,
  );
}

/**
 * Compiles and links `vertFile` + `fragFile` (names of files in `files`), with `defines` inserted
 * after `#version`. `feedback`: vertex outputs captured by transform feedback, one
 * SEPARATE_ATTRIBS buffer binding each, in order (set before linking, as GLSL ES 3.00 asks).
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
  const vsrc = resolveShader(vertFile, files, defines);
  const fsrc = resolveShader(fragFile, files, defines);
  const vs = compileShader(gl, gl.VERTEX_SHADER, vsrc, files);
  let fs: WebGLShader;
  try {
    fs = compileShader(gl, gl.FRAGMENT_SHADER, fsrc, files);
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
  // The program keeps what it needs; the shader objects can go now.
  gl.detachShader(program, vs);
  gl.detachShader(program, fs);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
    const log = gl.getProgramInfoLog(program) ?? '';
    gl.deleteProgram(program);
    throw new ShaderError(`GLSL link error in ${name}:\n${log.trim()}`, fragFile, null);
  }
  return { program, name };
}
