#version 300 es
// Transform-feedback path, debug pass: |N_i| per element, gathered exactly as tf-steer.vert.glsl
// gathers (grid or all pairs), captured as one uint per vertex.
#include "neighbor-search.glsl"

flat out uint tfCount;

void main() {
  int i = gl_VertexID;
  ivec2 t = texelOf(i, uShift);
  vec4 p = texelFetch(uPos, t, 0);
  vec3 v = texelFetch(uVel, t, 0).xyz;
  tfCount = uint(gatherNeighbors(i, p, v).count);
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
