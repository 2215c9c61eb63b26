#version 300 es
// Pass 4, reorder: gather positions and velocities into sorted order (by the sorted keys'
// payload, the source index), so that a cell's boids are adjacent and neighbour reads coherent.
#include "gpgpu.glsl"

uniform sampler2D uPos;
uniform sampler2D uVel;
uniform usampler2D uSortedKeys;
uniform int uShift;
uniform int uCount;

layout(location = 0) out vec4 outPos;
layout(location = 1) out vec4 outVel;
// The scratch state's |N_i| target: the steer pass writes the real values (never read before).
layout(location = 2) out float outNbr;

void main() {
  int i = fragIndex(uShift);
  if (i >= uCount) {
    outPos = vec4(0.0);
    outVel = vec4(0.0);
    outNbr = 0.0;
    return;
  }
  int src = int(texelFetch(uSortedKeys, texelOf(i, uShift), 0).y);
  ivec2 t = texelOf(src, uShift);
  outPos = texelFetch(uPos, t, 0);
  outVel = texelFetch(uVel, t, 0);
  outNbr = 0.0;
}
