#version 300 es
// The box outline: 12 edges (3D) or 4 (2D, at z = 0) drawn as LINES, corners from gl_VertexID.
// Edge e runs along axis e / 4 (2D: e / 2); the other axes' corner bits come from e's remainder.
#include "common.glsl"

uniform mat4 uViewProj;
uniform vec3 uMin;
uniform vec3 uMax;

void main() {
  int e = gl_VertexID / 2;
  int end = gl_VertexID - 2 * e;
#if DIMS == 2
  int axis = e / 2;
  int k = e - 2 * axis;
  ivec3 b = axis == 0 ? ivec3(end, k, 0) : ivec3(k, end, 0);
  vec3 p = vec3(mix(uMin.xy, uMax.xy, vec2(b.xy)), 0.0);
#else
  int axis = e / 4;
  int k = e - 4 * axis;
  int k0 = k - 2 * (k / 2);
  int k1 = k / 2;
  ivec3 b = axis == 0 ? ivec3(end, k0, k1) : (axis == 1 ? ivec3(k0, end, k1) : ivec3(k0, k1, end));
  vec3 p = mix(uMin, uMax, vec3(b));
#endif
  gl_Position = uViewProj * vec4(p, 1.0);
}
