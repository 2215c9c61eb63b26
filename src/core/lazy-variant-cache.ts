/**
 * VariantCache's face (src/core/variant-cache.ts), its code loaded with import() when the first
 * one is made: the variants it compiles serve the frames after the first (the first parameters'
 * programs are built outside it), so a page's first load does not carry it (issue 30 item 4).
 * Calls that change it (request, withdraw, clear) made before it is in are made on it in order
 * once it is; until then no variant is ready or failed and its stats count nothing, as a cache
 * that has not compiled yet. A chunk that fails to load leaves the cache empty: the programs that
 * serve meanwhile (the generic pipeline, the previous program) go on serving.
 */
import type { VariantCache, VariantStats, VariantTiming } from './variant-cache';

export type { VariantStats, VariantTiming };

export class LazyVariantCache<V> {
  private cache: VariantCache<V> | null = null;
  private readonly calls: ((c: VariantCache<V>) => void)[] = [];
  private readonly loading: Promise<void>;

  /** As VariantCache's constructor. */
  constructor(
    readonly bound: number,
    compile: (key: string) => Promise<V>,
    release?: (variant: V, key: string) => void,
    timing?: VariantTiming,
  ) {
    if (!(Number.isInteger(bound) && bound >= 1)) throw new Error(`bound ${bound} < 1`);
    this.loading = import('./variant-cache').then(
      (m) => {
        const cache = new m.VariantCache(bound, compile, release, timing);
        this.cache = cache;
        for (const call of this.calls.splice(0)) call(cache);
      },
      () => undefined,
    );
  }

  private call(f: (c: VariantCache<V>) => void): void {
    if (this.cache) f(this.cache);
    else this.calls.push(f);
  }

  request(owner: object, key: string): void {
    this.call((c) => c.request(owner, key));
  }

  get(key: string): V | null {
    return this.cache?.get(key) ?? null;
  }

  failure(key: string): unknown {
    return this.cache?.failure(key);
  }

  /** VariantCache.settled, once the cache is in (at once when its chunk failed to load). */
  async settled(owner: object): Promise<void> {
    await this.loading;
    await this.cache?.settled(owner);
  }

  withdraw(owner: object): void {
    this.call((c) => c.withdraw(owner));
  }

  stats(): VariantStats {
    const none = { hits: 0, misses: 0, compiles: 0, failures: 0, evictions: 0, size: 0 };
    return this.cache?.stats() ?? { ...none, bound: this.bound };
  }

  clear(): void {
    this.call((c) => c.clear());
  }
}
