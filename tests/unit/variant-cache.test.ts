// src/core/variant-cache.ts with a compiler the test resolves by hand: one compile at a time,
// only the newest wish compiled, the LRU bound, the counts.
import { expect, test, vi } from 'vitest';
import { VariantCache } from '../../src/core/variant-cache';

/** A compiler whose compiles finish when the test says; `started` lists keys in start order. */
function manualCompiler() {
  const started: string[] = [];
  const finish = new Map<string, { ok: (v: string) => void; fail: (e: Error) => void }>();
  const compile = (key: string) =>
    new Promise<string>((ok, fail) => {
      started.push(key);
      finish.set(key, { ok, fail });
    });
  const done = async (key: string, error?: Error) => {
    const f = finish.get(key)!;
    if (error) f.fail(error);
    else f.ok(`variant ${key}`);
    // Let the cache's then/finally run.
    for (let k = 0; k < 5; k++) await Promise.resolve();
  };
  return { started, compile, done };
}

test('a burst of 7 wishes compiles the first and then only the newest', async () => {
  const c = manualCompiler();
  const cache = new VariantCache<string>(4, c.compile);
  const flock = {};
  for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) cache.request(flock, k);
  expect(c.started).toEqual(['a']);
  expect(cache.get('g')).toBeNull();
  await c.done('a');
  expect(c.started).toEqual(['a', 'g']);
  await c.done('g');
  expect(cache.get('g')).toBe('variant g');
  await cache.settled(flock);
  expect(cache.stats()).toEqual({
    hits: 0,
    misses: 7,
    compiles: 2,
    failures: 0,
    evictions: 0,
    size: 2,
    bound: 4,
  });
});

test('a wish that is ready is a hit and compiles nothing', async () => {
  const c = manualCompiler();
  const cache = new VariantCache<string>(4, c.compile);
  const flock = {};
  cache.request(flock, 'a');
  await c.done('a');
  cache.request(flock, 'b');
  cache.request(flock, 'a'); // back to a while b compiles
  expect(cache.get('a')).toBe('variant a');
  await cache.settled(flock); // a is ready: settled at once, b still compiling
  expect(c.started).toEqual(['a', 'b']);
  await c.done('b');
  expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, compiles: 2, size: 2 });
});

test('the cache never holds more than its bound: the least recently used goes first', async () => {
  const c = manualCompiler();
  const released: string[] = [];
  const cache = new VariantCache<string>(3, c.compile, (_v, k) => released.push(k));
  const flock = {};
  for (const k of ['a', 'b', 'c']) {
    cache.request(flock, k);
    await c.done(k);
  }
  expect(cache.get('a')).toBe('variant a'); // a is now the most recent; b the least
  let most = 0;
  for (const k of ['d', 'e', 'f', 'g', 'h']) {
    cache.request(flock, k);
    await c.done(k);
    most = Math.max(most, cache.stats().size);
  }
  expect(most).toBe(3);
  expect(released).toEqual(['b', 'c', 'a', 'd', 'e']);
  expect(cache.get('h')).toBe('variant h');
  expect(cache.stats()).toMatchObject({ evictions: 5, size: 3, compiles: 8 });
});

test('a variant some requester still wants is not evicted', async () => {
  const c = manualCompiler();
  const cache = new VariantCache<string>(1, c.compile);
  const one = {};
  const two = {};
  cache.request(one, 'a');
  await c.done('a');
  cache.request(two, 'b');
  await c.done('b');
  // Both are wanted: the bound gives way rather than dropping a variant in use.
  expect(cache.get('a')).toBe('variant a');
  expect(cache.get('b')).toBe('variant b');
  cache.withdraw(one);
  cache.request(two, 'c');
  await c.done('c');
  expect(cache.get('a')).toBeNull();
  expect(cache.stats()).toMatchObject({ size: 1, evictions: 2 });
});

test('newest wishes of two requesters are both compiled, newest first', async () => {
  const c = manualCompiler();
  const cache = new VariantCache<string>(8, c.compile);
  const one = {};
  const two = {};
  cache.request(one, 'a');
  cache.request(one, 'b');
  cache.request(two, 'x');
  cache.request(two, 'y');
  await c.done('a');
  expect(c.started).toEqual(['a', 'y']);
  await c.done('y');
  expect(c.started).toEqual(['a', 'y', 'b']);
  await c.done('b');
  await Promise.all([cache.settled(one), cache.settled(two)]);
});

