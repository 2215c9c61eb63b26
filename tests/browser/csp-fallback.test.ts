// A run-time fallback under a strict style policy (no 'unsafe-inline' in style-src): the fresh
// canvas keeps the old one's inline style (copied through the CSSOM, which the policy allows; a
// copied style attribute is an inline style it blocks), so its CSS size and border are the page's.
// The policy is a <meta> inserted before any flock is made (enforced from then on); the page's
// devicePixelRatio is 2, so a canvas that lost its CSS size would show at its drawing-buffer size.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Flock } from '../../src/index';
import { boxMaker, flockMaker, once } from '../support/browser';

const box = boxMaker();
const make = flockMaker();
const violations: string[] = [];
const frame = () => new Promise((r) => requestAnimationFrame(r));

beforeAll(() => {
  document.addEventListener('securitypolicyviolation', (e) =>
    violations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sample}`),
  );
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = "style-src 'self'";
  document.head.appendChild(meta);
  Object.defineProperty(window, 'devicePixelRatio', { configurable: true, get: () => 2 });
});

const size = (c: HTMLCanvasElement) => {
  const r = c.getBoundingClientRect();
  return `${r.width}x${r.height}`;
};

/** Destroys the WebGPU device of `f` (drawn into `old`) and checks the canvas it falls back to. */
async function fallBack(f: Flock, old: HTMLCanvasElement, parent: Element): Promise<void> {
  expect(f.backend).toBe('webgpu');
  for (let k = 0; k < 3; k++) await frame();
  const before = size(old);
  const fell = once(f, 'fallback', 60_000);
  (f as unknown as { _backend: { device: GPUDevice } })._backend.device.destroy();
  await fell;
  for (let k = 0; k < 3; k++) await frame();
  expect(f.backend).toBe('webgl2');
  expect(f.canvas).not.toBe(old);
  expect(f.canvas.parentElement).toBe(parent);
  expect(size(f.canvas)).toBe(before);
  expect(violations).toEqual([]);
}

describe('a run-time fallback under a strict style-src', () => {
  test('the policy is on: a style attribute set with setAttribute is blocked', async () => {
    const d = document.createElement('div');
    d.setAttribute('style', 'width: 7px');
    expect(d.style.width).toBe('');
    await new Promise((r) => setTimeout(r, 50));
    expect(violations.length).toBeGreaterThan(0);
    violations.length = 0;
  });

  test('a container: the new canvas fills it as the old one did', async () => {
    const div = box(600, 300);
    const f = await make(div, { params: { count: 300 } });
    expect(size(f.canvas)).toBe('600x300');
    await fallBack(f, f.canvas, div);
    expect(size(f.canvas)).toBe('600x300');
    expect(f.canvas.width).toBe(1200);
  });

  test("fallbackCanvas 'sibling': the sibling has the caller canvas's CSS size and border", async () => {
    const div = box(700, 400);
    const c = document.createElement('canvas');
    c.style.cssText = 'width: 600px; height: 300px; border: 3px solid rgb(255, 0, 0)';
    div.appendChild(c);
    const f = await make(c, { params: { count: 300 }, fallbackCanvas: 'sibling' });
    expect(size(c)).toBe('606x306');
    await fallBack(f, c, div);
    expect(size(f.canvas)).toBe('606x306');
    expect(getComputedStyle(f.canvas).borderTopColor).toBe('rgb(255, 0, 0)');
  });
});
