/**
 * The model's terms (DESIGN.md section 1), one table beside the parameter schema: per term the
 * parameters it reads, its on/off switch, and its uniform fields, those written when the
 * parameters change (`uniforms`, SimParams) and those that change every step (`perStep`,
 * StepParams: computed in float64 on the CPU at the step's t). Everything the GPU backends need
 * from a term is generated from here:
 * - the WGSL structs SimParams and StepParams and the GLSL std140 blocks of the same layout
 *   (uniform-layout.ts; `P` and `S` in both languages), packed by the same code for both;
 * - the switches: WGSL's `TERMS` override with an ON_/OFF_ bit pair per switch and a
 *   `<fn>() -> bool` per switch (steer.wgsl), the GLSL `#define`s of the program variants and a
 *   `bool <fn>()` per switch (flock-rules.glsl).
 * A new term is a row here, a parameter in params.ts, its rule in reference.ts and in one chunk
 * per shader language.
 */
import type { FlockParams } from './params';
import { MAX_OBSTACLES, MAX_PREDATORS } from './params';
import type { Grid } from './grid';
import { EPS2 } from './numbers';
import { flowPhase, predatorPositions } from './behaviours';
import { defineUniforms, type UniformField, type UniformLayout } from './uniform-layout';

/** What SimParams is packed from. */
export interface SimSource {
  params: FlockParams;
  grid: Grid;
  /** Padded length of the WebGPU bitonic key array (power of two), or 0 when unused. */
  sortSize: number;
}

/** What StepParams is packed from: the parameters and the simulated time t at the step's start. */
export interface StepSource {
  params: FlockParams;
  /** Seconds. */
  time: number;
}

/**
 * A switch of the model. Off, its code can be compiled out: WebGPU specialises the steer pipeline
 * (bits ON_<NAME> = 1 << 2k and OFF_<NAME> = 1 << (2k + 1), k its place among the switches);
 * WebGL2 either compiles a program variant per value (`define`) or branches on the uniform.
 */
export interface TermSwitch {
  /** Upper-case name: the WGSL bits ON_<name>/OFF_<name>, and the GLSL define when `define`. */
  name: string;
  /** Whether the term is on for these parameters (as the float32 uniforms see it). */
  on: (p: FlockParams) => boolean;
  /** The same test on the uniforms, one expression valid in WGSL and GLSL (`P.` SimParams). */
  test: string;
  /** The shaders' function that says whether the term is on (`fn wrapOn() -> bool`). */
  fn: string;
  /** WebGL2: a `#define <name>` program variant (values for on and off), else a uniform branch. */
  define?: { on: number; off: number; required?: boolean };
}

export interface Term {
  /** The term in the model's words. */
  name: string;
  /** The parameters it reads. */
  params: readonly (keyof FlockParams)[];
  /** Its switch; none for a term that is always on. */
  switch?: TermSwitch;
  /** SimParams fields (written when the parameters change). */
  uniforms: readonly UniformField<SimSource>[];
  /** StepParams fields: change every step. */
  perStep?: readonly UniformField<StepSource>[];
}

const f32 = Math.fround;

