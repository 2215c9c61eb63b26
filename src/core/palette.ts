/**
 * The palettes (DESIGN section 7, the view option `palette`): a palette's colours, and the one
 * `auto` takes from the page. Apart from src/core/look.ts (the meshes, animation and shading, which
 * only the renderers need), so that the view's validation, which createFlock runs at first load,
 * does not pull the look's math into a page's first chunk.
 */
import { parseCssColor, type RGBA } from './color';
import { PALETTE_HEX } from './colormaps.gen';
import { SPEED_RAMP } from './render-math';
/** A palette, resolved: straight-alpha sRGB background, the 4-stop speed ramp, the key light. */
export interface Palette {
  background: RGBA;
  ramp: [number, number, number][];
  light: [number, number, number];
}

export const PALETTE_NAMES = ['default', 'dusk', 'ocean', 'ink', 'paper', 'ember'] as const;
export type PaletteName = (typeof PALETTE_NAMES)[number];
/**
 * The view option `palette`: a named palette, or `auto`: chosen from the page by the flock (a
 * dark page gets `default`, a light one `ink`: src/flock/auto-palette.ts, pagePalette). Where no
 * page is known, `auto` draws as `default`.
 */
export type PaletteChoice = PaletteName | 'auto';

/** The palette `auto` takes on a dark page (light birds) and on a light page (dark birds). */
export const AUTO_PALETTES = { dark: 'default', light: 'ink' } as const satisfies Record<
  'dark' | 'light',
  PaletteName
>;

/**
 * Whether an sRGB colour (components 0..1) reads as dark: its relative luminance (WCAG 2:
 * sRGB decoded to linear, 0.2126 R + 0.7152 G + 0.0722 B) under 0.18, mid grey (CIE L* 50).
 */
export function isDarkColor(rgb: readonly number[]): boolean {
  const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(rgb[0]!) + 0.7152 * lin(rgb[1]!) + 0.0722 * lin(rgb[2]!) < 0.18;
}

/** What `palette: 'auto'` is chosen from (pagePalette). */
export interface PageLook {
  /** The flock fills its canvas with its own background (an opaque `background`). */
  ownBackground: boolean;
  /** The first opaque background-color behind the canvas (its ancestors'), sRGB 0..1; null: none. */
  behind: readonly number[] | null;
  /** The page's used colour scheme is dark (`color-scheme: dark` on the root, or `light dark` under a dark preference). */
  schemeDark: boolean;
  /** `prefers-color-scheme: dark` matches. */
  prefersDark: boolean;
}

/**
 * The palette `auto` resolves to: with its own background, the one that suits the reader's
 * `prefers-color-scheme`; over the page (a transparent background), the one that reads on the
 * colour behind the canvas, or where every ancestor is transparent on the page's canvas colour
 * (white, unless the page's colour scheme is dark).
 */
export function pagePalette(page: PageLook): PaletteName {
  const dark = page.ownBackground
    ? page.prefersDark
    : page.behind
      ? isDarkColor(page.behind)
      : page.schemeDark;
  return dark ? AUTO_PALETTES.dark : AUTO_PALETTES.light;
}

const hexRgb = (hex: string, at = 0): [number, number, number] => [
  parseInt(hex.slice(at, at + 2), 16) / 255,
  parseInt(hex.slice(at + 2, at + 4), 16) / 255,
  parseInt(hex.slice(at + 4, at + 6), 16) / 255,
];

/**
 * The palette's colours (scripts/gen-colormaps.mjs samples their ramps from d3-scale-chromatic);
 * `default` is the engine's own: SPEED_RAMP over DEFAULT_BACKGROUND in a white light (`auto`
 * unresolved, with no page to look at, draws as `default`).
 */
export function palette(name: PaletteChoice): Palette {
  if (name === 'default' || name === 'auto') {
    return {
      background: parseCssColor('#05080f')!,
      ramp: SPEED_RAMP.map((c) => [...c] as [number, number, number]),
      light: [1, 1, 1],
    };
  }
  const p = PALETTE_HEX[name];
  return {
    background: [...hexRgb(p.background), 1],
    ramp: [0, 6, 12, 18].map((k) => hexRgb(p.ramp, k)),
    light: hexRgb(p.light),
  };
}
