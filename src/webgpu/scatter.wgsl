// Counting sort, part 3: move each boid (position and guarded velocity, sorted.wgsl) to its
// sorted slot, scan[key] + rank. The input is
// usually the previous step's sorted output, so reads and writes stay nearly coalesced.
#include "common.wgsl"
#include "sorted.wgsl"

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: SimParams;
@group(0) @binding(1) var<storage, read> state: array<vec4f>;
@group(0) @binding(2) var<storage, read> cellStart: array<u32>;
@group(0) @binding(3) var<storage, read> keyRank: array<vec2u>;
@group(0) @binding(4) var<storage, read_write> sorted: array<vec4f>;

@compute @workgroup_size(WG)
fn scatter(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  if (i >= P.count) {
    return;
  }
  let kr = keyRank[i];
  let dst = cellStart[kr.x] + kr.y;
  sorted[sortedPosAt(dst)] = state[i];
  sorted[sortedVelAt(dst)] = guardedVelocity(state[P.count + i]);
}

// Test hook: the cell key of every reordered boid (must come out sorted).
@group(0) @binding(5) var<storage, read_write> keysOut: array<u32>;

@compute @workgroup_size(WG)
fn sortedKeys(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  if (i >= P.count) {
    return;
  }
  keysOut[i] = cellKey(sorted[sortedPosAt(i)].xyz);
}
