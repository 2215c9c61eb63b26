/**
 * One answer from a throwaway worker: for the work that makes a WebGL2 context (the capability
 * probe, the benchmark's WebGL2 report), whose creation waits for the GPU process on the thread
 * that asks (issue 31 item 7), so the page's main thread does not.
 */

/**
 * Starts a worker with `start` (a `new Worker(new URL(..., import.meta.url))` in the caller's
 * module, where bundlers find it), posts `message` when given, and resolves with its first
 * message's data, then ends it; null where the worker cannot start, its script fails to load
 * (not found, or blocked by a Content-Security-Policy) or throws, or no answer comes in `timeoutMs`.
 */
export function workerAnswer<T>(
  start: () => Worker,
  message: unknown,
  timeoutMs: number,
): Promise<T | null> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = start();
    } catch {
      resolve(null);
      return;
    }
    const done = (answer: T | null) => {
      clearTimeout(timer);
      worker.onmessage = worker.onerror = null;
      worker.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    worker.onmessage = (e: MessageEvent<T>) => done(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      done(null);
    };
    if (message !== undefined) worker.postMessage(message);
  });
}
