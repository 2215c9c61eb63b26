import { describe, expect, test } from 'vitest';
import { FlockError } from '../../src/core/errors';
import { PHONE_LIMITS, checkLimits, limitsDisable } from '../../src/core/limits';

describe('limits option', () => {
  test("'phone' is PHONE_LIMITS; absent is none; an object keeps its keys", () => {
    expect(checkLimits('phone')).toEqual({
      maxTextureSize: 4096,
      maxVertexTextureImageUnits: 16,
      maxDrawBuffers: 4,
      timerQuery: false,
      webgpu: 'compatibility',
    });
    expect(checkLimits(undefined)).toBeNull();
    expect(checkLimits({ maxTextureSize: 2048 })).toEqual({ maxTextureSize: 2048 });
    expect(limitsDisable(PHONE_LIMITS)).toEqual([
      'EXT_disjoint_timer_query_webgl2',
      'timestamp-query',
    ]);
    expect(limitsDisable({ maxTextureSize: 2048 })).toEqual([]);
    expect(limitsDisable(null)).toEqual([]);
  });

  test('bad values are a FlockError naming the key', () => {
    const field = (v: unknown): string => {
      try {
        checkLimits(v);
      } catch (e) {
        expect(e).toBeInstanceOf(FlockError);
        return (e as FlockError).field;
      }
      throw new Error(`accepted ${JSON.stringify(v)}`);
    };
    expect(field('tablet')).toBe('limits');
    expect(field(null)).toBe('limits');
    expect(field([4096])).toBe('limits');
    expect(field({ maxTextureSize: 0 })).toBe('limits.maxTextureSize');
    expect(field({ maxDrawBuffers: 2.5 })).toBe('limits.maxDrawBuffers');
    expect(field({ timerQuery: 'no' })).toBe('limits.timerQuery');
    expect(field({ webgpu: 'core' })).toBe('limits.webgpu');
    expect(field({ maxTextureSise: 4096 })).toBe('limits.maxTextureSise');
  });
});
