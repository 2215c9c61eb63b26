/**
 * The drawing uniforms of the look (DESIGN.md section 7; src/core/look.ts), one table for both
 * shader languages, as src/core/terms.ts is for the simulation: per uniform its name, type, value
 * and meaning. Generated from it:
 * - the GLSL chunk `look-uniforms.gen.glsl` (`uniform <type> u<Name>;` per row, included by
 *   src/webgl2/look.glsl) and the values the WebGL2 renderer sets (lookUniformValues, by those names);
 * - the rows' fields of the WebGPU `RenderParams` struct (src/webgpu/uniforms.ts appends
 *   LOOK_FIELDS; render.wgsl reads them as `R.<name>`), laid out and packed by uniform-layout.ts.
 * The look's constants (LOOK_CONSTANTS: wing and tail angles, dot sizes) are generated for both
 * shader languages too: `look-constants.gen.glsl` and `look-constants.gen.wgsl`.
 * A new drawing uniform is a row here, read as `u<Name>` in look.glsl and `R.<name>` in
 * render.wgsl (and, for the CPU twin, in src/cpu/cpu-render.ts): docs/how-to-add-a-term.md.
 */
import {
  DIHEDRAL,
  DOT_RADIUS,
  FISH_CRUISE,
  GLIDE,
  LOD_DOT,
  MAX_MESH_VERTICES,
  MAX_TAIL,
  MAX_WING,
  MESHES,
  MIN_DOT_PX,
  ROUND_DOT_PX,
  SHAPE_CODE,
  TAIL_PIVOT,
  WING_LIMIT,
  type LookFrame,
  type Shape,
} from './look';
import type { ViewBasis } from './render-draw';
import type { RenderScene } from './scene';
import { glslType, type UniformField, type UniformType } from './uniform-layout';

/** What the look's uniforms are read from, once per frame. */
export interface LookSource {
  /** The view's look options (shape, flap, lighting, fog, lodPixels) and the rest of the scene. */
  scene: Pick<RenderScene, 'shape' | 'flap' | 'lighting' | 'fog' | 'lodPixels'>;
  /** lookFrame's values for this frame (src/core/look.ts). */
  look: LookFrame;
  /** The camera (src/core/render-draw.ts viewBasis). */
  basis: ViewBasis;
  /** Drawing buffer size, device pixels. */
  width: number;
  height: number;
}

/** One drawing uniform: a uniform-layout field (name, type, value, doc) of a LookSource. */
export type LookUniform = UniformField<LookSource> & { type: Exclude<UniformType, 'mat4x4f'> };

/** Each shape's mesh as `mesh` (vec4[2 * MAX_MESH_VERTICES]: xyz + part, normal + 0), zero-padded. */
const MESH_VEC4S = Object.fromEntries(
  Object.entries(MESHES).map(([shape, m]) => {
    const out = new Float32Array(8 * MAX_MESH_VERTICES);
    out.set(m);
    return [shape, out];
  }),
) as Record<Shape, Float32Array>;

/** The table, in the order the WGSL struct lays them out. */
export const LOOK_UNIFORMS: readonly LookUniform[] = [
  {
    name: 'mesh',
    type: 'vec4f',
    length: 2 * MAX_MESH_VERTICES,
    value: (s) => MESH_VEC4S[s.scene.shape],
    doc: 'the shape mesh, two vec4 per vertex: xyz + part, normal xyz + 0',
  },
  {
    name: 'look',
    type: 'vec4f',
    value: (s) => [s.scene.flap, s.scene.lighting, s.scene.fog, s.scene.lodPixels],
    doc: 'flap, lighting, fog, lodPixels (device pixels)',
  },
  {
    name: 'clock',
    type: 'vec3f',
    value: (s) => s.look.clock,
    doc: "lookClock: the oscillators' phases (rad)",
  },
  {
    name: 'shape',
    type: 'u32',
    value: (s) => SHAPE_CODE[s.scene.shape],
    doc: 'SHAPE_CODE: 0 arrow, 1 bird, 2 fish, 3 dot',
  },
  { name: 'lightDir', type: 'vec3f', value: (s) => s.look.lightDir, doc: 'unit, world' },
  { name: 'skyDir', type: 'vec3f', value: (s) => s.look.skyDir, doc: 'unit, world' },
  { name: 'lightColor', type: 'vec3f', value: (s) => s.look.lightColor, doc: 'sRGB factors' },
  { name: 'skyColor', type: 'vec3f', value: (s) => s.look.skyColor, doc: 'sRGB factors' },
  { name: 'groundColor', type: 'vec3f', value: (s) => s.look.groundColor, doc: 'sRGB factors' },
  {
    name: 'fog',
    type: 'vec3f',
    value: (s) => [s.look.fogNear, s.look.fogInvSpan, s.look.pxPerUnit],
    doc: 'fogNear (world units), fogInvSpan (1/world units), pxPerUnit (device pixels at w = 1)',
  },
  { name: 'eye', type: 'vec3f', value: (s) => s.basis.eye, doc: 'world units' },
  { name: 'forward', type: 'vec3f', value: (s) => s.basis.forward, doc: 'unit viewing direction' },
  {
    name: 'viewport',
    type: 'vec2f',
    value: (s) => [s.width, s.height],
    doc: 'device pixels',
  },
];

