/**
 * The bitonic sorting network (Batcher, "Sorting networks and their applications", 1968) as the
 * GPU passes run it: for M = 2^m elements, stages k = 2, 4, ..., M and within each j = k/2, ..., 1;
 * element i is compared with i xor j, ascending when (i & k) == 0. log2 M (log2 M + 1) / 2 passes.
 * The CPU version here is the executable form the fragment and compute passes are tested against.
 */

import { nextPow2 } from './numbers';

export { nextPow2 } from './numbers';

/** The (k, j) pairs of every pass, in order. */
export function bitonicPasses(m: number): { k: number; j: number }[] {
  const out: { k: number; j: number }[] = [];
  for (let k = 2; k <= m; k *= 2) for (let j = k / 2; j >= 1; j /= 2) out.push({ k, j });
  return out;
}

/**
 * Sorts (key, id) pairs in place by key then id with the bitonic network, one pass at a time, each
 * pass reading only the previous pass's output (as a fragment pass does). Length must be a power of two.
 */
export function bitonicSortPairs(keys: Uint32Array, ids: Uint32Array): void {
  const m = keys.length;
  if (m & (m - 1)) throw new Error(`length ${m} is not a power of two`);
  for (const { k, j } of bitonicPasses(m)) {
    const k0 = keys.slice();
    const i0 = ids.slice();
    for (let i = 0; i < m; i++) {
      const p = i ^ j;
      const ascending = (i & k) === 0;
      const lower = i < p;
      const selfLess = k0[i]! < k0[p]! || (k0[i] === k0[p] && i0[i]! < i0[p]!);
      // The lower index of an ascending pair keeps the smaller element, the upper one the larger.
      const keepSelf = lower === ascending ? selfLess : !selfLess;
      keys[i] = keepSelf ? k0[i]! : k0[p]!;
      ids[i] = keepSelf ? i0[i]! : i0[p]!;
    }
  }
}

// ---- The blocked form: several stages per fragment pass ----------------------------------------
//
// The same network (same comparisons, same order of stages) run in blocks of P = 2^p elements: a
// fragment holds P (key, id) pairs in registers (P / 2 RGBA32UI texels, one per layer of a texture
// array, written through P / 2 colour attachments) and runs up to p consecutive stages on them.
// Which index bits a fragment holds changes from pass to pass: a layout names the p index bits at
// the register positions (slot r of a block holds the element whose bit layout[rho] is bit rho of
// r; slot r lives in layer r >> 1, half r & 1 of its texel); the other index bits, in increasing
// order, form the texel index. A pass reads its P elements from the previous pass's layout
// (gathering from P texels) and runs its stages on register positions p - 1, p - 2, ... in turn,
// so the in-register code is the same in every pass. The first merges (k <= P) run inside the key
// pass; the last pass leaves the canonical layout (register bits 0..p-1: element i in texel
// i >> p, slot i & (P - 1)), which one unpack pass turns into one pair per texel.
// For M = 2^m: 1 + ceil((m (m + 1) - p (p + 1)) / (2 p)) passes besides the key pass.

/** Register bits of a block layout: layout[rho] is the index bit held at register position rho. */
export type BlockLayout = readonly number[];

/** One stage: element i is compared with i ^ (1 << bit); descending where bit dirBit of i is 1
 * (dirBit -1: the last merge, ascending everywhere). */
export interface BlockedStage {
  readonly bit: number;
  readonly dirBit: number;
}

export interface BlockedPass {
  readonly from: BlockLayout;
  readonly to: BlockLayout;
  /** Stage s runs on register position p - 1 - s of `to` (to[p - 1 - s] === stages[s].bit). */
  readonly stages: readonly BlockedStage[];
}

export interface BlockedPlan {
  /** log2 of the sorted length M' = max(M, P). */
  readonly m: number;
  /** log2 of the block size P. */
  readonly p: number;
  /** Stages of the merges k <= P, run in the key pass on the canonical layout (register position = bit). */
  readonly local: readonly BlockedStage[];
  readonly passes: readonly BlockedPass[];
}

/** The canonical layout: register position rho holds index bit rho. */
export function canonicalLayout(p: number): BlockLayout {
  return Array.from({ length: p }, (_, r) => r);
}

/**
 * The blocked plan for `elements` (a power of two) in blocks of 2^p (1 <= p <= 4); the sorted length
 * is max(elements, 2^p) (pad with sentinel keys).
 */
