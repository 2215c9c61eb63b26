// The demo's "Copy embed code" line (src/element/embed-code.ts): non-default attributes only,
// and it reads back (through the element's own attribute parser) as the same params and view.
import { describe, expect, test } from 'vitest';
import { embedCode } from '../../src/element/embed-code';
import { parseAttribute, schemaAttributes } from '../../src/element/attributes';
import { VIEW_SCHEMA, defaultView, validateView } from '../../src/core/view';
import { defaultParams, validateParams } from '../../src/core/params';

/** The attributes of a `<gpu-flock ...>` line, unescaped: name -> text ('' for a bare one). */
function attributesOf(line: string): Map<string, string> {
  const m = /^<gpu-flock((?:\s+[a-z-]+(?:="[^"]*")?)*)><\/gpu-flock>$/.exec(line);
  if (!m) throw new Error(`not an element line: ${line}`);
  const out = new Map<string, string>();
  for (const a of m[1]!.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)) {
    const text = (a[2] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&');
    out.set(a[1]!, text);
  }
  return out;
}

/** What the element makes of the attributes (its defaults: warmup 2, pointer from interactive). */
function readBack(line: string) {
  const attrs = attributesOf(line);
  const params: Record<string, unknown> = {};
  const view: Record<string, unknown> = {
    warmup: 2,
    pointer: attrs.has('interactive') ? 'element' : 'off',
    // The box follows the element unless one is given (framed with fit cover).
    autoBounds:
      attrs.get('bounds') === 'auto' || !(attrs.has('bounds-min') || attrs.has('bounds-max')),
  };
  view.fit = view.autoBounds && attrs.get('auto-bounds') !== 'false' ? 'cover' : 'contain';
  for (const a of schemaAttributes(VIEW_SCHEMA)) {
    const text = attrs.get(a.attribute);
    if (text === undefined) continue;
    (a.target === 'params' ? params : view)[a.name] = parseAttribute(a.spec, text);
  }
  return { params: validateParams(params), view: validateView(view) };
}

describe('embedCode', () => {
  test("the defaults: only the count (and the element's own defaults are not written)", () => {
    // DESIGN's box, not following the element (createFlock's default): auto-bounds="false".
    expect(embedCode({ params: defaultParams(), view: { ...defaultView(), warmup: 2 } })).toBe(
      '<gpu-flock count="16384" auto-bounds="false"></gpu-flock>',
    );
    // The element's own look with no box given: the box follows it, framed with fit cover.
    const own = { ...defaultView(), warmup: 2, autoBounds: true, fit: 'cover' as const };
    expect(embedCode({ params: defaultParams(), view: own })).toBe(
      '<gpu-flock count="16384" bounds="auto"></gpu-flock>',
    );
    // createFlock's warmup 0 differs from the element's 2: written.
    expect(embedCode({ params: defaultParams(), view: defaultView() })).toBe(
      '<gpu-flock count="16384" auto-bounds="false" warmup="0"></gpu-flock>',
    );
  });

  test("the element's warm-up default is 3 s in 2D, 2 s in 3D: neither is written", () => {
    const flat = validateParams({ dimensions: 2 });
    expect(embedCode({ params: flat, view: { ...defaultView(), warmup: 3 } })).toBe(
      '<gpu-flock count="16384" dimensions="2" auto-bounds="false"></gpu-flock>',
    );
    // 2 s differs from the 2D default: written.
    expect(embedCode({ params: flat, view: { ...defaultView(), warmup: 2 } })).toBe(
      '<gpu-flock count="16384" dimensions="2" auto-bounds="false" warmup="2"></gpu-flock>',
    );
  });

  test('changed values in schema order; booleans bare or ="false"; interactive; bounds="auto"', () => {
    const params = validateParams({
      count: 3000,
      boundary: 'wrap',
      boundsMin: [-20, -10, -10],
      boundsMax: [20, 10, 10],
      obstacles: [
        { center: [1, 2, 3], radius: 4 },
        { center: [-1, 0, 0.5], radius: 1.25 },
      ],
      timeStep: 1 / 30,
    });
    const view = {
      ...defaultView(),
      warmup: 2,
      background: 'transparent',
      showBounds: true,
      showObstacles: false,
      pointer: 'element',
      maxFps: 30,
    };
    expect(embedCode({ params, view, backend: 'webgl2', disable: ['webgpu'] })).toBe(
      '<gpu-flock backend="webgl2" disable="webgpu" count="3000" bounds-min="-20,-10,-10" ' +
        'bounds-max="20,10,10" time-step="0.03333333333333333" boundary="wrap" ' +
        'obstacles="1,2,3,4; -1,0,0.5,1.25" background="transparent" show-bounds ' +
        'show-obstacles="false" interactive max-fps="30"></gpu-flock>',
    );
    // Under autoBounds the box is the element's: bounds="auto", no bounds-min/max.
    const auto = embedCode({ params, view: { ...view, autoBounds: true, pointer: 'page' } });
    expect(auto).toContain('bounds="auto"');
    expect(auto).toContain('pointer="page"');
    expect(auto).not.toContain('bounds-min');
  });

  test('reads back as the same params and view (odd numbers, colours, quotes escaped)', () => {
    const params = validateParams({
      count: 1234,
      seed: 77,
      dimensions: 2,
      perceptionRadius: 2.3456789012345,
      wind: [0.1, -0.2, 0],
      steering: 'sum',
      attractorStrength: -3.5,
    });
    const view = {
      ...defaultView(),
      warmup: 3.5,
      colorMode: 'uniform',
      color: 'rgb(10, 20, 30)',
      background: 'rgba(0, 0, 0, 0.25)',
      resolutionScale: 0.75,
      density: 12.5,
      fit: 'cover',
    };
    const line = embedCode({ params, view });
    const back = readBack(line);
    expect(back.params).toEqual(params);
    expect(back.view).toEqual(validateView(view));
  });
});
