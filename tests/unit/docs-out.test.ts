// The single file's build drops the tables' `doc` descriptions (scripts/docs-out.mjs): which
// text goes, on the real parameter table, and what the check of the built file refuses; the
// package's modules drop those of the internal uniform tables only.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import * as docsOut from '../../scripts/docs-out.mjs';

const { DOC_PROPERTY, INTERNAL_DOC_TABLES, MIN_DOCS_DROPPED, docsOutPlugin } = docsOut;

describe('docs-out', () => {
  test('a doc line goes whole, an inline doc with its comma; nothing else changes', () => {
    const src = [
      '  {',
      "    name: 'a',",
      "    doc: 'The \\'x\\' value',",
      "    unit: '',",
      '  },',
      `  { name: 'b', doc: "B", unit: 'm' },`,
      '  doc: string;',
      '',
    ].join('\n');
    expect(src.replace(DOC_PROPERTY, '')).toBe(
      [
        '  {',
        "    name: 'a',",
        "    unit: '',",
        '  },',
        "  { name: 'b', unit: 'm' },",
        '  doc: string;',
        '',
      ].join('\n'),
    );
  });

  test('every doc of src/core/param-schema.ts goes, and the other lines stay', () => {
    const id = new URL('../../src/core/param-schema.ts', import.meta.url).pathname;
    const code = readFileSync(id, 'utf8');
    const docs = code.split('\n').filter((l) => /^\s*doc: '/.test(l)).length;
    expect(docs).toBeGreaterThan(30);
    const plugin = docsOutPlugin();
    const out = plugin.transform(code, id)!.code;
    expect(out).not.toMatch(/\bdoc: ['"]/);
    expect(out.split('\n').length).toBe(code.split('\n').length - docs);
    // Files outside src/ (and the demo's, the bench's) are left alone.
    expect(plugin.transform(code, '/x/src/app/params.ts')).toBeNull();
    expect(plugin.transform(code, '/x/scripts/params.ts')).toBeNull();
  });

  test('the check refuses a file that reads a doc, or one built with too few dropped', () => {
    const plugin = docsOutPlugin();
    const table = Array.from({ length: MIN_DOCS_DROPPED }, (_, i) => `  { n: ${i}, doc: 'd' },`);
    plugin.transform(table.join('\n'), '/x/src/core/t.ts');
    const kept = 'let s=`${d}, // offset ${r[u.name]}${u.doc?`: ${u.doc}`:""}`;';
    expect(() => plugin.check(kept, 'f.js')).not.toThrow();
    expect(() => plugin.check(`${kept}title=e.doc;`, 'f.js')).toThrow(/reads a dropped doc/);
    expect(() => plugin.check('let{doc:t}=e;', 'f.js')).toThrow(/reads a dropped doc/);
    expect(() => docsOutPlugin().check(kept, 'f.js')).toThrow(/only 0 doc properties dropped/);
  });

  test('the package drops the docs of the term and drawing uniform tables, no others', () => {
    const plugin = docsOutPlugin(INTERNAL_DOC_TABLES);
    for (const f of ['terms', 'look-uniforms']) {
      const id = new URL(`../../src/core/${f}.ts`, import.meta.url).pathname;
      const code = readFileSync(id, 'utf8');
      expect(code, f).toMatch(/\bdoc: ['"]/);
      expect(plugin.transform(code, id)!.code, f).not.toMatch(/\bdoc: ['"]/);
    }
    for (const f of ['core/param-schema', 'core/view', 'element/attributes']) {
      const id = new URL(`../../src/${f}.ts`, import.meta.url).pathname;
      expect(plugin.transform(readFileSync(id, 'utf8'), id), f).toBeNull();
    }
  });
});
