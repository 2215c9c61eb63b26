// The simulation parameters as uniforms (packed by src/webgl2/uniforms.ts from FlockParams).
// Compile-time switches, set as #defines by the TypeScript side:
//   DIMS 2 or 3, WRAP 1 (wrap) or 0 (bounce, soft), SOFT 1 (soft walls' force) or 0,
//   GRID 1 (uniform grid) or 0 (all pairs), REYNOLDS 1 (steering 'reynolds') or 0 ('sum'),
//   SPECIES 1 (more than one species: alignment and cohesion test the neighbour's species) or 0.
// The point forces and the flow are uniform branches (a count or a strength of 0 skips them).
#if !defined(DIMS) || !defined(WRAP)
#error DIMS and WRAP must be defined (see src/webgl2/uniforms.ts)
#endif
#ifndef SOFT
#define SOFT 0
#endif
#ifndef REYNOLDS
#define REYNOLDS 0
#endif
#ifndef SPECIES
#define SPECIES 0
#endif
// Lengths of the uniform arrays (src/core/params.ts MAX_OBSTACLES, MAX_PREDATORS).
#define MAX_OBSTACLES 16
#define MAX_PREDATORS 8
uniform vec3 uBoundsMin;   // world units
uniform vec3 uBoundsMax;   // world units
uniform vec3 uBoxSize;     // boundsMax - boundsMin, computed in float64 on the CPU
uniform float uR2;         // perceptionRadius^2
uniform float uRs2;        // min(separationRadius, perceptionRadius)^2
uniform vec3 uWeights;     // separation, alignment, cohesion weights
uniform float uMaxSpeed;   // world units/s
uniform float uMinSpeed;   // world units/s, 0: off
uniform float uMaxSteer;   // world units/s^2
uniform float uDt;         // s
// Soft walls: the margin's inner planes (boundsMin + M, boundsMax - M) and F / M.
uniform vec3 uSoftLo;
uniform vec3 uSoftHi;
uniform float uSoftK;      // 1/s^2
// Obstacles: xyz centre, w radius (world units); margin (units) and force (units/s^2).
uniform int uObstacleCount;
uniform vec4 uObstacles[MAX_OBSTACLES];
uniform float uObstacleMargin;
uniform float uObstacleForce;
// Attractor: xyz position (world units), w strength (units/s^2; 0: off); its radius.
uniform vec4 uAttractor;
uniform float uAttractorRadius;
// Predators h_k(t) of this step (computed in float64 on the CPU), radius and force.
uniform int uPredatorCount;
uniform vec3 uPredators[MAX_PREDATORS];
uniform float uPredatorRadius;
uniform float uPredatorForce;
// Flow: wind (units/s), turbulence amplitude (units/s; 0: off), k = 2 pi / turbulenceScale and
// this step's phase phi (radians, in [0, 2 pi), computed in float64 on the CPU).
uniform vec3 uWind;
uniform float uTurbulence;
uniform float uTurbulenceK;
uniform float uFlowPhase;
