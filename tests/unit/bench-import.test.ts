// The benchmark page's results import (issue 31 item 4): a file is checked whole against the
// schema (src/bench/import-schema.ts) before any of it is kept; hostile files are rejected with
// the field named; the project's own exports (docs/bench-results/*.json) import.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseImport } from '../../src/bench/report';

const dir = join(import.meta.dirname, '../../docs/bench-results');
const own = readdirSync(dir).filter((f) => f.endsWith('.json'));
const swift = JSON.parse(readFileSync(join(dir, 'swiftshader-2-cores.json'), 'utf8')) as Record<
  string,
  unknown
>;
const base = { tool: 'gpu-flock bench', rows: [] };

describe('results import', () => {
  test.each(own)('docs/bench-results/%s imports, rows and capacity kept', (f) => {
    const data = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
      rows: unknown[];
      capacity?: unknown[];
    };
    const e = parseImport(data, f);
    expect(e.rows.length).toBe(data.rows.length);
    expect(e.rows.length).toBeGreaterThan(5);
    expect(e.capacity?.length).toBe(data.capacity?.length);
    expect(e.label).toMatch(/\w/);
  });

  test.each([
    ['rows: [null]', { ...base, rows: [null] }, /^h\.json: rows\[0\]: expected Object, got null$/],
    [
      'rows: [5]',
      { ...base, rows: [5] },
      /^h\.json: rows\[0\]: expected Object, got a number \(5\)$/,
    ],
    [
      'capacity: [null]',
      { ...base, capacity: [null] },
      /^h\.json: capacity\[0\]: expected Object, got null$/,
    ],
    [
      'capacity: 5',
      { ...base, capacity: 5 },
      /^h\.json: capacity: expected Array, got a number \(5\)$/,
    ],
    [
      'a measured row without stepMs',
      {
        ...base,
        rows: [
          {
            label: 'webgl2 grid',
            backend: 'webgl2',
            mode: 'grid',
            count: 1000,
            timing: 'gpu',
            passes: {},
          },
        ],
      },
      /^h\.json: rows\[0\]\.stepMs: missing$/,
    ],
    [
      'a skipped row whose count is a string',
      { ...base, rows: [{ label: 'cpu grid', backend: 'cpu', count: '4096', skipped: 'why' }] },
      /^h\.json: rows\[0\]\.count: expected number, got a string \("4096"\)$/,
    ],
    [
      'a capacity result of count null',
      {
        ...base,
        capacity: [{ backend: 'webgl2', available: true, results: [{ fps: 60, count: null }] }],
      },
      /^h\.json: capacity\[0\]\.results\[0\]\.count: expected number, got null$/,
    ],
    [
      'an unknown backend',
      { ...base, capacity: [{ backend: 'metal', available: true, results: [] }] },
      /^h\.json: capacity\[0\]\.backend: expected .*"webgpu".*, got a string \("metal"\)$/,
    ],
    [
      'the swiftshader export with one row replaced by null',
      { ...swift, rows: [...(swift.rows as unknown[]).slice(0, 3), null] },
      /^h\.json: rows\[3\]: expected Object, got null$/,
    ],
  ])('%s is rejected, the field named', (_what, data, message) => {
    expect(() => parseImport(data, 'h.json')).toThrow(message);
  });
});
