/**
 * Program variants (a pipeline or program specialised for some parameters) compiled in the
 * background and kept in a bounded least-recently-used cache (issue 21: a storm of parameter
 * changes queued 71 pipelines and froze the page). Three rules:
 * - at most one compile at a time;
 * - only the newest wish of each requester is compiled: a burst of parameter changes asks for
 *   many variants, and those replaced before the compiler was free are never compiled;
 * - at most `bound` ready variants; beyond that the least recently used one that nobody wants
 *   now is released;
 * - with `quietMs`, a compile starts only once the wish has stayed the same that long (with
 *   `quietFromRequest`, once its owner asked nothing that long), so a storm of changes compiles
 *   nothing until it calms down (what runs meanwhile must serve);
 * - with `gapMs`, a compile starts at least that long after the previous one ended: for compiles
 *   that block the page (a synchronous WebGL link), so frames run between them.
 * With either, compiles start from a timer, never in the caller's task, and take the newest
 * wish at that moment.
 * The GPU code decides what runs meanwhile (the generic pipeline on WebGPU, the previous program
 * on WebGL2). No GPU here: tested in Node (tests/unit/variant-cache.test.ts).
 */

/** What a cache did, for benchmarks (scripts/storm.mjs) and tests. */
export interface VariantStats {
  /** Wishes (requests) whose variant was ready. */
  hits: number;
  /** Wishes whose variant was not ready (compiled later, or replaced before it was). */
  misses: number;
  /** Compiles started. */
  compiles: number;
  /** Compiles that failed (the variant is not retried). */
  failures: number;
  /** Ready variants released to keep within the bound. */
  evictions: number;
  /** Ready variants held now. */
  size: number;
  /** Most ready variants held at once. */
  bound: number;
}

/** When compiles may start (see the module's comment). */
export interface VariantTiming {
  /** Least time a wish stays the same before it is compiled, ms. */
  quietMs?: number;
  /** Least time between the end of one compile and the start of the next, ms. */
  gapMs?: number;
  /**
   * The quiet time counts from the owner's last request, not from its last change of key: any
   * change of the parameters postpones the compile. For a cache whose requesters run exact
   * results meanwhile (WebGPU's generic steer pipeline), so a storm that keeps the same variant
   * for a while still compiles nothing while it lasts. Off, a GUI drag that keeps the variant
   * (and live steps that wait for it) gets it after quietMs.
   */
  quietFromRequest?: boolean;
}

export class VariantCache<V> {
  /** Ready variants, least recently used first (Map keeps insertion order). */
  private readonly ready = new Map<string, V>();
  private readonly failed = new Map<string, unknown>();
  /** Each requester's newest wish, most recent last. */
  private readonly wishes = new Map<object, string>();
  /** When each requester's wish last changed to another key (performance.now(), ms). */
  private readonly since = new Map<object, number>();
  private inFlight: string | null = null;
  /** A timer that will start the next compile (gapMs), or null. */
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** performance.now()-style time the last compile ended (gapMs). */
  private lastEnd = -Infinity;
  private waiters: (() => void)[] = [];
  private closed = false;
  private readonly counts = { hits: 0, misses: 0, compiles: 0, failures: 0, evictions: 0 };

  /**
   * @param bound most ready variants held (>= 1)
   * @param compile makes the variant of a key; a rejection marks the key failed
   * @param release frees an evicted variant (and each one at clear())
   * @param timing when given: compiles start from a timer, after quietMs and gapMs
   */
  constructor(
    readonly bound: number,
    private readonly compile: (key: string) => Promise<V>,
    private readonly release: (variant: V, key: string) => void = () => undefined,
    private readonly timing?: VariantTiming,
  ) {
    if (!(Number.isInteger(bound) && bound >= 1)) throw new Error(`bound ${bound} < 1`);
  }

