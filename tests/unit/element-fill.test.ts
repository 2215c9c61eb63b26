// An element given no box fills itself (issue 27 item 3): its box follows its shape
// (autoBounds) and is framed with fit cover; a box, a preset or auto-bounds="false" keep
// DESIGN's box and contain (src/element/attribute-options.ts elementDefaultOf).
import { describe, expect, test } from 'vitest';
import {
  elementAutoBounds,
  elementDefaultOf,
  SCHEMA_ATTRS,
} from '../../src/element/attribute-options';
import { checkStartInputs, type FlockOptions } from '../../src/flock/options';
import { defaultParams, validateParams } from '../../src/core/params';
import { initialState } from '../../src/core/state';

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

// createFlock agrees (src/flock/options.ts fillsCanvas): given no model (no params, initialState
// or view.autoBounds) its view defaults are the element's fill; any params keep DESIGN's box.
describe('createFlock given no model fills its canvas as the element does', () => {
  const state = initialState(validateParams({ count: 7 }));
  test.each([
    [{}, true, 'cover'],
    [{ backend: 'webgl2', disable: ['webgpu'], view: { palette: 'dusk' } }, true, 'cover'],
    [{ params: {} }, true, 'cover'],
    [{ view: { fit: 'contain' } }, true, 'contain'],
    [{ params: { count: 3001 } }, false, 'contain'],
    [{ params: { seed: 5 } }, false, 'contain'],
    [{ initialState: state }, false, 'contain'],
    [{ view: { autoBounds: false } }, false, 'contain'],
    [{ params: { count: 3001 }, view: { autoBounds: true, fit: 'cover' } }, true, 'cover'],
  ] as const)('%o: autoBounds %s, fit %s', (options, auto, fit) => {
    const { view, params } = checkStartInputs(options as FlockOptions);
    expect(view.autoBounds).toBe(auto);
    expect(view.fit).toBe(fit);
    expect(params.boundsMax).toEqual(defaultParams().boundsMax);
  });
});
