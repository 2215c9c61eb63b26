// An element given no box fills itself (issue 27 item 3): its box follows its shape
// (autoBounds) and is framed with fit cover; a box, a preset or auto-bounds="false" keep
// DESIGN's box and contain (src/element/attribute-options.ts elementDefaultOf).
import { describe, expect, test } from 'vitest';
import {
  elementAutoBounds,
  elementDefaultOf,
  SCHEMA_ATTRS,
} from '../../src/element/attribute-options';

const el = (attrs: Record<string, string>) => ({
  getAttribute: (n: string) => attrs[n] ?? null,
  hasAttribute: (n: string) => n in attrs,
});
const attr = (name: string) => SCHEMA_ATTRS.find((a) => a.target === 'view' && a.name === name)!;

describe('the element fills its canvas by default', () => {
  test.each([
    [{ count: '3000' }, true, 'cover'],
    [{}, true, 'cover'],
    [{ bounds: 'auto' }, true, 'cover'],
    [{ count: '3000', 'bounds-min': '-10,-10,-10' }, false, 'contain'],
    [{ 'bounds-max': '10,10,10' }, false, 'contain'],
    [{ preset: 'school' }, false, 'contain'],
    [{ bounds: 'nope' }, false, 'contain'],
    [{ count: '3000', 'auto-bounds': 'false' }, true, 'contain'],
    [{ preset: 'school', 'auto-bounds': '' }, false, 'cover'],
  ] as const)('%o: autoBounds default %s, fit %s', (attrs, auto, fit) => {
    const e = el(attrs);
    expect(elementAutoBounds(e)).toBe(auto);
    expect(elementDefaultOf(e, attr('autoBounds'))).toBe(auto);
    expect(elementDefaultOf(e, attr('fit'))).toBe(fit);
  });
});
