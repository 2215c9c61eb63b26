/**
 * The demo's words about the count probe (src/count-probe.ts): who gets a chosen count (a small
 * touch screen, or a device that does not hold the scene's count at 30 fps), the overlay's line
 * saying what was measured, and the short note beside the count.
 */
import type { CountProbe } from '../count-probe';
import type { RememberedCapacity } from '../capacity-memory';

/** A coarse pointer (touch) and a screen at most 820 CSS px on its short side. */
export function isSmallTouchScreen(): boolean {
  const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  return coarse && Math.min(screen.width, screen.height) <= 820;
}

const n = (x: number) => x.toLocaleString('en-US');

/**
 * The overlay's line for a probe's choice, in plain words: the count, whether this device holds
 * the rate with it (or, when not even the fewest offered did, that it does not hold it with
 * more), what a frame took, and how to ask for another count. E.g. "slow device: 512 boids: the
 * fewest offered; this device does not hold 30 fps with more (2,000 did not). ?count=N in the URL
 * sets another count."
 */
export function probeMessage(probe: CountProbe, phone: boolean): string {
  const who = phone ? 'small touch screen' : 'slow device';
  const ms = probe.frameMs;
  const frame = `a frame of ${probe.steps} step${probe.steps > 1 ? 's' : ''} and a draw`;
  const tail = '?count=N in the URL sets another count.';
  const failed =
    probe.failsAt !== null && probe.failsAt > probe.count
      ? `; ${n(probe.failsAt)} did not hold ${probe.fps} fps`
      : '';
  if (probe.holds) {
    const took = ms !== null ? ` (${frame} took ${ms.toFixed(0)} ms${failed})` : '';
    const what = probe.capped
      ? `the scene's count; this device holds ${probe.fps} fps with them`
      : probe.bounded
        ? `the most this device was measured to hold at ${probe.fps} fps in the time the probe had`
        : `the most this device holds at ${probe.fps} fps`;
    return `${who}: ${n(probe.count)} boids, ${what}${took}. ${tail}`;
  }
  const fewest = `${who}: ${n(probe.count)} boids: the fewest offered; this device does not hold ${probe.fps} fps`;
  if (ms !== null && ms > 0) {
    const fps = 1000 / ms;
    return (
      `${fewest} even with these (${frame} takes ${ms.toFixed(0)} ms, about ` +
      `${fps < 10 ? fps.toFixed(1) : fps.toFixed(0)} fps). ${tail}`
    );
  }
  const more =
    probe.failsAt !== null && probe.failsAt > probe.count ? ` (${n(probe.failsAt)} did not)` : '';
  return `${fewest} with more${more}. ${tail}`;
}

/**
 * The note beside the count on the overlay's first line while the probe's count runs. Short: on a
 * phone that line wraps at about 37 characters, and the probe's own line (a tap away) says the rest.
 */
export function probeNote(probe: CountProbe): string {
  return probe.holds ? `chosen for ${probe.fps} fps` : `the fewest; under ${probe.fps} fps`;
}

/**
 * The overlay's line for a count remembered from an earlier visit (no probe this time): the
 * count, whether it held the rate when measured, and how to ask for another count. E.g. "slow
 * device: 512 boids: the fewest offered; this device does not hold 30 fps (measured on an earlier
 * visit). ?count=N in the URL sets another count."
 */
export function rememberedMessage(
  remembered: RememberedCapacity,
  count: number,
  phone: boolean,
  fps = 30,
): string {
  const who = phone ? 'small touch screen' : 'slow device';
  const what = remembered.holds
    ? `the most this device holds at ${fps} fps`
    : `the fewest offered; this device does not hold ${fps} fps`;
  return `${who}: ${n(count)} boids: ${what} (measured on an earlier visit). ?count=N in the URL sets another count.`;
}

/** The note beside the count while a remembered count runs (probeNote's words). */
export function rememberedNote(remembered: RememberedCapacity, fps = 30): string {
  return remembered.holds ? `chosen for ${fps} fps` : `the fewest; under ${fps} fps`;
}
