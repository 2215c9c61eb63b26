// The flocking model of DESIGN.md section 1 (the same rules as src/core/reference.ts), in one
// place for every WebGL2 shader that steps or counts boids: the neighbour test and sums, the
// steering ('reynolds' or 'sum'), soft walls, obstacles, attractor, predators, the speed clamp,
// integration with the flow, the obstacles' hard constraint and the box walls.
// Reynolds, "Flocks, herds and schools: a distributed behavioral model", SIGGRAPH 1987;
// Reynolds, "Steering behaviors for autonomous characters", GDC 1999.
// The uniforms (blocks P: SimParams and S: StepParams, std140), the program variants' defines
// (DIMS, WRAP, SOFT, REYNOLDS, SPECIES) and one bool function per switch of the model, generated
// from the term table (src/core/terms.ts).
#include "flock-params.gen.glsl"

// Boids closer than EPS = 1e-3 world units ignore each other (no division by ~0); a point force
// whose source is within EPS of a boid gives no force.
const float EPS = 1e-3;
const float EPS2 = 1e-6;
// Velocities longer than this per component are scaled down (direction kept) so that sums over
// 2^24 neighbours stay finite for any finite state; after one step every speed is <= maxSpeed.
const float VEL_LIMIT = 1e18;

struct Accum {
  vec3 sep;     // - sum over S_i of d / |d|^2 (neighbours closer than min(rs, r), any species)
  vec3 sumVel;  // sum over M_i (own species) of the neighbours' velocities
  vec3 sumOff;  // sum over M_i of the offsets d = p_j - p_i
  int count;    // |N_i|
  int mates;    // |M_i|
};

Accum emptyAccum() {
  return Accum(vec3(0.0), vec3(0.0), vec3(0.0), 0, 0);
}

vec3 safeVelocity(vec3 v) {
  float m = max(max(abs(v.x), abs(v.y)), abs(v.z));
  return m > VEL_LIMIT ? v * (VEL_LIMIT / m) : v;
}

// Minimum image under wrap: off -= size * round(off / size), round(x) = floor(x + 0.5); z = 0 in
// 2D. Every offset of the model goes through here (neighbours, obstacles, attractor, predators).
vec3 minimumImage(vec3 d) {
#if WRAP
  d.xy -= P.boxSize.xy * floor(d.xy / P.boxSize.xy + 0.5);
#if DIMS == 3
  d.z -= P.boxSize.z * floor(d.z / P.boxSize.z + 0.5);
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
  return d2 > EPS2 && d2 < P.r2;
}

// Adds a neighbour (offset d, |d|^2 = d2, velocity vj; `mate`: a flockmate, isFlockmate) to the
// sums: separation from everyone within min(rs, r), alignment and cohesion with mates only.
void addNeighbor(inout Accum acc, vec3 d, float d2, vec3 vj, bool mate) {
  acc.count++;
  if (d2 < P.rs2) acc.sep -= d / d2;
  if (!mate) return;
  acc.sumVel += safeVelocity(vj);
  acc.sumOff += d;
  acc.mates++;
}

// |x| without overflow or underflow of the squares for very large or very small components.
float safeLength(vec3 x) {
  float m = max(max(abs(x.x), abs(x.y)), abs(x.z));
  if (m == 0.0) return 0.0;
  if (m > 1e18 || m < 1e-18) return m * length(x / m);
  return length(x);
}

// Whether neighbour j (offset d, |d|^2 = d2, species sj) is a flockmate of the boid at p (species
// p.w) with velocity v, counted by alignment and cohesion (M_i): of the boid's own species and,
// under FOV, inside its view cone: |v| <= eps (no heading) or d . v >= |d| |v| c, tested as
// dv |dv| >= d2 |v|^2 c |c| (dv = d . v, c = cos(fov / 2)): the same set without a square root or a
// division (src/core/reference.ts shows why). v is guarded (safeVelocity: direction kept) so that
// |v|^2 stays finite.
bool isFlockmate(vec4 p, vec3 v, vec3 d, float d2, float sj) {
#if SPECIES
  if (sj != p.w) return false;
#endif
#if FOV
  vec3 u = safeVelocity(v);
  float vv = dot(u, u);
  float dv = dot(d, u);
  if (vv > EPS2 && dv * abs(dv) < d2 * (vv * (P.fovCos * abs(P.fovCos)))) return false;
#endif
  return true;
}

// e / |e| for q = |e|, or (1, 0, 0) when q <= eps (DESIGN.md section 1).
vec3 unitOr(vec3 e, float q) {
  return q > EPS ? e / q : vec3(1.0, 0.0, 0.0);
}

// Floored modulo with the result in [0, size): a result that rounds up to size becomes 0.
float floorMod(float x, float size) {
  float m = x - size * floor(x / size);
  return m >= size ? 0.0 : max(m, 0.0);
}