export function blockedPlan(elements: number, p: number): BlockedPlan {
  if (elements < 1 || elements & (elements - 1))
    throw new Error(`length ${elements} is not a power of two`);
  if (!Number.isInteger(p) || p < 1 || p > 4) throw new Error(`block log2 ${p} is not in 1..4`);
  const m = Math.max(p, Math.round(Math.log2(elements)));
  const dir = (q: number) => (q === m ? -1 : q);
  const local: BlockedStage[] = [];
  for (let q = 1; q <= p; q++)
    for (let j = q - 1; j >= 0; j--) local.push({ bit: j, dirBit: dir(q) });
  const rest: BlockedStage[] = [];
  for (let q = p + 1; q <= m; q++)
    for (let j = q - 1; j >= 0; j--) rest.push({ bit: j, dirBit: dir(q) });
  // Chunks of p stages counted from the end, so the last pass runs bits p-1..0 and leaves the
  // canonical layout; the first chunk takes the remainder.
  const passes: BlockedPass[] = [];
  let from = canonicalLayout(p);
  let at = 0;
  const first = rest.length % p || p;
  while (at < rest.length) {
    const n = passes.length === 0 ? first : p;
    const stages = rest.slice(at, at + n);
    at += n;
    const to: number[] = new Array<number>(p).fill(-1);
    stages.forEach((s, k) => (to[p - 1 - k] = s.bit));
    const used = new Set(stages.map((s) => s.bit));
    if (used.size !== stages.length) throw new Error('internal: a pass compares one bit twice');
    // Fill the positions no stage uses with bits of the previous layout (fewer texels to gather).
    const spare = [...from, ...Array.from({ length: m }, (_, b) => b)].filter((b) => !used.has(b));
    for (let rho = 0; rho < p - stages.length; rho++) {
      const b = spare.shift()!;
      used.add(b);
      to[rho] = b;
      while (spare.length && used.has(spare[0]!)) spare.shift();
    }
    passes.push({ from, to, stages });
    from = to;
  }
  return { m, p, local, passes };
}

/** Index bits of a layout's texel index, lowest texel bit first. */
export function texelBits(layout: BlockLayout, m: number): number[] {
  const reg = new Set(layout);
  return Array.from({ length: m }, (_, b) => b).filter((b) => !reg.has(b));
}

/** A move of texel-index bits of the output fragment: ((t >> src) & mask) << dst, into the input
 * texel index (toRegister false) or into the input slot (layer * 2 + half, toRegister true). */
export interface BitRun {
  readonly src: number;
  readonly mask: number;
  readonly dst: number;
  readonly toRegister: boolean;
}

/** Stage s's direction as the shader reads it: -1 ascending, 0..31 bit of the output texel index,
 * 32 + rho bit rho of the slot. */
export function dirCode(dirBit: number, to: BlockLayout, m: number): number {
  if (dirBit < 0) return -1;
  const rho = to.indexOf(dirBit);
  if (rho >= 0) return 32 + rho;
  return texelBits(to, m).indexOf(dirBit);
}

/** What the sort pass's uniforms say for one pass (src/webgl2/bitonic-sort.frag.glsl). */
export interface BlockedPassUniforms {
  /** Per output slot r: its part of the input texel index, and of the input slot. */
  readonly slotTexel: Int32Array;
  readonly slotRegister: Int32Array;
  /** The output texel index's part of the input texel index and slot; at most 3p + 1 runs. */
  readonly runs: readonly BitRun[];
  /** dirCode of each stage (length p; unused stages -1). */
  readonly dirs: Int32Array;
  readonly stages: number;
}

/** Max runs a pass needs for block log2 p (uniform array length). */
export function maxRuns(p: number): number {
  return 3 * p + 1;
}

export function blockedPassUniforms(plan: BlockedPlan, pass: BlockedPass): BlockedPassUniforms {
  const { m, p } = plan;
  const P = 1 << p;
  const inTexel = texelBits(pass.from, m);
  const outTexel = texelBits(pass.to, m);
  // Where index bit b lives in the input: [isRegister, position].
  const where = (b: number): [boolean, number] => {
    const rho = pass.from.indexOf(b);
    return rho >= 0 ? [true, rho] : [false, inTexel.indexOf(b)];
  };
  const slotTexel = new Int32Array(P);
  const slotRegister = new Int32Array(P);
  for (let r = 0; r < P; r++) {
    for (let rho = 0; rho < p; rho++) {
      if (!((r >> rho) & 1)) continue;
      const [reg, pos] = where(pass.to[rho]!);
      if (reg) slotRegister[r]! |= 1 << pos;
      else slotTexel[r]! |= 1 << pos;
    }
  }
  const runs: BitRun[] = [];
  outTexel.forEach((b, k) => {
    const [toRegister, dst] = where(b);
    const last = runs[runs.length - 1];
    const len = last ? Math.log2(last.mask + 1) : 0;
    if (last && last.toRegister === toRegister && last.src + len === k && last.dst + len === dst) {
      runs[runs.length - 1] = { ...last, mask: last.mask * 2 + 1 };
    } else {
      runs.push({ src: k, mask: 1, dst, toRegister });
    }
  });
  if (runs.length > maxRuns(p)) throw new Error(`internal: ${runs.length} runs`);
  const dirs = new Int32Array(p).fill(-1);
  pass.stages.forEach((s, k) => (dirs[k] = dirCode(s.dirBit, pass.to, m)));
  return { slotTexel, slotRegister, runs, dirs, stages: pass.stages.length };
}

