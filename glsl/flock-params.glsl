// The simulation parameters as uniforms (packed by src/webgl2/uniforms.ts from FlockParams).
// Compile-time switches, set as #defines by the TypeScript side:
//   DIMS 2 or 3, WRAP 1 (wrap) or 0 (bounce), GRID 1 (uniform grid) or 0 (all pairs).
#if !defined(DIMS) || !defined(WRAP)
#error DIMS and WRAP must be defined (see src/webgl2/uniforms.ts)
#endif
uniform vec3 uBoundsMin;   // world units
uniform vec3 uBoundsMax;   // world units
uniform vec3 uBoxSize;     // boundsMax - boundsMin, computed in float64 on the CPU
uniform float uR2;         // perceptionRadius^2
uniform vec3 uWeights;     // separation, alignment, cohesion weights
uniform float uMaxSpeed;   // world units/s
uniform float uMinSpeed;   // world units/s, 0: off
uniform float uMaxSteer;   // world units/s^2
uniform float uDt;         // s
