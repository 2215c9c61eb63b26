// Issue 21, reproduction 9: `auto` with more boids than a GPU rung's device holds keeps that rung
// at its limit (fallbackReasons says so) instead of dropping to cpu's 4,096. The device's limit is
// made small with `limits` (MAX_TEXTURE_SIZE 256: 16,384 boids on the WebGL2 rungs), so the test
// stays light; the case (phone limits, 5,000,000 boids, 4,194,304 kept) is the same path.
import { describe, expect, test } from 'vitest';
import { initialState, validateParams } from '../../src/index';
import { flockMaker } from '../support/browser';

const make = flockMaker();

describe('auto keeps a GPU rung above its count limit', () => {
  test.each([
    ['webgl2', ['webgpu']],
    ['webgl2-tf', ['webgpu', 'EXT_color_buffer_float']],
  ] as const)(
    '%s: 20,000 boids asked, 16,384 kept on the rung, not 4,096 on cpu',
    async (rung, disable) => {
      const params = { count: 20_000, seed: 3 };
      const f = await make(undefined, {
        params,
        disable: [...disable],
        limits: { maxTextureSize: 256 },
        autoStart: false,
      });
      expect(f.backend).toBe(rung);
      expect(f.params.count).toBe(16_384);
      expect(f.maxCount).toBe(16_384);
      expect(f.fallbackReasons[rung]).toBe(
        `count capped from 20000 to 16384, the ${rung} backend's limit on this device`,
      );
      const s = await f.readState();
      expect(s.count).toBe(16_384);
      const full = initialState(validateParams(params));
      expect(s.positions).toEqual(full.positions.slice(0, 4 * 16_384));
      await f.step(1);
    },
  );
});