  /**
   * `owner` now wants `key` (its parameters changed): a hit when it is ready, else a miss that is
   * compiled once the compiler is free, unless a newer wish of `owner` replaces it first.
   */
  request(owner: object, key: string): void {
    if (this.closed) return;
    if (this.wishes.get(owner) !== key || this.timing?.quietFromRequest) {
      this.since.set(owner, performance.now());
    }
    this.wishes.delete(owner);
    this.wishes.set(owner, key);
    if (this.ready.has(key)) {
      this.counts.hits++;
      this.touch(key);
    } else {
      this.counts.misses++;
    }
    this.pump();
    this.wake();
  }

  /** The ready variant of `key` (now the most recently used), or null. */
  get(key: string): V | null {
    const v = this.ready.get(key);
    if (v === undefined) return null;
    this.touch(key);
    return v;
  }

  /** Why `key` failed to compile, or undefined. */
  failure(key: string): unknown {
    return this.failed.get(key);
  }

  /** Resolves once `owner`'s newest wish is ready or failed, or `owner` has none. */
  async settled(owner: object): Promise<void> {
    for (;;) {
      const key = this.wishes.get(owner);
      if (this.closed || key === undefined || this.ready.has(key) || this.failed.has(key)) return;
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** `owner` wants nothing any more (it was disposed). */
  withdraw(owner: object): void {
    this.wishes.delete(owner);
    this.since.delete(owner);
    this.wake();
  }

  stats(): VariantStats {
    return { ...this.counts, size: this.ready.size, bound: this.bound };
  }

  /** Releases every ready variant and compiles nothing more. */
  clear(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [k, v] of this.ready) this.release(v, k);
    this.ready.clear();
    this.wishes.clear();
    this.wake();
  }

  private touch(key: string): void {
    const v = this.ready.get(key)!;
    this.ready.delete(key);
    this.ready.set(key, v);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    w.forEach((r) => r());
  }

  /** The newest wish that is neither ready nor failed, and whose it is. */
  private next(): { key: string; owner: object } | undefined {
    const newestFirst = [...this.wishes.entries()].reverse();
    const e = newestFirst.find(([, k]) => !this.ready.has(k) && !this.failed.has(k));
    return e && { owner: e[0], key: e[1] };
  }

  /** Starts the newest wish that is neither ready nor failed, when no compile runs. */
  private pump(): void {
    if (this.inFlight !== null || this.closed || this.timer !== null) return;
    if (!this.timing) this.start();
    else this.schedule(0);
  }

  /** With `timing`: a timer that starts the newest wish once its quiet and gap times are over. */
  private schedule(wait: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.inFlight !== null || this.closed) return;
      const next = this.next();
      if (next === undefined) return;
      const t = this.timing!;
      const now = performance.now();
      // A newer wish may have come meanwhile: its own quiet time counts.
      const left = Math.max(
        this.lastEnd + (t.gapMs ?? 0) - now,
        (this.since.get(next.owner) ?? now) + (t.quietMs ?? 0) - now,
      );
      if (left <= 0) this.start();
      else this.schedule(left);
    }, wait);
  }

  private start(): void {
    if (this.inFlight !== null || this.closed) return;
    const key = this.next()?.key;
    if (key === undefined) return;
    this.inFlight = key;
    this.counts.compiles++;
    let made: Promise<V>;
    try {
      made = this.compile(key);
    } catch (e) {
      made = Promise.reject(e);
    }
    made
      .then(
        (v) => {
          if (this.closed) return this.release(v, key);
          this.ready.set(key, v);
          this.evict();
        },
        (e: unknown) => {
          this.counts.failures++;
          this.failed.set(key, e);
        },
      )
      .finally(() => {
        this.inFlight = null;
        this.lastEnd = performance.now();
        this.pump();
        this.wake();
      });
  }

  /** Releases least recently used variants nobody wishes for until the bound holds. */
  private evict(): void {
    if (this.ready.size <= this.bound) return;
    const wanted = new Set(this.wishes.values());
    for (const [k, v] of this.ready) {
      if (this.ready.size <= this.bound) break;
      if (wanted.has(k)) continue;
      this.ready.delete(k);
      this.counts.evictions++;
      this.release(v, k);
    }
  }
}
