/**
 * The two WebGL2 backends as test cases, for `describe.each(WEBGL2_PATHS)`: the texture path and
 * the transform-feedback path run the same browser tests. The feedback path always runs with
 * EXT_color_buffer_float hidden: that rung must never need it.
 */
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
