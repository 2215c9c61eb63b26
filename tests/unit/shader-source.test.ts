// The shader files' include resolution and line map (src/core/shader-source.ts), and the
// compiler logs mapped to the file and line the developer edits: every message, not only the
// first (ShaderError.messages).
import { describe, expect, test } from 'vitest';
import { mapShaderLog, mapWgslMessages, resolveShader } from '../../src/core/shader-source';

describe('shader sources', () => {
  const files = {
    'main.glsl': '#version 300 es\n#include "common.glsl"\nvoid main() {\n  oops;\n}',
    'common.glsl': 'precision highp float;\nfloat f(float x) { return x; }',
  };
  test('includes are inlined with a line map', () => {
    const s = resolveShader('main.glsl', files, { COUNT: 3 });
    expect(s.code.split('\n')).toEqual([
      '#version 300 es',
      '#define COUNT 3',
      'precision highp float;',
      'float f(float x) { return x; }',
      'void main() {',
      '  oops;',
      '}',
    ]);
    expect(s.lines[5]).toEqual({ file: 'main.glsl', line: 4 });
    expect(s.lines[3]).toEqual({ file: 'common.glsl', line: 2 });
  });
  test('GLSL and WGSL logs name the original file and 1-based line', () => {
    const s = resolveShader('main.glsl', files, { COUNT: 3 });
    const { text, first } = mapShaderLog("ERROR: 0:6: 'oops' : undeclared identifier", s);
    expect(text).toBe("ERROR: main.glsl:4: 'oops' : undeclared identifier");
    expect(first).toEqual({ file: 'main.glsl', line: 4 });
    const w = mapWgslMessages([{ type: 'error', lineNum: 4, linePos: 7, message: 'bad' }], s);
    expect(w.text).toBe('common.glsl:2:7: error: bad');
  });
  test('a missing include names the including line', () => {
    expect(() => resolveShader('a.glsl', { 'a.glsl': 'x\n#include "nope.glsl"' })).toThrow(
      'a.glsl:2',
    );
  });
  test('every message of a GLSL log, each at its file:line; the closing count is not one', () => {
    const s = resolveShader('main.glsl', files, { COUNT: 3 });
    const log = [
      "ERROR: 0:4: 'g' : no matching overloaded function found",
      "WARNING: 0:5: 'f' : unused",
      "ERROR: 0:6: 'oops' : undeclared identifier",
      'ERROR: 2 compilation errors.  No code generated.',
      '',
    ].join('\n');
    const { first, messages } = mapShaderLog(log, s);
    expect(first).toEqual({ file: 'common.glsl', line: 2 });
    expect(messages).toEqual([
      {
        file: 'common.glsl',
        line: 2,
        column: null,
        type: 'error',
        text: "'g' : no matching overloaded function found",
      },
      { file: 'main.glsl', line: 3, column: null, type: 'warning', text: "'f' : unused" },
      {
        file: 'main.glsl',
        line: 4,
        column: null,
        type: 'error',
        text: "'oops' : undeclared identifier",
      },
    ]);
  });
  test('a GLSL log line without a line number is kept, at the shader file', () => {
    const s = resolveShader('main.glsl', files);
    const { first, messages } = mapShaderLog('ERROR: too many uniforms', s);
    expect(first).toBeNull();
    expect(messages).toEqual([
      {
        file: 'main.glsl',
        line: null,
        column: null,
        type: 'error',
        text: 'ERROR: too many uniforms',
      },
    ]);
  });
  test('every WGSL message, each at its file:line:column; the first error is the first error', () => {
    const s = resolveShader('main.glsl', files, { COUNT: 3 });
    const w = mapWgslMessages(
      [
        { type: 'warning', lineNum: 3, linePos: 1, message: 'unused' },
        { type: 'error', lineNum: 6, linePos: 3, message: 'oops' },
        { type: 'error', lineNum: 4, linePos: 7, message: 'bad' },
        { type: 'error', lineNum: 99, linePos: 1, message: 'past the end' },
      ],
      s,
    );
    expect(w.first).toEqual({ file: 'main.glsl', line: 4 });
    expect(w.messages).toEqual([
      { file: 'common.glsl', line: 1, column: 1, type: 'warning', text: 'unused' },
      { file: 'main.glsl', line: 4, column: 3, type: 'error', text: 'oops' },
      { file: 'common.glsl', line: 2, column: 7, type: 'error', text: 'bad' },
      { file: 'main.glsl', line: null, column: null, type: 'error', text: 'past the end' },
    ]);
    expect(w.text.split('\n')).toEqual([
      'common.glsl:1:1: warning: unused',
      'main.glsl:4:3: error: oops',
      'common.glsl:2:7: error: bad',
      'main.glsl:?: error: past the end',
    ]);
  });
});
