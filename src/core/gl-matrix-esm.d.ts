// Types of gl-matrix's per-function ES modules (gl-matrix/esm/*.js ship without .d.ts): the same
// signatures as the package's own `mat4` and `vec3` namespaces. render-math.ts imports from these
// paths because bundlers (esbuild, which stands in for webpack, Parcel and Next here) tree-shake
// them to the few functions used; through 'gl-matrix''s index they keep every mat4/vec3 function.
declare module 'gl-matrix/esm/mat4.js' {
  import type { mat4 } from 'gl-matrix';
  export const create: typeof mat4.create;
  export const determinant: typeof mat4.determinant;
  export const invert: typeof mat4.invert;
  export const lookAt: typeof mat4.lookAt;
  export const multiply: typeof mat4.multiply;
  export const perspectiveNO: typeof mat4.perspectiveNO;
  export const perspectiveZO: typeof mat4.perspectiveZO;
}

declare module 'gl-matrix/esm/vec3.js' {
  import type { vec3 } from 'gl-matrix';
  export const fromValues: typeof vec3.fromValues;
}
