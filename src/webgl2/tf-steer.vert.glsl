#version 300 es
// Transform-feedback path, steer + integrate: one vertex per boid (gl_VertexID = element index),
// drawn as POINTS with RASTERIZER_DISCARD; the new position and velocity are captured into two
// buffers (separate attributes: a vec4 each, and |N_i| as one float). Reads only the previous state (Jacobi) from the
// RGBA32F copies of the state buffers, with the same body as the fragment pass (steer-boid.glsl).
#include "steer-boid.glsl"

out vec4 tfPos;
out vec4 tfVel;
out float tfNbr;

void main() {
  Steered s = steerBoid(gl_VertexID);
  tfPos = s.pos;
  tfVel = s.vel;
  tfNbr = s.count;
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
