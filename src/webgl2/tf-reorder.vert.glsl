#version 300 es
// Transform-feedback path, reorder: vertex i captures the state of element payload(i) of the
// sorted keys, so that a cell's boids are adjacent in the buffers (and in their texture copies)
// and the steer pass reads its neighbours coherently. As reorder.frag.glsl, without a float target.
#include "common.glsl"

uniform sampler2D uPos;
uniform sampler2D uVel;
uniform usampler2D uSortedKeys;
uniform int uShift;

out vec4 tfPos;
out vec4 tfVel;

void main() {
  int src = int(texelFetch(uSortedKeys, texelOf(gl_VertexID, uShift), 0).y);
  ivec2 t = texelOf(src, uShift);
  tfPos = texelFetch(uPos, t, 0);
  tfVel = texelFetch(uVel, t, 0);
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
