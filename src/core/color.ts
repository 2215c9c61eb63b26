/**
 * CSS colour parsing for the view options (background, boid colour). No DOM needed for CSS Color
 * Level 3 (named colours, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `rgba()`, `hsl()`,
 * `hsla()`, `transparent`), parsed by css-color.ts (d3-color's grammar); in a browser any other
 * colour the browser accepts (CSS Color 4: `rgb(0 0 0 / 50%)`, `oklch()`, `color-mix()`, ...) is resolved by the
 * browser itself (CSS.supports, then a 1x1 Canvas 2D fill read back), so "any CSS colour" means
 * what the page's own CSS would accept. Results are sRGB in [0, 1], not premultiplied.
 */
import { parseColor3 } from './css-color';

/** r, g, b, a in [0, 1] (sRGB, straight alpha). */
export type RGBA = [number, number, number, number];

const cache = new Map<string, RGBA | null>();

/** Resolves a colour the browser's CSS knows but CSS Color 3 does not; null without a DOM. */
function browserColor(text: string): RGBA | null {
  const css = (globalThis as { CSS?: { supports?(p: string, v: string): boolean } }).CSS;
  if (typeof document === 'undefined' || !css?.supports?.('color', text)) return null;
  try {
    const c = document.createElement('canvas');
    c.width = 1;
    c.height = 1;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    if (!ctx) return null;
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = text;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0]! / 255, d[1]! / 255, d[2]! / 255, d[3]! / 255];
  } catch {
    return null;
  }
}

/**
 * The colour `text` names, or null when it is not a CSS colour. `transparent` is (0, 0, 0, 0).
 * @param text a CSS colour string, e.g. `#05080f`, `rgba(0, 0, 0, 0.5)`, `teal`, `transparent`
 */
export function parseCssColor(text: unknown): RGBA | null {
  if (typeof text !== 'string') return null;
  const key = text.trim().toLowerCase();
  if (key === '') return null;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ? [...hit] : null;
  let out: RGBA | null = null;
  if (key === 'transparent') {
    out = [0, 0, 0, 0];
  } else {
    const c = parseColor3(key);
    if (c) {
      const ch = (v: number) => Math.min(1, Math.max(0, v / 255));
      out = [ch(c[0]), ch(c[1]), ch(c[2]), Math.min(1, Math.max(0, c[3]))];
    } else {
      out = browserColor(text.trim());
    }
  }
  if (cache.size > 256) cache.clear();
  cache.set(key, out);
  return out ? [...out] : null;
}

/** Premultiplied alpha: (r a, g a, b a, a), what a premultiplied canvas expects to be written. */
export function premultiply(c: RGBA): RGBA {
  return [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]];
}
