// The page's shared WebGL2 context (src/webgl2/shared-context.ts, issue 21 reproduction 8): who
// shares, how many use it, and when it is given back, on a stand-in OffscreenCanvas and context
// (Node has neither; the real ones run in tests/browser/many-flocks.test.ts).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ContextHome, openSharedGL } from '../../src/webgl2/shared-context';

const MAX_TEXTURE_SIZE = 0x0d33;

/** A WebGL2 context stand-in: loses and restores through WEBGL_lose_context, firing the events. */
class FakeGL {
  readonly MAX_TEXTURE_SIZE = MAX_TEXTURE_SIZE;
  lost = false;
  losses = 0;
  constructor(private readonly target: EventTarget) {}
  isContextLost(): boolean {
    return this.lost;
  }
  getParameter(p: number): number {
    return p === MAX_TEXTURE_SIZE ? 8192 : 0;
  }
  getExtension(name: string): unknown {
    if (name !== 'WEBGL_lose_context') return null;
    return {
      loseContext: () => {
        this.lost = true;
        this.losses++;
        this.target.dispatchEvent(new Event('webglcontextlost', { cancelable: true }));
      },
      restoreContext: () => {
        this.lost = false;
        this.target.dispatchEvent(new Event('webglcontextrestored'));
      },
    };
  }
}

const made: FakeOffscreen[] = [];
class FakeOffscreen extends EventTarget {
  readonly gl = new FakeGL(this);
  bitmaps = 0;
  constructor(
    public width: number,
    public height: number,
  ) {
    super();
    made.push(this);
  }
  getContext(type: string): unknown {
    return type === 'webgl2' ? this.gl : null;
  }
  transferToImageBitmap(): { width: number; height: number } {
    this.bitmaps++;
    return { width: this.width, height: this.height };
  }
}

