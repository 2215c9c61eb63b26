// Bandwidth probe for the benchmark: dst[i] = src[i] over vec4f (16 bytes read + 16 written).
override WG: u32 = 256u;

@group(0) @binding(0) var<storage, read> src: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4f>;

@compute @workgroup_size(WG)
fn copy(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * WG + lid;
  if (i >= arrayLength(&dst)) {
    return;
  }
  dst[i] = src[i];
}
