// The <gpu-flock> element between its parts (issue 21): attributes changed while the flock is being
// created, a change after a failed start, and the debug layer across a rebuild.
import { describe, expect, test } from 'vitest';
import '../../src/element/index';
import type { GpuFlockElement } from '../../src/element/index';
import { createFlock, FlockError } from '../../src/index';
import { elementMaker, once, sleep, until } from '../support/browser';

const { addFlock, removeLater } = elementMaker();

/** The pixels of a 2D canvas, as a string key, and how many are not transparent. */
function pixels(c: HTMLCanvasElement): { key: string; inked: number } {
  const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
  let inked = 0;
  let h = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3]! > 0) inked++;
    h = (Math.imul(h, 31) + d[i]! + 7 * d[i + 3]! + i) | 0;
  }
  return { key: `${inked}:${h}`, inked };
}

describe('<gpu-flock> seams', () => {
  for (const backend of ['webgl2', 'cpu']) {
    test(`${backend}: attributes changed while the flock is being created apply once it is up, the last value winning`, async () => {
      const el = addFlock({ backend, count: '1000', 'cohesion-weight': '1' });
      // Change four attributes of both kinds (params, view) again and again until the flock is up:
      // the last value of each must be the flock's.
      let i = 0;
      const boundaries = ['bounce', 'wrap', 'soft'];
      const modes = ['species', 'heading', 'uniform', 'speed'];
      while (!el.flock) {
        i++;
        el.setAttribute('cohesion-weight', String(1 + (i % 7) / 2));
        el.setAttribute('count', String(1000 + (i % 5)));
        el.setAttribute('boundary', boundaries[i % 3]!);
        el.setAttribute('color-mode', modes[i % 4]!);
        await sleep(1);
      }
      const flock = await el.ready;
      expect(i).toBeGreaterThan(1); // some changes came while it was starting
      expect(flock.params.cohesionWeight).toBe(Number(el.getAttribute('cohesion-weight')));
      expect(flock.params.count).toBe(Number(el.getAttribute('count')));
      expect(flock.params.boundary).toBe(el.getAttribute('boundary'));
      expect(flock.view.colorMode).toBe(el.getAttribute('color-mode'));
      expect((await flock.readState()).count).toBe(flock.params.count);
    });
  }

  test('attributes changed while starting apply in order: max-speed then min-speed above the old max', async () => {
    // Changed from inside the start, deterministically: when createFlock asks the element's canvas
    // for its context (the attributes were read just before).
    const real = HTMLCanvasElement.prototype.getContext;
    let el: GpuFlockElement | null = null;
    let changed = false;
    HTMLCanvasElement.prototype.getContext = function (
      this: HTMLCanvasElement,
      ...args: unknown[]
    ) {
      const starting = el && (el as unknown as { _starting: boolean })._starting;
      if (!changed && starting && el!.flock === null) {
        changed = true;
        el!.setAttribute('max-speed', '9');
        el!.setAttribute('min-speed', '7'); // valid only after max-speed 9
        el!.setAttribute('separation-weight', '2');
        el!.setAttribute('separation-weight', '3');
      }
      return (real as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof real;
    try {
      el = addFlock({ backend: 'webgl2', count: '900' });
      const flock = await el.ready;
      expect(changed).toBe(true);
      expect([flock.params.minSpeed, flock.params.maxSpeed]).toEqual([7, 9]);
      expect(flock.params.separationWeight).toBe(3);
    } finally {
      HTMLCanvasElement.prototype.getContext = real;
    }
  });

  test('after a failed start, removing disable, setting backend or fixing count starts the flock', async () => {
    const el = addFlock({ backend: 'webgl2', disable: 'webgl2', count: '1000' });
    const err = once<CustomEvent<{ error: unknown }>>(el, 'error');
    await expect(el.ready).rejects.toBeInstanceOf(FlockError);
    expect((await err).detail.error).toBeInstanceOf(FlockError);
    expect(el.flock).toBeNull();
    el.removeAttribute('disable');
    const flock = await el.ready;
    expect(flock.backend).toBe('webgl2');
    expect(el.flock).toBe(flock);

    const el2 = addFlock({ backend: 'webgl2', disable: 'webgl2', count: '1000' });
    await expect(el2.ready).rejects.toBeInstanceOf(FlockError);
    el2.setAttribute('backend', 'cpu');
    expect((await el2.ready).backend).toBe('cpu');

    // cpu above its count cap runs at the cap, as auto does (issue 31 item 5); a smaller count
    // is taken as it is.
    const el3 = addFlock({ backend: 'cpu', count: '100000' });
    const f3 = await el3.ready;
    expect(f3.params.count).toBe(4096);
    el3.setAttribute('count', '1200');
    expect(f3.params.count).toBe(1200);
    expect((await f3.readState()).count).toBe(1200);
  });

  test('the debug layer follows a rebuild (backend change): it draws the new flock', async () => {
    const el = addFlock({ backend: 'webgl2', count: '1500', 'show-velocities': '' });
    const first = await el.ready;
    const layers = () => [
      ...el.shadowRoot!.querySelectorAll<HTMLCanvasElement>('canvas.gpu-flock-debug'),
    ];
    await until(() => layers().length === 1 && pixels(layers()[0]!).inked > 0, 20_000);
    el.setAttribute('backend', 'cpu');
    await until(() => el.flock !== null && el.flock !== first, 20_000);
    const second = el.flock!;
    expect(second.backend).toBe('cpu');
    second.start();
    // One layer, drawing lines that move with the running cpu flock (a layer left on the
    // disposed flock keeps its last state, or nothing).
    await until(() => layers().length === 1 && pixels(layers()[0]!).inked > 0, 20_000);
    const a = pixels(layers()[0]!).key;
    await until(() => pixels(layers()[0]!).key !== a, 20_000);
    expect(layers().length).toBe(1);
  });

  test('a boolean other than present/true/1/false/0 and a fraction for an integer fire error; the flock keeps its value', async () => {
    const el = addFlock({ backend: 'cpu', count: '1003', antialias: 'false', 'picked-boid': '3' });
    const flock = await el.ready;
    expect([flock.view.antialias, flock.view.pickedBoid]).toEqual([false, 3]);
    const seen: { attribute: string; value: string | null; allowed: string; error: unknown }[] = [];
    el.addEventListener('error', (e) =>
      seen.push((e as unknown as CustomEvent<(typeof seen)[0]>).detail),
    );
    for (const text of ['off', 'no', 'none']) el.setAttribute('antialias', text);
    el.setAttribute('picked-boid', '1.5');
    el.setAttribute('count', '2.5');
    const bool = 'true or false: empty, "true" or "1" (true), "false" or "0" (false)';
    expect(seen.map((d) => [d.attribute, d.value, d.allowed])).toEqual([
      ['antialias', 'off', bool],
      ['antialias', 'no', bool],
      ['antialias', 'none', bool],
      ['picked-boid', '1.5', 'an integer from -1 to 16777215 (boid id)'],
      ['count', '2.5', 'an integer from 1 to 16777216 (boids)'],
    ]);
    for (const d of seen) expect(d.error).toBeInstanceOf(FlockError);
    expect([flock.view.antialias, flock.view.pickedBoid, flock.params.count]).toEqual([
      false,
      3,
      1003,
    ]);
    // The allowed forms apply.
    el.setAttribute('antialias', '1');
    el.setAttribute('picked-boid', '4');
    expect([flock.view.antialias, flock.view.pickedBoid]).toEqual([true, 4]);
  });

  test('paused and interactive read booleans as the other boolean attributes do: "off" fires error and keeps the last good value', async () => {
    // Before: any text of a present attribute counted as present ("off" paused, and interactive="off"
    // turned the pointer on), with no error.
    const el = addFlock({ backend: 'cpu', count: '1003' });
    const flock = await el.ready;
    const seen: { attribute: string; value: string | null; allowed: string }[] = [];
    el.addEventListener('error', (e) =>
      seen.push((e as unknown as CustomEvent<(typeof seen)[0]>).detail),
    );
    const bool = 'true or false: empty, "true" or "1" (true), "false" or "0" (false)';
    el.setAttribute('interactive', 'off');
    expect(flock.view.pointer).toBe('off');
    el.setAttribute('interactive', '');
    expect(flock.view.pointer).toBe('element');
    el.setAttribute('interactive', 'false');
    expect(flock.view.pointer).toBe('off');
    el.setAttribute('paused', 'no');
    await sleep(50);
    expect(flock.running).toBe(true);
    el.setAttribute('paused', '1');
    await sleep(50);
    expect(flock.running).toBe(false);
    el.setAttribute('paused', 'nope');
    await sleep(50);
    expect(flock.running).toBe(false); // the last good value (paused) kept
    el.setAttribute('paused', 'false');
    await until(() => flock.running, 5_000);
    expect(seen.map((d) => [d.attribute, d.value, d.allowed])).toEqual([
      ['interactive', 'off', bool],
      ['paused', 'no', bool],
      ['paused', 'nope', bool],
    ]);
  });

  test('errors describe elements as a selector (<canvas#hero.big>), not as {}', async () => {
    const canvas = document.createElement('canvas');
    canvas.id = 'hero';
    canvas.className = 'big wide';
    document.body.append(canvas);
    removeLater(canvas);
    const f = await createFlock(canvas, {
      backend: 'cpu',
      params: { count: 500 },
      autoStart: false,
    });
    try {
      const e = await createFlock(canvas, { backend: 'cpu' }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(FlockError);
      expect((e as FlockError).message).toMatch(
        /^target = <canvas#hero\.big\.wide> is not allowed/,
      );
      expect((e as FlockError).value).toBe(canvas);
    } finally {
      f.dispose();
    }
  });

  // An outside tester: palette="dusk" background="#05080f" drew dusk's rgb(226, 164, 138) (the
  // value was compared with the default), while #05080e was honoured. The canvas's CSS background
  // is the background the flock resolves (kept under an opaque frame).
  test('an explicit background equal to the default wins over the palette, element and API', async () => {
    const bg = (f: { canvas: HTMLCanvasElement }) => f.canvas.style.backgroundColor;
    const el = addFlock({ backend: 'cpu', count: '300', palette: 'dusk', background: '#05080f' });
    const f = await el.ready;
    expect(bg(f)).toBe('rgb(5, 8, 15)');
    el.removeAttribute('background'); // not given: the palette's again
    expect(bg(f)).toBe('rgb(226, 164, 138)');
    el.setAttribute('background', '#05080f');
    expect(bg(f)).toBe('rgb(5, 8, 15)');
    const canvas = document.createElement('canvas');
    document.body.append(canvas);
    removeLater(canvas);
    const view = { palette: 'dusk', background: '#05080f' } as const;
    const g = await createFlock(canvas, { backend: 'cpu', params: { count: 300 }, view });
    try {
      expect(bg(g)).toBe('rgb(5, 8, 15)');
      g.setView({ background: '#000000' });
      g.setView({ background: '#05080f' });
      expect(bg(g)).toBe('rgb(5, 8, 15)');
    } finally {
      g.dispose();
    }
  });
});
