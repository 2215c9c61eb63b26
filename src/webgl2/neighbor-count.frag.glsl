#version 300 es
// Debug pass: |N_i| per boid, gathered exactly as the steer pass gathers (grid or all pairs).
#include "gpgpu.glsl"
#include "neighbor-search.glsl"

out uvec4 outCount;

void main() {
  int i = fragIndex(uShift);
  if (i >= uCount) {
    outCount = uvec4(0u);
    return;
  }
  ivec2 t = texelOf(i, uShift);
  vec4 p = texelFetch(uPos, t, 0);
  vec3 v = texelFetch(uVel, t, 0).xyz;
  outCount = uvec4(uint(gatherNeighbors(i, p, v).count), 0u, 0u, 0u);
}
