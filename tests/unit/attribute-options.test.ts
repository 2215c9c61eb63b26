// The <gpu-flock> element's attribute reading (src/element/attribute-options.ts), in Node through
// tests/support/attributes.ts: an `obstacles` text outside the attribute's format is reported by the
// attribute, its text and the README table's format, not as obstacles[0].center.
import { describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import { readAttributes } from '../support/attributes';

const FORMAT = 'JSON list, or "x,y,z,r; x,y,z,r" (up to 16)';

describe('obstacles attribute text', () => {
  test('"garbage" names the attribute, the text and the format', () => {
    const { options, reports, memory } = readAttributes({ obstacles: 'garbage', count: '301' });
    expect(reports.length).toBe(1);
    const { attribute, text, error } = reports[0]!;
    expect([attribute, text]).toEqual(['obstacles', 'garbage']);
    expect(error).toBeInstanceOf(FlockError);
    const fe = error as FlockError;
    expect([fe.field, fe.value, fe.allowed]).toEqual(['obstacles', 'garbage', FORMAT]);
    expect(fe.message).toBe(
      `obstacles = "garbage" is not allowed; allowed: ${FORMAT} (sphere 1 of 1, "garbage", is not 4 numbers x,y,z,r)`,
    );
    // Left out; the rest is read.
    expect(options.params).toEqual({ count: 301 });
    expect(memory.rejected.has('obstacles')).toBe(true);
  });

  test('a sphere of 3 numbers after a good one, and JSON that does not parse, name the format', () => {
    const cases: [text: string, why: string][] = [
      ['0,0,0,4; 1,2,3', '(sphere 2 of 2, "1,2,3", is not 4 numbers x,y,z,r)'],
      ['[{"center":[1,2,3]', '(not JSON: '],
    ];
    for (const [text, why] of cases) {
      const e = readAttributes({ obstacles: text }).reports[0]!.error as FlockError;
      expect([e.field, e.value, e.allowed]).toEqual(['obstacles', text, FORMAT]);
      expect(e.message).toContain(why);
    }
  });

  test('text in the format is read; values out of range still name the sphere and field', () => {
    const good = readAttributes({ obstacles: '0,0,0,4; 10,-2,1,2.5' });
    expect(good.reports).toEqual([]);
    expect(good.options.params).toEqual({
      obstacles: [
        { center: [0, 0, 0], radius: 4 },
        { center: [10, -2, 1], radius: 2.5 },
      ],
    });
    const zero = readAttributes({ obstacles: '0,0,0,0' }).reports[0]!.error as FlockError;
    expect(zero.field).toBe('obstacles[0].radius');
    expect(zero.value).toBe(0);
  });
});
