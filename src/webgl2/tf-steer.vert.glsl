#version 300 es
// Transform-feedback path, steer + integrate: one vertex per boid (gl_VertexID = element index),
// drawn as POINTS with RASTERIZER_DISCARD; the new position and velocity are captured into two
// buffers (separate attributes: a vec4 each, and |N_i| as one float). Reads only the previous state (Jacobi) from the
// RGBA32F copies of the state buffers, with the same model rules and neighbour loop as the
// fragment pass (flock-rules.glsl, neighbor-search.glsl).
#include "neighbor-search.glsl"

out vec4 tfPos;
out vec4 tfVel;
out float tfNbr;

void main() {
  int i = gl_VertexID;
  ivec2 t = texelOf(i, uShift);
  vec4 p = texelFetch(uPos, t, 0);
  vec4 v = texelFetch(uVel, t, 0);
  Accum acc = gatherNeighbors(i, p, v.xyz);
  vec3 np;
  vec3 nv;
  integrateBoid(p.xyz, v.xyz, acc, np, nv);
  // w: the species id and the boid id travel with the boid.
  tfPos = vec4(np, p.w);
  tfVel = vec4(nv, v.w);
  tfNbr = float(acc.count);
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
