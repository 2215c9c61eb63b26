/**
 * The count probe's bounds (src/count-probe.ts says how it uses them), apart from its code: the
 * element's start plans with them (src/element/count-plan.ts) and loads the probe itself with
 * import() only when it measures, after the first frame.
 */
/** The frame rate the probe picks a count for. */
export const PROBE_FPS = 30;
/**
 * The count a probed flock starts at (before the probe measures it): small enough that a frame
 * costs little on any device (a software GPU takes tens of ms), so the probe never steps a
 * large count on a device that cannot hold it. Two significant figures, as the search rounds
 * its counts (src/core/capacity-search.ts roundCount), so the first probe needs no count change.
 */
export const PROBE_START_COUNT = 2000;
/** The fewest boids the probe offers (below it, the answer is this, said not to hold 30 fps). */
export const PROBE_MIN_COUNT = 512;
/** The most boids the probe picks when the page gives no cap of its own. */
export const PROBE_MAX_COUNT = 32768;
/** Wall-time bound of the whole search, ms. */
export const PROBE_DEADLINE_MS = 2500;
/** Wall-time bound of one probe's timed frames, ms. */
export const PROBE_FRAME_MS = 250;
/** Frames timed per probe at most (the median is taken). */
export const PROBE_FRAMES = 3;
