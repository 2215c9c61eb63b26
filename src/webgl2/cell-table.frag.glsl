#version 300 es
// Pass 3, cell table: start(c), the first index of a key >= c in the sorted keys, for the 16
// cells c0 = 16 t .. c0 + 15 of fragment t (4 per RGBA32UI texel, one texel in each of the 4
// layers of the table array: cell c in texel c >> 4, layer (c >> 2) & 3, component c & 3). Cell c
// holds [start(c), start(c + 1)). One binary search for c0, then a walk along the keys (cells hold
// a handful of boids) that falls back to a binary search where a cell holds more than WALK.
#include "gpgpu.glsl"

#define WALK 4

uniform usampler2D uKeys;  // sorted (cellKey, payload)
uniform int uKeyShift;     // log2 of the key texture's width
uniform int uShift;        // log2 of the table's width
uniform int uCount;        // boids: sorted keys [0, count) are real, the rest are sentinels

layout(location = 0) out uvec4 outStarts0;
layout(location = 1) out uvec4 outStarts1;
layout(location = 2) out uvec4 outStarts2;
layout(location = 3) out uvec4 outStarts3;

// Key of sorted element i, or above every cell for i >= count.
uint keyAt(int i) {
  uint k = texelFetch(uKeys, texelOf(min(i, uCount - 1), uKeyShift), 0).x;
  return k | (0u - uint(i >= uCount));
}

// First index in [lo, count) whose key is >= key.
int lowerBound(uint key, int lo) {
  int hi = uCount;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (texelFetch(uKeys, texelOf(mid, uKeyShift), 0).x < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

void main() {
  uint c0 = uint(fragIndex(uShift)) << 4;
  int ptr = lowerBound(c0, 0);
  uint kp = keyAt(ptr);
  uint s0 = uint(ptr);
  // start(c0 + k) from start(c0 + k - 1) = ptr, kp = key[ptr] (constant k, see bitonic-block.glsl).
#define START(s, k) \
  uint s; \
  { \
    uint c = c0 + uint(k); \
    for (int n = 0; n < WALK; n++) { \
      if (kp >= c) break; \
      ptr++; \
      kp = keyAt(ptr); \
    } \
    if (kp < c) { \
      ptr = lowerBound(c, ptr); \
      kp = keyAt(ptr); \
    } \
    s = uint(ptr); \
  }
  START(s1, 1) START(s2, 2) START(s3, 3)
  START(s4, 4) START(s5, 5) START(s6, 6) START(s7, 7)
  START(s8, 8) START(s9, 9) START(s10, 10) START(s11, 11)
  START(s12, 12) START(s13, 13) START(s14, 14) START(s15, 15)
  outStarts0 = uvec4(s0, s1, s2, s3);
  outStarts1 = uvec4(s4, s5, s6, s7);
  outStarts2 = uvec4(s8, s9, s10, s11);
  outStarts3 = uvec4(s12, s13, s14, s15);
}
