/**
 * The benchmark page's side-by-side panel: two backends stepping the same flock (side-by-side.ts),
 * their captions, the divergence readout and chart, and the panel's buttons.
 */
import type { BackendKind } from '../backend';
import type { DivergenceChart } from './charts';
import { deviceOf, type DeviceReport } from './device-report';
import { $, fmtN } from './dom';
import type { BenchSettings } from './report';
import { SideBySide, type Divergence, type SideOptions } from './side-by-side';

/** The panel's view of the page: the device report (once collected) and the current settings. */
export interface SidePanelHost {
  device(): DeviceReport | null;
  settings(): BenchSettings;
}

/** Wires the panel to the page's side-by-side controls; returns its SideBySide and its options. */
export function setupSidePanel(host: SidePanelHost): {
  side: SideBySide;
  options: () => SideOptions;
} {
  // Loaded and made on the first readout, not while the page loads (Chart.js and a first chart
  // are 50-150 ms of one task).
  let divChart: DivergenceChart | null = null;
  const e3 = (x: number) => x.toExponential(2);
  const side = new SideBySide($('side-left-box'), $('side-right-box'), (d: Divergence | null) => {
    const err = side.errors;
    const device = host.device();
    const cap = (f: typeof side.left, why: string | undefined) =>
      f
        ? `${f.backend}: ${device ? deviceOf(device, f.backend, f.deviceInfo) : f.deviceInfo}`
        : `not available here: ${why ?? ''}`;
    $('side-left-cap').textContent = cap(side.left, err.left);
    $('side-right-cap').textContent = cap(side.right, err.right);
    const out = $('side-readout');
    if (!d) {
      out.textContent = 'needs both sides running';
      return;
    }
    out.innerHTML = '';
    const lines = [
      `steps: ${d.steps} (N = ${fmtN(d.count)})`,
      `mean |Δp|: ${e3(d.meanPos)}`,
      `max |Δp|: ${e3(d.maxPos)}   max |Δv|: ${e3(d.maxVel)}`,
      `boids with |Δp| > 1e-4: ${d.over1e4} (${(d.fracOver1e4 * 100).toFixed(3)}%)`,
      `one-step tolerance (all but 0.05% within 1e-4 / 1e-3): ${d.withinOneStepTolerance ? 'met' : 'not met'}`,
    ];
    for (const l of lines) {
      const div = document.createElement('div');
      div.textContent = l;
      out.append(div);
    }
    const history = side.history;
    void import('./charts').then((m) => {
      divChart ??= new m.DivergenceChart($<HTMLCanvasElement>('side-chart'));
      divChart.update(history);
    });
  });

  const options = () => ({
    left: $<HTMLSelectElement>('side-left').value as BackendKind,
    right: $<HTMLSelectElement>('side-right').value as BackendKind,
    count: Math.max(1, Math.round(Number($<HTMLInputElement>('side-n').value)) || 4096),
    seed: host.settings().seed,
    dimensions: host.settings().dimensions,
  });
  const sideK = () => Math.max(1, Math.round(Number($<HTMLInputElement>('side-k').value)) || 1);
  $('side-init').addEventListener('click', () => void side.init(options()));
  $('side-step').addEventListener('click', () => void side.advance(sideK()));
  $('side-start').addEventListener('click', () => side.start(sideK()));
  $('side-stop').addEventListener('click', () => void side.stop());
  return { side, options };
}
