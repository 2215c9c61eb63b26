// Every way in starts formed and fills its canvas (issue 27 item 3), on every rung, at 1280x720:
// createFlock(canvas) with no options, <gpu-flock> with only a count, the README's bundler snippet
// (examples/vite-app/src/flock.ts) and the attributes the framework examples pass. Measured on the
// state of the first frame (the seed's formed start: createFlock has no warm-up and the element
// skips it for start 'groups'), projected with the flock's own camera and framing: the x-extent
// of the boids in the frame (2nd to 98th percentile) over the canvas width >= 0.5, a bird at the
// box centre >= 10 px long, local order >= 0.8; the order again on the rung's state read back.
import { describe, expect, test } from 'vitest';
import '../../src/element/index';
import type { Flock } from '../../src/index';
import { autoBoundsBox } from '../../src/core/page';
import { localOrder } from '../../src/core/order';
import { boidSizeFor, fitScale, viewProjection } from '../../src/core/render-math';
import { initialState, type FlockState } from '../../src/core/state';
import { boxMaker, elementMaker, flockMaker } from '../support/browser';
import reactFlock from '../../examples/react-app/src/Flock.tsx?raw';
import reactApp from '../../examples/react-app/src/App.tsx?raw';
import viteHtml from '../../examples/vite-app/index.html?raw';

const W = 1280;
const H = 720;
const box = boxMaker();
const { addFlock } = elementMaker();
const make = flockMaker();

/** The static `name="value"` attributes of the <gpu-flock> tag in an example's source. */
function exampleAttributes(source: string): Record<string, string> {
  const tag = /<gpu-flock\b([\s\S]*?)\/?>/.exec(source)![1]!;
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/(?<![:@\w-])([a-z][\w-]*)="([^"{]*)"/g)) out[m[1]!] = m[2]!;
  delete out.className;
  return out;
}

/** The React, Vue, Svelte and Next examples' tag (the same attributes), at their start count. */
const FRAMEWORK_ATTRS = {
  ...exampleAttributes(reactFlock),
  count: /useState\((\d+)\)/.exec(reactApp)![1]!,
};
/** The vite-app and esbuild-app pages' hero tag. */
const PAGE_ATTRS = exampleAttributes(viteHtml);

const RUNGS = ['webgpu', 'webgl2', 'webgl2-tf', 'cpu'] as const;
type Rung = (typeof RUNGS)[number];
/** The rung forced: explicit, except cpu, which `auto` reaches with the GPU rungs hidden (it caps the count). */
const rungOptions = (r: Rung) =>
  r === 'cpu' ? { disable: ['webgpu', 'webgl2'] } : { backend: r as Exclude<Rung, 'cpu'> };

/** The x-extent fraction of the boids in the frame and a box-centre bird's length in CSS px. */
function framed(flock: Flock, s: FlockState): { spread: number; birdPx: number } {
  const aspect = flock.canvas.width / flock.canvas.height;
  const scale = fitScale(flock.params, flock.view.fit, aspect);
  const m = viewProjection(flock.camera, aspect, false, scale);
  const xs: number[] = [];
  const P = s.positions;
  for (let i = 0; i < s.count; i++) {
    const [x, y, z] = [P[4 * i]!, P[4 * i + 1]!, P[4 * i + 2]!];
    const w = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
    const nx = (m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) / w;
    const ny = (m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) / w;
    if (w > 0 && Math.abs(nx) <= 1 && Math.abs(ny) <= 1) xs.push(nx);
  }
  xs.sort((a, b) => a - b);
  const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
  const spread = xs.length > 0 ? (at(0.98) - at(0.02)) / 2 : 0;
  // A segment across the view at the camera target spans L / (2 d tan(fovY/2) scale) of the height.
  const L = flock.view.boidSize > 0 ? flock.view.boidSize : boidSizeFor(flock.params);
  const cam = flock.camera;
  const birdPx =
    (L * flock.canvas.clientHeight) / (2 * cam.distance * Math.tan(cam.fovY / 2) * scale);
  return { spread, birdPx };
}

/** The first frame's state (the seed's), then the rung's state read back; the measures of both. */
async function expectFilled(flock: Flock, rung: Rung, count: number): Promise<void> {
  flock.stop();
  expect(flock.backend).toBe(rung);
  expect(flock.params.start).toBe('groups');
  expect(flock.params.count).toBe(count);
  expect(flock.view.autoBounds).toBe(true);
  expect(flock.view.fit).toBe('cover');
  expect(flock.params.boundsMax).toEqual(autoBoundsBox(count, 3, W, H).boundsMax);
  expect(flock.canvas.clientWidth).toBe(W);
  const first = initialState(flock.params);
  const { spread, birdPx } = framed(flock, first);
  const order = localOrder(first, flock.params).order;
  console.log(
    `${flock.backend} n=${count}: spread ${spread.toFixed(3)}, bird ${birdPx.toFixed(1)} px, order ${order.toFixed(3)}`,
  );
  expect(spread).toBeGreaterThanOrEqual(0.5);
  expect(birdPx).toBeGreaterThanOrEqual(10);
  expect(order).toBeGreaterThanOrEqual(0.8);
  const read = await flock.readState();
  expect(localOrder(read, flock.params).order).toBeGreaterThanOrEqual(0.8);
  expect(framed(flock, read).spread).toBeGreaterThanOrEqual(0.5);
}

const cap = (r: Rung, n: number) => (r === 'cpu' ? Math.min(n, 4096) : n);
const size = `width: ${W}px; height: ${H}px`;

describe('every way in fills its canvas at the first frame', () => {
  for (const rung of RUNGS) {
    test(`${rung}: createFlock(canvas) with no options`, async () => {
      const canvas = document.createElement('canvas');
      canvas.style.cssText = size;
      box(W, H).append(canvas);
      const flock = await make(canvas, rungOptions(rung));
      expect(flock.view.warmup).toBe(0);
      await expectFilled(flock, rung, cap(rung, 16384));
    });

    test(`${rung}: <gpu-flock count="3001">`, async () => {
      const el = addFlock({ backend: rung, count: '3001' }, size);
      await expectFilled(await el.ready, rung, 3001);
    });

    test(`${rung}: the README's bundler snippet (20,000)`, async () => {
      const flock = await make(box(W, H), {
        ...rungOptions(rung),
        params: { count: 20000 },
        view: { autoBounds: true, fit: 'cover', palette: 'dusk' },
      });
      await expectFilled(flock, rung, cap(rung, 20000));
    });

    for (const [name, attrs] of [
      ['React, Vue, Svelte, Next', FRAMEWORK_ATTRS],
      ['vite-app, esbuild-app', PAGE_ATTRS],
    ] as const) {
      test(`${rung}: the ${name} examples' <gpu-flock>`, async () => {
        const el = addFlock({ ...attrs, backend: rung }, size);
        await expectFilled(await el.ready, rung, cap(rung, Number(attrs.count)));
      });
    }
  }
});
