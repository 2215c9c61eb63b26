// The generated std140 blocks (src/core/terms.ts -> flock-params.gen.glsl) as the WebGL2
// implementation lays them out: every member's offset and each block's size are the ones the
// generator packs (and the WebGPU struct uses), and a shader reading them back through the
// buffers FlockBlocks binds sees the packed values.
import { afterEach, describe, expect, test } from 'vitest';
import { gridFor } from '../../src/core/grid';
import { SIM_UNIFORMS, STEP_UNIFORMS } from '../../src/core/terms';
import { createProgram } from '../../src/webgl2/program';
import { GLSL_FILES } from '../../src/webgl2/shaders';
import { FlockBlocks } from '../../src/webgl2/uniforms';
import { parityParams } from '../support/compare';
import { float32Framebuffer } from '../support/gl-target';

const made: (() => void)[] = [];
afterEach(() => {
  for (const undo of made.splice(0)) undo();
});

function context(): WebGL2RenderingContext {
  const gl = document.createElement('canvas').getContext('webgl2')!;
  made.push(() => gl.getExtension('WEBGL_lose_context')?.loseContext());
  return gl;
}

/** A fragment shader that reads P.count, P.dt and S.flowPhase (so both blocks are active). */
const PROBE = [
  '#version 300 es',
  'precision highp float;',
  '#include "flock-params.gen.glsl"',
  'out vec4 outColor;',
  'void main() {',
  '  outColor = vec4(float(P.count), P.dt, S.flowPhase, P.obstacles[1].w);',
  '}',
].join('\n');

/** PROBE over a full-screen triangle, with the flock's generated blocks (3D, no wrap). */
const probeProgram = (gl: WebGL2RenderingContext) =>
  createProgram(
    gl,
    'fullscreen.vert.glsl',
    'probe.frag.glsl',
    { DIMS: 3, WRAP: 0 },
    {
      ...GLSL_FILES,
      'probe.frag.glsl': PROBE,
    },
  );

describe('generated uniform blocks on WebGL2', () => {
  test('std140 offsets and sizes as the driver reports them equal the generator', () => {
    const gl = context();
    const prog = probeProgram(gl);
    for (const layout of [SIM_UNIFORMS, STEP_UNIFORMS]) {
      const block = gl.getUniformBlockIndex(prog.program, layout.structName);
      expect(block, layout.structName).not.toBe(gl.INVALID_INDEX);
      const size = gl.getActiveUniformBlockParameter(
        prog.program,
        block,
        gl.UNIFORM_BLOCK_DATA_SIZE,
      ) as number;
      // The driver's size may stop at the last member; ours is rounded up to 16.
      expect(layout.size - size, layout.structName).toBeGreaterThanOrEqual(0);
      expect(layout.size - size, layout.structName).toBeLessThan(16);
      const names = layout.placed.map(
        (f) => `${layout.structName}.${f.name}${f.length !== undefined ? '[0]' : ''}`,
      );
      const indices = gl.getUniformIndices(prog.program, names)!;
      expect(
        indices.every((i) => i !== gl.INVALID_INDEX),
        names.join(),
      ).toBe(true);
      const offsets = gl.getActiveUniforms(prog.program, indices, gl.UNIFORM_OFFSET) as number[];
      const want = layout.placed.map((f) => layout.offsets[f.name]);
      expect(offsets).toEqual(want);
      // Arrays: a 16-byte stride.
      const arrays = layout.placed.filter((f) => f.length !== undefined);
      const strides = gl.getActiveUniforms(
        prog.program,
        gl.getUniformIndices(
          prog.program,
          arrays.map((f) => `${layout.structName}.${f.name}[0]`),
        )!,
        gl.UNIFORM_ARRAY_STRIDE,
      ) as number[];
      expect(strides).toEqual(arrays.map(() => 16));
    }
    gl.deleteProgram(prog.program);
  });

  test('a shader reads the values FlockBlocks packed and bound', () => {
    const gl = context();
    const prog = probeProgram(gl);
    const params = parityParams({
      turbulence: 1,
      timeStep: 0.0125,
      obstacles: [
        { center: [0, 0, 0], radius: 1 },
        { center: [1, 2, 3], radius: 2.5 },
      ],
    });
    const blocks = new FlockBlocks(gl);
    made.push(() => blocks.dispose());
    blocks.bind(params, gridFor(params), 7.5);
    gl.getExtension('EXT_color_buffer_float');
    float32Framebuffer(gl, 1, 1);
    gl.viewport(0, 0, 1, 1);
    gl.useProgram(prog.program);
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    const out = new Float32Array(4);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.FLOAT, out);
    // flowPhase at t = 7.5 s: 2 pi * 7.5 / 20.
    expect(Array.from(out)).toEqual([
      params.count,
      Math.fround(0.0125),
      Math.fround((2 * Math.PI * 7.5) / 20),
      2.5,
    ]);
  });
});
