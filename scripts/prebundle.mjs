// The runtime dependencies Vite pre-bundles up front for the demo and the library: a dependency
// Vite discovers mid-run makes it reload the page under a running test or screenshot.
// vite.config.ts, the e2e tests' own Vite servers and scripts/demo-shots.mjs share this list.
export const PREBUNDLED_DEPS = [
  'dat.gui',
  'gl-matrix',
  'gl-matrix/esm/mat4.js',
  'gl-matrix/esm/vec3.js',
  'twgl.js',
];
