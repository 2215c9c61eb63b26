// The public API (DESIGN.md section 4) through createFlock, on the webgl2 backend and the ladder.
import { describe, expect, test } from 'vitest';
import { createFlock, FlockError, initialState, validateParams } from '../../src/index';
import { referenceSteps } from '../../src/reference';
import { checkTolerance, parityParams } from '../support/compare';
import { flockError, flockMaker } from '../support/browser';

const make = flockMaker();

const rejection = flockError;

describe('createFlock on webgl2', () => {
  test('steps match the CPU reference; readState is in boid-id order', async () => {
    const params = parityParams({ count: 3001 });
    const f = await make(undefined, { backend: 'webgl2', params, autoStart: false });
    expect(f.backend).toBe('webgl2');
    expect(f.params.count).toBe(3001);
    const s0 = await f.readState();
    expect(s0.positions).toEqual(initialState(params).positions);
    await f.step(3);
    const got = await f.readState();
    const r = checkTolerance(got, referenceSteps(s0, params, 3), params, 3);
    expect(r.ok, r.message).toBe(true);
  });

  test('setState with another count, then reset to the seed', async () => {
    const f = await make(undefined, {
      backend: 'webgl2',
      params: parityParams({ count: 1000 }),
      autoStart: false,
    });
    const other = initialState(validateParams({ ...f.params, count: 777, seed: 9 }));
    f.setState(other);
    expect(f.params.count).toBe(777);
    const back = await f.readState();
    expect(back.count).toBe(777);
    expect(back.positions).toEqual(other.positions);
    f.reset();
    const reset = await f.readState();
    expect(reset.positions).toEqual(initialState(f.params).positions);
  });

  test('bad input throws a FlockError and the flock keeps its parameters and state', async () => {
    const f = await make(undefined, {
      backend: 'webgl2',
      params: parityParams({ count: 1200 }),
      autoStart: false,
    });
    await f.step(2);
    const before = await f.readState();
    const paramsBefore = f.params;
    const bad: [Record<string, unknown>, string][] = [
      [{ perceptionRadius: -1 }, 'perceptionRadius'],
      [{ count: 2.5 }, 'count'],
      [{ count: -4 }, 'count'],
      [{ minSpeed: 9 }, 'minSpeed'],
      [{ flavour: 'x' }, 'flavour'],
      [{ boundary: 'wrap', perceptionRadius: 8 }, 'perceptionRadius'],
    ];
    for (const [partial, field] of bad) {
      let err: unknown = null;
      try {
        f.setParams(partial);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(partial)).toBeInstanceOf(FlockError);
      expect((err as FlockError).field).toBe(field);
    }
    expect(() =>
      f.setState({
        count: 1200,
        positions: new Float32Array(5),
        velocities: new Float32Array(4800),
      }),
    ).toThrow(FlockError);
    const nan = {
      count: 2,
      positions: new Float32Array([0, 0, 0, 0, NaN, 0, 0, 0]),
      velocities: new Float32Array(8),
    };
    expect(() => f.setState(nan)).toThrow(/state\.positions\[4\]/);
    expect(f.params).toEqual(paramsBefore);
    const after = await f.readState();
    expect(after.positions).toEqual(before.positions);
    expect(after.velocities).toEqual(before.velocities);
    await expect(f.step(1.5)).rejects.toBeInstanceOf(FlockError);
  });

  test('params that keep the state, and ones that re-initialise', async () => {
    const f = await make(undefined, {
      backend: 'webgl2',
      params: parityParams({ count: 900 }),
      autoStart: false,
    });
    await f.step(1);
    const s1 = await f.readState();
    f.setParams({ cohesionWeight: 2.5 });
    expect((await f.readState()).positions).toEqual(s1.positions);
    f.setParams({ seed: 77 });
    expect((await f.readState()).positions).toEqual(initialState(f.params).positions);
  });

  test('dispose is idempotent and later calls fail clearly', async () => {
    const f = await createFlock(undefined, {
      backend: 'webgl2',
      params: { count: 100 },
      autoStart: false,
    });
    f.dispose();
    f.dispose();
    expect(() => f.setParams({ count: 5 })).toThrow(FlockError);
    expect(() => f.reset()).toThrow(FlockError);
    await expect(f.readState()).rejects.toBeInstanceOf(FlockError);
  });

  test('a container element gets a managed canvas, removed on dispose', async () => {
    const div = document.createElement('div');
    div.style.width = '200px';
    div.style.height = '100px';
    document.body.appendChild(div);
    const f = await createFlock(div, {
      backend: 'webgl2',
      params: { count: 50 },
      autoStart: false,
    });
    expect(f.canvas.parentElement).toBe(div);
    f.render();
    expect(f.canvas.width).toBe(Math.round(200 * devicePixelRatio));
    f.dispose();
    expect(div.children).toHaveLength(0);
    div.remove();
  });
});

