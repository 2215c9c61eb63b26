/**
 * Device limits capped on purpose (FlockOptions.limits, issue 14): a desktop shows each backend
 * the limits of a phone, so every rung is tested under them. Like `disable`, the caps only ever
 * lower what the device offers.
 */
import { FlockError } from './errors';

/** Caps on the device limits every backend sees (`limits` of createFlock); absent: the device's own. */
export interface DeviceLimits {
  /** WebGL2 MAX_TEXTURE_SIZE (and MAX_RENDERBUFFER_SIZE) at most this; textures larger are refused. */
  maxTextureSize?: number;
  /** WebGL2 MAX_VERTEX_TEXTURE_IMAGE_UNITS at most this. */
  maxVertexTextureImageUnits?: number;
  /** WebGL2 MAX_DRAW_BUFFERS and MAX_COLOR_ATTACHMENTS at most this; drawBuffers with more is refused. */
  maxDrawBuffers?: number;
  /** false: no GPU timer (EXT_disjoint_timer_query_webgl2, 'timestamp-query' hidden). */
  timerQuery?: boolean;
  /**
   * 'compatibility': a WebGPU adapter asked for with featureLevel 'compatibility' and a device
   * with its default limits (4 storage buffers per stage, none in the vertex stage, 128
   * invocations per workgroup, 128 MiB storage bindings); 'adapter' (default): the adapter's own.
   */
  webgpu?: 'adapter' | 'compatibility';
}

/** What a mid-range phone's browser offers (WebGL2 on Adreno/Mali/Apple GPUs, WebGPU compat). */
export const PHONE_LIMITS: Readonly<Required<DeviceLimits>> = {
  maxTextureSize: 4096,
  maxVertexTextureImageUnits: 16,
  maxDrawBuffers: 4,
  timerQuery: false,
  webgpu: 'compatibility',
};

const KEYS = [
  'maxTextureSize',
  'maxVertexTextureImageUnits',
  'maxDrawBuffers',
  'timerQuery',
  'webgpu',
];
const ALLOWED = `'phone' or an object with ${KEYS.join(', ')}`;

/**
 * FlockOptions.limits as caps: 'phone' is PHONE_LIMITS; undefined is none (null).
 * @throws FlockError field 'limits' (or 'limits.KEY') for anything else.
 */
export function checkLimits(value: unknown): DeviceLimits | null {
  if (value === undefined) return null;
  if (value === 'phone') return { ...PHONE_LIMITS };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FlockError('limits', value, ALLOWED);
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!KEYS.includes(k)) throw new FlockError(`limits.${k}`, o[k], ALLOWED, 'unknown key');
  }
  for (const k of ['maxTextureSize', 'maxVertexTextureImageUnits', 'maxDrawBuffers']) {
    const v = o[k];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 1)) {
      throw new FlockError(`limits.${k}`, v, 'an integer >= 1');
    }
  }
  if (o.timerQuery !== undefined && typeof o.timerQuery !== 'boolean') {
    throw new FlockError('limits.timerQuery', o.timerQuery, 'true or false');
  }
  if (o.webgpu !== undefined && o.webgpu !== 'adapter' && o.webgpu !== 'compatibility') {
    throw new FlockError('limits.webgpu', o.webgpu, '"adapter" or "compatibility"');
  }
  return { ...(o as DeviceLimits) };
}

/** The capabilities `disable` gets from the caps (no timer query: both GPU timers hidden). */
export function limitsDisable(limits: DeviceLimits | null): string[] {
  return limits?.timerQuery === false ? ['EXT_disjoint_timer_query_webgl2', 'timestamp-query'] : [];
}
