// The sizing lines shared by package-check.mjs (the budgets of issue 30, on the packed files) and
// page-sizes.mjs (where a page's bytes come from, by source module): one gzip level, one unit, one
// rule for which chunks a page loads.
import { gzipSync } from 'node:zlib';

/**
 * Gzip size of `bytes` at level 9, as a server with `gzip -9` sends it. Node's zlib writes
 * 0.5-0.8% more than the gzip command at the same level.
 * @param {Uint8Array | string} bytes
 * @returns {number} bytes
 */
export const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;

/**
 * @param {number} n  bytes
 * @returns {string} e.g. `41.0 kB` (kB of 1,000 bytes, as the budgets are written)
 */
export const kB = (n) => `${(n / 1000).toFixed(1)} kB`;

/**
 * The output files a page loads from an esbuild metafile's `outputs`: the `starts` (its entry and
 * the dynamic-import chunks the backend ladder reaches) and, from each, its static imports
 * (`import-statement`), transitively. Dynamic imports are not followed: a chunk loads only when
 * the ladder reaches it, so a page names the ones it loads in `starts`.
 * @param {Record<string, { imports: { path: string, kind: string }[] }>} outputs
 * @param {Iterable<string>} starts  output paths (keys of `outputs`)
 * @returns {Set<string>} output paths
 */
export function pageFiles(outputs, starts) {
  const seen = new Set();
  const visit = (path) => {
    if (!path || seen.has(path)) return;
    seen.add(path);
    for (const i of outputs[path].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  for (const s of starts) visit(s);
  return seen;
}
