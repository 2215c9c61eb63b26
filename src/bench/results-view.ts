/**
 * The benchmark page's result views drawn as DOM: the results table, the stacked bar's N choices,
 * the device report and availability list, and the download of an export.
 */
import { BACKEND_LADDER } from '../backend';
import { deviceOf, reportLines, type DeviceReport } from './device-report';
import { $, fmtN, option } from './dom';
import { benchTable } from './report';
import { isMeasured, type AnyRow } from './rows';

export function renderTable(rows: readonly AnyRow[]): void {
  const table = $<HTMLTableElement>('results');
  table.replaceChildren();
  const t = benchTable(rows);
  const head = table.createTHead().insertRow();
  for (const h of t.heads) {
    const th = document.createElement('th');
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  let lastN = -1;
  for (const l of t.lines) {
    const tr = body.insertRow();
    if (lastN !== -1 && l.row.count !== lastN) tr.className = 'group';
    lastN = l.row.count;
    if (isMeasured(l.row)) {
      for (const c of l.cells) tr.insertCell().textContent = c;
    } else {
      tr.insertCell().textContent = l.cells[0]!;
      tr.insertCell().textContent = l.cells[1]!;
      const td = tr.insertCell();
      td.colSpan = t.heads.length - 2;
      td.className = 'skipped';
      td.textContent = l.cells[2]!;
    }
  }
  const kinds = new Set(rows.filter(isMeasured).map((r) => `${r.label}: ${r.timing}`));
  $('timing-note').textContent = kinds.size
    ? `Step times: cpu-wait on every row. Per-pass times from: ${[...kinds].join('; ')} (gpu = timer queries; cpu-wait = CPU clock around a wait; none = not split).`
    : '';
}

/**
 * The stacked bar's N choices (every N measured in any run) and its pick: the user's, else the
 * largest N that every run (this page's and each imported one) measured, else the largest.
 */
export function refreshBarChoices(runs: readonly (readonly AnyRow[])[]): number {
  const sel = $<HTMLSelectElement>('bar-n');
  const measured = runs.map((rs) => rs.filter(isMeasured).filter((r) => !r.behaviours));
  const counts = [...new Set(measured.flat().map((r) => r.count))].sort((a, b) => a - b);
  const prev = Number(sel.value);
  const have = [...sel.options].map((o) => Number(o.value));
  if (counts.join() !== have.join()) {
    sel.replaceChildren();
    for (const n of counts) option(sel, String(n), fmtN(n));
  }
  const withRows = measured.filter((rs) => rs.length > 0);
  const common = counts.filter((n) => withRows.every((rs) => rs.some((r) => r.count === n)));
  const pick =
    counts.includes(prev) && sel.dataset.user ? prev : (common.at(-1) ?? counts.at(-1) ?? 0);
  sel.value = String(pick);
  return pick;
}

export function renderDevice(r: DeviceReport): void {
  const ul = $('availability');
  ul.replaceChildren();
  for (const kind of BACKEND_LADDER) {
    const b = r.backends[kind];
    const li = document.createElement('li');
    li.className = b?.available ? 'yes' : 'no';
    li.textContent = b?.available
      ? `${kind}: available (${deviceOf(r, kind, b.device)}; largest N ${fmtN(b.maxCount ?? 0)})`
      : `${kind}: not available here: ${b?.reason ?? 'unknown'}`;
    ul.append(li);
  }
  const auto = document.createElement('li');
  auto.textContent = `auto picks ${r.auto.backend ?? 'nothing'}${
    Object.keys(r.auto.fallbackReasons).length
      ? '; fallback reasons: ' +
        Object.entries(r.auto.fallbackReasons)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ')
      : ''
  }`;
  ul.append(auto);
  const dl = $('device-report');
  dl.replaceChildren();
  for (const [k, v] of reportLines(r)) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
}

export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
