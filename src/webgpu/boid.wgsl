// Boid state lives in ONE storage buffer of 2 * count vec4f, as two blocks: positions at
// [0, count) (xyz world units + w species) and velocities at [count, 2 * count) (xyz world
// units/s + w = the boid id as f32, exact below 2^24 = MAX_COUNT). One buffer keeps every pass
// within 4 storage buffers (compatibility mode); the id in vel.w travels with the boid through the
// reorder; the split blocks let the neighbour loop read 16-byte positions and fetch a velocity
// only for actual neighbours. `Boid` is the value a pass works on.
struct Boid {
  pos: vec4f,
  vel: vec4f,
}
