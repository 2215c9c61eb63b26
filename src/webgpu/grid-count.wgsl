// Counting sort, part 1 (DESIGN section 3, WebGPU path): clear the per-cell counts, then count
// boids per cell with atomics. Each boid keeps (cellKey, rank within its cell) so the scatter
// needs no second atomic and the scanned counts stay intact as the cell table.
#include "common.wgsl"

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: SimParams;
@group(0) @binding(1) var<storage, read> state: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> keyRank: array<vec2u>;

// counts has cellCount + 1 entries: the extra one scans to the total (the last cell's end).
@compute @workgroup_size(WG)
fn clearCounts(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) lid: u32) {
  let c = flatIndex(wid, nwg, lid, WG);
  if (c > P.cellCount) {
    return;
  }
  atomicStore(&counts[c], 0u);
}

@compute @workgroup_size(WG)
fn countCells(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let i = flatIndex(wid, nwg, lid, WG);
  if (i >= P.count) {
    return;
  }
  let key = cellKey(state[i].xyz);
  let rank = atomicAdd(&counts[key], 1u);
  keyRank[i] = vec2u(key, rank);
}
