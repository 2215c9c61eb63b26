// Uniform-grid cell keys, exactly src/core/grid.ts: cellCoord clamps into the grid, the key is
// x + dims.x * (y + dims.y * z), and in 2D the z cell is 0.
#include "flock-params.glsl"

uniform vec3 uCellSize;   // world units per cell, per axis
uniform ivec3 uGridDims;  // cells per axis (z is 1 in 2D)

int cellCoord(float x, float lo, float size, int dim) {
  // Clamp while still a float: int() of a float outside the int range is undefined in GLSL.
  float c = floor((x - lo) / size);
  return int(clamp(c, 0.0, float(dim - 1)));
}

ivec3 cellOf(vec3 p) {
  int cx = cellCoord(p.x, uBoundsMin.x, uCellSize.x, uGridDims.x);
  int cy = cellCoord(p.y, uBoundsMin.y, uCellSize.y, uGridDims.y);
#if DIMS == 3
  int cz = cellCoord(p.z, uBoundsMin.z, uCellSize.z, uGridDims.z);
#else
  int cz = 0;
#endif
  return ivec3(cx, cy, cz);
}

int cellIndex(ivec3 c) {
  return c.x + uGridDims.x * (c.y + uGridDims.y * c.z);
}

uint cellKey(vec3 p) {
  return uint(cellIndex(cellOf(p)));
}

ivec3 cellCoords(uint key) {
  int k = int(key);
  return ivec3(k % uGridDims.x, (k / uGridDims.x) % uGridDims.y, k / (uGridDims.x * uGridDims.y));
}
