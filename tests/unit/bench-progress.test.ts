// The benchmark's progress bar and time-left estimate (src/bench/progress.ts), by hand.
import { describe, expect, test } from 'vitest';
import { Progress, leftText } from '../../src/bench/progress';

describe('Progress', () => {
  test('fraction done and the time left at the pace so far', () => {
    const p = new Progress(10);
    expect(p.fraction).toBe(0);
    expect(p.leftMs(1000)).toBeNull(); // nothing done: too early to say
    p.advance(2);
    expect(p.fraction).toBeCloseTo(0.2, 12);
    // 2 of 10 units in 4 s: 8 units left take 16 s.
    expect(p.leftMs(4000)).toBeCloseTo(16000, 6);
    p.partial(4, 0.5); // half of a task of weight 4: 4 of 10 done
    expect(p.fraction).toBeCloseTo(0.4, 12);
    expect(p.leftMs(8000)).toBeCloseTo(12000, 6);
    p.advance(4);
    p.advance(100); // never past the total
    expect(p.fraction).toBe(1);
    expect(p.leftMs(20000)).toBe(0);
  });

  test('time left in words', () => {
    expect(leftText(null)).toBe('');
    expect(leftText(40_400)).toBe('about 40 s left');
    expect(leftText(200)).toBe('about 1 s left');
    expect(leftText(150_000)).toBe('about 3 min left');
  });
});
