/**
 * The benchmark's 'removed' variant (issue 9: "terms that are off cost nothing measurable"): the
 * steer shaders of both GPU backends with the code of every term that is off in the default flock
 * cut out, so the default flock can be timed against the same flock without that code.
 * Off in the default flock and cut here:
 * - WebGPU (src/webgpu/steer.wgsl): the species test per neighbour (isMate -> true), the
 *   obstacles' avoidance and hard constraint loops, the attractor, the predators' loop and the flow
 *   (flowAt -> 0: wind and turbulence). Since the steer pipeline is specialised for the
 *   parameters (src/core/terms.ts: the code of off terms is compiled out by override constants),
 *   this variant should time like the default flock: it checks that specialisation.
 * - WebGL2 (src/webgl2/flock-rules.glsl; species and wrap are already #defines there): the obstacles'
 *   avoidance loop and constraint, the attractor, the predators' loop and the flow.
 * The cuts find functions by signature and statements by their first words and match braces, so a
 * shader that changed elsewhere still works; one whose signatures changed throws (the bench row
 * then says so). With every term at its default the cut shaders compute the same numbers.
 * Bench-only: it swaps the sources in the backends' shader tables while a flock compiles.
 */
import { GLSL_FILES } from '../webgl2/shaders';
import { WGSL_FILES } from '../webgpu/shaders';

/** Index just past the brace that closes the one at `open` (src[open] === '{'). */
function closeOf(src: string, open: number, what: string): number {
  let depth = 0;
  for (let k = open; k < src.length; k++) {
    if (src[k] === '{') depth++;
    else if (src[k] === '}' && --depth === 0) return k + 1;
  }
  throw new Error(`shader variant: unbalanced braces after ${what}`);
}

/** [start of the body's '{', end past its '}'] of the function whose signature starts `sig`. */
function bodyOf(src: string, sig: string): [number, number] {
  const at = src.indexOf(sig);
  if (at < 0) throw new Error(`shader variant: '${sig}' not found (the shader changed)`);
  const open = src.indexOf('{', at + sig.length);
  return [open, closeOf(src, open, sig)];
}

/** The function `sig` with its body replaced by `body`. */
export function replaceBody(src: string, sig: string, body: string): string {
  const [open, end] = bodyOf(src, sig);
  return `${src.slice(0, open)}{\n  ${body}\n}${src.slice(end)}`;
}

/** The function `sig` without its statement (a block: `for (...) {...}`, `if (...) {...}`) starting `stmt`. */
export function removeStatement(src: string, sig: string, stmt: string): string {
  const [open, end] = bodyOf(src, sig);
  const at = src.indexOf(stmt, open);
  if (at < 0 || at >= end)
    throw new Error(`shader variant: '${stmt}' not found in '${sig}' (the shader changed)`);
  const blockEnd = closeOf(src, src.indexOf('{', at + stmt.length), stmt);
  let lineStart = src.lastIndexOf('\n', at) + 1;
  if (src.slice(lineStart, at).trim() !== '') lineStart = at;
  const lineEnd = src[blockEnd] === '\n' ? blockEnd + 1 : blockEnd;
  return src.slice(0, lineStart) + src.slice(lineEnd);
}

/**
 * What a cut takes out: 'all' (every off term), 'species' (only WebGPU's per-neighbour species
 * test; WebGL2 already compiles it out) or 'forces' (the obstacles, attractor, predators and the
 * flow, the species test kept).
 */
export type OffTermCut = 'all' | 'species' | 'forces';

/** steer.wgsl without the code of the terms that are off in the default flock. */
export function wgslWithoutOffTerms(src: string, cut: OffTermCut = 'all'): string {
  let s = src;
  if (cut !== 'forces') s = replaceBody(s, 'fn isMate(', 'return true;');
  if (cut === 'species') return s;
  const pf = 'fn pointForces(';
  s = removeStatement(s, pf, 'for (var k = 0u; k < obstacles');
  s = removeStatement(s, pf, 'if (attractorOn())');
  s = removeStatement(s, pf, 'for (var k = 0u; k < predators');
  s = replaceBody(s, 'fn flowAt(', 'return vec3f(0.0);');
  s = removeStatement(s, 'fn integrate(', 'for (var k = 0u; k < obstacles');
  return s;
}

/** flock-rules.glsl without the code of the terms that are off in the default flock. */
export function glslWithoutOffTerms(src: string, cut: OffTermCut = 'all'): string {
  if (cut === 'species') return src; // SPECIES is a #define there already
  const pf = 'vec3 pointForces(';
  let s = removeStatement(src, pf, 'for (int k = 0; k < int(P.obstacleCount)');
  s = removeStatement(s, pf, 'if (attractorOn())');
  s = removeStatement(s, pf, 'for (int k = 0; k < int(P.predatorCount)');
  s = replaceBody(s, 'vec3 flowAt(', 'return vec3(0.0);');
  s = replaceBody(s, 'void constrainObstacles(', '');
  return s;
}

/**
 * Runs `make` (which creates a flock and steps it once, so every program it steps with is
 * compiled) with steer.wgsl and flock-rules.glsl swapped for their cut versions, and restores
 * the originals afterwards, also when `make` throws.
 * @throws Error when a shader no longer has the functions or statements the cuts look for
 */
export async function withOffTermsRemoved<T>(
  make: () => Promise<T>,
  cut: OffTermCut = 'all',
): Promise<T> {
  const wgsl = WGSL_FILES as Record<string, string>;
  const glsl = GLSL_FILES as Record<string, string>;
  const saved = { wgsl: wgsl['steer.wgsl']!, glsl: glsl['flock-rules.glsl']! };
  const next = {
    wgsl: wgslWithoutOffTerms(saved.wgsl, cut),
    glsl: glslWithoutOffTerms(saved.glsl, cut),
  };
  wgsl['steer.wgsl'] = next.wgsl;
  glsl['flock-rules.glsl'] = next.glsl;
  try {
    return await make();
  } finally {
    wgsl['steer.wgsl'] = saved.wgsl;
    glsl['flock-rules.glsl'] = saved.glsl;
  }
}
