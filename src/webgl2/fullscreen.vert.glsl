#version 300 es
// One triangle that covers the viewport: every data-texture pass draws it (no vertex buffers).
#include "common.glsl"

void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
