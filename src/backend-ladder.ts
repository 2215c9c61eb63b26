/**
 * The backend registry and the `auto` ladder (DESIGN.md section 3): webgpu -> webgl2 -> webgl2-tf
 * -> cpu. Each rung has a probe that works by doing (adapter + device, a float render target that
 * is rendered to and read back) on throwaway objects, and a factory that builds the real backend.
 * Probe answers are cached per page and per set of hidden capabilities.
 */
import type { Backend, BackendInit, BackendKind } from './backend';
import { BACKEND_LADDER } from './backend';

export interface ProbeResult {
  ok: boolean;
  /** Why the rung cannot run (when !ok). */
  reason?: string;
  /** A software implementation (fallback adapter, SwiftShader, llvmpipe). */
  software?: boolean;
  /** Renderer / adapter description. */
  info?: string;
}

export interface BackendEntry {
  probe(disable: ReadonlySet<string>): Promise<ProbeResult>;
  /**
   * Optional: whether this rung's renderer is a software one, told without the full probe (the
   * renderer string only), or null when it cannot tell. planLadder asks it of webgl2 beside a
   * software WebGPU adapter: that choice needs no more, and a software answer leaves the rung
   * unprobed until it is needed.
   */
  quickSoftware?(disable: ReadonlySet<string>): Promise<boolean | null>;
  create(init: BackendInit): Promise<Backend>;
}

const registry = new Map<BackendKind, BackendEntry>();
const probeCache = new Map<string, Promise<ProbeResult>>();
/** The quick software checks' answers (BackendEntry.quickSoftware), by the same keys. */
const quickCache = new Map<string, Promise<boolean | null>>();

/** The caches' key: the rung and what `disable` hides. */
function cacheKey(kind: BackendKind, disable: ReadonlySet<string>): string {
  return `${kind}|${[...disable].sort().join(',')}`;
}

/** Registers the factory and probe of one rung (src/index.ts registers every backend). */
export function registerBackend(kind: BackendKind, entry: BackendEntry): void {
  registry.set(kind, entry);
}

export function backendEntry(kind: BackendKind): BackendEntry | undefined {
  return registry.get(kind);
}

/** The cached probe of one rung; a rung without a registered backend is 'not built yet'. */
export function probeBackend(
  kind: BackendKind,
  disable: ReadonlySet<string>,
): Promise<ProbeResult> {
  if (disable.has(kind))
    return Promise.resolve({ ok: false, reason: `hidden by disable: ['${kind}']` });
  const entry = registry.get(kind);
  if (!entry)
    return Promise.resolve({
      ok: false,
      reason: `the ${kind} backend is not available in this build`,
    });
  const key = cacheKey(kind, disable);
  let p = probeCache.get(key);
  if (!p) {
    p = entry
      .probe(disable)
      .catch((e: unknown) => ({ ok: false, reason: `probe failed: ${String(e)}` }));
    probeCache.set(key, p);
  }
  return p;
}

/** Forget cached probe answers (tests that change what the page offers). */
export function clearProbeCache(): void {
  probeCache.clear();
  quickCache.clear();
}

/** Renderer strings of software rasterisers. */
export const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|lavapipe|basic render/i;

/**
 * The rungs `auto` should try, in order, starting at `from`, with the reasons the skipped ones
 * were skipped. A WebGPU adapter that is a software fallback yields to a hardware WebGL2.
 * Probing stops at the first rung that works and that no rung below can displace (anything but
 * a software WebGPU adapter, which needs WebGL2's renderer to compare: its quick check, a
 * context's renderer string, and the full probe only for a hardware one): the rungs after it are
 * in `order` unprobed, for the caller to probe (probeBackend, cached) if that rung fails to start.
 * So a page on a hardware WebGPU adapter makes no WebGL2 context and loads no probe but the
 * renderer check's small module (src/webgl2/probe-context.ts).
 */
export async function planLadder(
  disable: ReadonlySet<string>,
  from: BackendKind = 'webgpu',
): Promise<{ order: BackendKind[]; reasons: Partial<Record<BackendKind, string>> }> {
  const reasons: Partial<Record<BackendKind, string>> = {};
  const order: BackendKind[] = [];
  const rungs = BACKEND_LADDER.slice(BACKEND_LADDER.indexOf(from));
  /** WebGL2's renderer is known to be software (or absent) without its full probe. */
  let glNotHardware = false;
  for (const [k, kind] of rungs.entries()) {
    // Beside a software WebGPU adapter (order ['webgpu']) WebGL2 matters only on a hardware
    // renderer: its quick check tells without the full probe (a context, programs, draws and
    // reads). Software, or no context, keeps webgpu first and the rungs below unprobed.
    // A full probe already made (or under way) answers instead, and the quick answer is kept:
    // each asks for a context on the main thread, which waits while the GPU process is busy.
    const quick = backendEntry(kind)?.quickSoftware;
    const key = cacheKey(kind, disable);
    if (
      kind === 'webgl2' &&
      order.length === 1 &&
      quick &&
      !disable.has(kind) &&
      !probeCache.has(key)
    ) {
      let answer = quickCache.get(key);
      if (!answer) {
        answer = quick(disable).catch(() => false);
        quickCache.set(key, answer);
      }
      if ((await answer) !== false) {
        glNotHardware = true;
        order.push(...rungs.slice(k));
        break;
      }
    }
    const probe = await probeBackend(kind, disable);
    if (!probe.ok) {
      reasons[kind] = probe.reason ?? 'unavailable';
      continue;
    }
    order.push(kind);
    if (kind !== 'webgpu' || !probe.software || order.length > 1) {
      order.push(...rungs.slice(k + 1));
      break;
    }
  }
  const gpu = order[0] === 'webgpu' ? await probeBackend('webgpu', disable) : null;
  if (gpu?.software && order[1] === 'webgl2' && !glNotHardware) {
    const gl = await probeBackend('webgl2', disable);
    if (!gl.software) {
      order.splice(0, 1);
      order.push('webgpu');
      reasons.webgpu = `the WebGPU adapter is a software fallback (${gpu.info ?? 'isFallbackAdapter'}); a hardware WebGL2 (${gl.info ?? 'unknown renderer'}) is preferred`;
    }
  }
  return { order, reasons };
}
