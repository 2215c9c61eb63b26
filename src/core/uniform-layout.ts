/**
 * One uniform layout for both shader languages: a list of typed fields becomes a WGSL struct, a
 * GLSL ES 3.00 `std140` uniform block and the TypeScript packing into an ArrayBuffer, so the
 * shaders and the host cannot drift apart (luma.gl derives its std140 and WGSL layouts the same
 * way, shader-block-layout.ts).
 *
 * The types allowed here lay out identically under both rules (GLSL ES 3.00 spec section 2.12.6.4
 * "Standard Uniform Block Layout"; WGSL spec "Alignment and Size", uniform address space):
 * scalars take 4 bytes at a 4-byte boundary, vec2 8 at 8, vec3 12 at 16 (so a scalar may fill its
 * tail), vec4 16 at 16, mat4x4f four vec4 columns; arrays only of vec4f/vec4u (std140 rounds
 * every array stride up to 16 and WGSL's uniform space demands it); the size is rounded up to 16.
 * Fields are placed in list order, except that a hole left before a field's alignment boundary is
 * filled with the next 4-byte scalars of the list that are not placed yet.
 */

export type UniformType =
  'f32' | 'u32' | 'i32' | 'vec2f' | 'vec2u' | 'vec3f' | 'vec3u' | 'vec4f' | 'vec4u' | 'mat4x4f';

interface TypeInfo {
  size: number;
  align: number;
  /** Scalar kind of each component. */
  kind: 'f' | 'u' | 'i';
  components: number;
  glsl: string;
}

const TYPES: Record<UniformType, TypeInfo> = {
  f32: { size: 4, align: 4, kind: 'f', components: 1, glsl: 'float' },
  u32: { size: 4, align: 4, kind: 'u', components: 1, glsl: 'uint' },
  i32: { size: 4, align: 4, kind: 'i', components: 1, glsl: 'int' },
  vec2f: { size: 8, align: 8, kind: 'f', components: 2, glsl: 'vec2' },
  vec2u: { size: 8, align: 8, kind: 'u', components: 2, glsl: 'uvec2' },
  vec3f: { size: 12, align: 16, kind: 'f', components: 3, glsl: 'vec3' },
  vec3u: { size: 12, align: 16, kind: 'u', components: 3, glsl: 'uvec3' },
  vec4f: { size: 16, align: 16, kind: 'f', components: 4, glsl: 'vec4' },
  vec4u: { size: 16, align: 16, kind: 'u', components: 4, glsl: 'uvec4' },
  mat4x4f: { size: 64, align: 16, kind: 'f', components: 16, glsl: 'mat4' },
};

/** The GLSL ES 3.00 type of a uniform type (`vec3f` -> `vec3`). */
export function glslType(type: UniformType): string {
  return TYPES[type].glsl;
}

/**
 * One field: its name (the same in WGSL and GLSL) and type, and how to read its value from the
 * source object. With `length`, an array (vec4f or vec4u only) whose value is length * 4 numbers.
 * `doc` becomes a comment beside the member in both languages.
 */
export interface UniformField<S> {
  name: string;
  type: UniformType;
  length?: number;
  value: (src: S) => number | ArrayLike<number>;
  doc?: string;
}

export interface UniformLayout<S> {
  /** WGSL struct name, and the GLSL block name. */
  structName: string;
  /** `struct Name { ... }` text, one member per line, offsets in comments. */
  wgsl: string;
  /**
   * `layout(std140) uniform Name { ... } instance;` text (GLSL ES 3.00), members highp, offsets
   * in comments. Its instance name is the `glslInstance` given to `glsl()`.
   */
  glsl(instance: string): string;
  /** Byte size (a multiple of 16). */
  size: number;
  /** Byte offset of each field, by name. */
  offsets: Readonly<Record<string, number>>;
  /** The fields in the order they were placed (by offset). */
  placed: readonly UniformField<S>[];
  /** Packs one source object into `size` bytes (a fresh ArrayBuffer unless `into` is given). */
  pack(src: S, into?: ArrayBuffer, byteOffset?: number): ArrayBuffer;
}

const roundUp = (x: number, a: number): number => Math.ceil(x / a) * a;

/** Lays out `fields` (module doc); throws on a duplicate or invalid name, or an unsupported array. */
export function defineUniforms<S>(
  structName: string,
  fields: readonly UniformField<S>[],
): UniformLayout<S> {
  const seen = new Set<string>();
  for (const f of fields) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name) || seen.has(f.name)) {
      throw new Error(`uniform ${structName}: bad or duplicate field name "${f.name}"`);
    }
    seen.add(f.name);
    const t = TYPES[f.type];
    if (f.length !== undefined && !(t.size === 16 && t.align === 16 && f.length >= 1)) {
      throw new Error(`uniform ${structName}.${f.name}: arrays only of vec4f/vec4u, length >= 1`);
    }
  }
  const offsets: Record<string, number> = {};
  const placed: UniformField<S>[] = [];
  const isScalar = (f: UniformField<S>) => f.length === undefined && TYPES[f.type].size === 4;
  let offset = 0;
  const place = (f: UniformField<S>) => {
    offsets[f.name] = offset;
    placed.push(f);
    offset += TYPES[f.type].size * (f.length ?? 1);
  };
  fields.forEach((f, k) => {
    if (f.name in offsets) return;
    const align = TYPES[f.type].align;
    // Fill the hole before f's boundary with later scalars (vec3 tails, mostly).
    for (let j = k + 1; j < fields.length && offset % align !== 0; j++) {
      const g = fields[j]!;
      if (isScalar(g) && !(g.name in offsets)) place(g);
    }
    offset = roundUp(offset, align);
    place(f);
  });
  const size = roundUp(offset, 16);
  const decl = (f: UniformField<S>, type: string) =>
    `${type}, // offset ${offsets[f.name]}${f.doc ? `: ${f.doc}` : ''}`;
  const wgsl = `struct ${structName} {\n${placed
    .map((f) => {
      const type = f.length !== undefined ? `array<${f.type}, ${f.length}>` : f.type;
      return `  ${f.name}: ${decl(f, type)}`;
    })
    .join('\n')}\n}\n`;
  const glsl = (instance: string) =>
    `layout(std140) uniform ${structName} {\n${placed
      .map((f) => {
        const arr = f.length !== undefined ? `[${f.length}]` : '';
        const line = `  highp ${TYPES[f.type].glsl} ${f.name}${arr};`;
        return `${line} // offset ${offsets[f.name]}${f.doc ? `: ${f.doc}` : ''}`;
      })
      .join('\n')}\n} ${instance};\n`;
  const pack = (src: S, into?: ArrayBuffer, byteOffset = 0): ArrayBuffer => {
    const buf = into ?? new ArrayBuffer(size);
    const view = new DataView(buf, byteOffset, size);
    for (const f of fields) {
      const t = TYPES[f.type];
      const raw = f.value(src);
      const vals: ArrayLike<number> = typeof raw === 'number' ? [raw] : raw;
      const components = t.components * (f.length ?? 1);
      if (vals.length !== components) {
        throw new Error(
          `uniform ${structName}.${f.name}: ${components} component(s) expected, got ${vals.length}`,
        );
      }
      const base = offsets[f.name]!;
      for (let c = 0; c < components; c++) {
        const v = vals[c]!;
        const at = base + 4 * c;
        if (t.kind === 'f') view.setFloat32(at, v, true);
        else if (t.kind === 'u') view.setUint32(at, v >>> 0, true);
        else view.setInt32(at, v | 0, true);
      }
    }
    return buf;
  };
  return { structName, wgsl, glsl, size, offsets, placed, pack };
}
