#version 300 es
// Pass 3, cell table: for cell c, the first and one-past-last index of key c in the sorted keys:
// a binary search for the first, then a short scan (cells hold a handful of boids) that falls back
// to a second binary search. Texels past the cell count are harmless.
#include "gpgpu.glsl"

uniform usampler2D uKeys;  // sorted (cellKey, payload)
uniform int uKeyShift;     // log2 of the key texture's width
uniform int uShift;        // log2 of the table's width
uniform int uCount;        // boids: sorted keys [0, count) are real, the rest are sentinels

out uvec4 outRange;

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
  uint c = uint(fragIndex(uShift));
  int start = lowerBound(c, 0);
  int end = start;
  for (int k = 0; k < 8 && end < uCount; k++) {
    if (texelFetch(uKeys, texelOf(end, uKeyShift), 0).x != c) break;
    end++;
  }
  if (end < uCount && texelFetch(uKeys, texelOf(end, uKeyShift), 0).x == c) {
    end = lowerBound(c + 1u, end);
  }
  outRange = uvec4(uint(start), uint(end), 0u, 0u);
}
