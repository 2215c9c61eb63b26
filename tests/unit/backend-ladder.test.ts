// The `auto` ladder's plan (src/backend-ladder.ts planLadder) with fake rungs: the order, the reasons,
// and which rungs it probes. It stops probing at the first usable rung that no rung below can
// displace, so a page on a hardware WebGPU adapter never makes (or loads) the WebGL2 probe.
import { beforeEach, describe, expect, test } from 'vitest';
import type { BackendKind } from '../../src/backend';
import {
  clearProbeCache,
  planLadder,
  probeBackend,
  registerBackend,
  type ProbeResult,
} from '../../src/backend-ladder';

let probed: BackendKind[] = [];

let quickAsked: BackendKind[] = [];

/**
 * Registers the four rungs with these probe answers (a missing one: not available) and, for the
 * rungs in `quick`, a quick software check with that answer.
 */
function rungs(
  answers: Partial<Record<BackendKind, ProbeResult>>,
  quick: Partial<Record<BackendKind, boolean | null>> = {},
): void {
  for (const kind of ['webgpu', 'webgl2', 'webgl2-tf', 'cpu'] as const) {
    const q = quick[kind];
    registerBackend(kind, {
      probe: async () => {
        probed.push(kind);
        return answers[kind] ?? { ok: false, reason: `no ${kind} here` };
      },
      ...(q !== undefined
        ? {
            quickSoftware: async () => {
              quickAsked.push(kind);
              return q;
            },
          }
        : {}),
      create: async () => {
        throw new Error('not built in this test');
      },
    });
  }
}

const hardware = (info: string): ProbeResult => ({ ok: true, software: false, info });
const software = (info: string): ProbeResult => ({ ok: true, software: true, info });

describe('planLadder', () => {
  beforeEach(() => {
    clearProbeCache();
    probed = [];
    quickAsked = [];
  });

  test('a hardware WebGPU adapter is taken without probing any rung below it', async () => {
    rungs({ webgpu: hardware('nvidia'), webgl2: hardware('ANGLE'), cpu: hardware('cpu') });
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgpu', 'webgl2', 'webgl2-tf', 'cpu']);
    expect(plan.reasons).toEqual({});
    expect(probed).toEqual(['webgpu']);
  });

  test('a software WebGPU adapter yields to a hardware WebGL2, which is probed to know it', async () => {
    rungs({ webgpu: software('SwiftShader'), webgl2: hardware('ANGLE (NVIDIA)') });
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgl2', 'webgl2-tf', 'cpu', 'webgpu']);
    expect(plan.reasons.webgpu).toBe(
      'the WebGPU adapter is a software fallback (SwiftShader); a hardware WebGL2 (ANGLE (NVIDIA)) is preferred',
    );
    expect(probed).toEqual(['webgpu', 'webgl2']);
  });

  test('a software WebGPU adapter stays first when WebGL2 is software too', async () => {
    rungs({ webgpu: software('SwiftShader'), webgl2: software('SwiftShader') });
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgpu', 'webgl2', 'webgl2-tf', 'cpu']);
    expect(plan.reasons).toEqual({});
    expect(probed).toEqual(['webgpu', 'webgl2']);
  });

  test('without WebGPU the first usable rung is taken and the reason kept', async () => {
    rungs({ webgl2: hardware('ANGLE'), 'webgl2-tf': hardware('ANGLE') });
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgl2', 'webgl2-tf', 'cpu']);
    expect(plan.reasons).toEqual({ webgpu: 'no webgpu here' });
    expect(probed).toEqual(['webgpu', 'webgl2']);
  });

  test('a software WebGPU adapter above a WebGL2 without float targets keeps its place', async () => {
    rungs({ webgpu: software('SwiftShader'), 'webgl2-tf': hardware('ANGLE') });
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgpu', 'webgl2-tf', 'cpu']);
    expect(plan.reasons).toEqual({ webgl2: 'no webgl2 here' });
    expect(probed).toEqual(['webgpu', 'webgl2', 'webgl2-tf']);
  });

  test('a hidden rung is skipped with its reason and never probed', async () => {
    rungs({ webgpu: hardware('nvidia'), webgl2: hardware('ANGLE') });
    const plan = await planLadder(new Set(['webgpu']));
    expect(plan.order).toEqual(['webgl2', 'webgl2-tf', 'cpu']);
    expect(plan.reasons).toEqual({ webgpu: "hidden by disable: ['webgpu']" });
    expect(probed).toEqual(['webgl2']);
  });

  // Issue 27 (the first second): beside a software WebGPU adapter only WebGL2's renderer decides,
  // and its quick check (a context's renderer string) tells without the full probe.
  test('a software WebGPU adapter beside a software WebGL2 renderer: quick check only, no full probe', async () => {
    rungs({ webgpu: software('SwiftShader'), webgl2: software('SwiftShader') }, { webgl2: true });
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgpu', 'webgl2', 'webgl2-tf', 'cpu']);
    expect(plan.reasons).toEqual({});
    expect(quickAsked).toEqual(['webgl2']);
    expect(probed).toEqual(['webgpu']);
  });

  test('no WebGL2 context for the quick check: webgpu stays first, the rungs below unprobed', async () => {
    rungs({ webgpu: software('SwiftShader') }, { webgl2: null });
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgpu', 'webgl2', 'webgl2-tf', 'cpu']);
    expect(probed).toEqual(['webgpu']);
  });

  test('a hardware WebGL2 renderer by the quick check is probed in full and preferred', async () => {
    rungs(
      { webgpu: software('SwiftShader'), webgl2: hardware('ANGLE (NVIDIA)') },
      { webgl2: false },
    );
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgl2', 'webgl2-tf', 'cpu', 'webgpu']);
    expect(quickAsked).toEqual(['webgl2']);
    expect(probed).toEqual(['webgpu', 'webgl2']);
  });

  // The bench page's report makes an explicit webgl2 flock (the full probe) before an auto one: a
  // quick check then made a second context while the GPU process was busy (a 488-829 ms gap).
  test('a full WebGL2 probe already made answers instead; the quick check is made once a page', async () => {
    rungs({ webgpu: software('SwiftShader'), webgl2: software('SwiftShader') }, { webgl2: true });
    await planLadder(new Set());
    await planLadder(new Set());
    expect(quickAsked).toEqual(['webgl2']);
    clearProbeCache();
    probed = [];
    quickAsked = [];
    await probeBackend('webgl2', new Set());
    const plan = await planLadder(new Set());
    expect(plan.order).toEqual(['webgpu', 'webgl2', 'webgl2-tf', 'cpu']);
    expect(quickAsked).toEqual([]);
    expect(probed).toEqual(['webgl2', 'webgpu']);
  });

  test('the quick check is not asked beside a hardware adapter nor of a hidden rung', async () => {
    rungs({ webgpu: hardware('nvidia') }, { webgl2: true });
    await planLadder(new Set());
    rungs({ webgpu: software('SwiftShader'), 'webgl2-tf': software('x') }, { webgl2: true });
    clearProbeCache();
    const plan = await planLadder(new Set(['webgl2']));
    expect(plan.order).toEqual(['webgpu', 'webgl2-tf', 'cpu']);
    expect(quickAsked).toEqual([]);
  });
});
