/** DOM helpers of the benchmark page. */

/** The page's element with this id (the page's HTML has every id the scripts use). */
export const $ = <T extends HTMLElement = HTMLElement>(id: string) =>
  document.getElementById(id) as T;

/** A count as the page prints it: 16,384. */
export const fmtN = (n: number) => n.toLocaleString('en-US');

/** Appends an option to a select. */
export function option(sel: HTMLSelectElement, value: string, text = value): void {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  sel.append(o);
}
