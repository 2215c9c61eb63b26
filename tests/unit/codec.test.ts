// The one text codec of the schemas (src/core/codec.ts): every parameter and view option
// round-trips (encode, then decode, gives the value back, and validation takes it); text outside
// a format is named (field, text, allowed form); the URL, the element's attributes and the embed
// code read and write through it.
import { describe, expect, test } from 'vitest';
import {
  CODEC_ENTRIES,
  decodeText,
  encodeText,
  numberFromText,
  type CodecEntry,
} from '../../src/core/codec';
import { FlockError } from '../../src/core/errors';
import { PARAM_SCHEMA, validateParams, type ParamSpec } from '../../src/core/params';
import { VIEW_SCHEMA, validateView, type ViewSpec } from '../../src/core/view';
import { readAttributes } from '../support/attributes';
import { parseQuery } from '../../src/app/url-params';
import { demoQuery, parseDemoQuery } from '../../src/app/app-state';
import { defaultCamera } from '../../src/core/render-math';

/** Valid values of an entry beside its default: the ends of its range, a fraction, each option. */
function samples(spec: ParamSpec | ViewSpec): unknown[] {
  const out: unknown[] = [spec.default];
  switch (spec.type) {
    case 'int':
    case 'uint32':
      out.push(spec.min, spec.max, Math.min(spec.max, spec.min + 12_345));
      break;
    case 'float':
      out.push(spec.min, spec.max);
      if (!('integer' in spec && spec.integer)) out.push(spec.min + (spec.max - spec.min) / 3);
      else out.push(spec.min + 7);
      break;
    case 'vec3':
      out.push([spec.min + 1, 0.1 + 0.2, spec.max - 1], [-1.5e-7, 2, 1 / 3]);
      break;
    case 'obstacles':
      out.push(
        [],
        [{ center: [1, 2, 3], radius: 4 }],
        [
          { center: [-0.5, 1 / 3, 7e-5], radius: 1.25 },
          { center: [spec.max, spec.min, 0], radius: spec.maxRadius },
        ],
      );
      break;
    case 'enum':
      out.push(...spec.options, ...(('unlisted' in spec && spec.unlisted) || []));
      break;
    case 'boolean':
      out.push(true, false);
      break;
    case 'color':
      out.push('rgb(1, 2, 3)', 'skyblue', ...(spec.alpha ? ['transparent', '#ff000080'] : []));
      break;
  }
  return out;
}

/** Defaults with the cross-field rules widest (box, speeds), so each sample is checked on its own range. */
const WIDE = validateParams({
  boundsMin: [-1e6, -1e6, -1e6],
  boundsMax: [1e6, 1e6, 1e6],
  minSpeed: 0,
  maxSpeed: 1000,
});

const isParam = (s: ParamSpec | ViewSpec): s is ParamSpec => PARAM_SCHEMA.includes(s as ParamSpec);

describe('round trip: decode(encode(v)) = v for every schema entry', () => {
  test('covers every parameter and view option', () => {
    expect(CODEC_ENTRIES.map((e) => e.name)).toEqual([
      ...PARAM_SCHEMA.map((s) => s.name),
      ...VIEW_SCHEMA.map((s) => s.name),
    ]);
  });

  test.each(CODEC_ENTRIES.map((s) => [s.name, s] as const))('%s', (_name, spec) => {
    for (const value of samples(spec)) {
      // The sample is a valid value (else the round trip would prove little).
      if (isParam(spec)) validateParams({ [spec.name]: value }, WIDE);
      else validateView({ [spec.name]: value });
      const text = encodeText(spec, value);
      const back = decodeText(spec, text);
      expect(back, `${spec.name}: ${JSON.stringify(value)} -> ${JSON.stringify(text)}`).toEqual({
        ok: true,
        value,
      });
    }
  });

  test('hand-worked texts', () => {
    const spec = (n: string) => CODEC_ENTRIES.find((e) => e.name === n)!;
    const obstacles = [
      { center: [1, 2, 3], radius: 4 },
      { center: [-1, 0, 0.5], radius: 1.25 },
    ];
    expect(encodeText(spec('obstacles'), obstacles)).toBe('1,2,3,4; -1,0,0.5,1.25');
    expect(encodeText(spec('obstacles'), [])).toBe('');
    expect(encodeText(spec('boundsMin'), [-5, 0.1 + 0.2, 5])).toBe('-5,0.30000000000000004,5');
    expect(encodeText(spec('boundsMin'), [-5, 0.1 + 0.2, 5], { decimals: 4 })).toBe('-5,0.3,5');
    expect(encodeText(spec('showBounds'), false)).toBe('false');
    expect(encodeText(spec('dimensions'), 2)).toBe('2');
    // Both obstacles forms of the README's table read the same spheres.
    const json = JSON.stringify(obstacles);
    expect(decodeText(spec('obstacles'), json)).toEqual({ ok: true, value: obstacles });
    expect(decodeText(spec('obstacles'), ' 1 2 3 4 ;-1, 0, .5, 1.25 ')).toEqual({
      ok: true,
      value: obstacles,
    });
    expect(decodeText(spec('boundsMax'), '4 5 6')).toEqual({ ok: true, value: [4, 5, 6] });
    expect(decodeText(spec('count'), ' 1000 ')).toEqual({ ok: true, value: 1000 });
  });
});

