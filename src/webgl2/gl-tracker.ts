/**
 * Counts live GL objects per context, so tests can check that dispose() frees everything.
 * `trackGL(gl)` wraps the context's create* / delete* methods (and fenceSync / deleteSync) on the
 * context instance itself, once; helpers that call them are counted too.
 * Objects from a lost context are dead: call `resetGLTracker(gl)` after 'webglcontextrestored'.
 */

const KINDS = [
  'Buffer',
  'Framebuffer',
  'Program',
  'Query',
  'Renderbuffer',
  'Sampler',
  'Shader',
  'Texture',
  'TransformFeedback',
  'VertexArray',
] as const;
export type GLObjectKind = (typeof KINDS)[number] | 'Sync';

const live = new WeakMap<WebGL2RenderingContext, Map<GLObjectKind, Set<object>>>();

/** Starts counting on `gl` (idempotent) and returns it. */
export function trackGL(gl: WebGL2RenderingContext): WebGL2RenderingContext {
  if (live.has(gl)) return gl;
  const sets = new Map<GLObjectKind, Set<object>>();
  live.set(gl, sets);
  const target = gl as unknown as Record<string, unknown>;
  const wrap = (kind: GLObjectKind, create: string, del: string) => {
    const set = new Set<object>();
    sets.set(kind, set);
    const origCreate = target[create] as (...a: unknown[]) => object | null;
    const origDelete = target[del] as (o: object | null) => void;
    target[create] = (...args: unknown[]) => {
      const o = origCreate.apply(gl, args);
      if (o) set.add(o);
      return o;
    };
    target[del] = (o: object | null) => {
      if (o) set.delete(o);
      origDelete.call(gl, o);
    };
  };
  for (const kind of KINDS) wrap(kind, `create${kind}`, `delete${kind}`);
  wrap('Sync', 'fenceSync', 'deleteSync');
  return gl;
}

/** Live objects per kind on `gl` (all zero for an untracked context). */
export function liveGLObjects(gl: WebGL2RenderingContext): Record<GLObjectKind, number> {
  const out = {} as Record<GLObjectKind, number>;
  for (const kind of [...KINDS, 'Sync' as const]) out[kind] = live.get(gl)?.get(kind)?.size ?? 0;
  return out;
}

/** Total live objects on `gl`. */
export function liveGLObjectCount(gl: WebGL2RenderingContext): number {
  return Object.values(liveGLObjects(gl)).reduce((a, b) => a + b, 0);
}

/** Forgets every object of `gl` (after a context loss every one of them is gone). */
export function resetGLTracker(gl: WebGL2RenderingContext): void {
  for (const set of live.get(gl)?.values() ?? []) set.clear();
}
