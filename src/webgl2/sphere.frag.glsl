#version 300 es
// Obstacles. 3D: the sphere ray-traced from the eye through the quad (billboard.vert.glsl), lit
// from over the viewer's shoulder (ambient + Lambert + a small highlight), its true depth written,
// so boids pass in front of and behind it correctly. 2D: a flat disc with a lighter rim, at the
// plane's depth.
#include "common.glsl"

uniform mat4 uViewProj;
uniform vec3 uEye;
uniform vec3 uRight;
uniform vec3 uUp;
uniform vec3 uForward;
uniform vec3 uObstacleColor;

in vec3 vWorld;
in vec2 vQuad;
flat in vec4 vSphere;
out vec4 outColor;

void main() {
#if DIMS == 2
  float d = length(vQuad);
  if (d > 1.0) discard;
  float rim = smoothstep(0.86, 0.93, d);
  outColor = vec4(mix(uObstacleColor * 0.8, uObstacleColor * 1.35, rim), 1.0);
#else
  vec3 dir = normalize(vWorld - uEye);
  vec3 oc = uEye - vSphere.xyz;
  float b = dot(oc, dir);
  float disc = b * b - (dot(oc, oc) - vSphere.w * vSphere.w);
  if (disc < 0.0) discard;
  float t = -b - sqrt(disc);
  if (t < 0.0) t = -b + sqrt(disc); // the eye is inside: the far wall
  if (t < 0.0) discard;
  vec3 hit = uEye + t * dir;
  vec3 n = normalize(hit - vSphere.xyz);
  vec3 light = normalize(-0.45 * uRight + 0.65 * uUp - 0.6 * uForward);
  float lambert = max(dot(n, light), 0.0);
  vec3 h = normalize(light - dir);
  float spec = pow(max(dot(n, h), 0.0), 40.0);
  outColor = vec4(uObstacleColor * (0.22 + 0.78 * lambert) + 0.25 * spec, 1.0);
  vec4 clip = uViewProj * vec4(hit, 1.0);
  gl_FragDepth = clamp(0.5 * clip.z / clip.w + 0.5, 0.0, 1.0);
#endif
}
