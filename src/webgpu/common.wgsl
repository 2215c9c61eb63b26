// Shared by every compute pass: the boid record, the simulation uniforms, the flat invocation
// index of a 2D dispatch, and the grid math of src/core/grid.ts (cellCoord clamps into the grid).
#include "sim-params.gen.wgsl"
#include "boid.wgsl"

const NO_KEY: u32 = 0xffffffffu;

// Workgroups are dispatched as a 2D grid when one dimension would exceed
// maxComputeWorkgroupsPerDimension: flatten (workgroup, lane) into one index.
fn flatIndex(wid: vec3u, nwg: vec3u, lid: u32, wgSize: u32) -> u32 {
  return (wid.y * nwg.x + wid.x) * wgSize + lid;
}

fn cellCoord(x: f32, lo: f32, size: f32, dim: u32) -> u32 {
  let c = floor((x - lo) / size);
  return u32(clamp(c, 0.0, f32(dim - 1u)));
}

fn cellOf(p: vec3f) -> vec3u {
  let cx = cellCoord(p.x, P.boundsMin.x, P.cellSize.x, P.dims.x);
  let cy = cellCoord(p.y, P.boundsMin.y, P.cellSize.y, P.dims.y);
  var cz = 0u;
  if (P.dimensions == 3u) {
    cz = cellCoord(p.z, P.boundsMin.z, P.cellSize.z, P.dims.z);
  }
  return vec3u(cx, cy, cz);
}

fn cellKey(p: vec3f) -> u32 {
  let c = cellOf(p);
  return c.x + P.dims.x * (c.y + P.dims.y * c.z);
}
