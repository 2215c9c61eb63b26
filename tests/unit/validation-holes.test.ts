// Issue 11 item 6: values that used to slip past validation. Each case is a FlockError naming the
// field; nothing is checked as float64 and then stored as a float32 Infinity or zero-width box.
import { describe, expect, test } from 'vitest';
import { FlockError, MAX_SHOWN_VALUE, describeValue, shownList } from '../../src/core/errors';
import { defaultParams, paramSpec, validateParams, type Vec3Spec } from '../../src/core/params';
import { validateState } from '../../src/core/state';

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FlockError);
    return (e as FlockError).field;
  }
  throw new Error('expected a FlockError');
}

const hostile = {
  toString(): string {
    throw new Error('hostile toString');
  },
  toJSON(): never {
    throw new Error('hostile toJSON');
  },
};

describe('float32, not float64', () => {
  test('setState values that overflow float32 are rejected (plain arrays and Float64Array-like input)', () => {
    const count = 3;
    // x, y, z = 0.5; w = 0 (species 0).
    const ok: number[] = Array.from({ length: 4 * count }, (_, i) => (i % 4 === 3 ? 0 : 0.5));
    const big = [...ok];
    big[5] = 1e39; // finite as float64, Infinity as float32
    expect(fieldOf(() => validateState({ count, positions: big, velocities: ok }))).toBe(
      'state.positions[5]',
    );
    expect(fieldOf(() => validateState({ count, positions: ok, velocities: big }))).toBe(
      'state.velocities[5]',
    );
    const s = validateState({ count, positions: ok, velocities: ok });
    expect(s.positions).toBeInstanceOf(Float32Array);
  });

  test('a box whose width is zero in float32 is rejected', () => {
    const base = defaultParams();
    // At the schema's largest bound, float32 steps are 1/16: a 0.01-wide box is empty there.
    const top = (paramSpec('boundsMax') as Vec3Spec).max;
    expect(Math.fround(top - 0.01)).toBe(Math.fround(top));
    const f = fieldOf(() =>
      validateParams({ boundsMin: [top - 0.01, -10, -10], boundsMax: [top, 10, 10] }, base),
    );
    expect(['boundsMin', 'boundsMax']).toContain(f);
    // Widths that survive float32 are fine.
    expect(() =>
      validateParams({ boundsMin: [top - 10, -10, -10], boundsMax: [top, 10, 10] }, base),
    ).not.toThrow();
  });
});

describe('hostile arguments', () => {
  test('describeValue never throws', () => {
    expect(typeof describeValue(hostile)).toBe('string');
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    expect(typeof describeValue(trap)).toBe('string');
    expect(typeof describeValue(Symbol('s'))).toBe('string');
    expect(typeof describeValue(10n)).toBe('string');
  });

  test('values whose toString throws, Proxies and undefined are FlockErrors naming the field', () => {
    expect(fieldOf(() => validateParams({ perceptionRadius: hostile }))).toBe('perceptionRadius');
    expect(fieldOf(() => validateParams({ boundsMax: hostile }))).toBe('boundsMax');
    expect(fieldOf(() => validateParams({ boundary: hostile }))).toBe('boundary');
    const vecProxy = new Proxy([1, 2, 3], {
      get() {
        throw new Error('trap');
      },
    });
    expect(fieldOf(() => validateParams({ boundsMax: vecProxy }))).toBe('boundsMax');
    const keysProxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    expect(fieldOf(() => validateParams(keysProxy))).toBe('params');
    const arrProxy = new Proxy(new Float32Array(8), {
      get() {
        throw new Error('trap');
      },
    });
    expect(
      fieldOf(() =>
        validateState({ count: 2, positions: arrProxy, velocities: new Float32Array(8) }),
      ),
    ).toBe('state.positions');
    expect(fieldOf(() => validateState(undefined))).toBe('state');
    expect(fieldOf(() => validateState({ count: hostile }))).toBe('state.count');
  });

  test('undefined fields of a partial are ignored', () => {
    const base = { ...defaultParams(), count: 123 };
    const p = validateParams({ count: undefined, seed: undefined, boundsMin: undefined }, base);
    expect(p.count).toBe(123);
    expect(p.seed).toBe(base.seed);
  });
});

describe('long values in error messages', () => {
  test('a value printed longer than MAX_SHOWN_VALUE is cut and says how long it was', () => {
    const long = 'x'.repeat(500);
    expect(describeValue(long)).toBe(`"${'x'.repeat(199)}… (502 characters)`);
    expect(describeValue('x'.repeat(198))).toBe(`"${'x'.repeat(198)}"`); // 200: kept whole
  });

  test('100,000 obstacles: the error names the field and the limit in a message of a few hundred characters', () => {
    const obstacles = Array.from({ length: 100000 }, () => ({ center: [0, 0, 0], radius: 1 }));
    let err: unknown;
    try {
      validateParams({ obstacles } as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FlockError);
    const fe = err as FlockError;
    expect(fe.field).toBe('obstacles');
    expect(fe.value).toBe(obstacles); // the value itself is kept whole
    expect(fe.message.length).toBeLessThan(MAX_SHOWN_VALUE + 200 + fe.allowed.length);
    expect(fe.message).toMatch(/… \(\d{7} characters\)/);
  });
});

describe('messages stay short and name what they print (issue 21)', () => {
  test('a long detail or allowed text is cut; shownList names 10 and counts the rest', () => {
    const names = Array.from({ length: 10000 }, (_, i) => `name${i}`);
    const e = new FlockError(
      'disable',
      names.join(','),
      'one of a, b',
      `unknown: ${names.join(', ')}`,
    );
    expect(e.message.length).toBeLessThan(1200);
    expect(e.message).toMatch(/\(unknown: name0, name1, .*… \(\d+ characters\)\)$/);
    expect(shownList(names)).toBe(
      'name0, name1, name2, name3, name4, name5, name6, name7, name8, name9 and 9990 more',
    );
    expect(shownList(['a', 'b'], true)).toBe('"a", "b"');
  });

  test('objects JSON prints as {} are named by their class', () => {
    expect(describeValue(new Map([[1, 2]]))).toBe('a Map');
    class Thing {}
    expect(describeValue(new Thing())).toBe('a Thing');
    expect(describeValue({})).toBe('{}');
    expect(describeValue({ a: 1 })).toBe('{"a":1}');
  });
});
