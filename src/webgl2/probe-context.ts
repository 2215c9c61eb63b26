/**
 * The throwaway WebGL2 context the probes make (capabilities.ts's full probe, and the `auto`
 * ladder's quick software check, rendererIsSoftware), and the renderer string it reports. Small
 * and free of WebGL2 path code: the webgpu rung's probe loads it beside the adapter request.
 */
import { SOFTWARE_RENDERER } from '../backend-ladder';

/** A 1x1 WebGL2 context (an OffscreenCanvas where there is no document), or null without one. */
export function probeContext(): WebGL2RenderingContext | null {
  const canvas =
    typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(1, 1);
  canvas.width = 1;
  canvas.height = 1;
  return canvas.getContext('webgl2', {
    antialias: false,
    depth: false,
  }) as WebGL2RenderingContext | null;
}

/** The renderer string: the unmasked one where WEBGL_debug_renderer_info is offered. */
export function rendererOf(gl: WebGL2RenderingContext): string {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
}

/**
 * Whether the page's WebGL2 renderer is a software one, from its renderer string alone: a 1x1
 * context made and dropped at once (no programs, draws or reads, unlike the full probe in
 * capabilities.ts: 40-370 ms on SwiftShader beside a busy GPU process, issue 27); null without
 * a WebGL2 context.
 */
export function rendererIsSoftware(disable: ReadonlySet<string>): boolean | null {
  if (disable.has('webgl2')) return null;
  const gl = probeContext();
  if (!gl) return null;
  try {
    return SOFTWARE_RENDERER.test(rendererOf(gl));
  } finally {
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
