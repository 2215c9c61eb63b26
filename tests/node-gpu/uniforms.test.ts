// Uniform layouts come from one field list (src/webgpu/uniforms.ts): WGSL offsets by hand-worked
// alignment rules, and, on a GPU, a shader generated from the same list reads back exactly the
// values the TypeScript packing wrote.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gridFor } from '../../src/core/grid';
import { createCheckedModule } from '../../src/webgpu/shaders';
import {
  RENDER_UNIFORMS,
  SIM_UNIFORMS,
  SORT_STAGE_UNIFORMS,
  STEP_UNIFORMS,
  defineUniforms,
} from '../../src/webgpu/uniforms';
import type { DawnDevice } from '../../src/webgpu/node-dawn';
import { parityParams } from '../support/compare';
import { deviceOrSkip } from './dawn';

describe('uniform layouts (no GPU)', () => {
  test('WGSL alignment: vec3 takes 16-byte alignment and a scalar fills its tail', () => {
    const L = defineUniforms<Record<string, never>>('T', [
      { name: 'a', type: 'f32', value: () => 1 },
      { name: 'b', type: 'vec3f', value: () => [1, 2, 3] },
      { name: 'c', type: 'u32', value: () => 4 },
      { name: 'd', type: 'vec2f', value: () => [5, 6] },
      { name: 'e', type: 'mat4x4f', value: () => new Float32Array(16) },
      { name: 'f', type: 'i32', value: () => -7 },
    ]);
    expect(L.offsets).toEqual({ a: 0, b: 16, c: 28, d: 32, e: 48, f: 112 });
    expect(L.size).toBe(128);
    expect(L.wgsl).toContain('  b: vec3f, // offset 16');
    const dv = new DataView(L.pack({}));
    expect(dv.getFloat32(16, true)).toBe(1);
    expect(dv.getFloat32(24, true)).toBe(3);
    expect(dv.getUint32(28, true)).toBe(4);
    expect(dv.getInt32(112, true)).toBe(-7);
  });

  test('SimParams, SortStage and RenderParams offsets', () => {
    expect(SIM_UNIFORMS.offsets).toMatchObject({
      boundsMin: 0,
      count: 12,
      boundsMax: 16,
      cellCount: 28,
      boxSize: 32,
      dimensions: 44,
      cellSize: 48,
      wrap: 60,
      dims: 64,
      sortSize: 76,
      r2: 80,
      eps2: 84,
      separationWeight: 88,
      dt: 112,
      rs2: 116,
      reynolds: 120,
      soft: 124,
      species: 128,
      softLo: 144,
      softK: 156,
      softHi: 160,
      obstacleCount: 172,
      attractor: 176,
      attractorStrength: 188,
      wind: 192,
      turbulence: 204,
      turbulenceK: 232,
      obstacles: 240,
    });
    // 16 obstacles of vec4f: 256 bytes from offset 240.
    expect(SIM_UNIFORMS.size).toBe(496);
    expect(SIM_UNIFORMS.wgsl).toContain('  obstacles: array<vec4f, 16>, // offset 240');
    expect(STEP_UNIFORMS.offsets).toEqual({ predators: 0, flowPhase: 128 });
    expect(STEP_UNIFORMS.size).toBe(144);
    expect(SORT_STAGE_UNIFORMS.size).toBe(16);
    // Worked by hand from WGSL's rules: a vec3f takes 12 bytes at a 16-byte boundary, so each
    // scalar after one fills its tail; arrays of vec4f have a 16-byte stride.
    expect(RENDER_UNIFORMS.offsets).toEqual({
      viewProj: 0,
      eye: 64,
      boidSize: 76,
      right: 80,
      minSpeed: 92,
      up: 96,
      maxSpeed: 108,
      forward: 112,
      dimensions: 124,
      color: 128,
      colorMode: 140,
      boundsMin: 144,
      densityMax: 156,
      boundsMax: 160,
      predatorSize: 172,
      attractor: 176,
      markerColor: 192,
      obstacleColor: 208,
      predatorColor: 224,
      boundsColor: 240,
      table: 256,
      obstacles: 256 + 64 * 16,
      predators: 256 + 80 * 16,
    });
    expect(RENDER_UNIFORMS.size).toBe(256 + 96 * 16);
  });

  test('rejects wrong component counts and duplicate names', () => {
    const bad = defineUniforms<Record<string, never>>('B', [
      { name: 'v', type: 'vec3f', value: () => [1, 2] },
    ]);
    expect(() => bad.pack({})).toThrow(/3 component/);
    expect(() =>
      defineUniforms('D', [
        { name: 'x', type: 'f32', value: () => 0 },
        { name: 'x', type: 'u32', value: () => 0 },
      ]),
    ).toThrow(/duplicate/);
  });
});

