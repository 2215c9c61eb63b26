/**
 * The two WebGL2 backends as test cases, for `describe.each(WEBGL2_PATHS)`: the texture path and
 * the transform-feedback path run the same browser tests. The feedback path always runs with
 * EXT_color_buffer_float hidden: that rung must never need it.
 */
import { afterEach, expect } from 'vitest';
import type { WebGL2PathBackend, WebGL2PathInit } from '../../src/webgl2/webgl2-path-base';
import { createWebGL2Backend } from '../../src/webgl2/webgl2-backend';
import { createWebGL2TFBackend } from '../../src/webgl2/webgl2-tf-backend';

export interface WebGL2Path {
  readonly kind: 'webgl2' | 'webgl2-tf';
  /** The backend on `init.canvas`, with `disable` hidden (the feedback path: and EXT_color_buffer_float). */
  create(
    init: Omit<WebGL2PathInit, 'disable'>,
    disable?: readonly string[],
  ): Promise<WebGL2PathBackend>;
}

export const TEXTURE_PATH: WebGL2Path = {
  kind: 'webgl2',
  create: (init, disable = []) => createWebGL2Backend({ ...init, disable: new Set(disable) }),
};

export const FEEDBACK_PATH: WebGL2Path = {
  kind: 'webgl2-tf',
  create: (init, disable = []) =>
    createWebGL2TFBackend({ ...init, disable: new Set([...disable, 'EXT_color_buffer_float']) }),
};

export const WEBGL2_PATHS: readonly WebGL2Path[] = [TEXTURE_PATH, FEEDBACK_PATH];

/** The backend under test in one describe block of a WebGL2 path (see pathSlot). */
export interface PathSlot {
  /** The backend made last and not yet disposed, or null. */
  readonly current: WebGL2PathBackend | null;
  /** Disposes the current backend (removing its canvas), then makes one with `path.create`. */
  create(
    init: Omit<WebGL2PathInit, 'disable'>,
    disable?: readonly string[],
  ): Promise<WebGL2PathBackend>;
  /** Disposes the current backend and removes its canvas (nothing when there is none). */
  dispose(): void;
}

/**
 * The shared set-up of the WebGL2 path tests: a slot for the backend under test, and an
 * `afterEach` (registered by this call: call it in the describe block) that expects the backend
 * left by the test to have no GL error (gl.getError() is NO_ERROR), then disposes it and removes
 * its canvas.
 */
export function pathSlot(path: WebGL2Path): PathSlot {
  let backend: WebGL2PathBackend | null = null;
  const dispose = () => {
    backend?.dispose();
    backend?.canvas.remove();
    backend = null;
  };
  afterEach(() => {
    if (backend) expect(backend.gl.getError()).toBe(backend.gl.NO_ERROR);
    dispose();
  });
  return {
    get current() {
      return backend;
    },
    async create(init, disable) {
      dispose();
      backend = await path.create(init, disable);
      return backend;
    },
    dispose,
  };
}
