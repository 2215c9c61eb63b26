/**
 * The program variants of a WebGL2 path's params (the steer program of each #define combination,
 * and the key program of each DIMS/WRAP), kept in a VariantCache (src/core/variant-cache.ts):
 * one link at a time, only the newest params' variant, at most PROGRAM_VARIANT_BOUND steer
 * programs (the least recently used deleted). With KHR_parallel_shader_compile a link runs in the
 * background: begun with ProgramCache.begin, polled with COMPLETION_STATUS_KHR every POLL_MS
 * (never waiting). Without it (SwiftShader here) a link blocks the page, so it runs from a timer,
 * once the wanted variant has stayed the same LINK_QUIET_MS and at least LINK_GAP_MS after the
 * previous link: a burst of setParams links nothing until it ends, then the newest params only. Either way the path
 * keeps stepping with the params whose programs are linked (webgl2-path-base.ts). Owned by one
 * build of a path: dropped with its context.
 */
import { LazyVariantCache, type VariantStats } from '../core/lazy-variant-cache';
import { ProgramCache, type ProgramSpec } from './program';

/** Most steer programs kept per context (of 2^6 #define combinations per search mode). */
export const PROGRAM_VARIANT_BOUND = 16;
/** How often a link in progress is polled, ms (about a frame). */
const POLL_MS = 16;
/**
 * Without the extension: the least time between two synchronous links, ms. A link of a steer
 * variant blocks SwiftShader here for a few hundred ms; with 400 ms between them a burst keeps
 * more than half of each second for frames.
 */
export const LINK_GAP_MS = 400;
/**
 * Without the extension: a link waits until the params' variant has stayed the same this long,
 * ms, so a burst of setParams links nothing until it ends (the linked params keep stepping).
 */
export const LINK_QUIET_MS = 300;

/** A variant: its steer program (evicted with it) and programs it shares with others (kept). */
export interface ProgramVariant {
  steer: ProgramSpec;
  shared: ProgramSpec[];
}

/** The cache key of a variant. */
export function variantKey(v: ProgramVariant): string {
  return [v.steer, ...v.shared].map((s) => ProgramCache.key(s)).join('\n');
}

export class ProgramVariants {
  private readonly cache: LazyVariantCache<ProgramVariant>;
  private readonly jobs = new Map<string, ProgramVariant>();
  private closed = false;

  /**
   * @param programs the build's program cache (with the context's KHR_parallel_shader_compile)
   * @param inUse the steer programs the path may run now (never deleted)
   * @param bound most steer programs kept
   */
  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly programs: ProgramCache,
    private readonly inUse: () => ProgramSpec[],
    bound = PROGRAM_VARIANT_BOUND,
  ) {
    const parallel = programs.parallel !== null;
    this.cache = new LazyVariantCache(
      bound,
      (key) => (parallel ? this.link(key) : this.linkNow(key)),
      (v) => this.release(v),
      parallel ? undefined : { quietMs: LINK_QUIET_MS, gapMs: LINK_GAP_MS },
    );
  }

  /** The params changed to `v`'s: asks for it (a hit when linked). */
  request(v: ProgramVariant): void {
    const key = variantKey(v);
    if (!this.cache.get(key)) this.jobs.set(key, v);
    this.cache.request(this, key);
  }

  /**
   * Whether `v` is linked (and now the most recently used), in the cache or built outside it (the
   * first params' programs, or ones an explicit step waited for).
   */
  ready(v: ProgramVariant): boolean {
    if (this.cache.get(variantKey(v)) !== null) return true;
    return [v.steer, ...v.shared].every((s) => this.programs.built(s));
  }

  /** Why `v` failed to link, or undefined. */
  failure(v: ProgramVariant): unknown {
    return this.cache.failure(variantKey(v));
  }

  /** Resolves once the newest variant asked for is linked or failed. */
  settled(): Promise<void> {
    return this.cache.settled(this);
  }

  stats(): VariantStats {
    return this.cache.stats();
  }

  /** Stops polling; `lost`: the context is gone (nothing to delete). */
  close(lost: boolean): void {
    this.closed = true;
    if (lost) this.cache.withdraw(this);
    else this.cache.clear();
  }

  /** Links `key`'s programs now, waiting for the driver (no KHR_parallel_shader_compile). */
  private linkNow(key: string): Promise<ProgramVariant> {
    const v = this.jobs.get(key)!;
    this.jobs.delete(key);
    if (this.closed || this.gl.isContextLost()) {
      return Promise.reject(new Error('WebGL context lost or backend disposed before linking'));
    }
    try {
      for (const s of [v.steer, ...v.shared])
        this.programs.get(s.vert, s.frag, s.defines, s.feedback);
      return Promise.resolve(v);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** Starts `key`'s programs and polls them until linked (KHR_parallel_shader_compile). */
  private link(key: string): Promise<ProgramVariant> {
    const v = this.jobs.get(key)!;
    this.jobs.delete(key);
    const all = [v.steer, ...v.shared];
    all.forEach((s) => this.programs.begin(s));
    return new Promise((resolve, reject) => {
      const poll = () => {
        if (this.closed || this.gl.isContextLost()) {
          reject(new Error('WebGL context lost or backend disposed while linking'));
          return;
        }
        try {
          // Every program is checked: each is built as soon as its own link is done.
          const done = all.map((s) => this.programs.ready(s));
          if (done.every(Boolean)) resolve(v);
          else setTimeout(poll, POLL_MS);
        } catch (e) {
          reject(e);
        }
      };
      poll();
    });
  }

  private release(v: ProgramVariant): void {
    if (this.gl.isContextLost()) return;
    const key = ProgramCache.key(v.steer);
    if (this.inUse().some((s) => ProgramCache.key(s) === key)) return;
    this.programs.delete(v.steer);
  }
}
