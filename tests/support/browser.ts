import { afterEach, expect } from 'vitest';
import { createFlock, FlockError, type Flock } from '../../src/index';
import type { GpuFlockElement } from '../../src/element/index';

/**
 * Set-up shared by the browser tests: a canvas on the page, waiting for one event, sleeping,
 * polling a condition, catching a rejection, flocks and <gpu-flock> elements removed after each
 * test. Used only in the browser project (it touches `document`).
 */

/** A new canvas appended to the page body, `width` x `height` when given (else 300 x 150). */
export function addCanvas(width?: number, height = width): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  if (width !== undefined) canvas.width = width;
  if (height !== undefined) canvas.height = height;
  document.body.append(canvas);
  return canvas;
}

/**
 * A maker of sized containers for one test file: `box(width = 64, height = width)` appends a
 * <div> of that CSS size (px) to the page body; every div it made is removed after each test (a
 * Vitest `afterEach` registered by this call: call it at the file's top level, before
 * flockMaker() or any hook that disposes flocks, so that flocks go before their containers,
 * after-hooks running as a stack).
 */
export function boxMaker(): (width?: number, height?: number) => HTMLDivElement {
  const boxes: HTMLDivElement[] = [];
  afterEach(() => {
    for (const b of boxes.splice(0)) b.remove();
  });
  return (width = 64, height = width) => {
    const div = document.createElement('div');
    div.style.width = `${width}px`;
    div.style.height = `${height}px`;
    document.body.appendChild(div);
    boxes.push(div);
    return div;
  };
}

/**
 * The next `type` event on `target` (e.g. a Flock's 'contextlost' or 'fallback' CustomEvent).
 * @throws Error (rejects) when none comes within `timeoutMs`.
 */
export function once<E extends Event = Event>(
  target: EventTarget,
  type: string,
  timeoutMs = 30_000,
): Promise<E> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(
      () => reject(new Error(`no '${type}' event within ${timeoutMs} ms`)),
      timeoutMs,
    );
    target.addEventListener(
      type,
      (e) => {
        clearTimeout(t);
        resolve(e as E);
      },
      { once: true },
    );
  });
}

/** Resolves after `ms` milliseconds (setTimeout). */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` every 20 ms. @throws Error (rejects) when it is still false after `timeoutMs`. */
export async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const t0 = performance.now();
  while (!cond()) {
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`still false after ${timeoutMs} ms: ${cond}`);
    await sleep(20);
  }
}

/**
 * A maker of <gpu-flock> elements for one test file (which imports src/element/index, defining
 * the element): `addFlock(attrs, style)` appends one with those attributes (and inline CSS) to
 * the page body; `removeLater(node)` adds any other node of the test's. All are removed after
 * each test (a Vitest `afterEach` registered by this call: call it at the file's top level).
 */
export function elementMaker(): {
  addFlock: (attrs: Record<string, string>, style?: string) => GpuFlockElement;
  removeLater: (node: Element) => void;
} {
  const made: Element[] = [];
  afterEach(() => {
    for (const el of made.splice(0)) el.remove();
  });
  return {
    addFlock(attrs, style = '') {
      const el = document.createElement('gpu-flock');
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      if (style) el.style.cssText = style;
      document.body.append(el);
      made.push(el);
      return el;
    },
    removeLater(node) {
      made.push(node);
    },
  };
}

/** What `p` rejects with. @throws Error when it resolves instead. */
export async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/**
 * `createFlock` for one test file: every flock it makes is disposed after each test (a Vitest
 * `afterEach` registered by this call, so call it at the file's top level).
 */
export function flockMaker(): (...args: Parameters<typeof createFlock>) => Promise<Flock> {
  const flocks: Flock[] = [];
  afterEach(() => {
    for (const f of flocks.splice(0)) f.dispose();
  });
  return async (...args) => {
    const f = await createFlock(...args);
    flocks.push(f);
    return f;
  };
}

/** The FlockError that `p` rejects with. @throws (the test fails) when it resolves or rejects otherwise. */
export async function flockError(p: Promise<unknown>): Promise<FlockError> {
  const e = await catchError(p);
  expect(e).toBeInstanceOf(FlockError);
  return e as FlockError;
}
