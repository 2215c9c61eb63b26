/**
 * The device's measured capacity, remembered (issue 27: a revisit starts at the right count with
 * no probe) and shared (issue 31 item 7: many elements starting at once measure once).
 *
 * - recallCapacity / rememberCapacity keep what the count probe found in `localStorage`, keyed by
 *   the library version, the rung, the dimensions and the device (the renderer or adapter string
 *   flock.deviceInfo gives): another device, another rung or a new version of the library finds
 *   nothing and measures again; an entry older than CAPACITY_MAX_AGE_MS is stale and ignored. A
 *   storage that throws (blocked, private mode, full) is no error: nothing is remembered.
 * - correctCapacity lowers a remembered count when the frame rate later proves it wrong.
 * - sharedMeasure runs one measurement per key at a time: the first caller measures, every other
 *   caller with the same key waits for its answer.
 * Owns: the in-flight measurements of the page (a module-level map).
 */
import { LIBRARY_VERSION } from './version';

/** What is remembered for one device, rung and dimensions. */
export interface RememberedCapacity {
  /** The count the probe chose (boids). */
  count: number;
  /** It was measured to hold the probe's frame rate (false: the fewest offered, which did not). */
  holds: boolean;
  /** When it was measured or last corrected, ms since the epoch (Date.now()). */
  at: number;
}

/** The part of Storage used (localStorage fits). */
export interface CapacityStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A storage whose keys can be listed (localStorage fits): guessCapacity reads every entry. */
export interface ListedCapacityStorage extends CapacityStorage {
  readonly length: number;
  key(index: number): string | null;
}

/** What a remembered capacity is for. */
export interface CapacityKeyParts {
  /** The rung: 'webgpu', 'webgl2', 'webgl2-tf', 'cpu'. */
  backend: string;
  /** flock.deviceInfo: the adapter or renderer. */
  device: string;
  dimensions: 2 | 3;
  /** The library version (default LIBRARY_VERSION). */
  version?: string;
  /**
   * The scene, when its cost is not the default one's (the demo's presets: the stress scene
   * draws another count on the same device); none for the default scene and the element.
   */
  scene?: string;
}

/** An entry older than this is stale (30 days): drivers and browsers change. */
export const CAPACITY_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** The prefix of every key. */
export const CAPACITY_KEY_PREFIX = 'gpu-flock.capacity';

/** The storage key of `parts`. */
export function capacityKey(parts: CapacityKeyParts): string {
  const v = parts.version ?? LIBRARY_VERSION;
  const key = `${CAPACITY_KEY_PREFIX}|${v}|${parts.backend}|${parts.dimensions}d|${parts.device}`;
  return parts.scene ? `${key}|scene=${parts.scene}` : key;
}

/** The page's localStorage, or null where reading it throws (blocked cookies, sandboxed frames). */
export function pageStorage(): ListedCapacityStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * The remembered capacity for `key`, or null: none, stale (older than `maxAgeMs`), malformed, or
 * a storage that throws.
 */
export function recallCapacity(
  key: string,
  storage: CapacityStorage | null = pageStorage(),
  now = Date.now(),
  maxAgeMs = CAPACITY_MAX_AGE_MS,
): RememberedCapacity | null {
  if (!storage) return null;
  try {
    const text = storage.getItem(key);
    if (text === null) return null;
    const v = JSON.parse(text) as Partial<RememberedCapacity> | null;
    if (
      !v ||
      typeof v.count !== 'number' ||
      !Number.isInteger(v.count) ||
      v.count < 1 ||
      typeof v.at !== 'number' ||
      !Number.isFinite(v.at)
    ) {
      return null;
    }
    if (now - v.at > maxAgeMs || v.at > now + 60_000) return null;
    return { count: v.count, holds: v.holds !== false, at: v.at };
  } catch {
    return null;
  }
}

/** Remembers `entry` under `key`; false when the storage is absent, throws or is full. */
export function rememberCapacity(
  key: string,
  entry: RememberedCapacity,
  storage: CapacityStorage | null = pageStorage(),
): boolean {
  if (!storage) return false;
  try {
    storage.setItem(key, JSON.stringify(entry));
    return true;
  } catch {
    return false;
  }
}

/**
 * The count a flock is best made at before its rung and device are known (issue 27: a revisit
 * draws its first frame at the remembered count, with no count change after the rung is up):
 * the newest fresh entry of this library version and dimensions among `backends` (the rung asked
 * for, or the rungs `auto` may land on), whatever its device, of the default scene (no `scene`
 * part), or null (none, stale, malformed, a
 * storage that throws). A guess: the caller checks it against recallCapacity of the real key
 * once the flock runs (another device, another rung: that count, or a probe).
 */
export function guessCapacity(
  backends: readonly string[],
  dimensions: 2 | 3,
  storage: ListedCapacityStorage | null = pageStorage(),
  now = Date.now(),
  version = LIBRARY_VERSION,
  maxAgeMs = CAPACITY_MAX_AGE_MS,
): RememberedCapacity | null {
  if (!storage) return null;
  try {
    let best: RememberedCapacity | null = null;
    const heads = backends.map((b) => `${CAPACITY_KEY_PREFIX}|${version}|${b}|${dimensions}d|`);
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      // The default scene's entries only (the element's): a scene's count is another cost.
      if (key === null || key.includes('|scene=') || !heads.some((h) => key.startsWith(h)))
        continue;
      const entry = recallCapacity(key, storage, now, maxAgeMs);
      if (entry && (!best || entry.at > best.at)) best = entry;
    }
    return best;
  } catch {
    return null;
  }
}

/**
 * A frame rate measured at `count` while the flock ran: when it is under `minFps` (a fifth under
 * the probe's 30 fps) the count that would hold `fps` is estimated in proportion (count * fps /
 * targetFps, never below `floor`), remembered in place of the old entry and returned; otherwise
 * null (the remembered count stands).
 */
export function correctCapacity(
  key: string,
  count: number,
  fps: number,
  options: {
    targetFps?: number;
    minFps?: number;
    floor?: number;
    storage?: CapacityStorage | null;
    now?: number;
  } = {},
): number | null {
  const target = options.targetFps ?? 30;
  const minFps = options.minFps ?? 0.8 * target;
  if (!(fps > 0) || fps >= minFps) return null;
  const floor = options.floor ?? 1;
  const next = Math.max(floor, Math.floor((count * fps) / target));
  if (next >= count) return null;
  rememberCapacity(
    key,
    { count: next, holds: false, at: options.now ?? Date.now() },
    options.storage === undefined ? pageStorage() : options.storage,
  );
  return next;
}

const inFlight = new Map<string, Promise<unknown>>();

/**
 * One measurement per key at a time: the first caller runs `measure`, every caller that comes
 * with the same key while it runs gets the same promise (and `shared: true`). A failed
 * measurement is not kept: the next caller measures again.
 */
export function sharedMeasure<T>(
  key: string,
  measure: () => Promise<T>,
): { result: Promise<T>; shared: boolean } {
  const running = inFlight.get(key) as Promise<T> | undefined;
  if (running) return { result: running, shared: true };
  const result = measure();
  inFlight.set(key, result);
  const done = () => {
    if (inFlight.get(key) === result) inFlight.delete(key);
  };
  result.then(done, done);
  return { result, shared: false };
}
