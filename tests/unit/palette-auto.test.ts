// palette: 'auto' (issue 27 item 4): the palette chosen from the page. The rule (src/core/palette.ts
// pagePalette) and the page reading (src/flock/auto-palette.ts pageLook) over a fake page.
import { describe, expect, test } from 'vitest';
import { AUTO_PALETTES, isDarkColor, pagePalette, palette } from '../../src/core/palette';
import { validateView, viewColors } from '../../src/core/view';
import { pageLook, resolveAutoPalette, type PageEnv } from '../../src/flock/auto-palette';

/** A chain canvas -> parent -> ... -> root, each with a computed background-color. */
function fakePage(backgrounds: string[], rootScheme: string, prefersDark: boolean) {
  const root = { parentElement: null, bg: 'rgba(0, 0, 0, 0)', scheme: rootScheme };
  let parent: Record<string, unknown> = root;
  for (const bg of [...backgrounds].reverse()) parent = { parentElement: parent, bg, scheme: '' };
  const doc = { documentElement: root };
  const canvas = { parentElement: parent, ownerDocument: doc, bg: '', scheme: '' };
  const env: PageEnv = {
    getComputedStyle: (el) => {
      const e = el as unknown as { bg: string; scheme: string };
      return { backgroundColor: e.bg, colorScheme: e.scheme };
    },
    matchMedia: (q) => ({ matches: q === '(prefers-color-scheme: dark)' && prefersDark }),
  };
  return { canvas: canvas as unknown as Element, env };
}

describe("palette: 'auto'", () => {
  test('isDarkColor: relative luminance under 0.18 (mid grey)', () => {
    // #767676: linear 0.181 -> light; #757575: 0.178 -> dark (hand-worked from the sRGB curve).
    expect(isDarkColor([0x76 / 255, 0x76 / 255, 0x76 / 255])).toBe(false);
    expect(isDarkColor([0x75 / 255, 0x75 / 255, 0x75 / 255])).toBe(true);
    expect(isDarkColor([0.02, 0.03, 0.06])).toBe(true);
    expect(isDarkColor([1, 1, 1])).toBe(false);
    // Pure green is light (0.7152), pure blue dark (0.0722).
    expect(isDarkColor([0, 1, 0])).toBe(false);
    expect(isDarkColor([0, 0, 1])).toBe(true);
  });

  test('the rule: own background by prefers-color-scheme; over the page by the colour behind', () => {
    const base = { ownBackground: false, behind: null, schemeDark: false, prefersDark: false };
    expect(pagePalette({ ...base, ownBackground: true, prefersDark: true })).toBe('default');
    expect(pagePalette({ ...base, ownBackground: true, prefersDark: false })).toBe('ink');
    // Transparent: the page's colour wins over the preference.
    expect(pagePalette({ ...base, behind: [0.07, 0.07, 0.07], prefersDark: false })).toBe(
      'default',
    );
    expect(pagePalette({ ...base, behind: [0.98, 0.98, 0.98], prefersDark: true })).toBe('ink');
    // No colour anywhere: the page's canvas, white unless its colour scheme is dark.
    expect(pagePalette({ ...base, prefersDark: true })).toBe('ink');
    expect(pagePalette({ ...base, schemeDark: true })).toBe('default');
    expect(AUTO_PALETTES).toEqual({ dark: 'default', light: 'ink' });
  });

  test('pageLook reads the first opaque ancestor, the root scheme and the preference', () => {
    const view = validateView({ palette: 'auto', background: 'transparent' });
    const dark = fakePage(['rgba(0, 0, 0, 0)', 'rgb(17, 17, 17)', 'rgb(255, 255, 255)'], '', false);
    expect(pageLook(view, dark.canvas, dark.env)).toEqual({
      ownBackground: false,
      behind: [17 / 255, 17 / 255, 17 / 255],
      schemeDark: false,
      prefersDark: false,
    });
    expect(resolveAutoPalette(view, dark.canvas, dark.env).palette).toBe('default');
    const light = fakePage(['rgb(250, 250, 245)'], 'dark', true);
    expect(resolveAutoPalette(view, light.canvas, light.env).palette).toBe('ink');
    // Nothing opaque: `color-scheme: light dark` under a dark preference is a dark canvas.
    const bare = fakePage(['rgba(0, 0, 0, 0)'], 'light dark', true);
    expect(pageLook(view, bare.canvas, bare.env).schemeDark).toBe(true);
    expect(resolveAutoPalette(view, bare.canvas, bare.env).palette).toBe('default');
    const bareLight = fakePage(['rgba(0, 0, 0, 0)'], 'light dark', false);
    expect(resolveAutoPalette(view, bareLight.canvas, bareLight.env).palette).toBe('ink');
    // Its own (opaque) background: the preference, forced each way.
    const opaque = validateView({ palette: 'auto' });
    for (const prefersDark of [true, false]) {
      const p = fakePage(['rgb(255, 255, 255)'], '', prefersDark);
      expect(resolveAutoPalette(opaque, p.canvas, p.env).palette).toBe(
        prefersDark ? 'default' : 'ink',
      );
    }
    // The element's canvas sits in a shadow root: the walk goes on from the shadow root's host
    // (before, it stopped there and read a dark page as a white one: 'ink', dark birds).
    const page = fakePage(['rgb(11, 15, 26)'], '', false);
    const host = {
      parentElement: (page.canvas as unknown as { parentElement: unknown }).parentElement,
      bg: 'rgba(0, 0, 0, 0)',
      scheme: '',
    };
    const stage = { parentElement: null, parentNode: { host }, bg: 'rgba(0, 0, 0, 0)', scheme: '' };
    const shadowed = {
      ...(page.canvas as unknown as object),
      parentElement: stage,
    } as unknown as Element;
    expect(pageLook(view, shadowed, page.env).behind).toEqual([11 / 255, 15 / 255, 26 / 255]);
    expect(resolveAutoPalette(view, shadowed, page.env).palette).toBe('default');
    // Any other palette is left as it is.
    const dusk = validateView({ palette: 'dusk' });
    expect(resolveAutoPalette(dusk, dark.canvas, dark.env)).toBe(dusk);
  });

  test("a VIEW_SCHEMA value; unresolved (no page) it draws as 'default'", () => {
    expect(validateView({ palette: 'auto' }).palette).toBe('auto');
    expect(viewColors(validateView({ palette: 'auto' }))).toEqual(
      viewColors(validateView({ palette: 'default' })),
    );
    expect(palette('auto')).toEqual(palette('default'));
  });
});
