// twgl.js's uniform setters, as src/webgl2/program.ts uses them (imported by name, as there), on
// a real WebGL2 context: each uniform type the shaders use is set and read back with
// gl.getUniform, arrays by their name without `[0]`, samplers on consecutive units with their
// texture bound, uniform-block members and unknown names skipped.
import { createUniformSetters, setUniforms } from 'twgl.js';
import { afterEach, describe, expect, test } from 'vitest';

const made: (() => void)[] = [];
afterEach(() => {
  for (const undo of made.splice(0)) undo();
});

const VERT = `#version 300 es
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0; }`;

const FRAG = `#version 300 es
precision highp float;
precision highp int;
precision highp usampler2D;
precision highp sampler2DArray;
uniform float uF;
uniform vec2 uV2;
uniform vec3 uV3;
uniform vec4 uV4[3];
uniform int uI;
uniform int uIs[5];
uniform ivec4 uIv4[2];
uniform uint uU;
uniform mat4 uM;
uniform sampler2D uTexA;
uniform usampler2D uTexB;
uniform sampler2DArray uTexC;
layout(std140) uniform Block { vec4 inBlock; };
out vec4 o;
void main() {
  float s = uF + uV2.y + uV3.z + uV4[2].w + float(uI + uIs[4] + uIv4[1].w) + float(uU) + uM[3][2];
  o = vec4(s) + texture(uTexA, vec2(0.5)) + vec4(texture(uTexB, vec2(0.5))) +
    texture(uTexC, vec3(0.5, 0.5, 0.0)) + inBlock;
}`;

function program(gl: WebGL2RenderingContext): WebGLProgram {
  const p = gl.createProgram()!;
  for (const [type, src] of [
    [gl.VERTEX_SHADER, VERT],
    [gl.FRAGMENT_SHADER, FRAG],
  ] as const) {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s)!);
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p)!);
  return p;
}

describe('WebGL2 uniform setters (twgl.js)', () => {
  test('every type is uploaded with its own call and reads back; samplers take units 0, 1, 2', () => {
    const gl = document.createElement('canvas').getContext('webgl2')!;
    made.push(() => gl.getExtension('WEBGL_lose_context')?.loseContext());
    const p = program(gl);
    const setters = createUniformSetters(gl, p) as Record<string, (v: unknown) => void>;
    expect(Object.keys(setters).sort()).toEqual(
      [
        'uF',
        'uI',
        'uIs',
        'uIv4',
        'uM',
        'uTexA',
        'uTexB',
        'uTexC',
        'uU',
        'uV2',
        'uV3',
        'uV4',
      ].sort(),
    );
    const texA = gl.createTexture()!;
    const texB = gl.createTexture()!;
    const texC = gl.createTexture()!;
    const m = Float32Array.from({ length: 16 }, (_, i) => i * 0.5 - 3);
    gl.useProgram(p);
    setUniforms(setters, {
      uF: 1.25,
      uV2: [2, -3.5],
      uV3: new Float32Array([0.5, 7, -1]),
      uV4: Float32Array.from({ length: 12 }, (_, i) => i / 4),
      uI: -7,
      uIs: [3, 1, 4, 1, 5],
      uIv4: new Int32Array([9, 8, 7, 6, -5, -4, -3, -2]),
      uU: 4000000000,
      uM: m,
      uTexA: texA,
      uTexB: texB,
      uTexC: texC,
      notInTheProgram: 3, // ignored
    });
    const at = (name: string) => gl.getUniform(p, gl.getUniformLocation(p, name)!) as unknown;
    expect(at('uF')).toBe(1.25);
    expect([...(at('uV2') as Float32Array)]).toEqual([2, -3.5]);
    expect([...(at('uV3') as Float32Array)]).toEqual([0.5, 7, -1]);
    expect([...(at('uV4[2]') as Float32Array)]).toEqual([2, 2.25, 2.5, 2.75]);
    expect(at('uI')).toBe(-7);
    expect([0, 1, 2, 3, 4].map((i) => at(`uIs[${i}]`))).toEqual([3, 1, 4, 1, 5]);
    expect([...(at('uIv4[1]') as Int32Array)]).toEqual([-5, -4, -3, -2]);
    expect(at('uU')).toBe(4000000000);
    expect([...(at('uM') as Float32Array)]).toEqual([...m]);
    // Samplers: the units in declaration order of the driver's active list, each texture bound
    // to its unit's target (2D for the first two, 2D_ARRAY for the third).
    const units = ['uTexA', 'uTexB', 'uTexC'].map((n) => at(n) as number);
    expect([...units].sort()).toEqual([0, 1, 2]);
    const bound = (unit: number, target: number) => {
      gl.activeTexture(gl.TEXTURE0 + unit);
      return gl.getParameter(target) as WebGLTexture | null;
    };
    expect(bound(units[0]!, gl.TEXTURE_BINDING_2D)).toBe(texA);
    expect(bound(units[1]!, gl.TEXTURE_BINDING_2D)).toBe(texB);
    expect(bound(units[2]!, gl.TEXTURE_BINDING_2D_ARRAY)).toBe(texC);
    expect(gl.getError()).toBe(gl.NO_ERROR);
  });
});
