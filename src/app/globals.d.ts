// The demo's handles for driving it from outside (tests, the console): see src/app/main.ts.
import type { Flock } from '../index';

declare global {
  interface Window {
    /** The demo's flock: the same object for the page's life (parameter changes re-initialise it in place). */
    flock?: Flock;
    /** Resolves with the flock once it runs; rejects (and the page shows why) when it cannot start. */
    flockReady?: Promise<Flock>;
  }
}

export {};
