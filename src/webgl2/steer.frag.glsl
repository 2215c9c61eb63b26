#version 300 es
// Pass 5, steer + integrate: one fragment per boid, reading only the previous state (Jacobi),
// writing the new position and velocity to two RGBA32F targets and |N_i| to an R32F target, in
// the same order.
#include "gpgpu.glsl"
#include "neighbor-search.glsl"

layout(location = 0) out vec4 outPos;
layout(location = 1) out vec4 outVel;
layout(location = 2) out float outNbr;

void main() {
  int i = fragIndex(uShift);
  if (i >= uCount) {
    outPos = vec4(0.0);
    outVel = vec4(0.0);
    outNbr = 0.0;
    return;
  }
  ivec2 t = texelOf(i, uShift);
  vec4 p = texelFetch(uPos, t, 0);
  vec4 v = texelFetch(uVel, t, 0);
  Accum acc = gatherNeighbors(i, p, v.xyz);
  vec3 np;
  vec3 nv;
  integrateBoid(p.xyz, v.xyz, acc, np, nv);
  // w: the species id and the boid id travel with the boid.
  outPos = vec4(np, p.w);
  outVel = vec4(nv, v.w);
  outNbr = float(acc.count);
}
