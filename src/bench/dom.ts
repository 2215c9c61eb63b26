/** DOM helpers of the benchmark page. */

/** The page's element with this id (the page's HTML has every id the scripts use). */
export const $ = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.getElementById(id) as T;

/**
 * A count as the page prints it: 16,384, as toLocaleString('en-US') prints a whole number,
 * without loading the Intl number format in the page's first task (its first use took 10-40 ms
 * there). Counts are whole numbers: anything else is rounded first.
 */
export function fmtN(n: number): string {
  const digits = String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n <= -0.5 ? `-${digits}` : digits;
}

/** Appends an option to a select. */
export function option(sel: HTMLSelectElement, value: string, text = value): void {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  sel.append(o);
}
