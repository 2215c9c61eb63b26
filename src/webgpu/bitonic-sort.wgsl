// Bitonic sort of (cellKey, index) pairs, the same network as the WebGL2 path, so the two APIs can
// be compared on one algorithm. The array is padded to a power of two (at least one local block)
// with NO_KEY sentinels, which sort last. Formulation without direction bits ("flip" then
// "disperse" half-cleaners, as webgpu-samples' bitonicSort): stages whose height fits in a block
// of 2*WG pairs run in workgroup memory, larger heights one global dispatch each.
#include "common.wgsl"
#include "sort-stage.gen.wgsl"

override WG: u32 = 256u;
// Fixed-size workgroup array (no override-sized arrays): 2*WG must be <= MAX_BLOCK.
const MAX_BLOCK: u32 = 512u;

@group(0) @binding(0) var<uniform> P: SimParams;
@group(0) @binding(1) var<storage, read_write> pairs: array<vec2u>;
@group(0) @binding(2) var<storage, read> state: array<vec4f>;
@group(1) @binding(0) var<uniform> S: SortStage;

var<workgroup> block: array<vec2u, MAX_BLOCK>;

fn pairLess(a: vec2u, b: vec2u) -> bool {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

// Key pass: pair i is (cellKey of boid record i, i); the padding is (NO_KEY, NO_KEY).
@compute @workgroup_size(WG)
fn makeKeys(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  if (i >= P.sortSize) {
    return;
  }
  if (i < P.count) {
    pairs[i] = vec2u(cellKey(state[i].xyz), i);
  } else {
    pairs[i] = vec2u(NO_KEY, NO_KEY);
  }
}

fn localCompare(a: u32, b: u32) {
  let x = block[a];
  let y = block[b];
  if (pairLess(y, x)) {
    block[a] = y;
    block[b] = x;
  }
}

// Lane t of a stage of height h compares (t / (h/2)) * h + t % (h/2) with its partner.
fn stageBase(t: u32, h: u32) -> u32 {
  let half = h >> 1u;
  return (t / half) * h + (t % half);
}

fn localFlip(lid: u32, h: u32) {
  let half = h >> 1u;
  let first = (lid / half) * h;
  let off = lid % half;
  localCompare(first + off, first + h - 1u - off);
}

fn localDisperse(lid: u32, h: u32) {
  let i = stageBase(lid, h);
  localCompare(i, i + (h >> 1u));
}

fn loadBlock(base: u32, lid: u32) {
  block[lid] = pairs[base + lid];
  block[lid + WG] = pairs[base + lid + WG];
  workgroupBarrier();
}

fn storeBlock(base: u32, lid: u32) {
  workgroupBarrier();
  pairs[base + lid] = block[lid];
  pairs[base + lid + WG] = block[lid + WG];
}

// Sorts each block of 2*WG pairs completely (every height up to the block).
@compute @workgroup_size(WG)
fn localSort(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let base = (wid.y * nwg.x + wid.x) * 2u * WG;
  // Workgroup-uniform: whole surplus workgroups of a 2D dispatch leave together.
  if (base >= P.sortSize) {
    return;
  }
  loadBlock(base, lid);
  for (var h = 2u; h <= 2u * WG; h <<= 1u) {
    localFlip(lid, h);
    workgroupBarrier();
    for (var d = h >> 1u; d >= 2u; d >>= 1u) {
      localDisperse(lid, d);
      workgroupBarrier();
    }
  }
  storeBlock(base, lid);
}

// The tail of a large stage: disperse heights 2*WG down to 2 inside each block.
@compute @workgroup_size(WG)
fn localDisperseAll(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                    @builtin(local_invocation_index) lid: u32) {
  let base = (wid.y * nwg.x + wid.x) * 2u * WG;
  if (base >= P.sortSize) {
    return;
  }
  loadBlock(base, lid);
  for (var d = 2u * WG; d >= 2u; d >>= 1u) {
    localDisperse(lid, d);
    workgroupBarrier();
  }
  storeBlock(base, lid);
}

fn globalCompare(a: u32, b: u32) {
  let x = pairs[a];
  let y = pairs[b];
  if (pairLess(y, x)) {
    pairs[a] = y;
    pairs[b] = x;
  }
}

@compute @workgroup_size(WG)
fn globalFlip(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let t = flatIndex(wid, nwg, lid, WG);
  if (t >= P.sortSize / 2u) {
    return;
  }
  let h = S.height;
  let half = h >> 1u;
  let first = (t / half) * h;
  let off = t % half;
  globalCompare(first + off, first + h - 1u - off);
}

@compute @workgroup_size(WG)
fn globalDisperse(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  let t = flatIndex(wid, nwg, lid, WG);
  if (t >= P.sortSize / 2u) {
    return;
  }
  let i = stageBase(t, S.height);
  globalCompare(i, i + (S.height >> 1u));
}
