import { afterEach, expect } from 'vitest';
import { createFlock, FlockError, type Flock } from '../../src/index';

/**
 * Set-up shared by the browser tests: a canvas on the page, waiting for one event, sleeping,
 * catching a rejection, flocks disposed after each test. Used only in the browser project (it touches `document`).
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
