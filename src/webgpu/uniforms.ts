/**
 * Uniform layouts of the WebGPU backend, each defined ONCE as a list of typed fields. From that
 * list come both the WGSL struct text (injected into the shaders as a generated `#include` chunk)
 * and the TypeScript packing into an ArrayBuffer, so shader and host cannot drift apart.
 * Offsets follow WGSL's alignment rules (WGSL spec, "Alignment and Size"): scalars 4, vec2 8,
 * vec3 and vec4 16 (a vec3 is 12 bytes, so a following scalar fills its tail), mat4x4f 16;
 * arrays (`length`) only of vec4f/vec4u, whose 16-byte stride the uniform address space needs;
 * the struct size is rounded up to its alignment and, for uniform buffers, to 16.
 */
import type { FlockParams } from '../core/params';
import type { Grid } from '../core/grid';
import { EPS2 } from '../core/numbers';
import { COLOR_TABLE_SIZE, SCENE_COLORS, type ViewBasis } from '../core/render-math';
import type { RenderScene } from '../core/scene';
import { MAX_OBSTACLES, MAX_PREDATORS } from '../core/params';

export type UniformType =
  'f32' | 'u32' | 'i32' | 'vec2f' | 'vec2u' | 'vec3f' | 'vec3u' | 'vec4f' | 'vec4u' | 'mat4x4f';

interface TypeInfo {
  size: number;
  align: number;
  /** Scalar kind of each component. */
  kind: 'f' | 'u' | 'i';
  components: number;
}

const TYPES: Record<UniformType, TypeInfo> = {
  f32: { size: 4, align: 4, kind: 'f', components: 1 },
  u32: { size: 4, align: 4, kind: 'u', components: 1 },
  i32: { size: 4, align: 4, kind: 'i', components: 1 },
  vec2f: { size: 8, align: 8, kind: 'f', components: 2 },
  vec2u: { size: 8, align: 8, kind: 'u', components: 2 },
  vec3f: { size: 12, align: 16, kind: 'f', components: 3 },
  vec3u: { size: 12, align: 16, kind: 'u', components: 3 },
  vec4f: { size: 16, align: 16, kind: 'f', components: 4 },
  vec4u: { size: 16, align: 16, kind: 'u', components: 4 },
  mat4x4f: { size: 64, align: 16, kind: 'f', components: 16 },
};

/**
 * One field: its WGSL name and type, and how to read its value from the source object. With
 * `length`, an `array<type, length>` (vec4f or vec4u only) whose value is length * 4 numbers.
 */
export interface UniformField<S> {
  name: string;
  type: UniformType;
  length?: number;
  value: (src: S) => number | ArrayLike<number>;
}

export interface UniformLayout<S> {
  /** WGSL struct name. */
  structName: string;
  /** `struct Name { ... }` text, one member per line, offsets in comments. */
  wgsl: string;
  /** Byte size of the struct (multiple of 16). */
  size: number;
  /** Byte offset of each field, by name. */
  offsets: Readonly<Record<string, number>>;
  /** Packs one source object into `size` bytes (a fresh ArrayBuffer unless `into` is given). */
  pack(src: S, into?: ArrayBuffer, byteOffset?: number): ArrayBuffer;
}

const roundUp = (x: number, a: number): number => Math.ceil(x / a) * a;

/** Lays out `fields` by WGSL's rules; throws on a duplicate or invalid name. */
export function defineUniforms<S>(
  structName: string,
  fields: readonly UniformField<S>[],
): UniformLayout<S> {
  const offsets: Record<string, number> = {};
  let offset = 0;
  let align = 16;
  const lines: string[] = [];
  for (const f of fields) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name) || f.name in offsets) {
      throw new Error(`uniform ${structName}: bad or duplicate field name "${f.name}"`);
    }
    const t = TYPES[f.type];
    if (f.length !== undefined && !(t.size === 16 && t.align === 16 && f.length >= 1)) {
      throw new Error(`uniform ${structName}.${f.name}: arrays only of vec4f/vec4u, length >= 1`);
    }
    offset = roundUp(offset, t.align);
    offsets[f.name] = offset;
    const wgslType = f.length !== undefined ? `array<${f.type}, ${f.length}>` : f.type;
    lines.push(`  ${f.name}: ${wgslType}, // offset ${offset}`);
    offset += t.size * (f.length ?? 1);
    align = Math.max(align, t.align);
  }
  const size = roundUp(offset, align);
  const wgsl = `struct ${structName} {\n${lines.join('\n')}\n}\n`;
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
  return { structName, wgsl, size, offsets, pack };
}

/** What the simulation uniforms are packed from. */
export interface SimUniformSource {
  params: FlockParams;
  grid: Grid;
  /** Padded length of the bitonic key array (power of two), or 0 when unused. */
  sortSize: number;
}

