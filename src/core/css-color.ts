/**
 * CSS Color Level 3 without a DOM: named colours, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`,
 * `rgb()`, `rgba()`, `hsl()`, `hsla()` (comma syntax), the grammar and the results of d3-color's
 * `color()` (the parser this replaced: the same strings accepted, the same numbers out, held by
 * tests/unit/css-color.test.ts against d3-color). Only what parseCssColor (color.ts) needs, so a
 * page's first load carries no colour classes.
 */

/** `text` (already trimmed and lower case) as [r, g, b] in 0..255 and alpha, or null. */
export function parseColor3(text: string): [number, number, number, number] | null {
  let m = /^#([0-9a-f]{3,8})$/.exec(text);
  if (m) {
    const l = m[1]!.length;
    const n = parseInt(m[1]!, 16);
    // Short forms repeat each hex digit: #f80 is #ff8800.
    const d = (k: number) => ((n >> (4 * k)) & 0xf) * 17;
    if (l === 6) return hex(n);
    if (l === 3) return [d(2), d(1), d(0), 1];
    if (l === 8)
      return withAlpha((n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, (n & 0xff) / 0xff);
    if (l === 4) return withAlpha(d(3), d(2), d(1), d(0) / 0xff);
    return null;
  }
  m = FUNCTION.exec(text);
  if (m) {
    const [, name, a, b, c, alpha] = m as unknown as string[];
    const pa = a!.endsWith('%');
    const pb = b!.endsWith('%');
    const pc = c!.endsWith('%');
    const hasAlpha = name!.endsWith('a');
    // rgba( needs a fourth value, rgb( must not have one; the alpha is never a percentage.
    if (hasAlpha !== (alpha !== undefined) || alpha?.endsWith('%')) return null;
    const x = parseFloat(a!);
    const y = parseFloat(b!);
    const z = parseFloat(c!);
    const o = hasAlpha ? +alpha! : 1;
    if (name!.startsWith('rgb')) {
      if (pa && pb && pc)
        return rgb((x * 255) / 100, (y * 255) / 100, (z * 255) / 100, o, hasAlpha);
      // Integers only, no percentage among them.
      if (pa || pb || pc || !INT.test(a!) || !INT.test(b!) || !INT.test(c!)) return null;
      return rgb(x, y, z, o, hasAlpha);
    }
    if (pa || !pb || !pc) return null;
    return hsl(x, y / 100, z / 100, o);
  }
  named ??= new Map(
    NAMES.trim()
      .split(' ')
      .flatMap((w, i, all) => (i % 2 ? [] : [[w, parseInt(all[i + 1]!, 16)] as const])),
  );
  const n = named.get(text);
  return n === undefined ? null : hex(n);
}

let named: Map<string, number> | undefined;

const NUM = '\\s*([+-]?(?:\\d*\\.)?\\d+(?:[eE][+-]?\\d+)?%?)\\s*';
const FUNCTION = new RegExp(`^(rgba?|hsla?)\\(${NUM},${NUM},${NUM}(?:,${NUM})?\\)$`);
const INT = /^\s*[+-]?\d+\s*$/;

const hex = (n: number): [number, number, number, number] => [
  (n >> 16) & 0xff,
  (n >> 8) & 0xff,
  n & 0xff,
  1,
];

/** A colour with alpha: d3-color leaves the channels NaN at alpha <= 0. */
function withAlpha(r: number, g: number, b: number, a: number): [number, number, number, number] {
  return a <= 0 ? [NaN, NaN, NaN, a] : [r, g, b, a];
}

function rgb(r: number, g: number, b: number, a: number, hasAlpha: boolean) {
  return hasAlpha ? withAlpha(r, g, b, a) : ([r, g, b, a] as [number, number, number, number]);
}

/** hsl(h, s, l) with s and l in 0..1 (CSS Color 3's algorithm, as d3-color computes it). */
function hsl(h: number, s: number, l: number, a: number): [number, number, number, number] {
  if (a <= 0) h = s = l = NaN;
  else if (l <= 0 || l >= 1) h = s = NaN;
  else if (s <= 0) h = NaN;
  h = (h % 360) + +(h < 0) * 360;
  if (isNaN(h) || isNaN(s)) s = 0;
  const m2 = l + (l < 0.5 ? l : 1 - l) * s;
  const m1 = 2 * l - m2;
  const v = (t: number) =>
    (t < 60
      ? m1 + ((m2 - m1) * t) / 60
      : t < 180
        ? m2
        : t < 240
          ? m1 + ((m2 - m1) * (240 - t)) / 60
          : m1) * 255;
  return [v(h >= 240 ? h - 240 : h + 120), v(h), v(h < 120 ? h + 240 : h - 120), a];
}

/** The 148 CSS named colours, name then hex, space-separated (CSS Color Module Level 3). */
const NAMES =
  'aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff ' +
  'beige f5f5dc bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff ' +
  'blueviolet 8a2be2 brown a52a2a burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 ' +
  'chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc crimson dc143c ' +
  'cyan 00ffff darkblue 00008b darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 ' +
  'darkgreen 006400 darkgrey a9a9a9 darkkhaki bdb76b darkmagenta 8b008b ' +
  'darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 ' +
  'darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f ' +
  'darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 ' +
  'deepskyblue 00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick b22222 ' +
  'floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ' +
  'ghostwhite f8f8ff gold ffd700 goldenrod daa520 gray 808080 green 008000 ' +
  'greenyellow adff2f grey 808080 honeydew f0fff0 hotpink ff69b4 indianred cd5c5c ' +
  'indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa lavenderblush fff0f5 ' +
  'lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080 ' +
  'lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 ' +
  'lightgrey d3d3d3 lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa ' +
  'lightskyblue 87cefa lightslategray 778899 lightslategrey 778899 lightsteelblue b0c4de ' +
  'lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6 magenta ff00ff ' +
  'maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 ' +
  'mediumpurple 9370db mediumseagreen 3cb371 mediumslateblue 7b68ee ' +
  'mediumspringgreen 00fa9a mediumturquoise 48d1cc mediumvioletred c71585 ' +
  'midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 ' +
  'navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 ' +
  'orange ffa500 orangered ff4500 orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 ' +
  'paleturquoise afeeee palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 ' +
  'peru cd853f pink ffc0cb plum dda0dd powderblue b0e0e6 purple 800080 ' +
  'rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 saddlebrown 8b4513 ' +
  'salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d ' +
  'silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 ' +
  'snow fffafa springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 ' +
  'tomato ff6347 turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff ' +
  'whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32 ';
