// The benchmark's 'removed' variant (src/bench/shader-variants.ts): the default flock stepped by
// steer shaders without the code of the terms that are off must give the same state as the real
// shaders (so the bench times the same work), and the swap must really reach the programs (with
// obstacles on, the cut shader ignores them and the states part), on webgl2 and webgpu.
import { afterEach, describe, expect, test } from 'vitest';
import {
  glslWithoutOffTerms,
  wgslWithoutOffTerms,
  withOffTermsRemoved,
} from '../../src/bench/shader-variants';
import type { FlockParams } from '../../src/core/params';
import type { FlockState } from '../../src/core/state';
import { startCase } from '../../src/bench/measure';
import { GLSL_FILES } from '../../src/webgl2/shaders';
import { WGSL_FILES } from '../../src/webgpu/shaders';
import { createFlock, type Flock } from '../../src/index';
import { boxMaker } from '../support/browser';

// Registered first, so (hooks run as a stack) flocks are disposed before their boxes go.
const box = boxMaker();
const made: Flock[] = [];
afterEach(() => {
  for (const f of made.splice(0)) f.dispose();
});

/** The state after 10 steps of a flock made with `make` (one of the steps inside it). */
async function tenSteps(
  backend: 'webgl2' | 'webgpu',
  params: Partial<FlockParams>,
  cut: boolean,
): Promise<FlockState> {
  const make = async () => {
    const f = await createFlock(box(), { backend, autoStart: false, params });
    made.push(f);
    await f.step(1);
    await f.finish();
    return f;
  };
  const f = cut ? await withOffTermsRemoved(make) : await make();
  await f.step(9);
  return f.readState();
}

function maxDiff(a: FlockState, b: FlockState): number {
  let m = 0;
  for (let i = 0; i < a.positions.length; i++) {
    m = Math.max(m, Math.abs(a.positions[i]! - b.positions[i]!));
    m = Math.max(m, Math.abs(a.velocities[i]! - b.velocities[i]!));
  }
  return m;
}

describe('off-term code removed (bench variant)', () => {
  test('the cuts take the off terms out of both steer shaders and restore the tables', async () => {
    const w = wgslWithoutOffTerms(WGSL_FILES['steer.wgsl']!);
    const g = glslWithoutOffTerms(GLSL_FILES['flock-rules.glsl']!);
    const src = WGSL_FILES['steer.wgsl']!;
    // The uses of each term (the on/off helpers that read the uniforms stay, unused).
    const uses = [
      'P.obstacles[k]',
      'P.attractor - p',
      'S.predators[k]',
      'P.turbulence *',
      'P.wind',
    ];
    for (const name of uses)
      expect([name, src.includes(name), w.includes(name)]).toEqual([name, true, false]);
    for (const name of [
      'P.obstacleCount',
      'P.attractorStrength',
      'P.predatorCount',
      'P.turbulence',
    ])
      expect([name, GLSL_FILES['flock-rules.glsl']!.includes(name), g.includes(name)]).toEqual([
        name,
        true,
        false,
      ]);
    expect(w).toContain('P.softK');
    // The partial cuts: only the species test, or everything but it.
    const species = wgslWithoutOffTerms(src, 'species');
    const forces = wgslWithoutOffTerms(src, 'forces');
    expect(src).toContain('me.pos.w != sj');
    expect([species.includes('me.pos.w != sj'), species.includes('S.predators[k]')]).toEqual([
      false,
      true,
    ]);
    expect([forces.includes('me.pos.w != sj'), forces.includes('S.predators[k]')]).toEqual([
      true,
      false,
    ]);
    expect(g).toContain('P.softK');
    const before = [WGSL_FILES['steer.wgsl'], GLSL_FILES['flock-rules.glsl']];
    await expect(withOffTermsRemoved(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect([WGSL_FILES['steer.wgsl'], GLSL_FILES['flock-rules.glsl']]).toEqual(before);
  });

  for (const backend of ['webgl2', 'webgpu'] as const) {
    test(`${backend}: the default flock steps the same; with obstacles the cut shows`, async () => {
      // The uniform start: boids start inside the rock below (the groups start may leave it empty).
      const params = { count: 3001, seed: 7, start: 'uniform' as const };
      const plain = await tenSteps(backend, params, false);
      const cut = await tenSteps(backend, params, true);
      // Same work: the removed code only added zeros (1e-6: compilers may contract differently).
      expect(maxDiff(plain, cut)).toBeLessThanOrEqual(1e-6);
      const rock = {
        ...params,
        obstacles: [{ center: [0, 0, 0] as [number, number, number], radius: 12 }],
      };
      const withRock = await tenSteps(backend, rock, false);
      const cutRock = await tenSteps(backend, rock, true);
      // Boids start inside the rock: the real shader pushes them out, the cut one does not.
      expect(maxDiff(withRock, cutRock)).toBeGreaterThan(1);
      // The cut shader never reads the obstacles (1e-6: WebGPU's counting sort may order a
      // cell's boids differently from run to run, which changes the sums' rounding).
      expect(maxDiff(cutRock, cut)).toBeLessThanOrEqual(1e-6);
    });
  }
});

// startCase gives the rows their flock: it must be timed on the programs specialised for its params
// (compiled in the background after the first step), not on the generic ones while that compile
// runs: on SwiftShader the first row's step read 151 ms where the same row run next read 46.
describe('startCase', () => {
  for (const backend of ['webgpu', 'webgl2'] as const) {
    test(`${backend}: the case's flock runs its specialised programs when it is returned`, async () => {
      const f = await startCase({ backend, mode: 'grid', sort: 'counting', count: 3001 }, box());
      made.push(f);
      const v = f._debug!.variants!;
      // WebGPU compiles the default params' pipelines as variants (generic until then); WebGL2
      // links the first params' programs before the first step, outside the cache.
      if (backend === 'webgpu') expect(v.stats().compiles).toBeGreaterThanOrEqual(1);
      else expect(v.stats().compiles).toBe(0);
      expect(v.current).toBe(true);
    });
  }
});