/** A page canvas stand-in: 'bitmaprenderer' unless it already holds another context type. */
function fakeCanvas(holds: 'webgl2' | null = null) {
  const shown: { width: number; height: number }[] = [];
  const bitmap = {
    transferFromImageBitmap: (b: { width: number; height: number }) => shown.push(b),
  };
  const canvas = {
    shown,
    getContext: (type: string) => (type === 'bitmaprenderer' && holds === null ? bitmap : null),
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
  return canvas as unknown as HTMLCanvasElement & { shown: typeof shown };
}

const ATTRS: WebGLContextAttributes = { antialias: true };
const homes: ContextHome[] = [];

/** A backend's ContextHome on `canvas` with the context openSharedGL gave (or a direct one). */
function home(canvas: HTMLCanvasElement, gl: unknown): ContextHome {
  const h = new ContextHome(canvas, gl as WebGL2RenderingContext);
  h.attach(
    () => undefined,
    () => undefined,
  );
  homes.push(h);
  return h;
}

beforeEach(() => {
  (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas = FakeOffscreen;
});
afterEach(() => {
  for (const h of homes.splice(0)) h.detach(true);
  made.length = 0;
  delete (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas;
});

describe('shared WebGL2 context', () => {
  test("'auto': the first flock opens its own context, the second and third share one", () => {
    const first = fakeCanvas();
    expect(openSharedGL({ canvas: first, shareContext: 'auto' }, ATTRS)).toBeNull();
    // The first flock draws with its own context (a stand-in for the canvas's).
    home(first, new FakeGL(new EventTarget()));
    const a = openSharedGL({ canvas: fakeCanvas(), shareContext: 'auto' }, ATTRS);
    const b = openSharedGL(
      { canvas: fakeCanvas(), shareContext: 'auto', maxTextureSize: 512 },
      ATTRS,
    );
    homes.push(new ContextHome(fakeCanvas(), a!.gl), new ContextHome(fakeCanvas(), b!.gl));
    expect(a?.gl).toBe(made[0]!.gl);
    expect(b?.gl).toBe(a?.gl);
    expect(a?.maxTextureSize).toBe(8192);
    expect(b?.maxTextureSize).toBe(512);
    expect(made).toHaveLength(1);
  });

  test('never shared: false (the default), limits, or a canvas holding another context', () => {
    expect(openSharedGL({ canvas: fakeCanvas() }, ATTRS)).toBeNull();
    expect(openSharedGL({ canvas: fakeCanvas(), shareContext: false }, ATTRS)).toBeNull();
    const capped = { canvas: fakeCanvas(), shareContext: true, limits: { maxTextureSize: 256 } };
    expect(openSharedGL(capped, ATTRS)).toBeNull();
    // Asked, but the canvas holds a WebGL2 context already: the share made for it is given back.
    expect(openSharedGL({ canvas: fakeCanvas('webgl2'), shareContext: true }, ATTRS)).toBeNull();
    expect(made).toHaveLength(1);
    expect(made[0]!.gl.lost).toBe(true);
  });

  test('a canvas that showed shared frames keeps sharing (it can hold no other context)', () => {
    const canvas = fakeCanvas();
    const opened = openSharedGL({ canvas, shareContext: true }, ATTRS)!;
    home(canvas, opened.gl).detach(true);
    const again = openSharedGL({ canvas, shareContext: false }, ATTRS);
    expect(again?.gl).toBe(made[1]!.gl);
    home(canvas, again!.gl);
  });

  test('the last user gives it back; the next flock gets a new one', () => {
    const ca = fakeCanvas();
    const cb = fakeCanvas();
    const ha = home(ca, openSharedGL({ canvas: ca, shareContext: true }, ATTRS)!.gl);
    const hb = home(cb, openSharedGL({ canvas: cb, shareContext: true }, ATTRS)!.gl);
    const gl = made[0]!.gl;
    ha.detach(true);
    expect(gl.lost).toBe(false);
    hb.detach(true);
    hb.detach(true);
    expect(gl.lost).toBe(true);
    expect(gl.losses).toBe(1);
    const again = openSharedGL({ canvas: fakeCanvas(), shareContext: true }, ATTRS);
    expect(again?.gl).toBe(made[1]!.gl);
    home(fakeCanvas(), again!.gl);
  });

  test('lost while in use: a new flock gets a live one; the lost one, left by all, is given back when restored', () => {
    const ca = fakeCanvas();
    const ha = home(ca, openSharedGL({ canvas: ca, shareContext: true }, ATTRS)!.gl);
    const old = made[0]!;
    const ext = old.gl.getExtension('WEBGL_lose_context') as {
      loseContext(): void;
      restoreContext(): void;
    };
    ext.loseContext();
    const fresh = openSharedGL({ canvas: fakeCanvas(), shareContext: true }, ATTRS);
    expect(fresh?.gl).toBe(made[1]!.gl);
    home(fakeCanvas(), fresh!.gl);
    // Its flock moves on (a fallback) while it is lost; then the page restores it.
    ha.detach(true);
    expect(old.gl.losses).toBe(1);
    ext.restoreContext();
    expect(old.gl.lost).toBe(true);
    expect(old.gl.losses).toBe(2);
  });

  test("each frame is drawn at the flock's size and moved into its own canvas", () => {
    const ca = fakeCanvas();
    const cb = fakeCanvas();
    const ha = home(ca, openSharedGL({ canvas: ca, shareContext: true }, ATTRS)!.gl);
    const hb = home(cb, openSharedGL({ canvas: cb, shareContext: true }, ATTRS)!.gl);
    ha.beginFrame(160, 120);
    ha.endFrame();
    hb.beginFrame(64.4, 0);
    hb.endFrame();
    expect(ca.shown).toEqual([{ width: 160, height: 120 }]);
    expect(cb.shown).toEqual([{ width: 64, height: 1 }]);
    expect(made[0]!.bitmaps).toBe(2);
  });
});
