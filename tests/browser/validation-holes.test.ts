// Issue 11 item 6 through a flock: undefined fields ignored, hostile arguments are FlockErrors.
import { describe, expect, test } from 'vitest';
import { createFlock, FlockError } from '../../src/index';
import { parityParams } from '../support/compare';
import { flockError, flockMaker } from '../support/browser';

const make = flockMaker();

const rejection = flockError;

describe('validation holes through a flock (item 6)', () => {
  test('undefined fields are ignored: no re-init, no camera reset; bad arguments are FlockErrors', async () => {
    const f = await make(undefined, {
      backend: 'webgl2',
      params: parityParams({ count: 600 }),
      autoStart: false,
    });
    await f.step(4);
    const before = await f.readState();
    f.camera = { ...f.camera, yaw: 1.234 };
    f.setParams({ count: undefined, seed: undefined, dimensions: undefined, boundsMin: undefined });
    expect((await f.readState()).positions).toEqual(before.positions);
    expect(f.camera.yaw).toBe(1.234);
    const hostile = {
      toString() {
        throw new Error('hostile');
      },
      toJSON() {
        throw new Error('hostile');
      },
    };
    const proxy = new Proxy(new Float32Array(4 * 600), {
      get() {
        throw new Error('trap');
      },
    });
    const cases: [() => unknown, string][] = [
      [() => f.setParams(undefined as never), 'params'],
      [() => f.setParams(null as never), 'params'],
      [() => f.setParams({ perceptionRadius: hostile as never }), 'perceptionRadius'],
      [() => f.setParams({ boundsMin: hostile as never }), 'boundsMin'],
      [() => f.setParams({ boundary: hostile as never }), 'boundary'],
      [
        () =>
          f.setParams(
            new Proxy(
              {},
              {
                ownKeys: () => {
                  throw new Error('trap');
                },
              },
            ) as never,
          ),
        'params',
      ],
      [() => f.setState(undefined as never), 'state'],
      [
        () => f.setState({ count: 600, positions: proxy, velocities: before.velocities }),
        'state.positions',
      ],
      [() => f.step(hostile as never), 'n'],
    ];
    for (const [call, field] of cases) {
      let err: unknown = null;
      try {
        await call();
      } catch (e) {
        err = e;
      }
      expect(err, field).toBeInstanceOf(FlockError);
      expect((err as FlockError).field).toBe(field);
    }
    expect((await f.readState()).positions).toEqual(before.positions);
    const e = await rejection(createFlock(undefined, { backend: null as never }));
    expect(e.field).toBe('backend');
  });
});