// The walls, per active axis. bounce and soft: reflect a coordinate past a wall back inside,
// clamp into the closed box and make that velocity component point inward. wrap: floored modulo.
void applyBoundary(inout vec3 p, inout vec3 v) {
  for (int a = 0; a < DIMS; a++) {
    float lo = P.boundsMin[a];
#if WRAP
    p[a] = lo + floorMod(p[a] - lo, P.boxSize[a]);
#else
    float hi = P.boundsMax[a];
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

#if REYNOLDS
// Reynolds' steer toward a desired velocity along u: limit(maxSpeed u/|u| - v, maxSteerForce),
// 0 for u = 0 (the sum over an empty set).
vec3 steerToward(vec3 u, vec3 v) {
  float len = safeLength(u);
  if (!(len > 0.0)) return vec3(0.0);
  vec3 s = P.maxSpeed * (u / len) - v;
  float sl = safeLength(s);
  return sl > P.maxSteerForce ? s * (P.maxSteerForce / sl) : s;
}
#endif

// The steering acceleration of the three rules ('reynolds': per rule; 'sum': one limited sum).
vec3 steering(vec3 v, Accum acc) {
#if REYNOLDS
  return P.separationWeight * steerToward(acc.sep, v) + P.alignmentWeight * steerToward(acc.sumVel, v) +
         P.cohesionWeight * steerToward(acc.sumOff, v);
#else
  vec3 a = P.separationWeight * acc.sep;
  if (acc.mates > 0) {
    float inv = 1.0 / float(acc.mates);
    a += P.alignmentWeight * (acc.sumVel * inv - v) + P.cohesionWeight * (acc.sumOff * inv);
  }
  float alen = safeLength(a);
  return alen > P.maxSteerForce ? a * (P.maxSteerForce / alen) : a;
#endif
}

// The forces that do not depend on neighbours, at position p: soft walls, obstacles' avoidance,
// the attractor, predators. Off terms cost a uniform test each.
vec3 pointForces(vec3 p) {
  vec3 a = vec3(0.0);
#if SOFT
  for (int k = 0; k < DIMS; k++) {
    if (p[k] < P.softLo[k]) a[k] += P.softK * (P.softLo[k] - p[k]);
    if (p[k] > P.softHi[k]) a[k] -= P.softK * (p[k] - P.softHi[k]);
  }
#endif
  for (int k = 0; k < int(P.obstacleCount); k++) {
    vec4 o = P.obstacles[k];
    vec3 e = minimumImage(p - o.xyz);
    float q = safeLength(e);
    float reach = o.w + P.obstacleMargin;
    if (q < reach) a += (P.obstacleForce * (reach - q) / P.obstacleMargin) * unitOr(e, q);
  }
  if (attractorOn()) {
    vec3 e = minimumImage(P.attractor - p);
    float q = safeLength(e);
    if (q > EPS && q < P.attractorRadius) a += (P.attractorStrength * (1.0 - q / P.attractorRadius) / q) * e;
  }
  for (int k = 0; k < int(P.predatorCount); k++) {
    vec3 e = minimumImage(p - S.predators[k].xyz);
    float q = safeLength(e);
    if (q > EPS && q < P.predatorRadius) a += (P.predatorForce * (1.0 - q / P.predatorRadius) / q) * e;
  }
  return a;
}

// The air's flow w(p, t) = wind + turbulence * u(k p + phi) (ABC flow in 3D, (cos y, sin x) in
// 2D), world units/s; it moves positions only.
vec3 flowAt(vec3 p) {
  vec3 w = P.wind;
  if (turbulenceOn()) {
    vec3 x = P.turbulenceK * p + S.flowPhase;
#if DIMS == 3
    w += (0.5 * P.turbulence) *
         vec3(sin(x.z) + cos(x.y), sin(x.x) + cos(x.z), sin(x.y) + cos(x.x));
#else
    w.xy += P.turbulence * vec2(cos(x.y), sin(x.x));
#endif
  }
#if DIMS == 2
  w.z = 0.0;
#endif
  return w;
}

// The obstacles' hard constraint, in order: a boid inside a sphere goes back onto its surface
// (relative to p itself, so under wrap the nearest image of the sphere) and loses the inward
// component of its velocity.
void constrainObstacles(inout vec3 p, inout vec3 v) {
  for (int k = 0; k < int(P.obstacleCount); k++) {
    vec4 o = P.obstacles[k];
    vec3 e = minimumImage(p - o.xyz);
    float q = safeLength(e);
    if (q < o.w) {
      vec3 u = unitOr(e, q);
      p = p - e + o.w * u;
      float vn = dot(v, u);
      if (vn < 0.0) v -= vn * u;
    }
  }
}

// One boid's step from its neighbour sums: steering and point forces, velocity, speed clamp to
// [minSpeed, maxSpeed] (only for a non-zero velocity), position with the flow, obstacles, walls.
void integrateBoid(vec3 p, vec3 v, Accum acc, out vec3 np, out vec3 nv) {
  v = safeVelocity(v);
  vec3 a = steering(v, acc) + pointForces(p);
#if DIMS == 2
  a.z = 0.0;
#endif
  nv = v + a * P.dt;
  float speed = safeLength(nv);
  if (speed > 0.0) {
    float k = speed > P.maxSpeed ? P.maxSpeed / speed : (speed < P.minSpeed ? P.minSpeed / speed : 1.0);
    nv *= k;
  }
  np = p + (nv + flowAt(p)) * P.dt;
  constrainObstacles(np, nv);
  applyBoundary(np, nv);
#if DIMS == 2
  np.z = 0.0;
  nv.z = 0.0;
#endif
}
