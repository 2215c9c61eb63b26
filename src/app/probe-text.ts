/**
 * The demo's words about the count probe (src/count-probe.ts): who gets a chosen count (a small
 * touch screen, or a device that does not hold the scene's count at 30 fps), the overlay's line
 * saying what was measured, and the short note beside the count.
 */
import type { CountProbe } from '../count-probe';

/** A coarse pointer (touch) and a screen at most 820 CSS px on its short side. */
export function isSmallTouchScreen(): boolean {
  const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  return coarse && Math.min(screen.width, screen.height) <= 820;
}

const n = (x: number) => x.toLocaleString('en-US');

/**
 * The overlay's line for a probe's choice: the count, whether it was measured to hold the rate
 * (or, when not even the fewest offered did, the rate measured there), and what was measured.
 */
export function probeMessage(probe: CountProbe, phone: boolean): string {
  const who = phone ? 'small touch screen' : 'slow device';
  const frame = `a frame of ${probe.steps} step${probe.steps > 1 ? 's' : ''} + draw`;
  const ms = probe.frameMs;
  const measured =
    (ms !== null ? `${frame} took ${ms.toFixed(0)} ms at ${n(probe.count)}` : `${frame}`) +
    (probe.failsAt !== null ? `; ${n(probe.failsAt)} did not hold ${probe.fps} fps` : '') +
    '; ?count=N in the URL overrides';
  if (probe.holds) {
    const what = probe.capped
      ? "the scene's count, measured to hold"
      : probe.bounded
        ? 'the most measured (in the time the probe had) to hold'
        : 'the most measured to hold';
    return `${who}: ${n(probe.count)} boids, ${what} ${probe.fps} fps here (${measured})`;
  }
  const fps = ms !== null && ms > 0 ? 1000 / ms : null;
  const rate =
    fps === null
      ? 'not measured'
      : `about ${fps < 10 ? fps.toFixed(1) : fps.toFixed(0)} fps measured`;
  return (
    `${who}: ${n(probe.count)} boids, the fewest offered; even these do not hold ${probe.fps} fps ` +
    `here (${rate}: ${measured})`
  );
}

/**
 * The note beside the count on the overlay's first line while the probe's count runs. Short: on a
 * phone that line wraps at about 37 characters, and the probe's own line (a tap away) says the rest.
 */
export function probeNote(probe: CountProbe): string {
  return probe.holds ? `chosen for ${probe.fps} fps` : `the fewest; under ${probe.fps} fps`;
}
