/**
 * Shader files ship without their comments: every line and column stays where it was (a
 * comment-only line becomes empty), so compile errors still name the file, 1-based line and column.
 * Used by build-lib.mjs (what ships) and page-sizes.mjs (what it measures).
 */
export function squeezeShader(text) {
  return text
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trimEnd())
    .join('\n');
}