/** The table, in switch order (the WGSL bits follow it). */
export const TERMS: readonly Term[] = [
  {
    name: 'box and grid',
    params: ['count', 'boundsMin', 'boundsMax', 'perceptionRadius'],
    uniforms: [
      { name: 'boundsMin', type: 'vec3f', value: (s) => s.params.boundsMin, doc: 'world units' },
      { name: 'count', type: 'u32', value: (s) => s.params.count },
      { name: 'boundsMax', type: 'vec3f', value: (s) => s.params.boundsMax, doc: 'world units' },
      { name: 'cellCount', type: 'u32', value: (s) => s.grid.cellCount },
      {
        name: 'boxSize',
        type: 'vec3f',
        value: (s) => s.grid.boxSize,
        doc: 'boundsMax - boundsMin, in float64',
      },
      { name: 'cellSize', type: 'vec3f', value: (s) => s.grid.cellSize, doc: 'world units' },
      { name: 'dims', type: 'vec3u', value: (s) => s.grid.dims, doc: 'cells per axis' },
      { name: 'sortSize', type: 'u32', value: (s) => s.sortSize },
    ],
  },
  {
    name: 'wrap',
    params: ['boundary'],
    switch: {
      name: 'WRAP',
      on: (p) => p.boundary === 'wrap',
      test: 'P.wrap != 0u',
      fn: 'wrapOn',
      define: { on: 1, off: 0, required: true },
    },
    uniforms: [{ name: 'wrap', type: 'u32', value: (s) => (s.params.boundary === 'wrap' ? 1 : 0) }],
  },
  {
    name: 'dimensions',
    params: ['dimensions'],
    switch: {
      name: '3D',
      on: (p) => p.dimensions === 3,
      test: 'P.dimensions == 3u',
      fn: 'is3d',
      define: { on: 3, off: 2, required: true },
    },
    uniforms: [{ name: 'dimensions', type: 'u32', value: (s) => s.params.dimensions }],
  },
  {
    name: 'steering',
    params: ['steering', 'maxSteerForce'],
    switch: {
      name: 'REYNOLDS',
      on: (p) => p.steering === 'reynolds',
      test: 'P.reynolds != 0u',
      fn: 'reynoldsOn',
      define: { on: 1, off: 0 },
    },
    uniforms: [
      { name: 'reynolds', type: 'u32', value: (s) => (s.params.steering === 'reynolds' ? 1 : 0) },
      { name: 'maxSteerForce', type: 'f32', value: (s) => s.params.maxSteerForce },
    ],
  },
  {
    name: 'soft walls',
    params: ['boundary', 'boundaryMargin', 'boundaryForce'],
    switch: {
      name: 'SOFT',
      on: (p) => p.boundary === 'soft',
      test: 'P.soft != 0u',
      fn: 'softOn',
      define: { on: 1, off: 0 },
    },
    uniforms: [
      { name: 'soft', type: 'u32', value: (s) => (s.params.boundary === 'soft' ? 1 : 0) },
      {
        name: 'softLo',
        type: 'vec3f',
        value: (s) => s.params.boundsMin.map((x) => x + s.params.boundaryMargin),
        doc: "the margin's inner planes",
      },
      {
        name: 'softK',
        type: 'f32',
        value: (s) => s.params.boundaryForce / s.params.boundaryMargin,
        doc: 'F / M, 1/s^2',
      },
      {
        name: 'softHi',
        type: 'vec3f',
        value: (s) => s.params.boundsMax.map((x) => x - s.params.boundaryMargin),
      },
    ],
  },
  {
    name: 'species',
    params: ['species'],
    switch: {
      name: 'SPECIES',
      on: (p) => p.species > 1,
      test: 'P.species > 1u',
      fn: 'speciesOn',
      define: { on: 1, off: 0 },
    },
    uniforms: [{ name: 'species', type: 'u32', value: (s) => s.params.species }],
  },
  {
    name: 'obstacles',
    params: ['obstacles', 'obstacleMargin', 'obstacleForce'],
    switch: {
      name: 'OBSTACLES',
      on: (p) => p.obstacles.length > 0,
      test: 'P.obstacleCount > 0u',
      fn: 'obstaclesOn',
    },
    uniforms: [
      { name: 'obstacleCount', type: 'u32', value: (s) => s.params.obstacles.length },
      { name: 'obstacleMargin', type: 'f32', value: (s) => s.params.obstacleMargin },
      { name: 'obstacleForce', type: 'f32', value: (s) => s.params.obstacleForce },
      {
        name: 'obstacles',
        type: 'vec4f',
        length: MAX_OBSTACLES,
        doc: 'xyz centre, w radius; unused ones 0',
        value: (s) => {
          const out = new Float32Array(4 * MAX_OBSTACLES);
          s.params.obstacles.forEach((o, k) => out.set([...o.center, o.radius], 4 * k));
          return out;
        },
      },
    ],
  },
  {
    name: 'attractor',
    params: ['attractor', 'attractorStrength', 'attractorRadius'],
    switch: {
      name: 'ATTRACTOR',
      // The uniforms are f32: a strength that rounds to 0 there is off, as the branch sees it.
      on: (p) => f32(p.attractorStrength) !== 0,
      test: 'P.attractorStrength != 0.0',
      fn: 'attractorOn',
    },
    uniforms: [
      { name: 'attractor', type: 'vec3f', value: (s) => s.params.attractor },
      { name: 'attractorStrength', type: 'f32', value: (s) => s.params.attractorStrength },
      { name: 'attractorRadius', type: 'f32', value: (s) => s.params.attractorRadius },
    ],
  },
  {
    name: 'predators',
    params: ['predators', 'predatorRadius', 'predatorForce'],
    switch: {
      name: 'PREDATORS',
      on: (p) => p.predators > 0,
      test: 'P.predatorCount > 0u',
      fn: 'predatorsOn',
    },
    uniforms: [
      { name: 'predatorCount', type: 'u32', value: (s) => s.params.predators },
      { name: 'predatorRadius', type: 'f32', value: (s) => s.params.predatorRadius },
      { name: 'predatorForce', type: 'f32', value: (s) => s.params.predatorForce },
    ],
    perStep: [
      {
        name: 'predators',
        type: 'vec4f',
        length: MAX_PREDATORS,
        doc: 'h_k(t), xyz world units',
        value: (s) => predatorPositions(s.params, s.time),
      },
    ],
  },
  {
    name: 'turbulence',
    params: ['turbulence', 'turbulenceScale'],
    switch: {
      name: 'TURBULENCE',
      on: (p) => f32(p.turbulence) !== 0,
      test: 'P.turbulence != 0.0',
      fn: 'turbulenceOn',
    },
    uniforms: [
      { name: 'turbulence', type: 'f32', value: (s) => s.params.turbulence },
      {
        name: 'turbulenceK',
        type: 'f32',
        value: (s) => (2 * Math.PI) / s.params.turbulenceScale,
        doc: '2 pi / turbulenceScale',
      },
    ],
    perStep: [
      {
        name: 'flowPhase',
        type: 'f32',
        // 0 while the flow is off, so a step without moving terms changes no uniform.
        value: (s) => (s.params.turbulence !== 0 ? flowPhase(s.time) : 0),
        doc: '2 pi frac(t / 20 s), radians',
      },
    ],
  },
  {
    name: 'wind',
    params: ['wind'],
    uniforms: [{ name: 'wind', type: 'vec3f', value: (s) => s.params.wind, doc: 'world units/s' }],
  },
  {
    name: 'neighbours',
    params: ['perceptionRadius'],
    uniforms: [
      {
        name: 'r2',
        type: 'f32',
        value: (s) => s.params.perceptionRadius * s.params.perceptionRadius,
      },
      { name: 'eps2', type: 'f32', value: () => EPS2 },
    ],
  },
  {
    name: 'separation',
    params: ['separationRadius', 'separationWeight'],
    uniforms: [
      {
        name: 'rs2',
        type: 'f32',
        value: (s) => Math.min(s.params.separationRadius, s.params.perceptionRadius) ** 2,
        doc: 'min(rs, r)^2',
      },
      { name: 'separationWeight', type: 'f32', value: (s) => s.params.separationWeight },
    ],
  },
  {
    name: 'alignment',
    params: ['alignmentWeight'],
    uniforms: [{ name: 'alignmentWeight', type: 'f32', value: (s) => s.params.alignmentWeight }],
  },
  {
    name: 'cohesion',
    params: ['cohesionWeight'],
    uniforms: [{ name: 'cohesionWeight', type: 'f32', value: (s) => s.params.cohesionWeight }],
  },
  {
    name: 'speed clamp and step',
    params: ['maxSpeed', 'minSpeed', 'timeStep'],
    uniforms: [
      { name: 'maxSpeed', type: 'f32', value: (s) => s.params.maxSpeed },
      { name: 'minSpeed', type: 'f32', value: (s) => s.params.minSpeed },
      { name: 'dt', type: 'f32', value: (s) => s.params.timeStep },
    ],
  },
  {
    name: 'field of view',
    params: ['fieldOfView'],
    switch: {
      name: 'FOV',
      on: (p) => p.fieldOfView < 360,
      test: 'P.fovCos >= -1.0',
      fn: 'fovOn',
      define: { on: 1, off: 0 },
    },
    uniforms: [
      {
        name: 'fovCos',
        type: 'f32',
        // -2 while off: every neighbour passes the cone test, also in the generic pipeline.
        value: (s) =>
          s.params.fieldOfView < 360 ? Math.cos((s.params.fieldOfView * Math.PI) / 360) : -2,
        doc: 'cos(fieldOfView / 2); -2: all around',
      },
    ],
  },
];

