// src/core/css-color.ts against d3-color's color(), the parser it replaced (a devDependency kept
// for this comparison): every string below gives the same r, g, b, opacity (NaN where d3-color
// has NaN), or null from both.
import { color } from 'd3-color';
import { describe, expect, test } from 'vitest';
import { parseColor3 } from '../../src/core/css-color';
import { mulberry32 } from '../../src/core/state';

const d3 = (s: string) => {
  const c = color(s);
  if (!c) return null;
  const r = c.rgb();
  return [r.r, r.g, r.b, r.opacity];
};

const FIXED = [
  'red',
  'teal',
  'rebeccapurple',
  'white',
  'aliceblue',
  'yellowgreen',
  'ffffff',
  'f0f8ff',
  'constructor',
  'red blue',
  'grey',
  'gray',
  'notacolour',
  '',
  '#f80',
  '#F80'.toLowerCase(),
  '#f808',
  '#f800',
  '#ff8800',
  '#ff880080',
  '#ff880000',
  '#ff8800ff',
  '#12345',
  '#1234567',
  '#ggg',
  '#',
  '#0000',
  '#00000000',
  'rgb(255, 0, 0)',
  'rgb(255,0,0)',
  'rgb( 12 , 34 , 56 )',
  'rgb(300, -20, 0)',
  'rgb(+5, 007, 1)',
  'rgb(1.5, 2, 3)',
  'rgb(1e2, 2, 3)',
  'rgb(10%, 20%, 30%)',
  'rgb(50%, 50%, 50%)',
  'rgb(10%, 20, 30)',
  'rgb(1.5%, 2.25%, 1e1%)',
  'rgb(1, 2, 3, 0.5)',
  'rgb(1 2 3)',
  'rgba(1, 2, 3)',
  'rgba(1, 2, 3, 0.5)',
  'rgba(1, 2, 3, 0)',
  'rgba(1, 2, 3, -1)',
  'rgba(1, 2, 3, 50%)',
  'rgba(10%, 20%, 30%, .25)',
  'rgba(10%, 20%, 30%, 1e-1)',
  'rgba(1,2,3,2)',
  'hsl(120, 50%, 50%)',
  'hsl(-120, 50%, 50%)',
  'hsl(480, 50%, 25%)',
  'hsl(120, 0%, 50%)',
  'hsl(120, 50%, 0%)',
  'hsl(120, 50%, 100%)',
  'hsl(120.5, 33.3%, 66.6%)',
  'hsl(120%, 50%, 50%)',
  'hsl(120, 50, 50)',
  'hsl(120, 50%, 50%, 0.5)',
  'hsla(120, 50%, 50%)',
  'hsla(120, 50%, 50%, 0.5)',
  'hsla(120, 50%, 50%, 0)',
  'hsla(240, 100%, 50%, 1)',
  'hsl(59.9, 10%, 90%)',
  'hsl(239, 60%, 40%)',
];

function same(s: string) {
  const got = parseColor3(s);
  const want = d3(s);
  if (want === null) expect(got, s).toBeNull();
  else expect(got, s).toEqual(want);
}

describe('parseColor3 matches d3-color', () => {
  test('hand-picked strings: names, hex forms, rgb/rgba/hsl/hsla, malformed ones', () => {
    for (const s of FIXED) same(s);
  });

  test('1,237 random functional and hex strings (seed 31)', () => {
    const rand = mulberry32(31);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
    const num = () =>
      pick([
        String(Math.floor(rand() * 400) - 50),
        (rand() * 300 - 20).toFixed(pick([1, 2, 3])),
        `${(rand() * 120).toFixed(1)}%`,
        `${Math.floor(rand() * 101)}%`,
        '0',
        '.5',
        '1e1',
      ]);
    for (let i = 0; i < 1237; i++) {
      if (i % 5 === 0) {
        const n = Math.floor(rand() * 0xffffffff);
        same(
          `#${n
            .toString(16)
            .padStart(8, '0')
            .slice(0, pick([3, 4, 5, 6, 7, 8]))}`,
        );
        continue;
      }
      const args = Array.from({ length: pick([3, 3, 4]) }, num).join(pick([',', ', ', ' , ']));
      same(`${pick(['rgb', 'rgba', 'hsl', 'hsla'])}(${args})`);
    }
  });
});
