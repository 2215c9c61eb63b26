/**
 * The GLSL ES 3.00 shader files of glsl/, by file name (no folder), as `resolveShader` takes them.
 * Vite inlines them at build time, so they ship with the library.
 */
const modules = import.meta.glob('../../glsl/*.glsl', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export const GLSL_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(modules).map(([path, text]) => [path.slice(path.lastIndexOf('/') + 1), text]),
);
