/**
 * Shader files with `#include "name"` chunks (GLSL and WGSL alike), resolved with a line map so
 * that compile errors name the file the developer edits and its 1-based line number.
 * (ShaderError itself: src/core/shader-error.ts, re-exported here.)
 */
import type { ShaderMessage } from './shader-error';

export { ShaderError, type ShaderMessage } from './shader-error';

export interface ShaderSource {
  /** The file asked for. */
  file: string;
  /** Resolved text, includes inlined. */
  code: string;
  /** For output line k (1-based), `lines[k - 1]` is the file and 1-based line it came from. */
  lines: { file: string; line: number }[];
}

const INCLUDE = /^\s*#include\s+"([^"]+)"\s*$/;

/**
 * Resolves `#include "chunk.glsl"` lines (each chunk at most once per shader) against `files`,
 * a map from file name (no folder) to its text. Optional `defines` are inserted as
 * `#define NAME VALUE` (GLSL) lines right after a leading `#version` line, mapped to `<defines>`.
 * @throws Error naming the missing file and the including line.
 */
export function resolveShader(
  file: string,
  files: Readonly<Record<string, string>>,
  defines: Readonly<Record<string, string | number>> = {},
): ShaderSource {
  const out: string[] = [];
  const lines: ShaderSource['lines'] = [];
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = files[name];
    if (text === undefined)
      throw new Error(`shader file "${name}" not found (included from ${from})`);
    text.split('\n').forEach((src, idx) => {
      const m = INCLUDE.exec(src);
      if (m) {
        visit(m[1]!, `${name}:${idx + 1}`);
        return;
      }
      out.push(src);
      lines.push({ file: name, line: idx + 1 });
      if (idx === 0 && src.startsWith('#version') && name === file) {
        for (const [k, v] of Object.entries(defines)) {
          out.push(`#define ${k} ${v}`);
          lines.push({ file: '<defines>', line: 0 });
        }
      }
    });
  };
  visit(file, 'root');
  return { file, code: out.join('\n'), lines };
}

/** A GLSL log line: `ERROR: 0:12: text` (ANGLE and most drivers; the 0 is the source string). */
const GLSL_LOG_LINE = /^\s*(ERROR|WARNING|INFO)?:?\s*\d+:(\d+):\s?(.*)$/i;
/** A GLSL log's closing count ("ERROR: 2 compilation errors.  No code generated."), not a message. */
const GLSL_LOG_SUMMARY = /^\s*(ERROR|WARNING):\s*\d+ compilation errors?\./i;

/** The location of output line `n` (1-based) of `src`, or null outside it. */
function locate(src: ShaderSource, n: number): { file: string; line: number } | null {
  return src.lines[n - 1] ?? null;
}

/**
 * Rewrites a compiler log so every `0:LINE` (GLSL, as ANGLE and most drivers print it) or
 * `:LINE:COL` (WGSL, Tint/Naga messages) reference names the original file and line.
 * Returns the mapped log, the first mapped location, and every message of the log (one a
 * non-empty line, the closing error count left out), each at its original file and line.
 */
export function mapShaderLog(
  log: string,
  src: ShaderSource,
): {
  text: string;
  first: { file: string; line: number } | null;
  messages: ShaderMessage[];
} {
  let first: { file: string; line: number } | null = null;
  const messages: ShaderMessage[] = [];
  const lines = log.split('\n');
  const text = lines
    .map((l) =>
      l.replace(/\b\d+:(\d+):/, (whole, n: string) => {
        const loc = locate(src, Number(n));
        if (!loc) return whole;
        first ??= loc;
        return `${loc.file}:${loc.line}:`;
      }),
    )
    .join('\n');
  for (const l of lines) {
    if (!l.trim() || GLSL_LOG_SUMMARY.test(l)) continue;
    const m = GLSL_LOG_LINE.exec(l);
    const type = (m?.[1] ?? (/^\s*warning/i.test(l) ? 'warning' : 'error')).toLowerCase();
    const loc = m ? locate(src, Number(m[2])) : null;
    messages.push({
      file: loc?.file ?? src.file,
      line: loc?.line ?? null,
      column: null,
      type: type as ShaderMessage['type'],
      text: (m ? m[3]! : l).trim(),
    });
  }
  return { text, first, messages };
}

/** The WGSL compilation messages of a module, mapped to original files, as one text and one by one. */
export function mapWgslMessages(
  compiled: readonly { type: string; lineNum: number; linePos: number; message: string }[],
  src: ShaderSource,
): {
  text: string;
  first: { file: string; line: number } | null;
  messages: ShaderMessage[];
} {
  let first: { file: string; line: number } | null = null;
  const messages = compiled.map((m): ShaderMessage => {
    const loc = locate(src, m.lineNum);
    if (loc && m.type === 'error') first ??= loc;
    const type = m.type === 'warning' || m.type === 'info' ? m.type : 'error';
    return {
      file: loc?.file ?? src.file,
      line: loc?.line ?? null,
      column: loc ? m.linePos : null,
      type,
      text: m.message,
    };
  });
  const text = compiled
    .map((m, i) => {
      const { file, line, column } = messages[i]!;
      const where = line !== null ? `${file}:${line}:${column}` : `${src.file}:?`;
      return `${where}: ${m.type}: ${m.message}`;
    })
    .join('\n');
  return { text, first, messages };
}
