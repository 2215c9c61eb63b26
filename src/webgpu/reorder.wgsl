// Bitonic path: gather the boids into sorted order (sorted[s] = state[pairs[s].index], in the
// layout of sorted.wgsl, velocities guarded) so the neighbour reads of the steer pass are coherent.
#include "common.wgsl"
#include "sorted.wgsl"

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: SimParams;
@group(0) @binding(1) var<storage, read> pairs: array<vec2u>;
@group(0) @binding(2) var<storage, read> state: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> sorted: array<vec4f>;

@compute @workgroup_size(WG)
fn reorder(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let s = flatIndex(wid, nwg, lid, WG);
  if (s >= P.count) {
    return;
  }
  let src = pairs[s].y;
  sorted[sortedPosAt(s)] = state[src];
  sorted[sortedVelAt(s)] = guardedVelocity(state[P.count + src]);
}

// Brute force: the same records in state order (no sort), for the all-pairs steer pass.
@compute @workgroup_size(WG)
fn copyRecords(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) lid: u32) {
  let s = flatIndex(wid, nwg, lid, WG);
  if (s >= P.count) {
    return;
  }
  sorted[sortedPosAt(s)] = state[s];
  sorted[sortedVelAt(s)] = guardedVelocity(state[P.count + s]);
}