/** `SimParams`: everything the compute passes read; written once per setParams/setState. */
export const SIM_UNIFORMS = defineUniforms<SimUniformSource>('SimParams', [
  { name: 'boundsMin', type: 'vec3f', value: (s) => s.params.boundsMin },
  { name: 'count', type: 'u32', value: (s) => s.params.count },
  { name: 'boundsMax', type: 'vec3f', value: (s) => s.params.boundsMax },
  { name: 'cellCount', type: 'u32', value: (s) => s.grid.cellCount },
  { name: 'boxSize', type: 'vec3f', value: (s) => s.grid.boxSize },
  { name: 'dimensions', type: 'u32', value: (s) => s.params.dimensions },
  { name: 'cellSize', type: 'vec3f', value: (s) => s.grid.cellSize },
  { name: 'wrap', type: 'u32', value: (s) => (s.params.boundary === 'wrap' ? 1 : 0) },
  { name: 'dims', type: 'vec3u', value: (s) => s.grid.dims },
  { name: 'sortSize', type: 'u32', value: (s) => s.sortSize },
  { name: 'r2', type: 'f32', value: (s) => s.params.perceptionRadius * s.params.perceptionRadius },
  { name: 'eps2', type: 'f32', value: () => EPS2 },
  { name: 'separationWeight', type: 'f32', value: (s) => s.params.separationWeight },
  { name: 'alignmentWeight', type: 'f32', value: (s) => s.params.alignmentWeight },
  { name: 'cohesionWeight', type: 'f32', value: (s) => s.params.cohesionWeight },
  { name: 'maxSpeed', type: 'f32', value: (s) => s.params.maxSpeed },
  { name: 'minSpeed', type: 'f32', value: (s) => s.params.minSpeed },
  { name: 'maxSteerForce', type: 'f32', value: (s) => s.params.maxSteerForce },
  { name: 'dt', type: 'f32', value: (s) => s.params.timeStep },
  // The model's terms (DESIGN.md section 1); a count or strength of 0 turns a term off.
  {
    name: 'rs2',
    type: 'f32',
    value: (s) => Math.min(s.params.separationRadius, s.params.perceptionRadius) ** 2,
  },
  { name: 'reynolds', type: 'u32', value: (s) => (s.params.steering === 'reynolds' ? 1 : 0) },
  { name: 'soft', type: 'u32', value: (s) => (s.params.boundary === 'soft' ? 1 : 0) },
  { name: 'species', type: 'u32', value: (s) => s.params.species },
  // Soft walls: the margin's inner planes and F / M.
  {
    name: 'softLo',
    type: 'vec3f',
    value: (s) => s.params.boundsMin.map((x) => x + s.params.boundaryMargin),
  },
  { name: 'softK', type: 'f32', value: (s) => s.params.boundaryForce / s.params.boundaryMargin },
  {
    name: 'softHi',
    type: 'vec3f',
    value: (s) => s.params.boundsMax.map((x) => x - s.params.boundaryMargin),
  },
  { name: 'obstacleCount', type: 'u32', value: (s) => s.params.obstacles.length },
  { name: 'attractor', type: 'vec3f', value: (s) => s.params.attractor },
  { name: 'attractorStrength', type: 'f32', value: (s) => s.params.attractorStrength },
  { name: 'wind', type: 'vec3f', value: (s) => s.params.wind },
  { name: 'turbulence', type: 'f32', value: (s) => s.params.turbulence },
  { name: 'attractorRadius', type: 'f32', value: (s) => s.params.attractorRadius },
  { name: 'obstacleMargin', type: 'f32', value: (s) => s.params.obstacleMargin },
  { name: 'obstacleForce', type: 'f32', value: (s) => s.params.obstacleForce },
  { name: 'predatorCount', type: 'u32', value: (s) => s.params.predators },
  { name: 'predatorRadius', type: 'f32', value: (s) => s.params.predatorRadius },
  { name: 'predatorForce', type: 'f32', value: (s) => s.params.predatorForce },
  {
    name: 'turbulenceK',
    type: 'f32',
    value: (s) => (2 * Math.PI) / s.params.turbulenceScale,
  },
  // xyz centre, w radius (world units); unused entries 0.
  {
    name: 'obstacles',
    type: 'vec4f',
    length: MAX_OBSTACLES,
    value: (s) => {
      const out = new Float32Array(4 * MAX_OBSTACLES);
      s.params.obstacles.forEach((o, k) => out.set([...o.center, o.radius], 4 * k));
      return out;
    },
  },
]);

/** What the per-step uniforms are packed from: predator positions and the flow's phase at t. */
export interface StepUniformSource {
  /** Float32Array(4 * MAX_PREDATORS): xyz world units (behaviours.ts predatorPositions). */
  predators: ArrayLike<number>;
  /** phi = 2 pi frac(t / 20 s), radians. */
  flowPhase: number;
}

