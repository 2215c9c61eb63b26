/**
 * The GLSL ES 3.00 shader files of src/webgl2/ (beside this one, as the WGSL files sit in
 * src/webgpu/), by file name (no folder), as `resolveShader` takes them, plus the generated
 * chunks `flock-params.gen.glsl` (the uniform blocks and switches of the term table,
 * src/core/terms.ts), `look-uniforms.gen.glsl` (the drawing uniforms of the look table,
 * src/core/look-uniforms.ts) and `look-constants.gen.glsl` (the look's constants, LOOK_CONSTANTS
 * there). Vite inlines the files at build time, so they ship with the library.
 */
import { flockParamsGlsl } from '../core/terms';
import { lookConstantsGlsl, lookUniformsGlsl } from '../core/look-uniforms';

const modules = import.meta.glob('./*.glsl', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export const GLSL_FILES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    Object.entries(modules).map(([path, text]) => [path.slice(path.lastIndexOf('/') + 1), text]),
  ),
  'flock-params.gen.glsl': flockParamsGlsl(),
  'look-uniforms.gen.glsl': lookUniformsGlsl(),
  'look-constants.gen.glsl': lookConstantsGlsl(),
};
