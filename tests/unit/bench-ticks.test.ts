// The benchmark's log-axis tick labels (src/bench/ticks.ts; issue 31 item 2: the capacity chart's
// axis showed one tick, "100"). Chart.js puts a log tick at every 1..9 x 10^k in the range.
import { describe, expect, test } from 'vitest';
import { countLabel, isOneTwoFive, logTickLabel } from '../../src/bench/ticks';

/** Chart.js's log ticks from lo to hi: every m x 10^k, m = 1..9. */
function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); 10 ** e <= hi; e++)
    for (let m = 1; m <= 9; m++) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) out.push(v);
    }
  return out;
}
const shown = (lo: number, hi: number, f?: (v: number) => string) => {
  const t = logTicks(lo, hi);
  return t.map((v) => logTickLabel(v, t, f)).filter((s) => s !== '');
};

describe('log axis ticks', () => {
  test('the swiftshader capacity range (460 to 3,300 boids) reads 500, 1k, 2k', () => {
    expect(shown(400, 4000, countLabel)).toEqual(['500', '1k', '2k']);
  });

  test('a narrow range with fewer than two 1-2-5 ticks labels every tick', () => {
    expect(shown(700, 900, countLabel)).toEqual(['700', '800', '900']);
  });

  test('a wide range: 1-2-5 per decade; ms with three digits', () => {
    expect(shown(0.3, 30)).toEqual(['0.5', '1', '2', '5', '10', '20']);
    expect(shown(500, 2e6, countLabel)).toEqual([
      '500',
      '1k',
      '2k',
      '5k',
      '10k',
      '20k',
      '50k',
      '100k',
      '200k',
      '500k',
      '1M',
      '2M',
    ]);
  });

  test('isOneTwoFive and countLabel', () => {
    expect([1, 2, 5, 0.2, 5000, 3, 7, 0, -1].map(isOneTwoFive)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect([460, 1024, 2500, 40000, 1048576].map(countLabel)).toEqual([
      '460',
      '1.02k',
      '2.5k',
      '40k',
      '1.05M',
    ]);
  });
});
