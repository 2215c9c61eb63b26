// The body of the steer + integrate pass, shared by its two stages: the fragment pass
// (steer.frag.glsl, GPGPU textures) and the transform-feedback vertex pass (tf-steer.vert.glsl).
// Reads only the previous state (Jacobi): boid i's position and velocity texels, its neighbours
// (neighbor-search.glsl), the model rules (flock-rules.glsl).
#include "neighbor-search.glsl"

// Boid i's new state; w: the species id and the boid id travel with the boid.
struct Steered {
  vec4 pos;     // xyz world units, w species id
  vec4 vel;     // xyz world units/s, w boid id
  float count;  // |N_i|
};

Steered steerBoid(int i) {
  ivec2 t = texelOf(i, uShift);
  vec4 p = texelFetch(uPos, t, 0);
  vec4 v = texelFetch(uVel, t, 0);
  Accum acc = gatherNeighbors(i, p, v.xyz);
  vec3 np;
  vec3 nv;
  integrateBoid(p.xyz, v.xyz, acc, np, nv);
  return Steered(vec4(np, p.w), vec4(nv, v.w), float(acc.count));
}
