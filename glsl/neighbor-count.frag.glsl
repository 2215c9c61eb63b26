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
  vec4 p = texelFetch(uPos, texelOf(i, uShift), 0);
  outCount = uvec4(uint(gatherNeighbors(i, p).count), 0u, 0u, 0u);
}