/** A row's GLSL uniform name: `u` + the name with its first letter upper-cased (`lightDir` -> `uLightDir`). */
export function glslUniformName(name: string): string {
  return `u${name[0]!.toUpperCase()}${name.slice(1)}`;
}

/** The GLSL chunk `look-uniforms.gen.glsl`: one `uniform` declaration per row, its doc beside. */
export function lookUniformsGlsl(): string {
  const lines = LOOK_UNIFORMS.map((u) => {
    const arr = u.length !== undefined ? `[${u.length}]` : '';
    return `uniform highp ${glslType(u.type)} ${glslUniformName(u.name)}${arr};${u.doc ? ` // ${u.doc}` : ''}`;
  });
  return `// Generated from LOOK_UNIFORMS (src/core/look-uniforms.ts); do not edit.\n${lines.join('\n')}\n`;
}

/** The WebGL2 values of one frame, by GLSL uniform name (`uLook`, ...), for useProgram. */
export function lookUniformValues(s: LookSource): Record<string, number | ArrayLike<number>> {
  const out: Record<string, number | ArrayLike<number>> = {};
  for (const u of LOOK_UNIFORMS) out[glslUniformName(u.name)] = u.value(s);
  return out;
}

/** The rows as fields of a layout whose source holds a LookSource (RenderParams). */
export function lookFields<S extends LookSource>(): UniformField<S>[] {
  return LOOK_UNIFORMS.map((u) => ({ ...u }) as UniformField<S>);
}

/**
 * The constants of src/core/look.ts that the shaders use as well, by name (look.glsl and
 * render.wgsl include them from the generated chunks below, so the CPU twin and both shaders
 * read one value).
 */
export const LOOK_CONSTANTS: Readonly<Record<string, number>> = {
  DIHEDRAL,
  MAX_WING,
  GLIDE,
  WING_LIMIT,
  MAX_TAIL,
  FISH_CRUISE,
  TAIL_PIVOT,
  DOT_RADIUS,
  LOD_DOT,
  MIN_DOT_PX,
  ROUND_DOT_PX,
};

/** `v` as a float literal of GLSL and WGSL alike (`1` -> `1.0`, `-0.26` as is). */
const floatLiteral = (v: number): string => (Number.isInteger(v) ? v.toFixed(1) : String(v));

/** The GLSL chunk `look-constants.gen.glsl`: `const float NAME = value;` per LOOK_CONSTANTS entry. */
export function lookConstantsGlsl(): string {
  const lines = Object.entries(LOOK_CONSTANTS).map(
    ([k, v]) => `const float ${k} = ${floatLiteral(v)};`,
  );
  return `// Generated from LOOK_CONSTANTS (src/core/look-uniforms.ts); do not edit.\n${lines.join('\n')}\n`;
}

/** The WGSL chunk `look-constants.gen.wgsl`: `const NAME: f32 = value;` per LOOK_CONSTANTS entry. */
export function lookConstantsWgsl(): string {
  const lines = Object.entries(LOOK_CONSTANTS).map(
    ([k, v]) => `const ${k}: f32 = ${floatLiteral(v)};`,
  );
  return `// Generated from LOOK_CONSTANTS (src/core/look-uniforms.ts); do not edit.\n${lines.join('\n')}\n`;
}
