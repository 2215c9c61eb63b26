// Uniform layouts come from one field list (src/core/uniform-layout.ts; the simulation's from the
// term table, src/core/terms.ts): offsets checked against std140/WGSL rules worked by hand, and,
// on a GPU, a shader generated from the same list reads back exactly the values the TypeScript
// packing wrote.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gridFor } from '../../src/core/grid';
import { createCheckedModule } from '../../src/webgpu/shaders';
import { RENDER_UNIFORMS, SORT_STAGE_UNIFORMS, defineUniforms } from '../../src/webgpu/uniforms';
import { SIM_UNIFORMS, STEP_UNIFORMS, TERMS, simParamsWgsl } from '../../src/core/terms';
import type { DawnDevice } from '../../src/webgpu/node-dawn';
import { parityParams } from '../support/compare';
import { deviceOrSkip } from './dawn';
import { useGpuErrorScopes } from '../support/gpu-error-scopes';

/** Size and alignment by hand from std140 (GLSL ES 3.00 2.12.6.4) and WGSL's uniform rules. */
const RULES: Record<string, { size: number; align: number }> = {
  f32: { size: 4, align: 4 },
  u32: { size: 4, align: 4 },
  i32: { size: 4, align: 4 },
  vec2f: { size: 8, align: 8 },
  vec3f: { size: 12, align: 16 },
  vec3u: { size: 12, align: 16 },
  vec4f: { size: 16, align: 16 },
  mat4x4f: { size: 64, align: 16 },
};

/**
 * Checks a layout against the rules: every field at a multiple of its alignment, no two fields
 * overlapping, arrays of vec4 with a 16-byte stride, the size a multiple of 16 holding them all,
 * and no hole that a later 4-byte scalar could have filled (the generator's packing promise).
 */
function expectStd140(layout: {
  offsets: Readonly<Record<string, number>>;
  placed: readonly { name: string; type: string; length?: number }[];
  size: number;
}): void {
  let end = 0;
  const spans: [number, number, string][] = [];
  for (const f of layout.placed) {
    const rule = RULES[f.type]!;
    const at = layout.offsets[f.name]!;
    expect(at % rule.align, f.name).toBe(0);
    expect(at, `${f.name} after the previous field`).toBeGreaterThanOrEqual(end);
    if (at > end) {
      // A hole: only before an alignment boundary, and no scalar placed later fits in it.
      expect(at - end, `hole before ${f.name}`).toBeLessThan(rule.align);
      const later = layout.placed.filter(
        (g) => layout.offsets[g.name]! > at && RULES[g.type]!.size === 4 && g.length === undefined,
      );
      expect(
        later.map((g) => g.name),
        `scalars that could fill the hole before ${f.name}`,
      ).toEqual([]);
    }
    end = at + rule.size * (f.length ?? 1);
    spans.push([at, end, f.name]);
  }
  expect(layout.size % 16).toBe(0);
  expect(layout.size).toBeGreaterThanOrEqual(end);
  expect(layout.size - end).toBeLessThan(16);
}

