// The drawing uniforms' table (src/core/look-uniforms.ts): src/webgl2/look.glsl declares none by hand
// and reads each generated `u<Name>`; render.wgsl's RenderParams holds each row with its type
// and reads `R.<name>`; both languages get the same numbers for one frame (hand-set source).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  LOOK_CONSTANTS,
  LOOK_UNIFORMS,
  glslUniformName,
  lookUniformValues,
  lookConstantsGlsl,
  lookConstantsWgsl,
  lookUniformsGlsl,
  type LookSource,
} from '../../src/core/look-uniforms';
import { DOT_RADIUS, MESHES, SHAPE_CODE, TAIL_PIVOT, WING_LIMIT } from '../../src/core/look';
import {
  RENDER_UNIFORMS,
  generatedChunks,
  type RenderUniformSource,
} from '../../src/webgpu/uniforms';
import { GLSL_FILES } from '../../src/webgl2/shaders';
import { buildScene, viewStatic } from '../../src/core/scene';
import { defaultParams } from '../../src/core/params';
import { defaultView } from '../../src/core/view';

const root = join(import.meta.dirname, '../..');
const lookGlsl = readFileSync(join(root, 'src/webgl2/look.glsl'), 'utf8');
const renderWgsl = readFileSync(join(root, 'src/webgpu/render.wgsl'), 'utf8');

/** A frame's source with distinct hand-set numbers (no two fields alike). */
function source(): LookSource {
  const view = { ...defaultView(), shape: 'fish' as const, flap: 1.5, fog: 0.25 };
  const scene = {
    ...buildScene(defaultParams(), view, viewStatic(view), 1),
    lighting: 0.625,
    lodPixels: 3.5,
  };
  return {
    scene,
    look: {
      lightDir: [0.6, 0.8, 0],
      skyDir: [0, 1, 0],
      lightColor: [1, 0.9375, 0.875],
      skyColor: [0.75, 0.8125, 1],
      groundColor: [0.25, 0.1875, 0.125],
      fogNear: 12.5,
      fogInvSpan: 0.0625,
      pxPerUnit: 321.5,
      clock: [0.5, 1.25, 2.75],
    },
    basis: { eye: [1, 2, 3], right: [1, 0, 0], up: [0, 1, 0], forward: [0, 0, -1] },
    width: 640,
    height: 360,
  };
}

describe('look uniforms table', () => {
  test('the 13 uniforms look.glsl used to declare by hand are rows, in both languages', () => {
    expect(LOOK_UNIFORMS.map((u) => glslUniformName(u.name))).toEqual([
      'uMesh',
      'uLook',
      'uClock',
      'uShape',
      'uLightDir',
      'uSkyDir',
      'uLightColor',
      'uSkyColor',
      'uGroundColor',
      'uFog',
      'uEye',
      'uForward',
      'uViewport',
    ]);
    const glsl = lookUniformsGlsl();
    expect(glsl).toContain('uniform highp vec4 uMesh[36];');
    expect(glsl).toContain('uniform highp uint uShape;');
    expect(glsl).toContain('uniform highp vec2 uViewport;');
    // look.glsl declares no uniform itself, includes the chunk, and reads every row.
    expect(lookGlsl.split('\n').filter((l) => /^\s*uniform\b/.test(l))).toEqual([]);
    expect(lookGlsl).toContain('#include "look-uniforms.gen.glsl"');
    for (const u of LOOK_UNIFORMS) {
      expect(lookGlsl, glslUniformName(u.name)).toMatch(
        new RegExp(`\\b${glslUniformName(u.name)}\\b`),
      );
      const type = u.length !== undefined ? `array<${u.type}, ${u.length}>` : u.type;
      expect(RENDER_UNIFORMS.wgsl).toContain(`  ${u.name}: ${type}, // offset`);
      expect(renderWgsl, `R.${u.name}`).toMatch(new RegExp(`\\bR\\.${u.name}\\b`));
    }
  });

  test('one frame: the WebGL2 values and the WebGPU bytes hold the same numbers', () => {
    const s = source();
    const v = lookUniformValues(s);
    expect(v.uShape).toBe(SHAPE_CODE.fish);
    expect(v.uLook).toEqual([1.5, 0.625, 0.25, 3.5]);
    expect(v.uFog).toEqual([12.5, 0.0625, 321.5]);
    expect(v.uViewport).toEqual([640, 360]);
    expect(v.uEye).toEqual([1, 2, 3]);
    expect(v.uForward).toEqual([0, 0, -1]);
    expect(Array.from(v.uMesh as Float32Array).slice(0, MESHES.fish.length)).toEqual(
      Array.from(MESHES.fish),
    );
    expect(
      Array.from(v.uMesh as Float32Array)
        .slice(MESHES.fish.length)
        .every((x) => x === 0),
    ).toBe(true);

    const render: RenderUniformSource = {
      ...s,
      scene: s.scene as RenderUniformSource['scene'],
      viewProj: new Float32Array(16),
      boidSize: 1,
      minSpeed: 2,
      maxSpeed: 5,
      dimensions: 3,
    };
    const bytes = new DataView(RENDER_UNIFORMS.pack(render));
    for (const u of LOOK_UNIFORMS) {
      const want = v[glslUniformName(u.name)]!;
      const values = typeof want === 'number' ? [want] : Array.from(want);
      const at = RENDER_UNIFORMS.offsets[u.name]!;
      const got = values.map((_, c) =>
        u.type === 'u32' ? bytes.getUint32(at + 4 * c, true) : bytes.getFloat32(at + 4 * c, true),
      );
      expect(got, u.name).toEqual(values.map((x) => Math.fround(x)));
    }
  });

  test("the look's constants: one value in look.ts, generated for both shaders, none by hand", () => {
    expect(LOOK_CONSTANTS).toMatchObject({ DOT_RADIUS, TAIL_PIVOT, WING_LIMIT });
    expect(Object.keys(LOOK_CONSTANTS)).toHaveLength(11);
    const glsl = lookConstantsGlsl();
    const wgsl = lookConstantsWgsl();
    expect(glsl).toContain('const float DOT_RADIUS = 0.3;');
    expect(glsl).toContain('const float TAIL_PIVOT = -0.26;');
    expect(wgsl).toContain('const WING_LIMIT: f32 = 1.3;');
    expect(GLSL_FILES['look-constants.gen.glsl']).toBe(glsl);
    expect(generatedChunks()['look-constants.gen.wgsl']).toBe(wgsl);
    for (const name of Object.keys(LOOK_CONSTANTS)) {
      // Declared once (in the chunk), used by the shaders.
      expect(lookGlsl, name).not.toMatch(new RegExp(`const float ${name}\\b`));
      expect(renderWgsl, name).not.toMatch(new RegExp(`const ${name}\\b`));
      expect(lookGlsl + renderWgsl, name).toMatch(new RegExp(`\\b${name}\\b`));
    }
    expect(lookGlsl).toContain('#include "look-constants.gen.glsl"');
    expect(renderWgsl).toContain('#include "look-constants.gen.wgsl"');
  });
});
