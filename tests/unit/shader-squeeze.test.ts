// The shader minifier of the build (scripts/shader-squeeze.mjs) changes no program: for every
// GLSL and WGSL file, the squeezed text has the same lines (so compile errors name the same file
// and line) and, read by a maximal-munch tokenizer like the compilers', the same tokens on each
// line as the original without its comments; a space that kept two tokens apart stays. The
// package's flattened text (flattenShader) has the same preprocessor directives, in order, and
// the same tokens between each two as the squeezed text.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { flattenShader, squeezeShader } from '../../scripts/shader-squeeze.mjs';

const root = join(import.meta.dirname, '../..');
const files = [
  ...readdirSync(join(root, 'src/webgl2'))
    .filter((f) => f.endsWith('.glsl'))
    .map((f) => `src/webgl2/${f}`),
  ...readdirSync(join(root, 'src/webgpu'))
    .filter((f) => f.endsWith('.wgsl'))
    .map((f) => `src/webgpu/${f}`),
];

/** GLSL ES 3.00 and WGSL punctuators of more than one character, longest first. */
const LONG = [
  '<<=',
  '>>=',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '^^',
  '++',
  '--',
].concat(['+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '->', '//', '/*']);

/** The tokens of one line (no comments in it): words and numbers, then punctuators, longest first. */
export function tokens(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const word = /^[A-Za-z0-9_.@#\\]+/.exec(line.slice(i));
    // A word: identifier, keyword, number (1.0, 1e-3 read as 1e, -, 3 on both sides alike).
    if (word && /[A-Za-z0-9_@#\\]/.test(c)) {
      out.push(word[0]);
      i += word[0].length;
      continue;
    }
    const long = LONG.find((p) => line.startsWith(p, i));
    out.push(long ?? c);
    i += long ? long.length : 1;
  }
  return out;
}

describe('squeezeShader', () => {
  test('hand-worked lines: spaces between words or between operators stay, the rest go', () => {
    expect(squeezeShader('  a - -b;')).toBe('a- -b;');
    expect(squeezeShader('let x: array<u32, 4> = y; // note')).toBe('let x:array<u32,4> =y;');
    expect(squeezeShader('x = a / *p;')).toBe('x=a/ *p;');
    expect(squeezeShader('#define F (x)  // object-like, not F(x)')).toBe('#define F (x)');
    expect(squeezeShader('@compute @workgroup_size(64)')).toBe('@compute @workgroup_size(64)');
    expect(squeezeShader('if (a >= b && c) { d += 1.0; }\n\n// only a comment\nx')).toBe(
      'if(a>=b&&c){d+=1.0;}\n\n\nx',
    );
    expect(() => squeezeShader('a /* b */ c')).toThrow(/block comments/);
  });

  test('the tokenizer tells joined tokens apart (the property below can fail)', () => {
    expect(tokens('a- -b')).toEqual(['a', '-', '-', 'b']);
    expect(tokens('a--b')).toEqual(['a', '--', 'b']);
    expect(tokens('array<u32,4> =y')).not.toEqual(tokens('array<u32,4>=y'));
  });

  test(`every shader file (${files.length}) keeps its lines and its tokens, and is smaller`, () => {
    expect(files.length).toBeGreaterThan(40);
    let before = 0;
    let after = 0;
    for (const f of files) {
      const text = readFileSync(join(root, f), 'utf8');
      const squeezed = squeezeShader(text);
      const a = text.split('\n').map((l) => tokens(l.replace(/\/\/.*$/, '')));
      const b = squeezed.split('\n').map((l) => tokens(l));
      expect(b.length, f).toBe(a.length);
      for (let i = 0; i < a.length; i++) expect(b[i], `${f}:${i + 1}`).toEqual(a[i]);
      before += text.length;
      after += squeezed.length;
    }
    expect(after / before).toBeLessThan(0.65);
  });
});

/**
 * A shader as the preprocessor reads it: its directives (a `#` line with its `\` continuation
 * lines, each line as it is) and, between them, the tokens of the code.
 */
function segments(text: string): (string | string[])[] {
  const out: (string | string[])[] = [];
  let code: string[] = [];
  let directive = false;
  for (const line of text.split('\n')) {
    if (directive || line.startsWith('#')) {
      if (code.length) out.push(code);
      code = [];
      out.push(line);
      directive = line.endsWith('\\');
    } else code.push(...tokens(line));
  }
  if (code.length) out.push(code);
  return out;
}

describe('flattenShader', () => {
  test('hand-worked: code joined, directives and their continuation lines kept', () => {
    expect(flattenShader('#version 300 es\n\nint a;\n// c\nint b = a -\n-a;\n')).toBe(
      '#version 300 es\nint a;int b=a- -a;',
    );
    expect(flattenShader('x;\n#define F(a) \\\n  a + 1\ny = F(2);\n#if A\nz;\n#endif\n')).toBe(
      'x;\n#define F(a) \\\na+1\ny=F(2);\n#if A\nz;\n#endif\n',
    );
    expect(flattenShader('let a = b\n- -c;\nfn f()\n{ }')).toBe('let a=b- -c;fn f(){}');
  });

  test(`every shader file (${files.length}) keeps its directives and the tokens between them`, () => {
    let before = 0;
    let after = 0;
    for (const f of files) {
      const squeezed = squeezeShader(readFileSync(join(root, f), 'utf8'));
      const flat = flattenShader(readFileSync(join(root, f), 'utf8'));
      expect(segments(flat), f).toEqual(segments(squeezed));
      before += squeezed.split('\n').length;
      after += flat.split('\n').length;
    }
    expect(after / before).toBeLessThan(0.4);
  });
});
