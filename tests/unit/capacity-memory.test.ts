import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  CAPACITY_MAX_AGE_MS,
  capacityKey,
  correctCapacity,
  guessCapacity,
  recallCapacity,
  rememberCapacity,
  sharedMeasure,
  type CapacityStorage,
  type ListedCapacityStorage,
} from '../../src/capacity-memory';
import { LIBRARY_VERSION } from '../../src/version';

/** A Map-backed storage (localStorage's shape). */
function memoryStorage(): CapacityStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

const swiftshader = {
  backend: 'webgl2',
  device: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
  dimensions: 3 as const,
};
const NOW = 1_780_000_000_000;

describe('the remembered capacity (issue 27: a revisit starts at the right count, no probe)', () => {
  test("the library version is package.json's (a new version measures again)", () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(LIBRARY_VERSION).toBe(pkg.version);
  });

  test('remembered, then recalled for the same device, rung, dimensions and version', () => {
    const s = memoryStorage();
    const key = capacityKey(swiftshader);
    expect(recallCapacity(key, s, NOW)).toBeNull();
    expect(rememberCapacity(key, { count: 1300, holds: true, at: NOW }, s)).toBe(true);
    expect(recallCapacity(key, s, NOW + 1000)).toEqual({ count: 1300, holds: true, at: NOW });
  });

  test('another device, another rung, other dimensions, a version change: nothing', () => {
    const s = memoryStorage();
    rememberCapacity(capacityKey(swiftshader), { count: 1300, holds: true, at: NOW }, s);
    const others = [
      {
        ...swiftshader,
        device: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 Direct3D11 vs_5_0 ps_5_0)',
      },
      { ...swiftshader, backend: 'webgpu' },
      { ...swiftshader, dimensions: 2 as const },
      { ...swiftshader, version: '0.2.0' },
      // The demo's stress scene on the same device (its own cost): measured on its own.
      { ...swiftshader, scene: 'stress' },
    ];
    for (const o of others) expect(recallCapacity(capacityKey(o), s, NOW)).toBeNull();
    expect(new Set(others.map(capacityKey)).size).toBe(5);
    // No scene is the default scene's key (the element's and the demo's default scene share it).
    expect(capacityKey({ ...swiftshader, scene: '' })).toBe(capacityKey(swiftshader));
    expect(capacityKey(swiftshader)).toContain(`|${LIBRARY_VERSION}|`);
  });

  test('a stale entry (older than 30 days) or one from the future is ignored; a malformed one too', () => {
    const s = memoryStorage();
    const key = capacityKey(swiftshader);
    rememberCapacity(key, { count: 1300, holds: true, at: NOW - CAPACITY_MAX_AGE_MS - 1 }, s);
    expect(recallCapacity(key, s, NOW)).toBeNull();
    rememberCapacity(key, { count: 1300, holds: true, at: NOW - CAPACITY_MAX_AGE_MS + 1 }, s);
    expect(recallCapacity(key, s, NOW)?.count).toBe(1300);
    rememberCapacity(key, { count: 1300, holds: true, at: NOW + 3_600_000 }, s);
    expect(recallCapacity(key, s, NOW)).toBeNull();
    for (const text of [
      '{',
      'null',
      '{"count":-5,"at":1}',
      '{"count":1.5,"at":1}',
      '{"count":9}',
    ]) {
      s.map.set(key, text);
      expect(recallCapacity(key, s, NOW)).toBeNull();
    }
  });

  test('a storage that throws (blocked, full) or is absent is no error: nothing remembered', () => {
    const throwing: CapacityStorage = {
      getItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('Quota exceeded', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('no');
      },
    };
    const key = capacityKey(swiftshader);
    expect(rememberCapacity(key, { count: 900, holds: true, at: NOW }, throwing)).toBe(false);
    expect(recallCapacity(key, throwing, NOW)).toBeNull();
    expect(rememberCapacity(key, { count: 900, holds: true, at: NOW }, null)).toBe(false);
    expect(recallCapacity(key, null, NOW)).toBeNull();
    expect(correctCapacity(key, 2000, 12, { storage: throwing, floor: 512, now: NOW })).toBe(800);
  });

  test('a frame rate that proves the memory wrong lowers it (proportionally, not below the floor)', () => {
    const s = memoryStorage();
    const key = capacityKey(swiftshader);
    rememberCapacity(key, { count: 4000, holds: true, at: NOW }, s);
    // 30 fps held (or near it: 25 >= 24): the memory stands.
    expect(correctCapacity(key, 4000, 25, { storage: s, now: NOW })).toBeNull();
    expect(recallCapacity(key, s, NOW)?.count).toBe(4000);
    // 15 fps at 4,000: 4,000 * 15 / 30 = 2,000 would hold 30 fps.
    expect(correctCapacity(key, 4000, 15, { storage: s, floor: 512, now: NOW + 5 })).toBe(2000);
    expect(recallCapacity(key, s, NOW + 10)).toEqual({ count: 2000, holds: false, at: NOW + 5 });
    // 2 fps at 2,000: 133 -> the floor, 512.
    expect(correctCapacity(key, 2000, 2, { storage: s, floor: 512, now: NOW + 6 })).toBe(512);
    // No frame rate measured yet (0): nothing changes.
    expect(correctCapacity(key, 2000, 0, { storage: s, now: NOW })).toBeNull();
  });
});

