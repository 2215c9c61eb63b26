// The look of a boid (DESIGN section 7), the GLSL twin of src/core/look.ts (read its docstring for
// the animation's reasoning) and of render.wgsl's boidLook: the shape's mesh (uMesh, two vec4 per
// vertex: xyz + part, normal), wings turned about the body axis and a tail about its pivot by
// angles of (id, t, velocity) with no state, a hemispheric ambient + key light per face, fog over
// the box's depth (premultiplied: colour and alpha fade together), and the level of detail: a
// boid shorter on screen than uLook.w pixels becomes a camera-facing dot (its first 6 vertices;
// the rest collapse onto one point and draw nothing).

// The drawing uniforms (uMesh, uShape, uClock, uLook, uLightDir, uSkyDir, uLightColor, uSkyColor,
// uGroundColor, uFog, uEye, uForward, uViewport), generated from src/core/look-uniforms.ts.
#include "look-uniforms.gen.glsl"

const float LOOK_TWO_PI = 6.28318530718;
// src/core/look.ts DIHEDRAL, MAX_WING, GLIDE, WING_LIMIT, MAX_TAIL, FISH_CRUISE, TAIL_PIVOT,
// DOT_RADIUS, LOD_DOT, MIN_DOT_PX, ROUND_DOT_PX (LOOK_CONSTANTS, src/core/look-uniforms.ts).
#include "look-constants.gen.glsl"

const vec2 DOT_CORNERS[6] = vec2[6](
  vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
  vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0)
);

uint lowbias32(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// x: wing angle, y: tail angle (radians), as look.ts animationAngles.
vec2 animationAngles(float id, vec3 v, float minSpeed, float maxSpeed, int dims) {
  uint h = lowbias32(uint(max(id, 0.0) + 0.5));
  float h1 = float(h & 0xffffu) / 65536.0;
  float h2 = float(h >> 16) / 65536.0;
  float speed = length(v);
  float climb = dims == 3 && speed > 0.0 ? max(0.0, v.y / speed) : 0.0;
  float slow = clamp((maxSpeed - speed) / max(maxSpeed - minSpeed, 1e-6), 0.0, 1.0);
  float w = clamp(2.5 * climb + slow, 0.0, 1.0);
  float a = LOOK_TWO_PI * h1;
  float osc = sin(a + uClock.x) * (1.0 - w) + sin(a + uClock.y) * w;
  float g = smoothstep(-0.2, 0.35, sin(LOOK_TWO_PI * h2 + uClock.z));
  float flap = uLook.x;
  float amp = flap * ((GLIDE + (1.0 - GLIDE) * g) * (1.0 - w) + w);
  float wing = clamp(DIHEDRAL * min(flap, 1.0) + MAX_WING * amp * osc, -WING_LIMIT, WING_LIMIT);
  float tail = flap * MAX_TAIL * (FISH_CRUISE * (1.0 - w) + w) * osc;
  return vec2(wing, tail);
}

// Lit colour of a face whose unit world normal n faces the eye (look.ts shade).
vec3 shadeLook(vec3 base, vec3 n) {
  float up = 0.5 + 0.5 * dot(n, uSkyDir);
  float lambert = max(dot(n, uLightDir), 0.0);
  vec3 hemi = mix(uGroundColor, uSkyColor, up);
  vec3 lit = base * (0.6 * hemi + 0.65 * lambert * uLightColor);
  return min(mix(base, lit, uLook.y), vec3(1.0));
}

// One vertex of boid (p, v, id) of size `size` (world units) and colour `base`: its clip position,
// its premultiplied colour and, for dots, its quad coordinate (0 elsewhere: nothing dropped).
void boidLook(vec3 p, vec3 v, float id, vec3 base, int corner, float size, mat4 viewProj,
              float minSpeed, float maxSpeed, int dims,
              out vec4 clip, out vec4 color, out vec3 quad) {
  vec4 centre = viewProj * vec4(p, 1.0);
  float lengthPx = size * uFog.z / max(centre.w, 1e-6);
  vec3 world;
  vec3 n;
  quad = vec3(0.0);
  if (uShape == 3u || (uLook.w > 0.0 && lengthPx < uLook.w)) {
    // A camera-facing dot: the first 6 corners; the others sit on its centre (no area), and
    // return before the shading: a far bird costs its 6 dot corners, not its whole mesh.
    if (corner >= 6) {
      clip = centre;
      color = vec4(0.0);
      return;
    }
    float r = max((uShape == 3u ? DOT_RADIUS : LOD_DOT) * lengthPx, MIN_DOT_PX);
    vec2 q = corner < 6 ? DOT_CORNERS[corner] : vec2(0.0);
    clip = centre;
    clip.xy += q * r * 2.0 / uViewport * centre.w;
    quad = vec3(q, r >= ROUND_DOT_PX ? 1.0 : 0.0);
    world = p;
    n = normalize(uEye - p);
  } else {
    float speed = length(v);
    // Forward along v, up from a reference axis not parallel to it. 2D views look down z, so
    // there the reference is z and the mesh's wide side lies in the plane.
    vec3 fwd = speed > 1e-12 ? v / speed : vec3(1.0, 0.0, 0.0);
    vec3 ref = dims == 2 ? vec3(0.0, 0.0, 1.0)
                         : (abs(fwd.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(0.0, 0.0, 1.0));
    vec3 side = normalize(cross(fwd, ref));
    vec3 up = cross(side, fwd);
    vec4 m = uMesh[2 * corner];
    vec3 lp = m.xyz;
    vec3 ln = uMesh[2 * corner + 1].xyz;
    int part = int(m.w + 0.5);
    if (part != 0) {
      vec2 ang = animationAngles(id, v, minSpeed, maxSpeed, dims);
      if (part == 3) {
        float c = cos(ang.y);
        float s = sin(ang.y);
        float dx = lp.x - TAIL_PIVOT;
        lp = vec3(TAIL_PIVOT + dx * c - lp.z * s, lp.y, dx * s + lp.z * c);
        ln = vec3(ln.x * c - ln.z * s, ln.y, ln.x * s + ln.z * c);
      } else {
        float a = part == 1 ? ang.x : -ang.x;
        float c = cos(a);
        float s = sin(a);
        lp = vec3(lp.x, lp.y * c + lp.z * s, lp.z * c - lp.y * s);
        ln = vec3(ln.x, ln.y * c + ln.z * s, ln.z * c - ln.y * s);
      }
    }
    world = p + size * (lp.x * fwd + lp.y * up + lp.z * side);
    clip = viewProj * vec4(world, 1.0);
    n = normalize(ln.x * fwd + ln.y * up + ln.z * side);
    if (dot(n, uEye - world) < 0.0) n = -n;
  }
  vec3 lit = shadeLook(base, n);
  float f = uLook.z * clamp((dot(world - uEye, uForward) - uFog.x) * uFog.y, 0.0, 1.0);
  color = vec4(lit * (1.0 - f), 1.0 - f);
}
