#version 300 es
// Trails: subtracted from the trail target after it is scaled by the trail factor (blend
// FUNC_REVERSE_SUBTRACT, ONE, CONSTANT_ALPHA): dst * trail - 1/255, so no 8-bit residue lingers.
#include "common.glsl"

out vec4 outColor;

void main() {
  outColor = vec4(1.0 / 255.0);
}
