// Neighbour gathering over state textures: the 3^d grid cells around a boid (GRID 1: state in
// sorted order, with the sorted (cellKey, payload) keys and the per-cell start table) or
// all boids (GRID 0, the O(N^2) baseline). The per-pair rule is `addNeighbor` (flock-rules.glsl).
// Stage-neutral (no gl_FragCoord): the fragment passes and the transform-feedback vertex passes
// (tf-*.vert.glsl) include it alike.
#include "common.glsl"
#include "flock-rules.glsl"
#include "grid.glsl"

uniform sampler2D uPos;    // xyz world units, w species id
uniform sampler2D uVel;    // xyz world units/s, w boid id (internal)
uniform int uShift;        // log2 of the state textures' width
uniform int uCount;        // boids
#if GRID
uniform usampler2D uSortedKeys;  // (cellKey, payload) in the state's order
precision highp usampler2DArray;
uniform usampler2DArray uCellTable;  // start(c) per cell, 16 cells a texel (cell-table.frag.glsl)
uniform int uTableShift;             // log2 of the cell table's width
#endif

// Adds element s of the state to the sums if it is a neighbour of the boid at p.xyz (species
// p.w, velocity v). No `s == self` test is needed: the boid itself is at |d|^2 = 0 < eps^2.
void visit(inout Accum acc, vec4 p, vec3 v, int s) {
  ivec2 t = texelOf(s, uShift);
  vec4 q = texelFetch(uPos, t, 0);
  vec3 d;
  float d2;
  if (neighborOffset(p.xyz, q.xyz, d, d2)) {
    addNeighbor(acc, d, d2, texelFetch(uVel, t, 0).xyz, isFlockmate(p, v, d, d2, q.w));
  }
}

#if GRID
// The first sorted index of cell c (cell c holds [cellStart(c), cellStart(c + 1))).
int cellStart(int c) {
  uvec4 v = texelFetch(uCellTable, ivec3(texelOf(c >> 4, uTableShift), (c >> 2) & 3), 0);
  return int(v[c & 3]);
}

// Visits the boids of cells x0..x1 of one grid row (y, z): consecutive keys, so one index range.
void visitCells(inout Accum acc, vec4 p, vec3 v, int x0, int x1, ivec2 row) {
  int first = cellIndex(ivec3(x0, row));
  int start = cellStart(first);
  int end = cellStart(first + (x1 - x0) + 1);
  for (int s = start; s < end; s++) visit(acc, p, v, s);
}
#endif

// The neighbour sums of element `self`, at p.xyz with species p.w and velocity v.
Accum gatherNeighbors(int self, vec4 p, vec3 v) {
  Accum acc = emptyAccum();
#if GRID
  ivec3 c = cellCoords(texelFetch(uSortedKeys, texelOf(self, uShift), 0).x);
#if DIMS == 3
  const int ZR = 1;
#else
  const int ZR = 0;
#endif
  // The 3^d cells, row by row: the 3 cells along x of a row are adjacent in key order.
  for (int dz = -ZR; dz <= ZR; dz++) {
    for (int dy = -1; dy <= 1; dy++) {
      ivec2 row = c.yz + ivec2(dy, dz);
#if WRAP
      // dims >= 3 per active axis under wrap, so the 3^d cells are distinct.
      row = (row + gridDims().yz) % gridDims().yz;
      int x0 = c.x - 1;
      int x1 = c.x + 1;
      if (x0 < 0) {
        visitCells(acc, p, v, gridDims().x - 1, gridDims().x - 1, row);
        visitCells(acc, p, v, 0, x1, row);
      } else if (x1 >= gridDims().x) {
        visitCells(acc, p, v, x0, gridDims().x - 1, row);
        visitCells(acc, p, v, 0, 0, row);
      } else {
        visitCells(acc, p, v, x0, x1, row);
      }
#else
      if (any(lessThan(row, ivec2(0))) || any(greaterThanEqual(row, gridDims().yz))) continue;
      visitCells(acc, p, v, max(c.x - 1, 0), min(c.x + 1, gridDims().x - 1), row);
#endif
    }
  }
#else
  for (int j = 0; j < uCount; j++) visit(acc, p, v, j);
#endif
  return acc;
}
