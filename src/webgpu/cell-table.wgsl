// Cell table from sorted (cellKey, index) pairs: cellStart[c] = the first sorted index whose key
// is >= c (binary search, as the WebGL2 fragment pass does), for c in [0, cellCount]. Cell c then
// holds sorted indices [cellStart[c], cellStart[c + 1]), the same table the counting sort's scan
// gives, so one steer pass serves both sorts.
#include "common.wgsl"

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: SimParams;
@group(0) @binding(1) var<storage, read> pairs: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> cellStart: array<u32>;

@compute @workgroup_size(WG)
fn cellTable(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let c = flatIndex(wid, nwg, lid, WG);
  if (c > P.cellCount) {
    return;
  }
  var lo = 0u;
  var hi = P.count;
  while (lo < hi) {
    let mid = (lo + hi) >> 1u;
    if (pairs[mid].x < c) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  cellStart[c] = lo;
}
