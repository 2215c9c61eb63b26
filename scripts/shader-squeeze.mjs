/**
 * Shader text as it ships (GLSL ES 3.00 and WGSL alike): comments out, and in each line the
 * indentation and every space that separates no two tokens that would otherwise join (a space
 * stays between two words, and between two operators: `a - -b`, `array<u32, 4> = x`, `a / *p`).
 * Preprocessor lines (`#define`, `#include`, ...) only lose their comments and repeated spaces:
 * `#define F (x)` is not `#define F(x)`. Every line stays where it was (a comment-only line
 * becomes empty), so compile errors still name the file and the 1-based line; columns move.
 * flattenShader goes further for the package (build-lib.mjs, and page-sizes.mjs, which measures
 * what ships): the lines of code joined into one, only preprocessor directives kept on lines of
 * their own, so a compile error in a built file names the file but not the line the developer
 * edits (dev servers and tests load the files as they are, where it does).
 * Block comments are not supported: the shader files have none (squeezeShader throws on one).
 */

/** Never part of a longer token, in GLSL or WGSL: a space beside one separates nothing. */
const DELIMITERS = new Set([...',;(){}[]']);
/** Operator characters: two of them side by side may read as one token (`- -` is not `--`). */
const OPERATORS = new Set([...'=+-*/%<>!&|^~?:.']);

/** Whether the space between characters `a` and `b` can go. */
function spaceCanGo(a, b) {
  if (DELIMITERS.has(a) || DELIMITERS.has(b)) return true;
  const opA = OPERATORS.has(a);
  const opB = OPERATORS.has(b);
  return opA !== opB && a !== '@' && b !== '@';
}

/** One line, its comment already removed: indentation and joining spaces out. */
function squeezeLine(line) {
  const text = line.trim().replace(/\s+/g, ' ');
  if (text.startsWith('#')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ' && spaceCanGo(text[i - 1], text[i + 1])) continue;
    out += c;
  }
  return out;
}

/**
 * @param {string} text  a shader file
 * @returns {string} the same shader, minified line by line (same number of lines)
 * @throws Error on a block comment (not handled)
 */
export function squeezeShader(text) {
  if (text.includes('/*')) throw new Error('squeezeShader: block comments are not supported');
  return text
    .split('\n')
    .map((line) => squeezeLine(line.replace(/\/\/.*$/, '')))
    .join('\n');
}

/**
 * The squeezed shader with its code on as few lines as the preprocessor allows: each directive
 * (`#version`, `#include`, `#define`, `#if`, ..., with its `\` continuation lines) stays on a line
 * of its own, the code between two directives becomes one line (a space kept only where two
 * tokens would join, as within a line). Same tokens in the same order as squeezeShader's.
 * @param {string} text  a shader file
 * @returns {string}
 */
export function flattenShader(text) {
  let out = '';
  let directive = false; // inside a directive (a `#` line and its `\` continuation lines)
  for (const line of squeezeShader(text).split('\n')) {
    if (directive || line.startsWith('#')) {
      if (out && !out.endsWith('\n')) out += '\n';
      out += `${line}\n`;
      directive = line.endsWith('\\');
      continue;
    }
    if (line === '') continue;
    const last = out[out.length - 1];
    if (out && last !== '\n' && !spaceCanGo(last, line[0])) out += ' ';
    out += line;
  }
  return out;
}
