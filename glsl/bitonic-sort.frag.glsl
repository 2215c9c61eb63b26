#version 300 es
// Pass 2, one stage of a bitonic sorting network (Batcher 1968) over M = 2^m (key, payload)
// pairs: element i is compared with element i ^ j inside blocks of size k. Pairs are ordered by
// key, then payload; payloads are unique, so the order is total and the result deterministic.
#include "gpgpu.glsl"

uniform usampler2D uKeys;
uniform int uShift;
uniform int uJ;  // partner distance
uniform int uK;  // block size: ascending where (i & k) == 0

out uvec4 outKey;

bool pairLess(uvec2 a, uvec2 b) {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

void main() {
  int i = fragIndex(uShift);
  int p = i ^ uJ;
  uvec2 a = texelFetch(uKeys, texelOf(i, uShift), 0).xy;
  uvec2 b = texelFetch(uKeys, texelOf(p, uShift), 0).xy;
  bool keepMin = (i < p) == ((i & uK) == 0);
  outKey = uvec4(keepMin == pairLess(a, b) ? a : b, 0u, 0u);
}
