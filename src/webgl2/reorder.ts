/**
 * Pass 4, reorder, with the bitonic sort's unpack folded in (texture path): element s reads its
 * sorted (key, payload) pair from the sorted blocks, writes it to the sorted keys' target and
 * takes position and velocity of element payload(s), so a cell's boids are adjacent and the steer
 * pass reads them coherently. Saves the unpack pass (its draw and one read and write per element).
 */
import type { SortTargets } from './bitonic-sort';
import type { PassEnv } from './pass-env';
import type { ProgramSpec } from './program';
import { drawPass, framebufferOf, rowsFor, type Target } from './textures';

/** What the reorder program for blocks of 2^blockLog2 pairs is made from. */
export function reorderSpec(blockLog2: number): ProgramSpec {
  return {
    vert: 'fullscreen.vert.glsl',
    frag: 'reorder.frag.glsl',
    defines: { BLOCK_LOG2: blockLog2 },
  };
}

/** The reorder program for blocks of 2^blockLog2 pairs. */
export function reorderProgram(env: PassEnv, blockLog2: number) {
  const s = reorderSpec(blockLog2);
  return env.programs.get(s.vert, s.frag, s.defines);
}

/**
 * A framebuffer over `state`'s three textures (RGBA32F position, velocity, R32F |N_i|) and
 * `sorted`'s RG32UI texture (same layout), as COLOR_ATTACHMENT0..3: what the reorder pass writes.
 * Owns only its framebuffer (deleteReorderTarget). @throws Error when it is not renderable.
 */
export function createReorderTarget(
  gl: WebGL2RenderingContext,
  state: Target,
  sorted: Target,
  label: string,
): Target {
  const textures = [...state.textures, sorted.textures[0]!];
  const shape = `reorder ${label} ${state.layout.width}x${state.layout.height} ${sorted.layout.width}x${sorted.layout.height}`;
  const { fbo, status } = framebufferOf(gl, textures, shape);
  if (status !== gl.FRAMEBUFFER_COMPLETE && !gl.isContextLost()) {
    gl.deleteFramebuffer(fbo);
    throw new Error(`${label}: framebuffer incomplete (0x${status.toString(16)})`);
  }
  return { fbo, textures, layout: state.layout };
}

/** Deletes a reorder target's framebuffer (its textures belong to the state and the sort). */
export function deleteReorderTarget(
  gl: WebGL2RenderingContext,
  t: Target | null | undefined,
): void {
  if (t) gl.deleteFramebuffer(t.fbo);
}

/**
 * `state` (RGBA32F positions, velocities) -> `out` (createReorderTarget over the scratch state and
 * `sort.sorted`) in the order of the sorted `blocks` (runSortPasses), elements [0, count).
 */
export function runReorder(
  env: PassEnv,
  state: Target,
  sort: SortTargets,
  blocks: Target,
  count: number,
  out: Target,
): void {
  drawPass(
    env.gl,
    env.vao,
    out,
    reorderProgram(env, sort.blockLog2),
    {
      uPos: state.textures[0],
      uVel: state.textures[1],
      uBlocks: blocks.textures[0],
      uBlockShift: blocks.layout.shift,
      uShift: out.layout.shift,
      uCount: count,
    },
    rowsFor(out.layout, count),
  );
}
