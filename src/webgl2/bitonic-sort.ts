/**
 * Pass 2, bitonic sort (Batcher, "Sorting networks and their applications", 1968) of M = 2^m
 * (key, payload) pairs, ordered by key, then payload: with unique payloads the result is total and
 * deterministic. Pad to a power of two with key 0xFFFFFFFF (sorts last).
 * The network runs in blocks of P = 2^p pairs (src/core/bitonic.ts, "the blocked form", tested on
 * arrays there): the key pass writes sorted blocks (the merges k <= P), then each pass here runs up
 * to p stages in registers, gathering its block from the previous pass's layout; the unpack pass
 * writes one pair per RG32UI texel. 1 + ceil((m (m + 1) - p (p + 1)) / (2 p)) passes instead of
 * m (m + 1) / 2 with one pass per stage (GPU Gems 2 ch. 46, Kipfer and Westermann).
 * On SwiftShader a pass costs about one texel fetch per element, whatever its stage count, so
 * fewer passes are faster (measured: see README's performance section).
 */
import { blockedPassUniforms, blockedPlan, maxRuns, type BlockedPlan } from '../core/bitonic';
import type { PassEnv } from './pass-env';
import type { GLProgram, ProgramSpec } from './program';
import {
  createArrayTarget,
  createTarget,
  deleteTarget,
  drawPass,
  powerOfTwoLayout,
  type Target,
} from './textures';

/** The targets of one sort size: two block arrays (ping-pong) and the unpacked output. */
export interface SortTargets {
  /** log2 of the block size P (pairs a fragment holds). */
  readonly blockLog2: number;
  readonly plan: BlockedPlan;
  /** RGBA32UI arrays of P / 2 layers, max(M, P) / P texels each; blocks[0] is the key pass's output. */
  readonly blocks: readonly [Target, Target];
  /** RG32UI, one (key, payload) pair per texel in index order (powerOfTwoLayout(count)). */
  readonly sorted: Target;
  /** Each pass's uniforms (blockedPassUniforms, runs flattened to ivec4s). */
  readonly passUniforms: readonly PassUniforms[];
}

interface PassUniforms {
  readonly uniforms: {
    readonly uSlotTexel: Int32Array;
    readonly uSlotRegister: Int32Array;
    readonly uRuns: Int32Array;
    readonly uDir: Int32Array;
  };
  /** The pass's stage count: the STAGES define of its program. */
  readonly stages: number;
}

function passUniforms(plan: BlockedPlan): PassUniforms[] {
  return plan.passes.map((pass) => {
    const u = blockedPassUniforms(plan, pass);
    const runs = new Int32Array(4 * maxRuns(plan.p));
    u.runs.forEach((r, k) => runs.set([r.src, r.mask, r.dst, r.toRegister ? 1 : 0], 4 * k));
    return {
      uniforms: {
        uSlotTexel: u.slotTexel,
        uSlotRegister: u.slotRegister,
        uRuns: runs,
        uDir: u.dirs,
      },
      stages: u.stages,
    };
  });
}

/**
 * The largest block the context can write in one pass: 16 pairs with 8 draw buffers, 8 with the
 * 4 every WebGL2 context has.
 */
export function blockLog2For(gl: WebGL2RenderingContext): number {
  const draw = Math.min(
    gl.getParameter(gl.MAX_DRAW_BUFFERS) as number,
    gl.getParameter(gl.MAX_COLOR_ATTACHMENTS) as number,
  );
  return draw >= 8 ? 4 : 3;
}

/**
 * Sort targets for `count` elements (M = nextPow2(count)) in blocks of 2^blockLog2.
 * @throws Error naming the target that is not renderable. The caller owns the result (deleteSortTargets).
 */
