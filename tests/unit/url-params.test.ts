// The demo's URL query parser: options, paused, disable, every schema parameter, and errors that
// name the field, the value and the allowed range while the rest still applies.
import { describe, expect, test } from 'vitest';
import { parseQuery } from '../../src/app/url-params';

describe('parseQuery', () => {
  test('empty query: defaults, running, no errors', () => {
    for (const q of ['', '?']) {
      expect(parseQuery(q)).toEqual({ options: {}, paused: false, errors: [] });
    }
  });

  test('backend, count, seed and disable', () => {
    const r = parseQuery(
      '?count=2000&backend=webgl2&seed=42&disable=webgpu,%20EXT_color_buffer_float,',
    );
    expect(r.errors).toEqual([]);
    expect(r.options).toEqual({
      backend: 'webgl2',
      params: { count: 2000, seed: 42 },
      disable: ['webgpu', 'EXT_color_buffer_float'],
    });
  });

  test.each([
    ['?paused', true],
    ['?paused=', true],
    ['?paused=1', true],
    ['?paused=true', true],
    ['?paused=TRUE', true],
    ['?paused=0', false],
    ['?paused=false', false],
    ['?count=5', false],
  ])('%s -> paused %s', (q, paused) => {
    const r = parseQuery(q);
    expect(r.paused).toBe(paused);
    expect(r.errors).toEqual([]);
  });

  test('paused=maybe is an error and does not pause', () => {
    const r = parseQuery('paused=maybe');
    expect(r.paused).toBe(false);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/paused=maybe.*paused=1/);
  });

  test('every kind of parameter: numbers, vectors, enums (string and numeric)', () => {
    const r = parseQuery(
      '?boundsMin=-10,-10,-10&boundsMax=10,10,10&perceptionRadius=1.5&maxSpeed=1e1' +
        '&boundary=wrap&neighborSearch=brute&dimensions=2&timeStep=0.01&sort=bitonic',
    );
    expect(r.errors).toEqual([]);
    expect(r.options.params).toEqual({
      boundsMin: [-10, -10, -10],
      boundsMax: [10, 10, 10],
      perceptionRadius: 1.5,
      maxSpeed: 10,
      boundary: 'wrap',
      neighborSearch: 'brute',
      dimensions: 2,
      timeStep: 0.01,
      sort: 'bitonic',
    });
  });

  test('invalid values are errors naming field, value and range; the rest applies', () => {
    const r = parseQuery('?count=-5&perceptionRadius=abc&seed=9&cohesionWeight=2');
    expect(r.options.params).toEqual({ seed: 9, cohesionWeight: 2 });
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toContain('count=-5');
    expect(r.errors[0]).toContain('count = -5 is not allowed');
    expect(r.errors[0]).toContain('an integer from 1 to');
    expect(r.errors[1]).toContain('perceptionRadius = "abc" is not allowed');
    expect(r.errors[1]).toContain('0.01 to 1000');
  });

  test('limits=phone caps the backends as on a phone; anything else is an error', () => {
    expect(parseQuery('?limits=phone').options).toEqual({ limits: 'phone' });
    const r = parseQuery('?limits=tablet');
    expect(r.options.limits).toBeUndefined();
    expect(r.errors.join()).toMatch(/limits=tablet ignored: allowed: limits=phone/);
  });

  test('unknown parameters and a bad backend are errors', () => {
    const r = parseQuery('?speed=3&backend=vulkan&count=100&disable=webgpu,warp');
    expect(r.options).toEqual({ params: { count: 100 }, disable: ['webgpu'] });
    expect(r.errors).toHaveLength(3);
    expect(r.errors[0]).toMatch(
      /speed=3 ignored: unknown URL parameter "speed"; known: backend, paused, disable, limits, count,/,
    );
    expect(r.errors[1]).toMatch(/backend=vulkan.*"webgl2"/);
    expect(r.errors[2]).toMatch(/"warp"/);
  });

  test('bad numbers: empty, partial, hex, Infinity, non-integer count, wrong vector length', () => {
    const r = parseQuery(
      '?count=&seed=12abc&maxSpeed=0x10&minSpeed=Infinity&dimensions=4' +
        '&boundsMin=1,2&boundsMax=1,b,3&separationWeight=2.5',
    );
    expect(r.options.params).toEqual({ separationWeight: 2.5 });
    expect(r.errors.map((e) => e.split(' ')[2])).toEqual([
      'count',
      'seed=12abc',
      'maxSpeed=0x10',
      'minSpeed=Infinity',
      'dimensions=4',
      'boundsMin=1,2',
      'boundsMax=1,b,3',
    ]);
    expect(parseQuery('?count=1.5').errors[0]).toContain('count = 1.5 is not allowed');
  });

  test('a value invalid alone but fine beside another URL parameter is accepted', () => {
    // minSpeed 10 > default maxSpeed 5, but maxSpeed=20 is given too.
    const r = parseQuery('?minSpeed=10&maxSpeed=20');
    expect(r.errors).toEqual([]);
    expect(r.options.params).toEqual({ minSpeed: 10, maxSpeed: 20 });
    // Without it, minSpeed is rejected with the cross-field rule's words.
    const s = parseQuery('?minSpeed=10');
    expect(s.options.params).toBeUndefined();
    expect(s.errors[0]).toContain('minSpeed = 10 is not allowed; allowed: 0 to maxSpeed (5)');
  });

  test('parameters valid alone but not together: the offending one is dropped', () => {
    // wrap needs 3 cells of at least r per axis: r = 30 in the 64 box is fine for bounce only.
    const r = parseQuery('?boundary=wrap&perceptionRadius=30&count=10');
    expect(r.options.params).toEqual({ boundary: 'wrap', count: 10 });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/perceptionRadius=30 ignored: .*wrap needs 3 cells/);
    // boundsMin above the default boundsMax: the rule names boundsMin, the field the URL changed.
    const s = parseQuery('?boundsMin=40,0,0');
    expect(s.options.params).toBeUndefined();
    expect(s.errors[0]).toMatch(/boundsMin=40,0,0 ignored: boundsMin/);
  });

  test('a key given twice: the last counts', () => {
    const r = parseQuery('?count=10&count=20');
    expect(r.options.params).toEqual({ count: 20 });
  });

  test('view options by their schema names: enums, booleans, numbers, colours (%23 for #)', () => {
    const r = parseQuery(
      '?colorMode=heading&showBounds&showObstacles=false&fit=cover&boidSize=0.5' +
        '&background=transparent&color=%2300ff80&count=300',
    );
    expect(r.errors).toEqual([]);
    expect(r.options.params).toEqual({ count: 300 });
    expect(r.options.view).toEqual({
      colorMode: 'heading',
      showBounds: true,
      showObstacles: false,
      fit: 'cover',
      boidSize: 0.5,
      background: 'transparent',
      color: '#00ff80',
    });
  });

  test('a bad view option is reported with its allowed values and left out', () => {
    const r = parseQuery('?colorMode=rainbow&showBounds=maybe&background=nope&fit=cover');
    expect(r.options.view).toEqual({ fit: 'cover' });
    expect(r.errors).toHaveLength(3);
    expect(r.errors[0]).toMatch(/colorMode=rainbow ignored: .*"speed", "species"/);
    expect(r.errors[1]).toMatch(/showBounds=maybe ignored: .*true or false/);
    expect(r.errors[2]).toMatch(/background=nope ignored: .*CSS colour/);
  });
});

describe('long values in URL messages (issue 21)', () => {
  test('a disable list of 10,000 unknown names: a message of a few hundred characters', () => {
    const names = Array.from({ length: 10000 }, (_, i) => `gpu${i}`);
    const r = parseQuery(`?disable=webgpu,${names.join(',')}`);
    expect(r.options.disable).toEqual(['webgpu']);
    expect(r.errors).toHaveLength(1);
    const msg = r.errors[0]!;
    expect(msg.length).toBeLessThan(800);
    expect(msg).toMatch(
      /"gpu0", "gpu1", .*"gpu9" and 9990 more \(kept webgpu\); allowed: a comma list of webgpu,/,
    );
    expect(msg).toMatch(/^URL parameter disable=webgpu,gpu0,.*… \(\d+ characters\) ignored/);
  });
});