describe('options and the ladder', () => {
  test('a null or detached target is a FlockError on target, not a flock nobody sees', async () => {
    // What `createFlock(document.querySelector('#hero'))` gives on a page without #hero: it used
    // to draw into a detached canvas, a blank page with no error.
    const none = await rejection(createFlock(null));
    expect(none.field).toBe('target');
    expect(none.message).toMatch(/found nothing gives null/);
    const div = document.createElement('div');
    const detached = await rejection(createFlock(div, { params: { count: 100 } }));
    expect(detached.field).toBe('target');
    expect(detached.message).toMatch(/not attached to the document/);
    expect(div.children).toHaveLength(0); // no canvas made
    const canvas = document.createElement('canvas');
    expect((await rejection(createFlock(canvas))).field).toBe('target');
    // No target at all stays allowed: a detached canvas the caller reads (flock.canvas).
    const f = await createFlock(undefined, { params: { count: 100 }, backend: 'webgl2' });
    expect(f.canvas.isConnected).toBe(false);
    f.dispose();
  });

  test('bad options reject with the field named', async () => {
    expect((await rejection(createFlock(undefined, { backend: 'vulkan' as never }))).field).toBe(
      'backend',
    );
    expect((await rejection(createFlock(undefined, { colour: 1 } as never))).field).toBe('colour');
    expect((await rejection(createFlock('app' as never))).field).toBe('target');
    expect((await rejection(createFlock(undefined, { params: null as never }))).field).toBe(
      'params',
    );
    expect((await rejection(createFlock(undefined, { disable: ['warp-drive'] }))).field).toBe(
      'disable',
    );
    expect((await rejection(createFlock(undefined, { params: { count: 0 } }))).field).toBe('count');
    expect(
      (await rejection(createFlock(undefined, { backend: 'webgl2', disable: ['webgl2'] }))).field,
    ).toBe('backend');
    expect(
      (await rejection(createFlock(undefined, { backend: 'webgpu', disable: ['webgpu'] }))).field,
    ).toBe('backend');
    expect(
      (await rejection(createFlock(undefined, { backend: 'cpu', params: { count: 5000 } }))).field,
    ).toBe('count');
  });

  test('auto with webgpu and webgl2 hidden lands on cpu with the count capped', async () => {
    const f = await make(undefined, {
      disable: ['webgpu', 'webgl2'],
      params: { count: 5000 },
      autoStart: false,
    });
    expect(f.backend).toBe('cpu');
    expect(f.params.count).toBe(4096);
    expect(f.fallbackReasons.webgpu).toMatch(/webgpu/);
    expect(f.fallbackReasons.webgl2).toMatch(/webgl2/i);
    expect(f.fallbackReasons.cpu).toMatch(/4096/);
    await f.step(1);
    expect((await f.readState()).count).toBe(4096);
  });

  test('auto with webgpu hidden runs webgl2', async () => {
    const f = await make(undefined, {
      disable: ['webgpu'],
      params: { count: 500 },
      autoStart: false,
    });
    expect(f.backend).toBe('webgl2');
    expect(Object.keys(f.fallbackReasons)).toEqual(['webgpu']);
  });
});

describe('long step runs', () => {
  test('step(n) is capped, lets the page run between chunks, and stops at dispose', async () => {
    const f = await make(undefined, {
      backend: 'webgl2',
      params: { count: 2000 },
      autoStart: false,
    });
    expect((await rejection(f.step(2_000_000))).field).toBe('n');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await f.step(120);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0); // timers ran while the 120 steps were submitted
    const long = f.step(1_000_000);
    await new Promise((r) => setTimeout(r, 50));
    f.dispose();
    // Settles soon after dispose instead of running a million steps, and says it was cut short.
    expect((await rejection(long)).field).toBe('flock');
  });
});

describe('draw modes', () => {
  test.each(['webgl2', 'webgpu'] as const)(
    '%s: vertex-id draws the same pixels as instancing',
    async (backend) => {
      const div = document.createElement('div');
      div.style.width = '160px';
      div.style.height = '120px';
      document.body.appendChild(div);
      const f = await make(div, {
        backend,
        params: parityParams({ count: 800 }),
        autoStart: false,
      });
      const grab = () => {
        f.render();
        const c = document.createElement('canvas');
        c.width = f.canvas.width;
        c.height = f.canvas.height;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(f.canvas, 0, 0);
        return ctx.getImageData(0, 0, c.width, c.height).data;
      };
      // SwiftShader is a software rasteriser: the flock starts drawing by vertex id there.
      expect(f.drawMode).toBe('vertex-id');
      f.drawMode = 'instanced';
      expect(f.drawMode).toBe('instanced');
      const a = grab();
      f.drawMode = 'vertex-id';
      expect(f.drawMode).toBe('vertex-id');
      const b = grab();
      let lit = 0;
      let diff = 0;
      for (let i = 0; i < a.length; i += 4) {
        if (a[i]! + a[i + 1]! + a[i + 2]! > 60) lit++;
        if (
          Math.abs(a[i]! - b[i]!) +
            Math.abs(a[i + 1]! - b[i + 1]!) +
            Math.abs(a[i + 2]! - b[i + 2]!) >
          6
        )
          diff++;
      }
      expect(lit).toBeGreaterThan(50);
      expect(diff / (a.length / 4)).toBeLessThan(0.002);
      expect(() => {
        f.drawMode = 'points' as never;
      }).toThrow(FlockError);
      div.remove();
    },
  );
});