export function createSortTargets(
  gl: WebGL2RenderingContext,
  count: number,
  blockLog2 = blockLog2For(gl),
): SortTargets {
  const out = powerOfTwoLayout(count);
  const plan = blockedPlan(out.texels, blockLog2);
  const blockLayout = powerOfTwoLayout(2 ** (plan.m - blockLog2));
  const layers = 2 ** (blockLog2 - 1);
  const made: Target[] = [];
  try {
    made.push(createArrayTarget(gl, blockLayout, layers, gl.RGBA32UI, 'sort blocks A'));
    made.push(createArrayTarget(gl, blockLayout, layers, gl.RGBA32UI, 'sort blocks B'));
    made.push(createTarget(gl, out, [gl.RG32UI], 'sorted keys'));
  } catch (e) {
    made.forEach((t) => deleteTarget(gl, t));
    throw e;
  }
  return {
    blockLog2,
    plan,
    blocks: [made[0]!, made[1]!],
    sorted: made[2]!,
    passUniforms: passUniforms(plan),
  };
}

export function deleteSortTargets(
  gl: WebGL2RenderingContext,
  s: SortTargets | null | undefined,
): void {
  if (!s) return;
  for (const t of [...s.blocks, s.sorted]) deleteTarget(gl, t);
}

/** Fragment passes runBitonicSort draws (the plan's passes and the unpack). */
export function sortPassCount(s: SortTargets): number {
  return s.plan.passes.length + 1;
}

/** Direction code of the key pass's last local merge (size P): -1 when it is the whole sort. */
export function lastLocalDir(s: SortTargets): number {
  return s.plan.m === s.blockLog2 ? -1 : 0;
}

/** The sort pass program for passes of `stages` stages (1..blockLog2), compiled on first use. */
function sortProgram(env: PassEnv, s: SortTargets, stages: number): GLProgram {
  return env.programs.get('fullscreen.vert.glsl', 'bitonic-sort.frag.glsl', {
    BLOCK_LOG2: s.blockLog2,
    STAGES: stages,
  });
}

/** Every program runBitonicSort uses for `s` (to build them before the first step). */
export function sortProgramSpecs(s: SortTargets): ProgramSpec[] {
  const stages = [...new Set(s.passUniforms.map((u) => u.stages))];
  return [
    ...stages.map((n) => ({
      vert: 'fullscreen.vert.glsl',
      frag: 'bitonic-sort.frag.glsl',
      defines: { BLOCK_LOG2: s.blockLog2, STAGES: n },
    })),
    {
      vert: 'fullscreen.vert.glsl',
      frag: 'bitonic-unpack.frag.glsl',
      defines: { BLOCK_LOG2: s.blockLog2 },
    },
  ];
}

/**
 * Runs the sort passes on the blocks the key pass wrote into `s.blocks[0]`; returns the block
 * array that holds the sorted pairs in the canonical layout (element i in texel i >> blockLog2,
 * layer (i & (P - 1)) >> 1, half i & 1), for runUnpack or a pass that unpacks as it reads.
 */
export function runSortPasses(env: PassEnv, s: SortTargets): Target {
  let src = s.blocks[0];
  let dst = s.blocks[1];
  for (const u of s.passUniforms) {
    drawPass(env.gl, env.vao, dst, sortProgram(env, s, u.stages), {
      ...u.uniforms,
      uBlocks: src.textures[0],
      uShift: src.layout.shift,
    });
    [src, dst] = [dst, src];
  }
  return src;
}

/** The sorted `blocks` (runSortPasses) -> `s.sorted` (returned), one pair per texel. */
export function runUnpack(env: PassEnv, s: SortTargets, blocks: Target): Target {
  const unpack = env.programs.get('fullscreen.vert.glsl', 'bitonic-unpack.frag.glsl', {
    BLOCK_LOG2: s.blockLog2,
  });
  drawPass(env.gl, env.vao, s.sorted, unpack, {
    uBlocks: blocks.textures[0],
    uBlockShift: blocks.layout.shift,
    uShift: s.sorted.layout.shift,
  });
  return s.sorted;
}

/**
 * Sorts the blocks the key pass wrote into `s.blocks[0]` and unpacks them into `s.sorted`
 * (returned): elements [0, M) of it are the sorted pairs.
 */
export function runBitonicSort(env: PassEnv, s: SortTargets): Target {
  return runUnpack(env, s, runSortPasses(env, s));
}
