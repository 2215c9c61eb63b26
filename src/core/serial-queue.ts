/**
 * A page-wide queue that runs jobs one at a time with a macrotask between them, so jobs started
 * together (twenty flocks' WebGL2 starts, or their count changes once a shared probe answers)
 * each run in tasks of their own instead of one long burst that holds the page (issue 31 item 7).
 */

/** A macrotask: lets the page paint and handle input between chunks of work. */
export function macrotask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A queue: the function it returns runs `job` once every job queued before it has settled (or,
 * with `boundMs`, once that many ms have passed since this job was queued, so a job that
 * never settles cannot hold the rest forever) and the page has had a task of its own.
 */
export function serialQueue(boundMs?: number): <T>(job: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(job: () => Promise<T>): Promise<T> => {
    const run = tail.then(job);
    const settled =
      boundMs === undefined
        ? run
        : Promise.race([run, new Promise((resolve) => setTimeout(resolve, boundMs))]);
    tail = settled.then(macrotask, macrotask);
    return run;
  };
}