describe('uniform layouts on the GPU', () => {
  let dawn: DawnDevice | null = null;
  beforeAll(async () => {
    dawn = await deviceOrSkip();
  });
  afterAll(() => dawn?.close());

  test('a shader reading SimParams sees every value the host packed', async (ctx) => {
    if (!dawn) return ctx.skip();
    const device = dawn.device;
    const params = parityParams({ boundary: 'wrap', dimensions: 3, timeStep: 0.0125 });
    const src = { params, grid: gridFor(params), sortSize: 8192 };
    // Every scalar component, in field order, as u32 bits.
    const fields = [
      ['boundsMin', 3],
      ['count', 1],
      ['boundsMax', 3],
      ['cellCount', 1],
      ['boxSize', 3],
      ['dimensions', 1],
      ['cellSize', 3],
      ['wrap', 1],
      ['dims', 3],
      ['sortSize', 1],
      ['r2', 1],
      ['eps2', 1],
      ['separationWeight', 1],
      ['alignmentWeight', 1],
      ['cohesionWeight', 1],
      ['maxSpeed', 1],
      ['minSpeed', 1],
      ['maxSteerForce', 1],
      ['dt', 1],
    ] as const;
    const lines: string[] = [];
    let k = 0;
    for (const [name, n] of fields) {
      for (let c = 0; c < n; c++) {
        const expr = n === 1 ? `P.${name}` : `P.${name}[${c}]`;
        lines.push(`  out[${k++}] = bitcast<u32>(${expr});`);
      }
    }
    const code = `#include "sim-params.gen.wgsl"
@group(0) @binding(0) var<uniform> P: SimParams;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
${lines.join('\n')}
}`;
    const module = await createCheckedModule(device, 'probe.wgsl', {
      'probe.wgsl': code,
      'sim-params.gen.wgsl': SIM_UNIFORMS.wgsl,
    });
    const packed = SIM_UNIFORMS.pack(src);
    const ubuf = device.createBuffer({ size: SIM_UNIFORMS.size, usage: 0x40 | 0x8 });
    device.queue.writeBuffer(ubuf, 0, packed);
    const obuf = device.createBuffer({ size: k * 4, usage: 0x80 | 0x4 });
    const rbuf = device.createBuffer({ size: k * 4, usage: 0x1 | 0x8 });
    const pipeline = device.createComputePipeline({
      layout: 'auto',
      compute: { module, entryPoint: 'main' },
    });
    const bg = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: ubuf } },
        { binding: 1, resource: { buffer: obuf } },
      ],
    });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(1);
    pass.end();
    enc.copyBufferToBuffer(obuf, 0, rbuf, 0, k * 4);
    device.queue.submit([enc.finish()]);
    await rbuf.mapAsync(1);
    const got = new Uint32Array(rbuf.getMappedRange().slice(0));
    rbuf.unmap();
    [ubuf, obuf, rbuf].forEach((b) => b.destroy());
    // Expected: the packed bytes at each field's offset, component by component.
    const view = new DataView(packed);
    const want: number[] = [];
    for (const [name, n] of fields) {
      for (let c = 0; c < n; c++)
        want.push(view.getUint32(SIM_UNIFORMS.offsets[name]! + 4 * c, true));
    }
    expect(Array.from(got)).toEqual(want);
    // And the values are the parameters themselves (not zeros).
    expect(new Float32Array(new Uint32Array([got[0]!]).buffer)[0]).toBe(-10);
    expect(got[3]).toBe(5000);
    expect(new Float32Array(new Uint32Array([got[k - 1]!]).buffer)[0]).toBeCloseTo(0.0125, 7);
  });
});
