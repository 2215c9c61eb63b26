#version 300 es
// The attractor's marker: a soft glow at its centre and a faint ring at its reach
// (attractorRadius), greenish while it attracts, orange while it repels. Premultiplied alpha,
// blended over the picture (ONE, ONE_MINUS_SRC_ALPHA) without writing depth.
#include "common.glsl"

uniform vec3 uMarkerColor;

in vec2 vQuad;
out vec4 outColor;

void main() {
  float d = length(vQuad);
  if (d > 1.05) discard;
  float a = 0.8 * exp(-d * d / 0.006) + 0.22 * exp(-d * d / 0.05);
  float ring = (d - 1.0) / 0.012;
  a += 0.3 * exp(-ring * ring);
  a = min(a, 1.0);
  outColor = vec4(uMarkerColor * a, a);
}
