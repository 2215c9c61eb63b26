// A canvas the browser makes no WebGL2 context for: the FlockError on target says the canvas's
// size and the browser's own reason (the webglcontextcreationerror's statusMessage), not only
// "a canvas without another context type". Seen on SwiftShader: an element of 4096x4096 CSS px
// at resolution-scale 2 (an 8192x8192 canvas) got "Failed to create WebGL2RenderingContext."
// and the error blamed another context type, which its own canvas never holds.
import { afterEach, describe, expect, test } from 'vitest';
import { createFlock } from '../../src/index';
import { addCanvas, flockError } from '../support/browser';

const nodes: Element[] = [];
afterEach(() => {
  for (const n of nodes.splice(0)) n.remove();
});

describe('webgl2 on a canvas without a WebGL2 context', () => {
  test('a canvas holding a 2d context: the browser says so, with the size', async () => {
    const c = addCanvas(64, 48);
    nodes.push(c);
    c.getContext('2d')!.fillRect(0, 0, 4, 4);
    const err = await flockError(createFlock(c, { backend: 'webgl2', params: { count: 100 } }));
    expect(err.field).toBe('target');
    expect(err.message).toContain('no WebGL2 context on this 64x48 canvas for webgl2');
    expect(err.message).toContain(
      'the browser said: "Canvas has an existing context of a different type"',
    );
  });

  test('a context the browser refuses (a creation error, as out of memory): its reason, with the size', async () => {
    const c = addCanvas(80, 40);
    nodes.push(c);
    const getContext = HTMLCanvasElement.prototype.getContext as (
      this: HTMLCanvasElement,
      type: string,
      attrs?: unknown,
    ) => RenderingContext | null;
    // What Chromium does for a canvas too large for its memory: the event, then null.
    c.getContext = function (this: HTMLCanvasElement, type: string, attrs?: unknown) {
      if (type !== 'webgl2') return getContext.call(this, type, attrs);
      const statusMessage = 'Failed to create WebGL2RenderingContext.';
      this.dispatchEvent(new WebGLContextEvent('webglcontextcreationerror', { statusMessage }));
      return null;
    } as typeof c.getContext;
    const err = await flockError(createFlock(c, { backend: 'webgl2', params: { count: 100 } }));
    expect(err.field).toBe('target');
    expect(err.message).toContain('no WebGL2 context on this 80x40 canvas for webgl2');
    expect(err.message).toContain('the browser said: "Failed to create WebGL2RenderingContext."');
    expect(err.allowed).toContain('a size the browser makes a WebGL2 context for');
  });
});
