/** Gzip size at level 9, in bytes. */
export function gzipSize(bytes: Uint8Array | string): number;
/** `41.0 kB` (kB of 1,000 bytes). */
export function kB(n: number): string;
/** The output files a page loads: `starts` and their static imports, transitively. */
export function pageFiles(
  outputs: Record<string, { imports: { path: string; kind: string }[] }>,
  starts: Iterable<string>,
): Set<string>;