/**
 * One stage on the registers of a block, as src/webgl2/bitonic-block.glsl's blockStage: slots r and
 * r | (1 << rho) compared, the lower slot keeps the smaller pair unless the direction is descending.
 * `t`: the block's output texel index (for dir codes 0..31).
 */
export function blockStage(
  keys: Uint32Array,
  ids: Uint32Array,
  rho: number,
  dir: number,
  t: number,
): void {
  const P = keys.length;
  const bit = 1 << rho;
  const baseDesc = dir >= 0 && dir < 32 && ((t >> dir) & 1) === 1;
  for (let h = 0; h < P / 2; h++) {
    const lo = ((h >> rho) << (rho + 1)) | (h & (bit - 1));
    const hi = lo | bit;
    const desc = dir >= 32 ? ((lo >> (dir - 32)) & 1) === 1 : baseDesc;
    const bLess = keys[hi]! < keys[lo]! || (keys[hi] === keys[lo] && ids[hi]! < ids[lo]!);
    if (bLess !== desc) {
      [keys[lo], keys[hi]] = [keys[hi]!, keys[lo]!];
      [ids[lo], ids[hi]] = [ids[hi]!, ids[lo]!];
    }
  }
}

/**
 * Where output texel t's slot r of a pass reads from, as the sort fragment shader computes it:
 * the storage index (input texel * 2^p + input slot) of each of its 2^p slots.
 */
export function blockedGather(u: BlockedPassUniforms, t: number, p: number): Uint32Array {
  let tDyn = 0;
  let rDyn = 0;
  for (const run of u.runs) {
    const v = ((t >> run.src) & run.mask) << run.dst;
    if (run.toRegister) rDyn |= v;
    else tDyn |= v;
  }
  const P = 1 << p;
  const at = new Uint32Array(P);
  for (let r = 0; r < P; r++) at[r] = (tDyn | u.slotTexel[r]!) * P + (rDyn | u.slotRegister[r]!);
  return at;
}

/** dirCode of a local stage (canonical layout, in the key pass). */
export function localDirCode(s: BlockedStage, p: number): number {
  if (s.dirBit < 0) return -1;
  return s.dirBit < p ? 32 + s.dirBit : s.dirBit - p;
}

/**
 * Sorts (key, id) pairs in place with the blocked plan, emulating the GPU passes exactly: the key
 * pass's local sort, then every pass gathering its blocks through blockedPassUniforms into a fresh
 * buffer. Length: a power of two >= 2^p (pad with sentinels); ids unique.
 */
export function blockedSortPairs(keys: Uint32Array, ids: Uint32Array, p: number): void {
  const M = keys.length;
  const plan = blockedPlan(M, p);
  const P = 1 << p;
  if (M < P) throw new Error(`length ${M} is below the block size ${P}`);
  const blocks = M / P;
  // Storage: element in texel t, slot r at t * P + r; starts canonical (element i at i).
  let sk = keys.slice();
  let si = ids.slice();
  const bk = new Uint32Array(P);
  const bi = new Uint32Array(P);
  for (let t = 0; t < blocks; t++) {
    bk.set(sk.subarray(t * P, t * P + P));
    bi.set(si.subarray(t * P, t * P + P));
    for (const s of plan.local) blockStage(bk, bi, s.bit, localDirCode(s, p), t);
    sk.set(bk, t * P);
    si.set(bi, t * P);
  }
  for (const pass of plan.passes) {
    const u = blockedPassUniforms(plan, pass);
    const ok = new Uint32Array(M);
    const oi = new Uint32Array(M);
    for (let t = 0; t < blocks; t++) {
      const at = blockedGather(u, t, p);
      for (let r = 0; r < P; r++) {
        bk[r] = sk[at[r]!]!;
        bi[r] = si[at[r]!]!;
      }
      for (let s = 0; s < u.stages; s++) blockStage(bk, bi, p - 1 - s, u.dirs[s]!, t);
      ok.set(bk, t * P);
      oi.set(bi, t * P);
    }
    sk = ok;
    si = oi;
  }
  keys.set(sk);
  ids.set(si);
}

/** Fragment passes of the blocked sort after the key pass (its passes and the unpack pass). */
export function blockedSortPassCount(elements: number, p: number): number {
  return blockedPlan(nextPow2(elements), p).passes.length + 1;
}
