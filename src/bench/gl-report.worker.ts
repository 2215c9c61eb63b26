/**
 * Worker of the benchmark's device report: reads the WebGL2 report (gl-report.ts) from a context
 * on an OffscreenCanvas and posts it back, so the page's main thread does not wait while the
 * context is made. Posts `{ ok: false, reason }` where workers have no WebGL2 OffscreenCanvas.
 */
import { webgl2ReportOn } from './gl-report';

try {
  if (typeof OffscreenCanvas === 'undefined') throw new Error('no OffscreenCanvas in workers');
  postMessage({ ok: true, report: webgl2ReportOn(new OffscreenCanvas(1, 1)) });
} catch (e) {
  postMessage({ ok: false, reason: e instanceof Error ? e.message : String(e) });
}