describe('uniform layouts (no GPU)', () => {
  test('std140/WGSL by hand: vec3 aligned to 16, a scalar fills its tail, vec4 arrays stride 16', () => {
    const L = defineUniforms<Record<string, never>>('T', [
      { name: 'b', type: 'vec3f', value: () => [1, 2, 3] },
      { name: 'c', type: 'vec3f', value: () => [4, 5, 6] },
      { name: 'a', type: 'f32', value: () => 1 },
      { name: 'd', type: 'vec2f', value: () => [5, 6] },
      { name: 'e', type: 'mat4x4f', value: () => new Float32Array(16) },
      { name: 'g', type: 'vec4f', length: 3, value: () => new Float32Array(12) },
      { name: 'f', type: 'i32', value: () => -7 },
    ]);
    // b 0..12, and c needs 16: the scalar a fills 12..16; c 16..28, and d (vec2, 8) needs 32:
    // f fills 28..32; d 32..40, e (mat4: 4 columns of vec4) needs 48, no scalar is left: a hole
    // 40..48; e 48..112; g 112..160 (stride 16); size 160.
    expect(L.offsets).toEqual({ b: 0, a: 12, c: 16, f: 28, d: 32, e: 48, g: 112 });
    expect(L.size).toBe(160);
    expect(L.wgsl).toContain('  c: vec3f, // offset 16');
    expect(L.wgsl).toContain('  g: array<vec4f, 3>, // offset 112');
    const glsl = L.glsl('T_');
    expect(glsl).toContain('layout(std140) uniform T {');
    expect(glsl).toContain('  highp vec3 c; // offset 16');
    expect(glsl).toContain('  highp int f; // offset 28');
    expect(glsl).toContain('  highp vec4 g[3]; // offset 112');
    expect(glsl).toContain('  highp mat4 e; // offset 48');
    expect(glsl).toContain('} T_;');
    const dv = new DataView(L.pack({}));
    expect(dv.getFloat32(0, true)).toBe(1);
    expect(dv.getFloat32(12, true)).toBe(1);
    expect(dv.getFloat32(24, true)).toBe(6);
    expect(dv.getInt32(28, true)).toBe(-7);
  });
  test('SimParams, StepParams, SortStage and RenderParams keep the rules', () => {
    for (const L of [SIM_UNIFORMS, STEP_UNIFORMS, SORT_STAGE_UNIFORMS, RENDER_UNIFORMS])
      expectStd140(L);
    // Every field of the term table is in SimParams or StepParams, once.
    const names = TERMS.flatMap((t) => [...t.uniforms, ...(t.perStep ?? [])].map((f) => f.name));
    expect(new Set(names).size).toBe(names.length);
    expect(
      [...Object.keys(SIM_UNIFORMS.offsets), ...Object.keys(STEP_UNIFORMS.offsets)].sort(),
    ).toEqual([...names].sort());
    expect(SIM_UNIFORMS.wgsl).toContain(
      `  obstacles: array<vec4f, 16>, // offset ${SIM_UNIFORMS.offsets.obstacles}`,
    );
  });

  test('rejects wrong component counts, duplicate names and arrays of scalars', () => {
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
    expect(() =>
      defineUniforms('A', [{ name: 'x', type: 'f32', length: 4, value: () => [0, 0, 0, 0] }]),
    ).toThrow(/arrays only/);
  });
});

describe('uniform layouts on the GPU', () => {
  let dawn: DawnDevice | null = null;
  beforeAll(async () => {
    dawn = await deviceOrSkip();
  });
  afterAll(() => dawn?.close());
  useGpuErrorScopes(() => [dawn?.device]);

  test('a shader reading SimParams sees every value the host packed', async (ctx) => {
    if (!dawn) return ctx.skip();
    const device = dawn.device;
    const params = parityParams({ boundary: 'wrap', dimensions: 3, timeStep: 0.0125 });
    const src = { params, grid: gridFor(params), sortSize: 8192 };
    // Every scalar component of every field but the arrays, in placed order, as u32 bits.
    const components: Record<string, number> = { vec3f: 3, vec3u: 3, vec2f: 2 };
    const fields = SIM_UNIFORMS.placed
      .filter((f) => f.length === undefined)
      .map((f) => [f.name, components[f.type] ?? 1] as const);
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
      'sim-params.gen.wgsl': simParamsWgsl(),
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
    const f32At = (name: string) => {
      const at = fields.findIndex(([n]) => n === name);
      let c = 0;
      for (const [, n] of fields.slice(0, at)) c += n;
      return got[c]!;
    };
    expect(new Float32Array(new Uint32Array([f32At('boundsMin')]).buffer)[0]).toBe(-10);
    expect(f32At('count')).toBe(5000);
    expect(new Float32Array(new Uint32Array([f32At('dt')]).buffer)[0]).toBeCloseTo(0.0125, 7);
  });
});
