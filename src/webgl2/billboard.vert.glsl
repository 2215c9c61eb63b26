#version 300 es
// Camera-facing quads, one instance per sphere of uSpheres (centre xyz, radius w): the obstacles
// (sphere.frag.glsl: ray-traced spheres, flat circles in 2D) and the attractor's soft marker
// (marker.frag.glsl). The quad spans uPad radii each way: a sphere seen in perspective covers more
// than its radius around its centre on the plane through it, facing the camera.
#include "common.glsl"

uniform mat4 uViewProj;
uniform vec3 uRight;        // unit camera axes, world (src/core/render-draw.ts viewBasis)
uniform vec3 uUp;
uniform vec4 uSpheres[16];
uniform float uPad;

out vec3 vWorld;
out vec2 vQuad;             // in radii from the centre
flat out vec4 vSphere;

const vec2 CORNERS[6] = vec2[6](
  vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
  vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0)
);

void main() {
  vec4 s = uSpheres[gl_InstanceID];
  vec2 q = CORNERS[gl_VertexID] * uPad;
  vec3 world = s.xyz + s.w * (q.x * uRight + q.y * uUp);
  vWorld = world;
  vQuad = q;
  vSphere = s;
  gl_Position = uViewProj * vec4(world, 1.0);
}
