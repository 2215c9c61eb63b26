// One boid record, 32 bytes: pos.xyz world units + pos.w species; vel.xyz world units/s + vel.w
// = the boid id as f32 (exact below 2^24 = MAX_COUNT). Keeping the id in vel.w lets the reorder
// move one 32-byte record and keeps every pass within 4 storage buffers (compatibility mode).
struct Boid {
  pos: vec4f,
  vel: vec4f,
}
