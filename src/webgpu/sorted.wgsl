// The `sorted` buffer (the steer pass's input in cell order) in one of two layouts, chosen by the
// SORTED_BLOCKS override (docs/real-gpu.md): false, `count` Boid records of 32 bytes (position and
// velocity side by side: a candidate's velocity arrives in its position's sector); true, a block
// of positions then a block of velocities (16-byte candidates: twice as many per cache line for
// the distance test, the velocity a second load, for true neighbours only). Files that include
// this declare `sorted: array<vec4f>` and the SimParams `P`.
override SORTED_BLOCKS: bool = false;

// Velocity components longer than this are scaled down (direction kept) so that sums over many
// neighbours stay finite for any finite state; after one step every speed is <= maxSpeed.
// The same guard as src/webgl2/flock-rules.glsl. Applied where `sorted` is written, once per boid, so
// the steer pass sums guarded velocities without guarding each neighbour's.
const VEL_LIMIT = 1e18;

fn safeVelocity(v: vec3f) -> vec3f {
  let m = max(max(abs(v.x), abs(v.y)), abs(v.z));
  return select(v, v * (VEL_LIMIT / m), m > VEL_LIMIT);
}

// A velocity record (xyz, w = boid id) as `sorted` keeps it.
fn guardedVelocity(v: vec4f) -> vec4f {
  return vec4f(safeVelocity(v.xyz), v.w);
}

fn sortedPosAt(j: u32) -> u32 {
  return select(2u * j, j, SORTED_BLOCKS);
}

fn sortedVelAt(j: u32) -> u32 {
  return select(2u * j + 1u, P.count + j, SORTED_BLOCKS);
}
