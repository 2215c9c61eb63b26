// Pixels of the demo page's flock, shared by the Chromium (playwright-core) and Firefox
// (puppeteer-core) end-to-end tests. Both drivers serialise the function and run it in the page,
// so it must not refer to anything outside its own body.

/** What one grab of the demo's canvas saw. */
export interface DemoGrab {
  /** Pixels farther than 24 (sum of |dR|+|dG|+|dB|) from the demo's background #05080f. */
  lit: number;
  /** Pixels that differ by more than 24 from the previous grab in the same page (0 the first time). */
  changed: number;
  width: number;
  height: number;
  backend: string;
}

/**
 * In the page: renders the flock (a WebGL canvas is drawn right before, in the same task, so its
 * drawing buffer is still there), copies its canvas into a 2D canvas, counts pixels that are not
 * the background and compares with the previous grab (kept on `window`) pixel by pixel.
 * Pass it to `page.evaluate(grabDemoCanvas)`.
 */
export async function grabDemoCanvas(): Promise<DemoGrab> {
  const flock = await window.flockReady!;
  const src = flock.canvas;
  flock.render();
  const copy = document.createElement('canvas');
  copy.width = src.width;
  copy.height = src.height;
  const ctx = copy.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(src, 0, 0);
  const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
  const w = window as unknown as { __lastGrab?: Uint8ClampedArray };
  const prev = w.__lastGrab;
  let lit = 0;
  let changed = 0;
  for (let i = 0; i < data.length; i += 4) {
    const d = Math.abs(data[i]! - 5) + Math.abs(data[i + 1]! - 8) + Math.abs(data[i + 2]! - 15);
    if (d > 24) lit++;
    if (prev && prev.length === data.length) {
      const c =
        Math.abs(data[i]! - prev[i]!) +
        Math.abs(data[i + 1]! - prev[i + 1]!) +
        Math.abs(data[i + 2]! - prev[i + 2]!);
      if (c > 24) changed++;
    }
  }
  w.__lastGrab = data;
  return { lit, changed, width: copy.width, height: copy.height, backend: flock.backend };
}
