/**
 * `palette: 'auto'` (DESIGN.md section 7's `palette`, issue 27 item 4): the flock looks at the
 * page it is drawn into and picks a palette that reads there (src/core/palette.ts pagePalette: a
 * dark page gets `default`, light birds; a light page `ink`, dark birds). The view keeps `auto`
 * (Flock.view); only what is drawn is resolved, when the flock starts and at every setView.
 * Owns nothing (reads computed styles and one media query).
 */
import { parseCssColor } from '../core/color';
import { pagePalette, type PageLook } from '../core/palette';
import { validateView, viewBackground, type ViewOptions } from '../core/view';

/** Where the page is read from (the window; a test passes its own). */
export interface PageEnv {
  getComputedStyle(el: Element): { backgroundColor: string; colorScheme?: string };
  matchMedia(query: string): { matches: boolean };
}

/**
 * The element's parent, or, at the top of a shadow tree (the <gpu-flock> element's canvas sits in
 * its shadow root), the shadow root's host: the page behind a shadow tree is its host's.
 */
function parentAcrossShadow(el: Element): Element | null {
  return el.parentElement ?? (el.parentNode as { host?: Element } | null)?.host ?? null;
}

/**
 * What the page around `canvas` looks like (PageLook) for `view`: the first ancestor of the
 * canvas (across shadow roots) with an opaque computed background-color, the root's `color-scheme` and the reader's
 * `prefers-color-scheme`.
 */
export function pageLook(view: ViewOptions, canvas: Element, env: PageEnv = window): PageLook {
  const own = parseCssColor(viewBackground({ ...view, palette: 'default' }));
  let behind: number[] | null = null;
  for (let el = parentAcrossShadow(canvas); el && !behind; el = parentAcrossShadow(el)) {
    const c = parseCssColor(env.getComputedStyle(el).backgroundColor);
    if (c && c[3] >= 0.5) behind = [c[0], c[1], c[2]];
  }
  const prefersDark = env.matchMedia('(prefers-color-scheme: dark)').matches;
  const root = canvas.ownerDocument.documentElement;
  const scheme = (env.getComputedStyle(root).colorScheme ?? '').split(/\s+/);
  const schemeDark = scheme.includes('dark') && (!scheme.includes('light') || prefersDark);
  return { ownBackground: !!own && own[3] >= 1, behind, schemeDark, prefersDark };
}

/** `view` with `palette: 'auto'` resolved for the page around `canvas`; other views as they are. */
export function resolveAutoPalette(view: ViewOptions, canvas: Element, env?: PageEnv): ViewOptions {
  if (view.palette !== 'auto') return view;
  // Through validateView: the copy keeps which colours were given.
  if (typeof window === 'undefined' && !env) return validateView({ palette: 'default' }, view);
  return validateView({ palette: pagePalette(pageLook(view, canvas, env)) }, view);
}
