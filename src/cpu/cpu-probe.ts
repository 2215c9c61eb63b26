/**
 * The cpu rung's probe: it runs wherever a Canvas 2D context can be made. In a module of its own
 * so that the `auto` ladder, which probes every rung, does not load the cpu backend's chunk
 * (4.6 KB gzip) on a page that runs a GPU rung.
 */
export async function probeCpuBackend(
  disable: ReadonlySet<string>,
): Promise<{ ok: boolean; reason?: string; software?: boolean; info?: string }> {
  if (disable.has('cpu')) return { ok: false, reason: "hidden by disable: ['cpu']" };
  if (typeof document === 'undefined') return { ok: false, reason: 'no document (Canvas 2D)' };
  const ok = document.createElement('canvas').getContext('2d') !== null;
  return ok
    ? { ok, software: true, info: 'CPU reference step, Canvas 2D' }
    : { ok, reason: 'Canvas 2D is unavailable' };
}
