/**
 * Uniform setters of a linked WebGL2 program: one function per active uniform outside the
 * uniform blocks, by name (an array's `[0]` dropped), that uploads a value with the `gl.uniform*`
 * call of the uniform's type; samplers get consecutive texture units and bind their texture on
 * each set. The same contract as twgl.js's `createUniformSetters` / `setUniforms`, which this
 * replaces (it cost ~10 KB gzip of the one-file element for these two functions; the project
 * uses none of twgl's other helpers).
 */

/** A setter of one uniform: a number, an array or typed array, or a WebGLTexture for a sampler. */
export type UniformSetter = (value: unknown) => void;

type Gl = WebGL2RenderingContext;
type Floats = Float32List;
type Ints = Int32List;
type Uints = Uint32List;

/** Makes the setter of a non-sampler type, for one value or an array (`array`). */
function valueSetter(
  gl: Gl,
  type: number,
  loc: WebGLUniformLocation,
  array: boolean,
): UniformSetter | null {
  switch (type) {
    case gl.FLOAT:
      return array ? (v) => gl.uniform1fv(loc, v as Floats) : (v) => gl.uniform1f(loc, v as number);
    case gl.FLOAT_VEC2:
      return (v) => gl.uniform2fv(loc, v as Floats);
    case gl.FLOAT_VEC3:
      return (v) => gl.uniform3fv(loc, v as Floats);
    case gl.FLOAT_VEC4:
      return (v) => gl.uniform4fv(loc, v as Floats);
    case gl.INT:
    case gl.BOOL:
      return array ? (v) => gl.uniform1iv(loc, v as Ints) : (v) => gl.uniform1i(loc, v as number);
    case gl.INT_VEC2:
    case gl.BOOL_VEC2:
      return (v) => gl.uniform2iv(loc, v as Ints);
    case gl.INT_VEC3:
    case gl.BOOL_VEC3:
      return (v) => gl.uniform3iv(loc, v as Ints);
    case gl.INT_VEC4:
    case gl.BOOL_VEC4:
      return (v) => gl.uniform4iv(loc, v as Ints);
    case gl.UNSIGNED_INT:
      return array
        ? (v) => gl.uniform1uiv(loc, v as Uints)
        : (v) => gl.uniform1ui(loc, v as number);
    case gl.UNSIGNED_INT_VEC2:
      return (v) => gl.uniform2uiv(loc, v as Uints);
    case gl.UNSIGNED_INT_VEC3:
      return (v) => gl.uniform3uiv(loc, v as Uints);
    case gl.UNSIGNED_INT_VEC4:
      return (v) => gl.uniform4uiv(loc, v as Uints);
    case gl.FLOAT_MAT2:
      return (v) => gl.uniformMatrix2fv(loc, false, v as Floats);
    case gl.FLOAT_MAT3:
      return (v) => gl.uniformMatrix3fv(loc, false, v as Floats);
    case gl.FLOAT_MAT4:
      return (v) => gl.uniformMatrix4fv(loc, false, v as Floats);
    default:
      return null;
  }
}

/** The texture target a sampler type reads, or null when `type` is no sampler. */
function samplerTarget(gl: Gl, type: number): number | null {
  switch (type) {
    case gl.SAMPLER_2D:
    case gl.INT_SAMPLER_2D:
    case gl.UNSIGNED_INT_SAMPLER_2D:
    case gl.SAMPLER_2D_SHADOW:
      return gl.TEXTURE_2D;
    case gl.SAMPLER_2D_ARRAY:
    case gl.INT_SAMPLER_2D_ARRAY:
    case gl.UNSIGNED_INT_SAMPLER_2D_ARRAY:
    case gl.SAMPLER_2D_ARRAY_SHADOW:
      return gl.TEXTURE_2D_ARRAY;
    case gl.SAMPLER_3D:
    case gl.INT_SAMPLER_3D:
    case gl.UNSIGNED_INT_SAMPLER_3D:
      return gl.TEXTURE_3D;
    case gl.SAMPLER_CUBE:
    case gl.INT_SAMPLER_CUBE:
    case gl.UNSIGNED_INT_SAMPLER_CUBE:
    case gl.SAMPLER_CUBE_SHADOW:
      return gl.TEXTURE_CUBE_MAP;
    default:
      return null;
  }
}

/**
 * The setters of `program`'s active uniforms, by name (`uSpheres` for `uSpheres[0]`); uniforms in
 * blocks (no location) and built-ins (`gl_`, `webgl_`) have none. A sampler (or an array of `size`
 * samplers, set with an array of textures) takes the next free texture unit(s), from 0.
 * @throws Error naming the uniform when its type is none of WebGL2's.
 */
export function createUniformSetters(gl: Gl, program: WebGLProgram): Record<string, UniformSetter> {
  const setters: Record<string, UniformSetter> = {};
  let nextUnit = 0;
  const n = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS) as number;
  for (let i = 0; i < n; i++) {
    const info = gl.getActiveUniform(program, i);
    if (!info || /^(gl_|webgl_)/.test(info.name)) continue;
    const loc = gl.getUniformLocation(program, info.name);
    if (!loc) continue; // a member of a uniform block
    const array = info.name.endsWith('[0]');
    const name = array ? info.name.slice(0, -3) : info.name;
    const target = samplerTarget(gl, info.type);
    if (target !== null) {
      const first = nextUnit;
      nextUnit += info.size;
      const bind = (unit: number, texture: unknown) => {
        gl.activeTexture(gl.TEXTURE0 + unit);
        gl.bindTexture(target, (texture ?? null) as WebGLTexture | null);
      };
      if (array) {
        const units = Int32Array.from({ length: info.size }, (_, k) => first + k);
        setters[name] = (v) => {
          gl.uniform1iv(loc, units);
          (v as readonly unknown[]).forEach((t, k) => bind(first + k, t));
        };
      } else {
        setters[name] = (v) => {
          gl.uniform1i(loc, first);
          bind(first, v);
        };
      }
      continue;
    }
    const setter = valueSetter(gl, info.type, loc, array);
    if (!setter) throw new Error(`uniform ${info.name}: unknown type 0x${info.type.toString(16)}`);
    setters[name] = setter;
  }
  return setters;
}

/** Calls the setter of each name of `values` that has one (other names are ignored). */
export function setUniforms(
  setters: Readonly<Record<string, UniformSetter>>,
  values: Readonly<Record<string, unknown>>,
): void {
  for (const name in values) setters[name]?.(values[name]);
}