/** The switches in bit order. */
export const SWITCHES: readonly TermSwitch[] = TERMS.flatMap((t) => (t.switch ? [t.switch] : []));

/** `SimParams`: every term's fields; written once per parameter or state change. */
export const SIM_UNIFORMS: UniformLayout<SimSource> = defineUniforms(
  'SimParams',
  TERMS.flatMap((t) => t.uniforms),
);

/** `StepParams`: the fields that change every step. */
export const STEP_UNIFORMS: UniformLayout<StepSource> = defineUniforms(
  'StepParams',
  TERMS.flatMap((t) => t.perStep ?? []),
);

/** Every bit: the generic WebGPU steer pipeline (the uniforms decide at run time). */
export const GENERIC_TERMS = 0xffffffff;

/** The TERMS mask of a WebGPU steer pipeline specialised for `params` (one bit of each pair). */
export function steerTerms(params: FlockParams): number {
  let mask = 0;
  SWITCHES.forEach((s, k) => {
    mask |= (s.on(params) ? 1 : 2) << (2 * k);
  });
  return mask >>> 0;
}

/** The WebGL2 `#define`s of the switches compiled as program variants, for `params`. */
export function switchDefines(params: FlockParams): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of SWITCHES) {
    if (s.define) out[defineName(s)] = s.on(params) ? s.define.on : s.define.off;
  }
  return out;
}

