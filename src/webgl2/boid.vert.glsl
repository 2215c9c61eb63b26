#version 300 es
// Pass 6, draw: one boid mesh (src/core/look.ts MESHES[shape], uVerts vertices) per boid, its
// state fetched with texelFetch, drawn by look.glsl. DRAW_VERTEX_ID 0: instanced (boid =
// gl_InstanceID); 1: one plain draw of count * uVerts vertices (boid = gl_VertexID / uVerts), which
// is much faster where instancing is emulated (SwiftShader).
// PREDATORS 1: the predators instead (instanced, position and heading from uPredators, red).
#include "common.glsl"
#include "boid-color.glsl"
#include "look.glsl"

uniform sampler2D uPos;
uniform sampler2D uVel;
// |N_i| per element in the state's layout (R32F), where the path stores it (uHasNbr 1).
uniform sampler2D uNbr;
uniform int uHasNbr;
uniform int uShift;
uniform int uVerts;
uniform mat4 uViewProj;
uniform float uBoidSize;     // world units
uniform float uMinSpeed;
uniform float uMaxSpeed;
#if PREDATORS
uniform vec4 uPredators[16]; // per predator: position xyz, then heading xyz (src/core/scene.ts)
uniform vec3 uPredatorColor;
#endif

out vec4 vColor;             // premultiplied
out vec3 vQuad;              // dots: quad coordinate, and 1 where the dot is drawn round

void main() {
#if PREDATORS
  int corner = gl_VertexID;
  vec3 p = uPredators[2 * gl_InstanceID].xyz;
  // Predators fly at maxSpeed along their heading; their id for the animation is their index.
  vec3 v = uPredators[2 * gl_InstanceID + 1].xyz * uMaxSpeed;
  float id = float(gl_InstanceID);
  vec3 base = uPredatorColor;
#else
#if DRAW_VERTEX_ID
  int boid = gl_VertexID / uVerts;
  int corner = gl_VertexID - boid * uVerts;
#else
  int boid = gl_InstanceID;
  int corner = gl_VertexID;
#endif
  ivec2 t = texelOf(boid, uShift);
  vec4 pw = texelFetch(uPos, t, 0);
  vec3 p = pw.xyz;
  vec4 vw = texelFetch(uVel, t, 0);
  vec3 v = vw.xyz;
  // velocity.w carries the boid id on the GPU paths.
  float id = vw.w;
  float nbr = uHasNbr == 1 ? texelFetch(uNbr, t, 0).r : 0.0;
  vec3 base = boidColor(v, pw.w, nbr, uMinSpeed, uMaxSpeed, DIMS);
#endif
  vec4 clip;
  boidLook(p, v, id, base, corner, uBoidSize, uViewProj, uMinSpeed, uMaxSpeed, DIMS, clip, vColor, vQuad);
  gl_Position = clip;
}
