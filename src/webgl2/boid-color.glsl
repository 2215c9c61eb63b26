// Boid colours by view.colorMode, as src/core/render-draw.ts boidColor (the CPU twin):
// 0 speed (speed-color.glsl), 1 uniform (uColor), 2 species (uTable[s]), 3 density (uTable as a
// sequential map at |N_i| / uDensityMax), 4 heading (uTable as a cyclic map at the flight
// direction's angle; in 3D lighter when climbing, darker when diving).
// uTable holds src/core/render-math.ts colorTable(view): 64 sRGB entries (w unused).
#include "speed-color.glsl"

uniform int uColorMode;
uniform vec3 uColor;
uniform vec4 uTable[64];
uniform float uDensityMax;

const float TWO_PI = 6.28318530718;

vec3 tableSequential(float t) {
  float x = clamp(t, 0.0, 1.0) * 63.0;
  int i = min(62, int(floor(x)));
  return mix(uTable[i].rgb, uTable[i + 1].rgb, x - float(i));
}

vec3 tableCyclic(float t) {
  float x = fract(t) * 64.0;
  int i = min(63, int(floor(x)));
  int j = i == 63 ? 0 : i + 1;
  return mix(uTable[i].rgb, uTable[j].rgb, x - float(i));
}

// v: velocity (world units/s); species: positions.w; neighbours: |N_i|.
vec3 boidColor(vec3 v, float species, float neighbours, float minSpeed, float maxSpeed, int dims) {
  if (uColorMode == 1) return uColor;
  if (uColorMode == 2) return uTable[clamp(int(floor(species + 0.5)), 0, 63)].rgb;
  if (uColorMode == 3) return tableSequential(neighbours / uDensityMax);
  float speed = length(v);
  if (uColorMode == 4) {
    // atan(0, 0) is undefined in GLSL: a boid at rest points along +x, as in the mesh.
    vec2 h = dims == 2 ? v.xy : v.xz;
    float angle = dot(h, h) > 0.0 ? atan(h.y, h.x) : 0.0;
    vec3 c = tableCyclic(angle / TWO_PI + 0.5);
    if (dims == 2 || speed <= 0.0) return c;
    float u = v.y / speed;
    return u > 0.0 ? mix(c, vec3(1.0), 0.5 * u) : c * (1.0 + 0.5 * u);
  }
  return speedColor(speed, minSpeed, maxSpeed);
}
