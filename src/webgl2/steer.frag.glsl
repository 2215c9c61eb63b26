#version 300 es
// Pass 5, steer + integrate: one fragment per boid, reading only the previous state (Jacobi),
// writing the new position and velocity to two RGBA32F targets and |N_i| to an R32F target, in
// the same order.
#include "gpgpu.glsl"
#include "steer-boid.glsl"

layout(location = 0) out vec4 outPos;
layout(location = 1) out vec4 outVel;
layout(location = 2) out float outNbr;

void main() {
  int i = fragIndex(uShift);
  if (i >= uCount) {
    outPos = vec4(0.0);
    outVel = vec4(0.0);
    outNbr = 0.0;
    return;
  }
  Steered s = steerBoid(i);
  outPos = s.pos;
  outVel = s.vel;
  outNbr = s.count;
}
