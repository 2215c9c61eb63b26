/**
 * Long tasks (PerformanceObserver 'longtask': main-thread tasks over 50 ms) seen while the
 * benchmark measures: one page-wide log, read per case by time range.
 */

/** Long tasks seen on the main thread during a measurement. */
export interface LongTasks {
  /** How many (null where the browser has no 'longtask' entries). */
  count: number | null;
  /** Their summed duration, ms. */
  ms: number;
  /** The longest, ms. */
  maxMs: number;
}

let longTaskLog: PerformanceEntry[] | null = null;

/**
 * Starts recording long tasks (PerformanceObserver 'longtask': main-thread tasks over 50 ms) for
 * longTasksBetween; false where the browser does not report them.
 */
export function observeLongTasks(): boolean {
  if (longTaskLog) return true;
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('longtask')
  )
    return false;
  const log: PerformanceEntry[] = [];
  new PerformanceObserver((list) => log.push(...list.getEntries())).observe({
    type: 'longtask',
    buffered: true,
  });
  longTaskLog = log;
  return true;
}

/** The long tasks that started between t0 and t1 (performance.now() times). */
export function longTasksBetween(t0: number, t1: number): LongTasks {
  if (!longTaskLog) return { count: null, ms: 0, maxMs: 0 };
  const hit = longTaskLog.filter((e) => e.startTime >= t0 && e.startTime < t1);
  return {
    count: hit.length,
    ms: hit.reduce((s, e) => s + e.duration, 0),
    maxMs: hit.reduce((m, e) => Math.max(m, e.duration), 0),
  };
}
