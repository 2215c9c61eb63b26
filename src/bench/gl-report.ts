/**
 * The WebGL2 part of the benchmark's device report, read from a throwaway 1x1 context: no DOM
 * beyond the canvas it is given, so it runs in a worker on an OffscreenCanvas
 * (gl-report.worker.ts) and the page's main thread never waits for the GPU process while the
 * context is made (a second or more on a busy software GPU).
 */
import type { WebGL2Report } from './device-report';

/** WebGL2 extensions the backends use (or would, where the browser has them). */
export const WEBGL_EXTENSIONS_USED: Record<string, string> = {
  EXT_color_buffer_float: 'float32 render targets: the webgl2 texture path needs it',
  EXT_disjoint_timer_query_webgl2: 'per-pass GPU timers (else cpu-wait timing)',
  WEBGL_debug_renderer_info: 'unmasked renderer string for this report',
  WEBGL_lose_context: 'frees probe contexts; context-loss tests',
};

const GL_LIMITS = [
  'MAX_TEXTURE_SIZE',
  'MAX_3D_TEXTURE_SIZE',
  'MAX_ARRAY_TEXTURE_LAYERS',
  'MAX_RENDERBUFFER_SIZE',
  'MAX_VIEWPORT_DIMS',
  'MAX_DRAW_BUFFERS',
  'MAX_COLOR_ATTACHMENTS',
  'MAX_TEXTURE_IMAGE_UNITS',
  'MAX_VERTEX_TEXTURE_IMAGE_UNITS',
  'MAX_COMBINED_TEXTURE_IMAGE_UNITS',
  'MAX_VERTEX_ATTRIBS',
  'MAX_FRAGMENT_UNIFORM_VECTORS',
  'MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS',
  'MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS',
  'MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS',
  'MAX_ELEMENT_INDEX',
  'MAX_SAMPLES',
] as const;

/** The WebGL2 report read from a fresh context on `canvas` (which is left without one). */
export function webgl2ReportOn(canvas: HTMLCanvasElement | OffscreenCanvas): WebGL2Report {
  canvas.width = canvas.height = 1;
  const gl = canvas.getContext('webgl2') as WebGL2RenderingContext | null;
  if (!gl)
    return { available: false, reason: 'no WebGL2 context', limits: {}, extensions: [], used: {} };
  try {
    const limits: Record<string, number> = {};
    for (const name of GL_LIMITS) {
      const v = gl.getParameter(gl[name]) as number | Int32Array | null;
      // MAX_VIEWPORT_DIMS is a pair; keep its smaller side.
      if (v !== null) limits[name] = typeof v === 'number' ? v : Math.min(...v);
    }
    const extensions = gl.getSupportedExtensions() ?? [];
    const dbg = gl.getExtension('WEBGL_debug_renderer_info');
    const used: Record<string, boolean> = {};
    for (const e of Object.keys(WEBGL_EXTENSIONS_USED)) used[e] = extensions.includes(e);
    const max = limits.MAX_TEXTURE_SIZE ?? 0;
    return {
      available: true,
      vendor: String(gl.getParameter(gl.VENDOR)),
      renderer: String(gl.getParameter(gl.RENDERER)),
      ...(dbg
        ? {
            unmaskedVendor: String(gl.getParameter(dbg.UNMASKED_VENDOR_WEBGL)),
            unmaskedRenderer: String(gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL)),
          }
        : {}),
      version: String(gl.getParameter(gl.VERSION)),
      shadingLanguage: String(gl.getParameter(gl.SHADING_LANGUAGE_VERSION)),
      limits,
      extensions,
      used,
      maxBoidsByTexture: max * max,
    };
  } finally {
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