/** The FlockError decodeText gives for `text` (fails the test when it decodes). */
function formatError(entry: CodecEntry, text: string): FlockError {
  const d = decodeText(entry, text);
  if (d.ok)
    throw new Error(`${entry.name}: ${JSON.stringify(text)} decoded to ${JSON.stringify(d.value)}`);
  return d.error;
}

describe('text outside the format is named', () => {
  const spec = (n: string) => CODEC_ENTRIES.find((e) => e.name === n)!;

  test.each(['off', 'no', 'none', 'yes', 'on', '2'])('antialias=%j is not a boolean', (text) => {
    const e = formatError(spec('antialias'), text);
    expect([e.field, e.value]).toEqual(['antialias', text]);
    expect(e.allowed).toBe('true or false: empty, "true" or "1" (true), "false" or "0" (false)');
  });

  test.each([
    ['', true],
    ['true', true],
    ['1', true],
    [' TRUE ', true],
    ['false', false],
    ['0', false],
  ])('antialias=%j is %s', (text, want) => {
    expect(decodeText(spec('antialias'), text)).toEqual({ ok: true, value: want });
  });

  test('integers reject fractions: count, seed, pickedBoid', () => {
    const count = formatError(spec('count'), '2.5');
    expect([count.field, count.value]).toEqual(['count', 2.5]);
    expect(count.message).toBe(
      'count = 2.5 is not allowed; allowed: an integer from 1 to 16777216 (boids)',
    );
    expect(formatError(spec('seed'), '7.25').field).toBe('seed');
    const picked = formatError(spec('pickedBoid'), '1.5');
    expect([picked.field, picked.value, picked.allowed]).toEqual([
      'pickedBoid',
      1.5,
      'an integer from -1 to 16777215 (boid id)',
    ]);
    expect(decodeText(spec('pickedBoid'), '12')).toEqual({ ok: true, value: 12 });
    // Validation agrees (setView from the API).
    expect(() => validateView({ pickedBoid: 1.5 })).toThrow(/pickedBoid = 1.5 is not allowed/);
  });

  test.each([
    '1e3',
    '1E3',
    '64.0',
    '1.5e3',
    '0x10',
    '64px',
    '1_000',
    '1 000',
    '64\u00a0',
    '\u00a064',
  ])(
    "count=%j is not an integer in digits (HTML's rules for integers, without the trailing text)",
    (text) => {
      const e = formatError(spec('count'), text);
      expect([e.field, e.value, e.allowed]).toEqual([
        'count',
        text,
        'an integer from 1 to 16777216 (boids)',
      ]);
    },
  );

  test('an integer in digits: ASCII whitespace around it and a sign are taken, as HTML does', () => {
    expect(formatError(spec('count'), '1e3').message).toBe(
      'count = "1e3" is not allowed; allowed: an integer from 1 to 16777216 (boids) (digits only: no exponent or point)',
    );
    for (const [text, want] of [
      [' 64 ', 64],
      ['\t64\r\n', 64],
      ['+64', 64],
      ['0064', 64],
      ['16777216', 16777216],
    ] as const) {
      expect(decodeText(spec('count'), text)).toEqual({ ok: true, value: want });
    }
    const zero = decodeText(spec('seed'), '-0');
    expect(zero.ok && Object.is(zero.value, 0)).toBe(true);
    expect(decodeText(spec('seed'), '4294967295')).toEqual({ ok: true, value: 4294967295 });
    expect(formatError(spec('seed'), '4.294967295e9').value).toBe('4.294967295e9');
    expect(formatError(spec('pickedBoid'), '1e1').value).toBe('1e1');
    expect(decodeText(spec('pickedBoid'), ' -1 ')).toEqual({ ok: true, value: -1 });
    // Floats keep the exponent.
    expect(decodeText(spec('perceptionRadius'), '1e1')).toEqual({ ok: true, value: 10 });
  });

  test('numbers, triples, enums and obstacles', () => {
    expect(formatError(spec('perceptionRadius'), 'abc').message).toBe(
      'perceptionRadius = "abc" is not allowed; allowed: a finite number from 0.01 to 1000 (world units)',
    );
    expect(formatError(spec('perceptionRadius'), '0x10').value).toBe('0x10');
    expect(formatError(spec('boundsMin'), '1,2').field).toBe('boundsMin');
    expect(formatError(spec('boundsMin'), '1,2,z').field).toBe('boundsMin');
    expect(formatError(spec('boundary'), 'sticky').allowed).toBe('one of "soft", "bounce", "wrap"');
    const o = formatError(spec('obstacles'), '0,0,0,4,10,0,0,2');
    expect(o.allowed).toBe('JSON list, or "x,y,z,r; x,y,z,r" (up to 16)');
    expect(o.message).toContain('(sphere 1 of 1, "0,0,0,4,10,0,0,2", is not 4 numbers x,y,z,r)');
    expect(numberFromText(' -.5e1 ')).toBe(-5);
    expect(numberFromText('Infinity')).toBeUndefined();
  });
});

