#version 300 es
// Pass 6, draw: the colour look.glsl gave the vertex (lit and fogged, premultiplied); a dot wide
// enough to show its shape drops the fragments outside its disc.
#include "common.glsl"

in vec4 vColor;
in vec3 vQuad;
out vec4 outColor;

void main() {
  if (vQuad.z > 0.5 && dot(vQuad.xy, vQuad.xy) > 1.0) discard;
  outColor = vColor;
}
