/**
 * The WebGL2 context of both paths (webgl2-backend.ts, webgl2-tf-backend.ts): its attributes, how
 * a canvas gives it (counted by gl-tracker.ts, capped to a phone's limits on request), the count
 * its textures hold, and what both paths' options and backends add to the common ones.
 */
import type { Backend, BackendInit } from '../backend';
import { FlockError } from '../core/errors';
import { capWebGL2 } from '../core/limits-apply';
import { MAX_COUNT } from '../core/params';
import { trackGL } from './gl-tracker';
import { openSharedGL } from './shared-context';
import type { DrawMode } from './renderer';

/** Options of both WebGL2 backends beyond the common BackendInit. */
export interface WebGL2PathInit extends BackendInit {
  /** 'instanced' (default) or 'vertex-id' (one plain draw; boid = gl_VertexID / 12). */
  drawMode?: DrawMode;
  /** Use at most this MAX_TEXTURE_SIZE (below the device's): tests, memory budgets. */
  maxTextureSize?: number;
  /** Most steer program variants kept (default PROGRAM_VARIANT_BOUND, 16): tests. */
  variantBound?: number;
  /** log2 of the bitonic sort's block (3 or 4; default: the largest the context can write): tests. */
  sortBlockLog2?: number;
}

/** What both WebGL2 backends add to Backend. */
export interface WebGL2PathBackend extends Backend {
  readonly kind: 'webgl2' | 'webgl2-tf';
  /** How render() draws; may be changed at any time. */
  drawMode: DrawMode;
  /** The MAX_TEXTURE_SIZE in use (device limit, or the lower one asked for). */
  readonly maxTextureSize: number;
  /**
   * The context (tests read pixels from it): the canvas's own, or the page's shared one
   * (shared-context.ts), whose frames are moved into `canvas` as they are drawn.
   */
  readonly gl: WebGL2RenderingContext;
}

/** The context attributes of both WebGL2 paths (the same canvas setup, the same pictures). */
export const CONTEXT_ATTRIBUTES: WebGLContextAttributes = {
  antialias: true,
  preserveDrawingBuffer: false,
  // An alpha channel, premultiplied, so view.background may be translucent or `transparent`.
  alpha: true,
  premultipliedAlpha: true,
  depth: true,
  stencil: false,
  powerPreference: 'high-performance',
};

/**
 * Largest count the textures hold for a MAX_TEXTURE_SIZE: state textures are at most w x w
 * (w the largest power of two <= maxTextureSize); a quarter of that leaves the cell table room for
 * its up to ~2.4 cells per boid (src/core/grid.ts), and never more than MAX_COUNT.
 */
export function maxCountFor(maxTextureSize: number): number {
  const w = 2 ** Math.floor(Math.log2(Math.max(1, maxTextureSize)));
  return Math.max(1, Math.min(MAX_COUNT, (w * w) / 4));
}

/**
 * The error of a start whose context was lost before its checks read it (every limit reads 0 and
 * every extension null then): openWebGL2's, and the start's before its build (webgl2-path-base.ts).
 */
export function lostBeforeStart(rung: 'webgl2' | 'webgl2-tf'): FlockError {
  return new FlockError(
    'backend',
    rung,
    'a WebGL2 context that is not lost',
    'lost before the start',
  );
}

/**
 * The WebGL2 context of `init.canvas` (counted by gl-tracker.ts) and the MAX_TEXTURE_SIZE to use;
 * or the page's shared context when `init.shareContext` says so (shared-context.ts).
 * @throws FlockError field 'backend', value `rung`, when the canvas gives no WebGL2 context.
 */
export function openWebGL2(
  init: WebGL2PathInit,
  rung: 'webgl2' | 'webgl2-tf',
  allowed: string,
): { gl: WebGL2RenderingContext; maxTextureSize: number } {
  const shared = openSharedGL(init, CONTEXT_ATTRIBUTES);
  if (shared) return shared;
  const canvas = init.canvas;
  // The browser's reason, when it gives one (a webglcontextcreationerror, fired within getContext).
  let reason = '';
  const onRefused = (e: Event) => (reason = (e as WebGLContextEvent).statusMessage);
  canvas.addEventListener('webglcontextcreationerror', onRefused);
  const gl = canvas.getContext('webgl2', CONTEXT_ATTRIBUTES) as WebGL2RenderingContext | null;
  canvas.removeEventListener('webglcontextcreationerror', onRefused);
  if (!gl) {
    // A canvas that holds another context type (2d, webgpu) gives null, and so does one too large
    // for the device's memory (an 8192x8192 canvas on SwiftShader); a browser that cannot make a
    // WebGL2 context at all was already turned away by the probe.
    const said = reason ? ` (the browser said: "${reason}")` : '';
    throw new FlockError(
      'target',
      canvas,
      'a canvas without another context type (2d, webgpu), of a size the browser makes a WebGL2 context for',
      `no WebGL2 context on this ${canvas.width}x${canvas.height} canvas for ${rung}${said}; ${allowed}`,
    );
  }
  // A context lost before the start reads every limit as 0: say so, not "count from 1 to 1".
  if (gl.isContextLost()) throw lostBeforeStart(rung);
  trackGL(gl);
  capWebGL2(gl, init.limits ?? null);
  const deviceMax = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  return { gl, maxTextureSize: Math.min(deviceMax, init.maxTextureSize ?? deviceMax) };
}
