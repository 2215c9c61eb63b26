// <gpu-flock count="3001"> (only a count) fills its canvas at the first frame (issue 27 item 3):
// the box follows the element (autoBounds) framed with fit cover, and the groups start is formed
// at t = 0. The first frame's lit pixels span over half the canvas's width and the state drawn
// has local order >= 0.8 (src/core/order.ts), per rung.
import { describe, expect, test } from 'vitest';
import '../../src/element/index';
import { autoBoundsBox } from '../../src/core/page';
import { localOrder } from '../../src/core/order';
import { elementMaker } from '../support/browser';
import { canvasPixels } from '../support/frames';

const { addFlock } = elementMaker();

describe('<gpu-flock count="3001"> fills its canvas', () => {
  for (const backend of ['webgl2', 'cpu'] as const) {
    test(`${backend}: the first frame spans over half the width, order >= 0.8`, async () => {
      const el = addFlock({ backend, count: '3001', seed: '5' }, 'width: 640px; height: 360px');
      const flock = await el.ready;
      expect(flock.params.count).toBe(3001);
      expect(flock.view.autoBounds).toBe(true);
      expect(flock.view.fit).toBe('cover');
      expect(flock.params.boundsMax).toEqual(autoBoundsBox(3001, 3, 640, 360).boundsMax);
      flock.stop();
      const s = await flock.readState();
      expect(localOrder(s, flock.params).order).toBeGreaterThanOrEqual(0.8);
      flock.render();
      const c = flock.canvas;
      const d = canvasPixels(c);
      // Columns holding a pixel away from the background #05080f.
      const cols = new Uint8Array(c.width);
      for (let y = 0; y < c.height; y++) {
        for (let x = 0; x < c.width; x++) {
          const i = 4 * (y * c.width + x);
          if (Math.abs(d[i]! - 5) + Math.abs(d[i + 1]! - 8) + Math.abs(d[i + 2]! - 15) > 40)
            cols[x] = 1;
        }
      }
      const lit = [...cols.keys()].filter((x) => cols[x]);
      expect((lit.at(-1)! - lit[0]!) / c.width).toBeGreaterThan(0.5);
    });
  }
});
