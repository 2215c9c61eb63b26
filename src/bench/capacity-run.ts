/**
 * The benchmark page's capacity run: for each backend, a flock of the default scene (default
 * parameters and view, the box at the scene density for each count) on the page's stage canvas,
 * and measureCapacity (src/capacity.ts, the same measure as the demo's count probe): the most
 * boids that hold 60 and 30 fps for a whole frame, each search bounded in probes and wall time.
 */
import type { BackendKind } from '../backend';
import { measureCapacity } from '../capacity';
import { sceneBounds } from '../core/presets';
import { createFlock } from '../index';
import { BACKEND_NAMES, skipInWords } from './rows';
import type { BackendCapacity } from './report';

/** How long each backend's search may take, and how it reports. */
export interface CapacityRunOptions {
  /** Wall-time bound of one backend's search, ms. */
  deadlineMs: number;
  /** Wall-time bound of one probe, ms. */
  probeMs: number;
  /** Frames timed per probe at most. */
  frames: number;
  /** The count each search starts from. */
  start: number;
  /** Each backend's flock gets a fresh canvas inside this element. */
  container: HTMLElement;
  /** Called with a short description after each probe. */
  onProgress?: (text: string) => void;
  /** Returns true to stop (the page's Cancel button). */
  aborted?: () => boolean;
}

/**
 * Measures each backend's capacity in turn; a backend that does not start is reported as not
 * available, with createFlock's reason in words.
 */
export async function runCapacity(
  kinds: readonly BackendKind[],
  o: CapacityRunOptions,
  onResult: (c: BackendCapacity) => void,
): Promise<void> {
  for (const backend of kinds) {
    if (o.aborted?.()) return;
    const name = BACKEND_NAMES[backend];
    o.onProgress?.(`capacity, ${name}: starting`);
    let flock;
    try {
      flock = await createFlock(o.container, {
        backend,
        autoStart: false,
        params: { count: o.start, start: 'uniform', ...sceneBounds(o.start, 3) },
      });
    } catch (e) {
      onResult({
        backend,
        available: false,
        reason: skipInWords(e, backend),
        device: '',
        results: [],
        probes: [],
        ms: 0,
      });
      continue;
    }
    try {
      // The first frame compiles what the first step and draw need: not part of any probe.
      await flock.step(1);
      flock.render();
      await flock.finish();
      const report = await measureCapacity(flock, {
        fps: [60, 30],
        start: o.start,
        maxCount: flock.maxCount,
        deadlineMs: o.deadlineMs,
        probeMs: o.probeMs,
        frames: o.frames,
        restore: false,
        aborted: o.aborted,
        setCount: (n) => flock.setParams({ count: n, ...sceneBounds(n, 3) }),
        onProbe: (p) =>
          o.onProgress?.(
            `capacity, ${name}: ${p.count.toLocaleString('en-US')} boids, ${p.steps} step${p.steps > 1 ? 's' : ''} + draw: ` +
              (Number.isFinite(p.frameMs)
                ? `${p.frameMs.toFixed(1)} ms a frame`
                : 'over the time bound'),
          ),
      });
      onResult({ ...report, backend, available: true });
    } catch (e) {
      onResult({
        backend,
        available: false,
        reason: skipInWords(e, backend),
        device: flock.deviceInfo,
        results: [],
        probes: [],
        ms: 0,
      });
    } finally {
      flock.dispose();
    }
  }
}
