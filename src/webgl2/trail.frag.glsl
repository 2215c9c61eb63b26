#version 300 es
// Trails: the trail target (premultiplied), copied onto the canvas over its background.
#include "common.glsl"

uniform sampler2D uTrail;
out vec4 outColor;

void main() {
  outColor = texelFetch(uTrail, ivec2(gl_FragCoord.xy), 0);
}