/** The GLSL define of a switch: its name, except 3D, which the shaders know as DIMS (2 or 3). */
function defineName(s: TermSwitch): string {
  return s.name === '3D' ? 'DIMS' : s.name;
}

const HEADER = '// Generated from the term table (src/core/terms.ts TERMS): do not edit.\n';

/** The WGSL chunk `sim-params.gen.wgsl`: the SimParams struct. */
export function simParamsWgsl(): string {
  return HEADER + SIM_UNIFORMS.wgsl;
}

/** The WGSL chunk `step-params.gen.wgsl`: the StepParams struct. */
export function stepParamsWgsl(): string {
  return HEADER + STEP_UNIFORMS.wgsl;
}

/**
 * The WGSL chunk `terms.gen.wgsl` (steer.wgsl): the TERMS override, each switch's ON_/OFF_ bits,
 * `term()` and one function per switch. With both bits set (the generic pipeline) the uniform
 * decides at run time; with one, the branch is a constant and the compiler drops the other side.
 */
export function switchesWgsl(): string {
  const lines = [
    HEADER,
    'override TERMS: u32 = 0xffffffffu;',
    ...SWITCHES.flatMap((s, k) => [
      `const ON_${s.name}: u32 = ${2 ** (2 * k)}u;`,
      `const OFF_${s.name}: u32 = ${2 ** (2 * k + 1)}u;`,
    ]),
    '',
    '// A switch: false when its code is compiled out, true when only its "on" code is, else `dyn`.',
    'fn term(on: u32, off: u32, dyn: bool) -> bool {',
    '  if ((TERMS & on) == 0u) {',
    '    return false;',
    '  }',
    '  if ((TERMS & off) == 0u) {',
    '    return true;',
    '  }',
    '  return dyn;',
    '}',
    ...SWITCHES.map(
      (s) => `fn ${s.fn}() -> bool {\n  return term(ON_${s.name}, OFF_${s.name}, ${s.test});\n}`,
    ),
  ];
  return lines.join('\n') + '\n';
}

/**
 * The GLSL chunk `flock-params.gen.glsl`: the array lengths, the defaults and checks of the
 * program variants' defines, the SimParams block `P` and StepParams block `S` (std140), and one
 * `bool <fn>()` per switch (a constant for a define, the uniform test otherwise).
 */
export function flockParamsGlsl(): string {
  const lines = [
    HEADER,
    `#define MAX_OBSTACLES ${MAX_OBSTACLES}`,
    `#define MAX_PREDATORS ${MAX_PREDATORS}`,
  ];
  for (const s of SWITCHES) {
    if (!s.define) continue;
    const d = defineName(s);
    lines.push(
      s.define.required
        ? `#ifndef ${d}\n#error ${d} must be defined (src/core/terms.ts switchDefines)\n#endif`
        : `#ifndef ${d}\n#define ${d} ${s.define.off}\n#endif`,
    );
  }
  lines.push(SIM_UNIFORMS.glsl('P'), STEP_UNIFORMS.glsl('S'));
  for (const s of SWITCHES) {
    const body = s.define ? `${defineName(s)} == ${s.define.on}` : s.test;
    lines.push(`bool ${s.fn}() {\n  return ${body};\n}`);
  }
  return lines.join('\n') + '\n';
}
