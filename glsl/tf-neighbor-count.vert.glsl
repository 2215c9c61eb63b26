#version 300 es
// Transform-feedback path, debug pass: |N_i| per element, gathered exactly as tf-steer.vert.glsl
// gathers (grid or all pairs), captured as one uint per vertex.
#include "neighbor-search.glsl"

flat out uint tfCount;

void main() {
  int i = gl_VertexID;
  vec4 p = texelFetch(uPos, texelOf(i, uShift), 0);
  tfCount = uint(gatherNeighbors(i, p).count);
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