/** memoryStorage with its keys listed (localStorage's length and key). */
function listedStorage(): ListedCapacityStorage & { map: Map<string, string> } {
  const s = memoryStorage();
  return {
    ...s,
    get length() {
      return s.map.size;
    },
    key: (i) => [...s.map.keys()][i] ?? null,
  };
}

describe('guessCapacity: the start count before the rung and device are known (issue 27)', () => {
  test('the newest fresh entry of this version and dimensions on the rungs asked for', () => {
    const s = listedStorage();
    const gpu = { ...swiftshader, backend: 'webgpu', device: 'Google SwiftShader' };
    rememberCapacity(capacityKey(swiftshader), { count: 1300, holds: true, at: NOW - 5000 }, s);
    rememberCapacity(capacityKey(gpu), { count: 770, holds: true, at: NOW - 1000 }, s);
    // Another version, other dimensions, a stale entry: never the guess, however new.
    rememberCapacity(
      capacityKey({ ...gpu, version: '0.0.1' }),
      { count: 9, holds: true, at: NOW },
      s,
    );
    rememberCapacity(capacityKey({ ...gpu, dimensions: 2 }), { count: 8, holds: true, at: NOW }, s);
    const old = { ...swiftshader, device: 'an old GPU' };
    const stale = NOW - CAPACITY_MAX_AGE_MS - 1;
    rememberCapacity(capacityKey(old), { count: 7, holds: true, at: stale }, s);
    s.map.set(`${capacityKey({ ...swiftshader, device: 'x' })}`, '{not json');
    // A scene's entry (the demo's stress scene): another cost, never the element's guess.
    rememberCapacity(
      capacityKey({ ...gpu, scene: 'stress' }),
      { count: 6, holds: true, at: NOW },
      s,
    );
    expect(s.map.size).toBe(7);
    // auto (every rung): the newest, webgpu's 770; webgl2 alone: 1300.
    const ladder = ['webgpu', 'webgl2', 'webgl2-tf', 'cpu'];
    expect(guessCapacity(ladder, 3, s, NOW)?.count).toBe(770);
    expect(guessCapacity(['webgl2'], 3, s, NOW)?.count).toBe(1300);
    expect(guessCapacity(['webgl2-tf', 'cpu'], 3, s, NOW)).toBeNull();
    expect(guessCapacity(ladder, 2, s, NOW)?.count).toBe(8);
    // A rung name that is a prefix of another is not matched by it ('webgl2' vs 'webgl2-tf').
    rememberCapacity(
      capacityKey({ ...swiftshader, backend: 'webgl2-tf' }),
      { count: 5, holds: true, at: NOW },
      s,
    );
    expect(guessCapacity(['webgl2'], 3, s, NOW)?.count).toBe(1300);
  });

  test('a storage that throws or is absent: no guess, no error', () => {
    const s = listedStorage();
    rememberCapacity(capacityKey(swiftshader), { count: 1300, holds: true, at: NOW }, s);
    const throwing: ListedCapacityStorage = {
      ...s,
      get length(): number {
        throw new Error('SecurityError');
      },
      key: s.key,
    };
    expect(guessCapacity(['webgl2'], 3, throwing, NOW)).toBeNull();
    expect(guessCapacity(['webgl2'], 3, null, NOW)).toBeNull();
  });
});

describe('sharedMeasure (issue 31 item 7: one probe per device and rung)', () => {
  test('the first caller measures; the rest wait for its answer; a failure is not kept', async () => {
    let runs = 0;
    let release!: (n: number) => void;
    const measure = () => {
      runs++;
      return new Promise<number>((r) => (release = r));
    };
    const callers = Array.from({ length: 20 }, () => sharedMeasure('k|webgl2', measure));
    expect(runs).toBe(1);
    expect(callers.map((c) => c.shared)).toEqual([false, ...Array<boolean>(19).fill(true)]);
    // Another key measures on its own.
    const other = sharedMeasure('k|webgpu', () => Promise.resolve(7));
    expect(other.shared).toBe(false);
    release(1300);
    expect(await Promise.all(callers.map((c) => c.result))).toEqual(Array(20).fill(1300));
    // Done: the next caller measures again (the memory, not this map, keeps the answer).
    const later = sharedMeasure('k|webgl2', () => Promise.resolve(1400));
    expect(later.shared).toBe(false);
    expect(await later.result).toBe(1400);
    const failing = sharedMeasure('k|cpu', () => Promise.reject(new Error('lost')));
    await expect(failing.result).rejects.toThrow('lost');
    const retry = sharedMeasure('k|cpu', () => Promise.resolve(512));
    expect(retry.shared).toBe(false);
    expect(await retry.result).toBe(512);
  });
});
