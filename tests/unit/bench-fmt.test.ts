// The benchmark page's count format (src/bench/dom.ts fmtN): what toLocaleString('en-US') prints
// for a whole number, without the Intl number format (its first use held the page's first task).
import { describe, expect, test } from 'vitest';
import { fmtN } from '../../src/bench/dom';

describe('fmtN', () => {
  test('groups thousands with commas, as toLocaleString("en-US") does for whole numbers', () => {
    expect(fmtN(0)).toBe('0');
    expect(fmtN(999)).toBe('999');
    expect(fmtN(1000)).toBe('1,000');
    expect(fmtN(16384)).toBe('16,384');
    expect(fmtN(1234567)).toBe('1,234,567');
    expect(fmtN(-4096)).toBe('-4,096');
    for (const n of [1, 12, 123, 1234, 12345, 123456, 1234567, 12345678, 1048576, 3000, 99999])
      expect(fmtN(n)).toBe(n.toLocaleString('en-US'));
  });

  test('rounds what is not a whole number', () => {
    expect(fmtN(1023.6)).toBe('1,024');
    expect(fmtN(-0.2)).toBe('0');
  });
});
