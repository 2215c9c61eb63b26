// The flocking model of DESIGN.md section 1 (the same rules as src/core/reference.ts), in one
// place for every WebGL2 shader that steps or counts boids: the neighbour test and sums, the
// steering force, the speed clamp, integration and the box walls.
// Reynolds, "Flocks, herds and schools: a distributed behavioral model", SIGGRAPH 1987.
#include "flock-params.glsl"

// Boids closer than EPS = 1e-3 world units ignore each other (no division by ~0).
const float EPS2 = 1e-6;
// Velocities longer than this per component are scaled down (direction kept) so that sums over
// 2^24 neighbours stay finite for any finite state; after one step every speed is <= maxSpeed.
const float VEL_LIMIT = 1e18;

struct Accum {
  vec3 sep;     // - sum d / |d|^2
  vec3 sumVel;  // sum of the neighbours' velocities
  vec3 sumOff;  // sum of the offsets d = p_j - p_i
  int count;    // |N_i|
};

Accum emptyAccum() {
  return Accum(vec3(0.0), vec3(0.0), vec3(0.0), 0);
}

vec3 safeVelocity(vec3 v) {
  float m = max(max(abs(v.x), abs(v.y)), abs(v.z));
  return m > VEL_LIMIT ? v * (VEL_LIMIT / m) : v;
}

// Minimum image under wrap: off -= size * round(off / size), round(x) = floor(x + 0.5).
vec3 minimumImage(vec3 d) {
#if WRAP
  d.xy -= uBoxSize.xy * floor(d.xy / uBoxSize.xy + 0.5);
#if DIMS == 3
  d.z -= uBoxSize.z * floor(d.z / uBoxSize.z + 0.5);
#endif
#endif
#if DIMS == 2
  d.z = 0.0;
#endif
  return d;
}

// The offset d = p_j - p_i (minimum image under wrap) and whether j is a neighbour of i:
// eps^2 < |d|^2 < r^2. Callers fetch j's velocity only when it is.
bool neighborOffset(vec3 pi, vec3 pj, out vec3 d, out float d2) {
  d = minimumImage(pj - pi);
  d2 = dot(d, d);
  return d2 > EPS2 && d2 < uR2;
}

// Adds a neighbour (offset d, |d|^2 = d2, velocity vj) to the sums.
void addNeighbor(inout Accum acc, vec3 d, float d2, vec3 vj) {
  acc.sep -= d / d2;
  acc.sumVel += safeVelocity(vj);
  acc.sumOff += d;
  acc.count++;
}

// |x| without overflow or underflow of the squares for very large or very small components.
float safeLength(vec3 x) {
  float m = max(max(abs(x.x), abs(x.y)), abs(x.z));
  if (m == 0.0) return 0.0;
  if (m > 1e18 || m < 1e-18) return m * length(x / m);
  return length(x);
}

// Floored modulo with the result in [0, size): a result that rounds up to size becomes 0.
float floorMod(float x, float size) {
  float m = x - size * floor(x / size);
  return m >= size ? 0.0 : max(m, 0.0);
}

// The walls, per active axis. bounce: reflect a coordinate past a wall back inside, clamp into
// the closed box and make that velocity component point inward. wrap: floored modulo.
void applyBoundary(inout vec3 p, inout vec3 v) {
  for (int a = 0; a < DIMS; a++) {
    float lo = uBoundsMin[a];
#if WRAP
    p[a] = lo + floorMod(p[a] - lo, uBoxSize[a]);
#else
    float hi = uBoundsMax[a];
    if (p[a] < lo) {
      p[a] = 2.0 * lo - p[a];
      v[a] = abs(v[a]);
    } else if (p[a] > hi) {
      p[a] = 2.0 * hi - p[a];
      v[a] = -abs(v[a]);
    }
    p[a] = clamp(p[a], lo, hi);
#endif
  }
}

// One boid's step from its neighbour sums: steering force (limited to maxSteerForce), velocity,
// speed clamp to [minSpeed, maxSpeed] (only for a non-zero velocity), position, walls.
void integrateBoid(vec3 p, vec3 v, Accum acc, out vec3 np, out vec3 nv) {
  v = safeVelocity(v);
  vec3 a = uWeights.x * acc.sep;
  if (acc.count > 0) {
    float inv = 1.0 / float(acc.count);
    a += uWeights.y * (acc.sumVel * inv - v) + uWeights.z * (acc.sumOff * inv);
  }
  float alen = safeLength(a);
  if (alen > uMaxSteer) a *= uMaxSteer / alen;
  nv = v + a * uDt;
  float speed = safeLength(nv);
  if (speed > 0.0) {
    float k = speed > uMaxSpeed ? uMaxSpeed / speed : (speed < uMinSpeed ? uMinSpeed / speed : 1.0);
    nv *= k;
  }
  np = p + nv * uDt;
  applyBoundary(np, nv);
#if DIMS == 2
  np.z = 0.0;
  nv.z = 0.0;
#endif
}
