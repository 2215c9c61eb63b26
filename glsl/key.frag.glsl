#version 300 es
// Pass 1, key: state -> (cellKey, payload) per element; the payload is the element's index in the
// state texture (the reorder pass gathers by it). Padding elements (index >= count) get the
// sentinel key 0xFFFFFFFF, so they sort after every boid.
#include "gpgpu.glsl"
#include "grid.glsl"

uniform sampler2D uPos;
uniform int uShift;
uniform int uCount;

out uvec4 outKey;

void main() {
  int i = fragIndex(uShift);
  if (i >= uCount) {
    outKey = uvec4(0xFFFFFFFFu, uint(i), 0u, 0u);
    return;
  }
  vec3 p = texelFetch(uPos, texelOf(i, uShift), 0).xyz;
  outKey = uvec4(cellKey(p), uint(i), 0u, 0u);
}
