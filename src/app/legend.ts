/**
 * The demo's legend (the keys and gestures, #legend) and its "?" button: open on a first visit on
 * a large screen, collapsed on a phone or a touch screen, hidden at first use and remembered.
 */

/** A phone-sized screen: the flock fills it (fit: cover) and the GUI starts closed. */
export const PHONE = '(max-width: 640px)';

const LEGEND_SEEN = 'gpu-flock-legend-seen';

/**
 * Where the legend starts collapsed ("?" opens it): a narrow screen, where its lines covered the
 * lower fifth of the flock (390x844), or a touch screen, where keyboard help is of no use.
 */
const LEGEND_COLLAPSED = `${PHONE}, (pointer: coarse)`;

/** Wires #legend and #help-button (absent: nothing to do). */
export function setupLegend(): void {
  const legend = document.getElementById('legend');
  const help = document.getElementById('help-button');
  if (!legend || !help) return;
  let seen = false;
  try {
    seen = localStorage.getItem(LEGEND_SEEN) === '1';
  } catch {
    // Storage blocked: show the legend until first use on every visit.
  }
  const show = (open: boolean) => {
    legend.hidden = !open;
    help.setAttribute('aria-expanded', String(open));
  };
  show(!seen && !matchMedia(LEGEND_COLLAPSED).matches);
  const hide = () => {
    if (legend.hidden) return;
    show(false);
    try {
      localStorage.setItem(LEGEND_SEEN, '1');
    } catch {
      // Not stored: it hides for this visit.
    }
  };
  const app = document.getElementById('app')!;
  app.addEventListener('pointerdown', hide);
  app.addEventListener('wheel', hide, { passive: true });
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === '?') show(legend.hidden);
    else hide();
  });
  help.addEventListener('click', () => show(legend.hidden));
}
