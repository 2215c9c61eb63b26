#version 300 es
// The fragment stage of the transform-feedback programs: never runs (RASTERIZER_DISCARD), but a
// WebGL program must have one to link. Writes nothing a caller could mistake for data.
#include "common.glsl"

out vec4 outColor;

void main() {
  outColor = vec4(0.0);
}
