// Uniform-grid cell keys, exactly src/core/grid.ts: cellCoord clamps into the grid, the key is
// x + dims.x * (y + dims.y * z), and in 2D the z cell is 0.
#include "flock-params.gen.glsl"

// Cells per axis (z is 1 in 2D); the cell size is P.cellSize (world units per cell, per axis).
ivec3 gridDims() {
  return ivec3(P.dims);
}
// Exact cell thresholds (src/webgl2/cell-bounds.ts): element axis * stride + c is the smallest
// float32 x that the float64 CPU puts in cell c or above.
uniform sampler2D uCellBounds;
uniform int uCellBoundsShift;
uniform int uCellBoundsStride;

float cellThreshold(int axis, int c) {
  return texelFetch(uCellBounds, texelOf(axis * uCellBoundsStride + c, uCellBoundsShift), 0).x;
}

int cellCoord(float x, int axis, float lo, float size, int dim) {
  // Clamp while still a float: int() of a float outside the int range is undefined in GLSL.
  int c = int(clamp(floor((x - lo) / size), 0.0, float(dim - 1)));
  // float32 rounding of x - lo can land a boid one cell off next to a boundary: settle the
  // estimate with exact comparisons against the CPU's thresholds.
  for (int k = 0; k < 4; k++) {
    if (c > 0 && x < cellThreshold(axis, c)) {
      c--;
    } else if (c < dim - 1 && x >= cellThreshold(axis, c + 1)) {
      c++;
    } else {
      break;
    }
  }
  return c;
}

ivec3 cellOf(vec3 p) {
  int cx = cellCoord(p.x, 0, P.boundsMin.x, P.cellSize.x, gridDims().x);
  int cy = cellCoord(p.y, 1, P.boundsMin.y, P.cellSize.y, gridDims().y);
#if DIMS == 3
  int cz = cellCoord(p.z, 2, P.boundsMin.z, P.cellSize.z, gridDims().z);
#else
  int cz = 0;
#endif
  return ivec3(cx, cy, cz);
}

int cellIndex(ivec3 c) {
  return c.x + gridDims().x * (c.y + gridDims().y * c.z);
}

uint cellKey(vec3 p) {
  return uint(cellIndex(cellOf(p)));
}

ivec3 cellCoords(uint key) {
  int k = int(key);
  return ivec3(k % gridDims().x, (k / gridDims().x) % gridDims().y, k / (gridDims().x * gridDims().y));
}
