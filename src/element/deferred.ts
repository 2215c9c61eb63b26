/**
 * A promise with its resolve and reject beside it, and whether it settled: the element's `ready`
 * (a new one for each start once the last one settled).
 */

/** A promise and the functions that settle it. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(v: T): void;
  reject(e: unknown): void;
  settled: boolean;
}

/**
 * A new Deferred. Its rejection is handled (nobody may be listening: a failed start is reported
 * by the 'error' event, not as an unhandled rejection); callers who await `promise` still see it.
 */
export function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  const d: Deferred<T> = {
    promise,
    settled: false,
    resolve: (v) => {
      d.settled = true;
      resolve(v);
    },
    reject: (e) => {
      d.settled = true;
      reject(e);
    },
  };
  return d;
}
