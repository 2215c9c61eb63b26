/**
 * Uniform layouts of the WebGPU backend. The simulation's (SimParams, StepParams) come from the
 * term table (src/core/terms.ts); the others are defined here as lists of typed fields. Each
 * becomes a WGSL struct injected into the shaders as a generated `#include` chunk and the
 * TypeScript packing into an ArrayBuffer, by src/core/uniform-layout.ts (WGSL's alignment rules,
 * which std140's equal for the types it takes), so shader and host cannot drift apart.
 */
import { COLOR_TABLE_SIZE } from '../core/render-math';
import { SCENE_COLORS, type ViewBasis } from '../core/render-draw';
import type { RenderScene } from '../core/scene';
import { meshVertices, type LookFrame } from '../core/look';
import { lookConstantsWgsl, lookFields } from '../core/look-uniforms';
import { MAX_OBSTACLES, MAX_PREDATORS } from '../core/params';
import { defineUniforms } from '../core/uniform-layout';
import { simParamsWgsl, stepParamsWgsl, switchesWgsl } from '../core/terms';

export { defineUniforms } from '../core/uniform-layout';
export type { UniformField, UniformLayout, UniformType } from '../core/uniform-layout';
export { SIM_UNIFORMS, STEP_UNIFORMS } from '../core/terms';
export type { SimSource as SimUniformSource, StepSource as StepUniformSource } from '../core/terms';

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
  /** The camera of viewProj (src/core/render-draw.ts viewBasis). */
  basis: ViewBasis;
  /** The look's per-frame values (src/core/look.ts lookFrame). */
  look: LookFrame;
  /** Drawing buffer size, device pixels. */
  width: number;
  height: number;
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
  { name: 'boidSize', type: 'f32', value: (s) => s.boidSize },
  { name: 'right', type: 'vec3f', value: (s) => s.basis.right },
  { name: 'minSpeed', type: 'f32', value: (s) => s.minSpeed },
  { name: 'up', type: 'vec3f', value: (s) => s.basis.up },
  { name: 'maxSpeed', type: 'f32', value: (s) => s.maxSpeed },
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
  // The look (src/core/look.ts; render.wgsl boidLook, the twin of src/webgl2/look.glsl).
  {
    name: 'ramp',
    type: 'vec4f',
    length: 4,
    value: (s) => s.scene.ramp.flatMap((c) => [c[0], c[1], c[2], 1]),
  },
  { name: 'verts', type: 'u32', value: (s) => meshVertices(s.scene.shape) },
  // The drawing uniforms of the look table (src/core/look-uniforms.ts; eye and forward among them).
  ...lookFields<RenderUniformSource>(),
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
    'sim-params.gen.wgsl': simParamsWgsl(),
    'sort-stage.gen.wgsl': SORT_STAGE_UNIFORMS.wgsl,
    'step-params.gen.wgsl': stepParamsWgsl(),
    'terms.gen.wgsl': switchesWgsl(),
    'render-params.gen.wgsl': RENDER_UNIFORMS.wgsl,
    'look-constants.gen.wgsl': lookConstantsWgsl(),
    ...extra,
  };
}
