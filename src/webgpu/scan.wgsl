// Exclusive prefix sum of u32, in place, for any length (multi-level: the host scans each level's
// block totals the same way, then adds them back down). A block is WG * ITEMS elements; each
// lane sums ITEMS consecutive elements, the lanes are scanned in workgroup memory
// (Hillis-Steele), and each block's total goes to `sums[block]` (a level above) when it exists.
override WG: u32 = 256u;
const ITEMS: u32 = 4u;
// Fixed-size workgroup array (no override-sized arrays): WG must be <= MAX_WG.
const MAX_WG: u32 = 256u;

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;

var<workgroup> lanes: array<u32, MAX_WG>;

@compute @workgroup_size(WG)
fn scanBlocks(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let block = wid.y * nwg.x + wid.x;
  let n = arrayLength(&data);
  let base = (block * WG + lid) * ITEMS;
  var local: array<u32, ITEMS>;
  var total = 0u;
  for (var k = 0u; k < ITEMS; k++) {
    local[k] = total;
    if (base + k < n) {
      total += data[base + k];
    }
  }
  lanes[lid] = total;
  workgroupBarrier();
  for (var off = 1u; off < WG; off <<= 1u) {
    var left = 0u;
    if (lid >= off) {
      left = lanes[lid - off];
    }
    workgroupBarrier();
    lanes[lid] += left;
    workgroupBarrier();
  }
  let before = lanes[lid] - total;
  for (var k = 0u; k < ITEMS; k++) {
    if (base + k < n) {
      data[base + k] = before + local[k];
    }
  }
  if (lid == WG - 1u && block < arrayLength(&sums)) {
    sums[block] = lanes[lid];
  }
}

// `sums` here is the scanned level above: add each block's offset to its elements.
@compute @workgroup_size(WG)
fn addBlockSums(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let block = wid.y * nwg.x + wid.x;
  if (block >= arrayLength(&sums)) {
    return;
  }
  let add = sums[block];
  let n = arrayLength(&data);
  let base = (block * WG + lid) * ITEMS;
  for (var k = 0u; k < ITEMS; k++) {
    if (base + k < n) {
      data[base + k] += add;
    }
  }
}
