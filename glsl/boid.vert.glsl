#version 300 es
// Pass 6, draw: one boid mesh (BOID_MESH, 12 vertices) per boid, its state fetched with texelFetch.
// DRAW_VERTEX_ID 0: instanced (boid = gl_InstanceID); 1: one plain draw of count * 12 vertices
// (boid = gl_VertexID / 12), which is much faster where instancing is emulated (SwiftShader).
// PREDATORS 1: the predators instead (instanced, position and heading from uPredators, red).
#include "common.glsl"
#include "boid-color.glsl"

uniform sampler2D uPos;
uniform sampler2D uVel;
// |N_i| per element in the state's layout (R32F), where the path stores it (uHasNbr 1).
uniform sampler2D uNbr;
uniform int uHasNbr;
uniform int uShift;
uniform mat4 uViewProj;
uniform float uBoidSize;     // world units
uniform vec4 uMesh[12];      // xyz in boid lengths (nose at +x), w shade
uniform float uMinSpeed;
uniform float uMaxSpeed;
#if PREDATORS
uniform vec4 uPredators[16]; // per predator: position xyz, then heading xyz (src/core/scene.ts)
uniform vec3 uPredatorColor;
#endif

out vec3 vColor;

void main() {
#if PREDATORS
  int corner = gl_VertexID;
  vec3 p = uPredators[2 * gl_InstanceID].xyz;
  vec3 v = uPredators[2 * gl_InstanceID + 1].xyz;
#else
#if DRAW_VERTEX_ID
  int boid = gl_VertexID / 12;
  int corner = gl_VertexID - boid * 12;
#else
  int boid = gl_InstanceID;
  int corner = gl_VertexID;
#endif
  ivec2 t = texelOf(boid, uShift);
  vec4 pw = texelFetch(uPos, t, 0);
  vec3 p = pw.xyz;
  vec3 v = texelFetch(uVel, t, 0).xyz;
#endif
  float speed = length(v);
  // Basis: forward along v, up from a reference axis that is not parallel to it. 2D views look
  // down z, so there the reference is z and the mesh's wide side lies in the plane.
  vec3 fwd = speed > 1e-12 ? v / speed : vec3(1.0, 0.0, 0.0);
#if DIMS == 2
  vec3 ref = vec3(0.0, 0.0, 1.0);
#else
  vec3 ref = abs(fwd.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(0.0, 0.0, 1.0);
#endif
  vec3 side = normalize(cross(fwd, ref));
  vec3 up = cross(side, fwd);
  vec4 m = uMesh[corner];
  vec3 world = p + uBoidSize * (m.x * fwd + m.y * up + m.z * side);
  gl_Position = uViewProj * vec4(world, 1.0);
#if PREDATORS
  vColor = uPredatorColor * m.w;
#else
  float nbr = uHasNbr == 1 ? texelFetch(uNbr, t, 0).r : 0.0;
  vColor = boidColor(v, pw.w, nbr, uMinSpeed, uMaxSpeed, DIMS) * m.w;
#endif
}
