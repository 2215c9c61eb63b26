#version 300 es
// Pass 6, draw: flat colour from the vertex shader (speed ramp times the mesh's shade).
#include "common.glsl"

in vec3 vColor;
out vec4 outColor;

void main() {
  outColor = vec4(vColor, 1.0);
}
