// Boid state, two layouts (measured on an H200, docs/real-gpu.md):
// - `state` (the current state, what the renderer and readState see): ONE buffer of 2 * count
//   vec4f, positions at [0, count) (xyz world units + w species), velocities at [count, 2*count)
//   (xyz world units/s + w = the boid id as f32, exact below 2^24 = MAX_COUNT). The key pass reads
//   only the 16-byte positions.
// - `sorted` (the steer pass's input, in cell order): `Boid` records of 32 bytes, position and
//   velocity side by side, so a neighbour candidate costs one 32-byte sector and its velocity
//   arrives with its position (faster than two separate loads in the neighbour loop).
// The id in vel.w travels with the boid through the reorder; each layout is one storage buffer,
// which keeps every pass within 4 storage buffers (compatibility mode).
struct Boid {
  pos: vec4f,
  vel: vec4f,
}
