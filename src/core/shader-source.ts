/**
 * Shader files with `#include "name"` chunks (GLSL and WGSL alike), resolved with a line map so
 * that compile errors name the file the developer edits and its 1-based line number.
 */

export interface ShaderSource {
  /** The file asked for. */
  file: string;
  /** Resolved text, includes inlined. */
  code: string;
  /** For output line k (1-based), `lines[k - 1]` is the file and 1-based line it came from. */
  lines: { file: string; line: number }[];
}

/** Thrown for a shader that fails to compile or link; `message` holds mapped file:line entries. */
export class ShaderError extends Error {
  constructor(
    message: string,
    /** The shader file at fault. */
    readonly file: string,
    /** Its 1-based line, or null when the driver named none. */
    readonly line: number | null,
  ) {
    super(message);
    this.name = 'ShaderError';
  }
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

/**
 * Rewrites a compiler log so every `0:LINE` (GLSL, as ANGLE and most drivers print it) or
 * `:LINE:COL` (WGSL, Tint/Naga messages) reference names the original file and line.
 * Returns the mapped log and the first mapped location.
 */
export function mapShaderLog(
  log: string,
  src: ShaderSource,
): { text: string; first: { file: string; line: number } | null } {
  let first: { file: string; line: number } | null = null;
  const at = (n: number) => {
    const loc = src.lines[n - 1];
    if (!loc) return null;
    first ??= loc;
    return loc;
  };
  const text = log
    .split('\n')
    .map((l) =>
      l.replace(/\b\d+:(\d+):/, (whole, n: string) => {
        const loc = at(Number(n));
        return loc ? `${loc.file}:${loc.line}:` : whole;
      }),
    )
    .join('\n');
  return { text, first };
}

/** The WGSL compilation messages of a module, mapped to original files, as one text. */
export function mapWgslMessages(
  messages: readonly { type: string; lineNum: number; linePos: number; message: string }[],
  src: ShaderSource,
): { text: string; first: { file: string; line: number } | null } {
  let first: { file: string; line: number } | null = null;
  const text = messages
    .map((m) => {
      const loc = src.lines[m.lineNum - 1];
      if (loc && m.type === 'error') first ??= loc;
      const where = loc ? `${loc.file}:${loc.line}:${m.linePos}` : `${src.file}:?`;
      return `${where}: ${m.type}: ${m.message}`;
    })
    .join('\n');
  return { text, first };
}
