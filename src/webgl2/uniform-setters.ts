/**
 * Uniform setters for a linked program, by uniform name (an array `u[0]` under `u`): each takes
 * the value as twgl.js's setters do (a number, an array or typed array, a WebGLTexture for a
 * sampler) and calls the matching `gl.uniform*`. Samplers get texture units 0, 1, ... in the
 * order the program lists them; setting one binds the texture to its unit (and no sampler
 * object). Uniforms inside uniform blocks have no location and get no setter. Written out so the
 * package ships no WebGL helper library; the behaviour is twgl.js 7's createUniformSetters.
 */

export type UniformSetter = (value: unknown) => void;

type NumArray = Float32List & Int32List & Uint32List;

/** Texture bind points of the sampler types, by GL type enum. */
function samplerBindPoint(gl: WebGL2RenderingContext, type: number): number | null {
  switch (type) {
    case gl.SAMPLER_2D:
    case gl.SAMPLER_2D_SHADOW:
    case gl.INT_SAMPLER_2D:
    case gl.UNSIGNED_INT_SAMPLER_2D:
      return gl.TEXTURE_2D;
    case gl.SAMPLER_3D:
    case gl.INT_SAMPLER_3D:
    case gl.UNSIGNED_INT_SAMPLER_3D:
      return gl.TEXTURE_3D;
    case gl.SAMPLER_CUBE:
    case gl.SAMPLER_CUBE_SHADOW:
    case gl.INT_SAMPLER_CUBE:
    case gl.UNSIGNED_INT_SAMPLER_CUBE:
      return gl.TEXTURE_CUBE_MAP;
    case gl.SAMPLER_2D_ARRAY:
    case gl.SAMPLER_2D_ARRAY_SHADOW:
    case gl.INT_SAMPLER_2D_ARRAY:
    case gl.UNSIGNED_INT_SAMPLER_2D_ARRAY:
      return gl.TEXTURE_2D_ARRAY;
    default:
      return null;
  }
}

function valueSetter(
  gl: WebGL2RenderingContext,
  type: number,
  loc: WebGLUniformLocation,
  isArray: boolean,
): UniformSetter {
  const v = (x: unknown) => x as NumArray;
  const n = (x: unknown) => x as number;
  switch (type) {
    case gl.FLOAT:
      return isArray ? (x) => gl.uniform1fv(loc, v(x)) : (x) => gl.uniform1f(loc, n(x));
    case gl.FLOAT_VEC2:
      return (x) => gl.uniform2fv(loc, v(x));
    case gl.FLOAT_VEC3:
      return (x) => gl.uniform3fv(loc, v(x));
    case gl.FLOAT_VEC4:
      return (x) => gl.uniform4fv(loc, v(x));
    case gl.INT:
    case gl.BOOL:
      return isArray ? (x) => gl.uniform1iv(loc, v(x)) : (x) => gl.uniform1i(loc, n(x));
    case gl.INT_VEC2:
    case gl.BOOL_VEC2:
      return (x) => gl.uniform2iv(loc, v(x));
    case gl.INT_VEC3:
    case gl.BOOL_VEC3:
      return (x) => gl.uniform3iv(loc, v(x));
    case gl.INT_VEC4:
    case gl.BOOL_VEC4:
      return (x) => gl.uniform4iv(loc, v(x));
    case gl.UNSIGNED_INT:
      return isArray ? (x) => gl.uniform1uiv(loc, v(x)) : (x) => gl.uniform1ui(loc, n(x));
    case gl.UNSIGNED_INT_VEC2:
      return (x) => gl.uniform2uiv(loc, v(x));
    case gl.UNSIGNED_INT_VEC3:
      return (x) => gl.uniform3uiv(loc, v(x));
    case gl.UNSIGNED_INT_VEC4:
      return (x) => gl.uniform4uiv(loc, v(x));
    case gl.FLOAT_MAT2:
      return (x) => gl.uniformMatrix2fv(loc, false, v(x));
    case gl.FLOAT_MAT3:
      return (x) => gl.uniformMatrix3fv(loc, false, v(x));
    case gl.FLOAT_MAT4:
      return (x) => gl.uniformMatrix4fv(loc, false, v(x));
    case gl.FLOAT_MAT2x3:
      return (x) => gl.uniformMatrix2x3fv(loc, false, v(x));
    case gl.FLOAT_MAT2x4:
      return (x) => gl.uniformMatrix2x4fv(loc, false, v(x));
    case gl.FLOAT_MAT3x2:
      return (x) => gl.uniformMatrix3x2fv(loc, false, v(x));
    case gl.FLOAT_MAT3x4:
      return (x) => gl.uniformMatrix3x4fv(loc, false, v(x));
    case gl.FLOAT_MAT4x2:
      return (x) => gl.uniformMatrix4x2fv(loc, false, v(x));
    case gl.FLOAT_MAT4x3:
      return (x) => gl.uniformMatrix4x3fv(loc, false, v(x));
    default:
      throw new Error(`uniform type 0x${type.toString(16)} has no setter`);
  }
}

/** One setter per active uniform of `program` (outside uniform blocks), by name. */
export function createUniformSetters(
  gl: WebGL2RenderingContext,
  program: WebGLProgram,
): Record<string, UniformSetter> {
  const setters: Record<string, UniformSetter> = {};
  let nextUnit = 0;
  const count = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS) as number;
  for (let i = 0; i < count; i++) {
    const info = gl.getActiveUniform(program, i);
    if (!info || info.name.startsWith('gl_') || info.name.startsWith('webgl_')) continue;
    const loc = gl.getUniformLocation(program, info.name);
    if (!loc) continue; // a member of a uniform block
    const isArray = info.name.endsWith('[0]');
    const name = isArray ? info.name.slice(0, -3) : info.name;
    const bind = samplerBindPoint(gl, info.type);
    if (bind !== null) {
      const unit = nextUnit;
      nextUnit += info.size;
      if (isArray) {
        const units = Int32Array.from({ length: info.size }, (_, k) => unit + k);
        setters[name] = (textures) => {
          gl.uniform1iv(loc, units);
          (textures as (WebGLTexture | null)[]).forEach((t, k) => {
            gl.activeTexture(gl.TEXTURE0 + unit + k);
            gl.bindTexture(bind, t);
            gl.bindSampler(unit + k, null);
          });
        };
      } else {
        setters[name] = (texture) => {
          gl.uniform1i(loc, unit);
          gl.activeTexture(gl.TEXTURE0 + unit);
          gl.bindTexture(bind, texture as WebGLTexture | null);
          gl.bindSampler(unit, null);
        };
      }
      continue;
    }
    setters[name] = valueSetter(gl, info.type, loc, isArray);
  }
  return setters;
}

/** Calls the setter of every name in `values` that the program has (other names are ignored). */
export function setUniforms(
  setters: Record<string, UniformSetter>,
  values: Record<string, unknown>,
): void {
  for (const name in values) setters[name]?.(values[name]);
}