test('a failed compile settles the wish, is counted, and is not retried', async () => {
  const c = manualCompiler();
  const cache = new VariantCache<string>(2, c.compile);
  const flock = {};
  cache.request(flock, 'bad');
  const settled = cache.settled(flock);
  await c.done('bad', new Error('no'));
  await settled;
  expect((cache.failure('bad') as Error).message).toBe('no');
  cache.request(flock, 'bad');
  expect(c.started).toEqual(['bad']);
  expect(cache.stats()).toMatchObject({ failures: 1, compiles: 1, size: 0 });
});

test('clear releases every variant; a compile finishing later is released too', async () => {
  const c = manualCompiler();
  const released: string[] = [];
  const cache = new VariantCache<string>(2, c.compile, (_v, k) => released.push(k));
  const flock = {};
  cache.request(flock, 'a');
  await c.done('a');
  cache.request(flock, 'b');
  cache.clear();
  expect(released).toEqual(['a']);
  await c.done('b');
  expect(released).toEqual(['a', 'b']);
  await cache.settled(flock);
  expect(cache.get('b')).toBeNull();
});

test('with a gap, compiles start from a timer, the newest wish at that moment, gapMs apart', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  try {
    const c = manualCompiler();
    const cache = new VariantCache<string>(4, c.compile, undefined, { gapMs: 100 });
    const flock = {};
    for (const k of ['a', 'b', 'c']) cache.request(flock, k);
    expect(c.started).toEqual([]); // nothing in the caller's task
    await vi.advanceTimersByTimeAsync(0);
    expect(c.started).toEqual(['c']);
    await c.done('c');
    cache.request(flock, 'd');
    await vi.advanceTimersByTimeAsync(60);
    expect(c.started).toEqual(['c']); // 60 ms after the last compile ended: not yet
    cache.request(flock, 'e');
    await vi.advanceTimersByTimeAsync(40);
    expect(c.started).toEqual(['c', 'e']);
    await c.done('e');
    await cache.settled(flock);
    expect(cache.stats()).toMatchObject({ misses: 5, compiles: 2, size: 2 });
  } finally {
    vi.useRealTimers();
  }
});

test('with a quiet time, a storm of changing wishes compiles nothing until it calms down', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  try {
    const c = manualCompiler();
    const cache = new VariantCache<string>(4, c.compile, undefined, { quietMs: 300 });
    const flock = {};
    // 2 s of wishes every 20 ms, the key changing each time.
    for (let k = 0; k < 100; k++) {
      cache.request(flock, `k${k}`);
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(c.started).toEqual([]);
    // The same wish again (another setParams of the same variant) does not restart the clock.
    await vi.advanceTimersByTimeAsync(200);
    cache.request(flock, 'k99');
    await vi.advanceTimersByTimeAsync(80);
    expect(c.started).toEqual(['k99']);
    await c.done('k99');
    await cache.settled(flock);
    expect(cache.stats()).toMatchObject({ misses: 101, compiles: 1, size: 1 });
  } finally {
    vi.useRealTimers();
  }
});

test('with quietFromRequest, a storm that keeps its variant compiles nothing until it calms down', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  try {
    const c = manualCompiler();
    const timing = { quietMs: 300, quietFromRequest: true };
    const cache = new VariantCache<string>(4, c.compile, undefined, timing);
    const flock = {};
    // 2 s of requests every 20 ms, the key changing every 500 ms only.
    for (let k = 0; k < 100; k++) {
      cache.request(flock, `k${Math.floor(k / 25)}`);
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(c.started).toEqual([]);
    // Quiet from the last request (280 ms ago at 'k3' + 20 ms): it starts now, not before.
    await vi.advanceTimersByTimeAsync(279);
    expect(c.started).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    expect(c.started).toEqual(['k3']);
    await c.done('k3');
    await cache.settled(flock);
    expect(cache.stats()).toMatchObject({ misses: 100, compiles: 1, size: 1 });
  } finally {
    vi.useRealTimers();
  }
});