describe('the element and the URL read one format', () => {
  test('antialias="off", picked-boid="1.5", count="2.5" are reported and left out', () => {
    const { options, reports } = readAttributes({
      antialias: 'off',
      'picked-boid': '1.5',
      count: '2.5',
      'show-bounds': '1',
      seed: '9',
    });
    expect(reports.map((r) => [r.attribute, r.text, (r.error as FlockError).allowed])).toEqual([
      ['count', '2.5', 'an integer from 1 to 16777216 (boids)'],
      ['antialias', 'off', 'true or false: empty, "true" or "1" (true), "false" or "0" (false)'],
      ['picked-boid', '1.5', 'an integer from -1 to 16777215 (boid id)'],
    ]);
    expect(options.params).toEqual({ seed: 9 });
    expect(options.view.antialias).toBeUndefined();
    expect(options.view.pickedBoid).toBeUndefined();
    expect(options.view.showBounds).toBe(true);
  });

  test('count="1e3", species="2.0" and predators="0x1" are reported and left out; count=" 64 " is 64', () => {
    const bad = readAttributes({ count: '1e3', species: '2.0', predators: '0x1', seed: ' 7 ' });
    expect(bad.reports.map((r) => [r.attribute, r.text, (r.error as FlockError).allowed])).toEqual([
      ['count', '1e3', 'an integer from 1 to 16777216 (boids)'],
      ['species', '2.0', 'an integer from 1 to 4'],
      ['predators', '0x1', 'an integer from 0 to 8'],
    ]);
    expect(bad.options.params).toEqual({ seed: 7 });
    expect(readAttributes({ count: ' 64 ' }).options.params).toEqual({ count: 64 });
    // The demo's URL reads the same form.
    expect(parseQuery('?count=1e3').errors).toEqual([
      'URL parameter count=1e3 ignored: count = "1e3" is not allowed; allowed: an integer from 1 to 16777216 (boids) (digits only: no exponent or point)',
    ]);
  });

  test('the URL takes the attribute forms: obstacles with ";", booleans without on/off', () => {
    const r = parseQuery(
      '?obstacles=1,2,3,4;%20-1,0,0.5,1.25&showBounds=off&antialias=0&pickedBoid=2.5',
    );
    expect(r.options.params).toEqual({
      obstacles: [
        { center: [1, 2, 3], radius: 4 },
        { center: [-1, 0, 0.5], radius: 1.25 },
      ],
    });
    expect(r.options.view).toEqual({ antialias: false });
    expect(r.errors).toEqual([
      'URL parameter showBounds=off ignored: showBounds = "off" is not allowed; allowed: true or false: empty, "true" or "1" (true), "false" or "0" (false)',
      'URL parameter pickedBoid=2.5 ignored: pickedBoid = 2.5 is not allowed; allowed: an integer from -1 to 16777215 (boid id)',
    ]);
  });

  test('a link with two obstacles reads back (it was 8 commas, which the attribute refused)', () => {
    const params = validateParams({
      obstacles: [
        { center: [1, 0, 0], radius: 2 },
        { center: [-3, 4.5, 0], radius: 1 },
      ],
    });
    const link = demoQuery({
      params,
      view: {},
      viewDefaults: {},
      preset: null,
      camera: defaultCamera(params),
      scaleBox: true,
      paused: false,
      backend: null,
      disable: [],
    });
    expect(link).toContain('obstacles=1,0,0,2;+-3,4.5,0,1');
    const back = parseDemoQuery(link);
    expect(back.errors).toEqual([]);
    expect(back.options.params!.obstacles).toEqual(params.obstacles);
  });
});
