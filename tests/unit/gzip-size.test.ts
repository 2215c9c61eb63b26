// The sizing lines package-check.mjs and page-sizes.mjs share (scripts/gzip-size.mjs): which
// chunks a page loads, from a hand-written esbuild metafile.
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { gzipSize, kB, pageFiles } from '../../scripts/gzip-size.mjs';

describe('gzip-size', () => {
  // entry -> shared (static); entry ..> webgpu (dynamic) -> shared, gpu-only (static);
  // entry ..> cpu (dynamic) -> cpu-only (static).
  const outputs = {
    entry: {
      imports: [
        { path: 'shared', kind: 'import-statement' },
        { path: 'webgpu', kind: 'dynamic-import' },
        { path: 'cpu', kind: 'dynamic-import' },
      ],
    },
    shared: { imports: [] },
    webgpu: {
      imports: [
        { path: 'shared', kind: 'import-statement' },
        { path: 'gpu-only', kind: 'import-statement' },
      ],
    },
    'gpu-only': { imports: [] },
    cpu: { imports: [{ path: 'cpu-only', kind: 'import-statement' }] },
    'cpu-only': { imports: [] },
  };

  test('a page loads its starts and their static imports, not the dynamic imports it does not name', () => {
    expect([...pageFiles(outputs, ['entry'])].sort()).toEqual(['entry', 'shared']);
    expect([...pageFiles(outputs, ['entry', 'webgpu'])].sort()).toEqual([
      'entry',
      'gpu-only',
      'shared',
      'webgpu',
    ]);
    expect([...pageFiles(outputs, ['entry', 'cpu'])].sort()).toEqual([
      'cpu',
      'cpu-only',
      'entry',
      'shared',
    ]);
  });

  test('gzip at level 9 in kB of 1,000 bytes', () => {
    const text = 'boids '.repeat(997);
    expect(gzipSize(text)).toBe(gzipSync(text, { level: 9 }).length);
    expect(gzipSize(text)).toBeLessThan(text.length / 20);
    expect(kB(41_049)).toBe('41.0 kB');
    expect(kB(112_751)).toBe('112.8 kB');
  });
});