/**
 * `StepParams`: the values that change every step (computed in float64 on the CPU at t), one
 * 256-byte slot per step in a ring, bound with a dynamic offset: several steps are encoded into
 * one submission, and a writeBuffer between encoded passes would not take effect in between.
 */
export const STEP_UNIFORMS = defineUniforms<StepUniformSource>('StepParams', [
  { name: 'predators', type: 'vec4f', length: MAX_PREDATORS, value: (s) => s.predators },
  { name: 'flowPhase', type: 'f32', value: (s) => s.flowPhase },
]);

/** `SortStage`: the per-dispatch height of one bitonic flip/disperse stage (dynamic offset). */
export const SORT_STAGE_UNIFORMS = defineUniforms<{ height: number }>('SortStage', [
  { name: 'height', type: 'u32', value: (s) => s.height },
]);

/** What the render uniforms are packed from. */
export interface RenderUniformSource {
  viewProj: Float32Array;
  boidSize: number;
  minSpeed: number;
  maxSpeed: number;
  dimensions: number;
  /** What else to draw and how (src/core/scene.ts). */
  scene: RenderScene;
  /** The camera of viewProj (src/core/render-math.ts viewBasis). */
  basis: ViewBasis;
}

/** `n` vec4s of `data` (4 * n numbers), zero-padded or cut. */
function vec4s(data: ArrayLike<number>, n: number): Float32Array {
  const out = new Float32Array(4 * n);
  out.set(Array.prototype.slice.call(data, 0, 4 * n) as number[]);
  return out;
}

/**
 * `RenderParams`: camera (GL clip space; the vertex shader remaps z) and its axes, boid size and
 * colouring (colour mode, uniform colour, colour table), and the scene: box outline, obstacles,
 * predators (position then heading per predator), attractor marker, their colours.
 */
export const RENDER_UNIFORMS = defineUniforms<RenderUniformSource>('RenderParams', [
  { name: 'viewProj', type: 'mat4x4f', value: (s) => s.viewProj },
  { name: 'eye', type: 'vec3f', value: (s) => s.basis.eye },
  { name: 'boidSize', type: 'f32', value: (s) => s.boidSize },
  { name: 'right', type: 'vec3f', value: (s) => s.basis.right },
  { name: 'minSpeed', type: 'f32', value: (s) => s.minSpeed },
  { name: 'up', type: 'vec3f', value: (s) => s.basis.up },
  { name: 'maxSpeed', type: 'f32', value: (s) => s.maxSpeed },
  { name: 'forward', type: 'vec3f', value: (s) => s.basis.forward },
  { name: 'dimensions', type: 'u32', value: (s) => s.dimensions },
  { name: 'color', type: 'vec3f', value: (s) => s.scene.color },
  { name: 'colorMode', type: 'u32', value: (s) => s.scene.colorMode },
  { name: 'boundsMin', type: 'vec3f', value: (s) => s.scene.bounds?.min ?? [0, 0, 0] },
  { name: 'densityMax', type: 'f32', value: (s) => s.scene.densityMax },
  { name: 'boundsMax', type: 'vec3f', value: (s) => s.scene.bounds?.max ?? [0, 0, 0] },
  { name: 'predatorSize', type: 'f32', value: (s) => s.scene.predatorSize },
  {
    name: 'attractor',
    type: 'vec4f',
    value: (s) => [...(s.scene.attractor?.slice(0, 3) ?? [0, 0, 0]), s.scene.attractorRadius],
  },
  {
    name: 'markerColor',
    type: 'vec3f',
    value: (s) => ((s.scene.attractor?.[3] ?? 0) < 0 ? SCENE_COLORS.repel : SCENE_COLORS.attract),
  },
  { name: 'obstacleColor', type: 'vec3f', value: () => SCENE_COLORS.obstacle },
  { name: 'predatorColor', type: 'vec3f', value: () => SCENE_COLORS.predator },
  { name: 'boundsColor', type: 'vec3f', value: () => SCENE_COLORS.bounds },
  { name: 'table', type: 'vec4f', length: COLOR_TABLE_SIZE, value: (s) => s.scene.table },
  {
    name: 'obstacles',
    type: 'vec4f',
    length: MAX_OBSTACLES,
    value: (s) => vec4s(s.scene.obstacles, MAX_OBSTACLES),
  },
  {
    name: 'predators',
    type: 'vec4f',
    length: 2 * MAX_PREDATORS,
    value: (s) => vec4s(s.scene.predators, 2 * MAX_PREDATORS),
  },
]);

/** Generated WGSL chunks, by the file name shaders `#include`. */
export function generatedChunks(
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    'sim-params.gen.wgsl': SIM_UNIFORMS.wgsl,
    'sort-stage.gen.wgsl': SORT_STAGE_UNIFORMS.wgsl,
    'step-params.gen.wgsl': STEP_UNIFORMS.wgsl,
    'render-params.gen.wgsl': RENDER_UNIFORMS.wgsl,
    ...extra,
  };
}
