// Neighbour gathering over state textures: the 3^d grid cells around a boid (GRID 1: state in
// sorted order, with the sorted (cellKey, payload) keys and the per-cell [start, end) table) or
// all boids (GRID 0, the O(N^2) baseline). The per-pair rule is `accumulate` (flock-rules.glsl).
#include "gpgpu.glsl"
#include "flock-rules.glsl"
#include "grid.glsl"

uniform sampler2D uPos;    // xyz world units, w species id
uniform sampler2D uVel;    // xyz world units/s, w boid id (internal)
uniform int uShift;        // log2 of the state textures' width
uniform int uCount;        // boids
#if GRID
uniform usampler2D uSortedKeys;  // (cellKey, payload) in the state's order
uniform usampler2D uCellTable;   // per cell: (first, one past last) index into the sorted state
uniform int uTableShift;         // log2 of the cell table's width
#endif

Accum gatherNeighbors(int self, vec3 p) {
  Accum acc = emptyAccum();
#if GRID
  ivec3 c = cellCoords(texelFetch(uSortedKeys, texelOf(self, uShift), 0).x);
#if DIMS == 3
  const int ZR = 1;
#else
  const int ZR = 0;
#endif
  for (int dz = -ZR; dz <= ZR; dz++) {
    for (int dy = -1; dy <= 1; dy++) {
      for (int dx = -1; dx <= 1; dx++) {
        ivec3 n = c + ivec3(dx, dy, dz);
#if WRAP
        // dims >= 3 per active axis under wrap, so the 3^d cells are distinct.
        n = (n + uGridDims) % uGridDims;
#else
        if (any(lessThan(n, ivec3(0))) || any(greaterThanEqual(n, uGridDims))) continue;
#endif
        uvec2 range = texelFetch(uCellTable, texelOf(cellIndex(n), uTableShift), 0).xy;
        int end = int(range.y);
        for (int s = int(range.x); s < end; s++) {
          if (s == self) continue;
          ivec2 t = texelOf(s, uShift);
          accumulate(acc, p, texelFetch(uPos, t, 0).xyz, texelFetch(uVel, t, 0).xyz);
        }
      }
    }
  }
#else
  for (int j = 0; j < uCount; j++) {
    if (j == self) continue;
    ivec2 t = texelOf(j, uShift);
    accumulate(acc, p, texelFetch(uPos, t, 0).xyz, texelFetch(uVel, t, 0).xyz);
  }
#endif
  return acc;
}
