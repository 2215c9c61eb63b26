#version 300 es
// One opaque colour (the box outline).
#include "common.glsl"

uniform vec3 uFlatColor;
out vec4 outColor;

void main() {
  outColor = vec4(uFlatColor, 1.0);
}
