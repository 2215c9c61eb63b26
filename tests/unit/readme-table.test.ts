// The README's <gpu-flock> attribute table must be what the schemas give (npm run
// docs:attributes writes it); and the attribute parsing the element uses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PARAM_SCHEMA } from '../../src/core/params';
import { kebabCase, parseAttribute, schemaAttributes } from '../../src/element/attributes';
import {
  VIEW_TABLE_START,
  currentAttributeTable,
  currentViewTable,
  withAttributeTable,
} from '../../src/element/readme-table';
import { VIEW_SCHEMA } from '../../src/core/view';

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

describe('README attribute table', () => {
  test('matches the schemas (run `npm run docs:attributes` after changing a schema)', () => {
    expect(withAttributeTable(readme)).toBe(readme);
  });

  test('the README has the view options table, one row per VIEW_SCHEMA option', () => {
    expect(readme).toContain(VIEW_TABLE_START);
    const table = currentViewTable();
    for (const s of VIEW_SCHEMA) expect(table).toContain(`| \`${s.name}\` |`);
    expect(table).toContain('`arrow`, `bird`, `fish`, `dot` | `bird` in 3D, `arrow` in 2D');
  });

  test("warmup's element default is given per dimension (2 in 3D, 3 in 2D), not a single 2", () => {
    const row = currentAttributeTable()
      .split('\n')
      .find((l) => l.startsWith('| `warmup` |'));
    expect(row).toContain('| `2` in 3D, `3` in 2D |');
    // The view options table is createFlock's: 0.
    const view = currentViewTable()
      .split('\n')
      .find((l) => l.startsWith('| `warmup` |'));
    expect(view).toContain('| `0` |');
  });

  test('has one row per schema attribute and element attribute', () => {
    const table = currentAttributeTable();
    for (const s of PARAM_SCHEMA) expect(table).toContain(`| \`${kebabCase(s.name)}\` |`);
    for (const a of ['backend', 'disable', 'paused', 'interactive', 'motion']) {
      expect(table).toContain(`| \`${a}\` |`);
    }
  });
});

describe('element attributes', () => {
  test('kebab-case names', () => {
    expect(kebabCase('perceptionRadius')).toBe('perception-radius');
    expect(kebabCase('boundsMin')).toBe('bounds-min');
    expect(kebabCase('count')).toBe('count');
    const names = schemaAttributes().map((a) => a.attribute);
    expect(new Set(names).size).toBe(names.length);
  });

  test('text parsed by schema type; text that does not parse passes through', () => {
    const spec = (type: string, options?: unknown[]) => ({
      name: 'x',
      type,
      default: 0,
      doc: '',
      options,
    });
    expect(parseAttribute(spec('float'), ' 2.5 ')).toBe(2.5);
    expect(parseAttribute(spec('int'), ' 1000 ')).toBe(1000);
    expect(parseAttribute(spec('int'), '1e3')).toBe('1e3');
    expect(parseAttribute(spec('int'), 'lots')).toBe('lots');
    expect(parseAttribute(spec('vec3'), '-1, 2 ,3')).toEqual([-1, 2, 3]);
    expect(parseAttribute(spec('vec3'), '4 5 6')).toEqual([4, 5, 6]);
    expect(parseAttribute(spec('enum', [2, 3]), '2')).toBe(2);
    expect(parseAttribute(spec('enum', ['soft', 'wrap']), 'wrap')).toBe('wrap');
    expect(parseAttribute(spec('enum', ['soft', 'wrap']), 'sticky')).toBe('sticky');
    expect(parseAttribute(spec('bool'), '')).toBe(true);
    expect(parseAttribute(spec('bool'), 'false')).toBe(false);
    expect(parseAttribute(spec('obstacles'), '0,0,0,4; 10,-2,1,2.5')).toEqual([
      { center: [0, 0, 0], radius: 4 },
      { center: [10, -2, 1], radius: 2.5 },
    ]);
    expect(parseAttribute(spec('obstacles'), '[{"center":[1,2,3],"radius":1}]')).toEqual([
      { center: [1, 2, 3], radius: 1 },
    ]);
    expect(parseAttribute(spec('obstacles'), '')).toEqual([]);
  });
});
