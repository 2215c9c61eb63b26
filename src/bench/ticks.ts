/**
 * Tick labels of the benchmark's log axes (Chart.js log scales put a tick at every 1..9 x 10^k):
 * the 1-2-5 ticks are labelled, or every tick where fewer than two of those fall in the range
 * (a capacity axis from 460 to 3,300 boids reads 500, 1k, 2k; one from 700 to 900 reads 700,
 * 800, 900), so an axis never shows a single number. Pure functions.
 */

/** Whether `v` is 1, 2 or 5 times a power of ten. */
export function isOneTwoFive(v: number): boolean {
  if (!(v > 0) || !Number.isFinite(v)) return false;
  const m = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
  return [1, 2, 5].some((k) => Math.abs(m - k) < 1e-6);
}

/** A count in few characters: 500, 1k, 2.5k, 40k, 1M (1k = 1,000). */
export function countLabel(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toPrecision(3)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toPrecision(3)}k`;
  return `${+v.toPrecision(3)}`;
}

/**
 * The label of tick `v` among the axis's tick values `all` ('' for an unlabelled one).
 * @param format how a labelled value is written (default: three significant digits)
 */
export function logTickLabel(
  v: number,
  all: readonly number[],
  format: (v: number) => string = (x) => `${+x.toPrecision(3)}`,
): string {
  const labelled = all.filter(isOneTwoFive).length;
  return labelled >= 2 ? (isOneTwoFive(v) ? format(v) : '') : format(v);
}
