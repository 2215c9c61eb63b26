// WebKit-sized parity cases, run in WebKitGTK's MiniBrowser by tests/webkit/webkit.test.ts through
// the Vitest shim (tests/firefox/vitest-shim.ts): both WebGL2 paths against the CPU reference at
// 1 and 10 steps, 3D and 2D, grid search, with a few hundred boids at the density of Chromium's
// 5,000-boid scene (tests/browser/webgl2-parity.test.ts; about 20 neighbours per boid), because
// WebKit on this machine's software GL runs a few frames a second at 2,000 boids. Not a *.test.ts
// file: no Vitest project collects it.
import { describe, test } from 'vitest';
import { parityParams } from '../support/compare';
import { parityCheck } from '../support/webgl2-parity';
import { pathSlot, WEBGL2_PATHS } from '../support/webgl2-paths';

describe.each(WEBGL2_PATHS)('$kind parity with the CPU reference (WebKit-sized)', (path) => {
  const expectParity = parityCheck(pathSlot(path));
  // 611 boids in a 10-unit box, r = 2: 611/1000 per unit^3, as 5,000 in Chromium's 20-unit box.
  test('3D bounce, grid, 611 boids: 1 and 10 steps', async () => {
    await expectParity(
      parityParams({ count: 611, boundsMin: [-5, -5, -5], boundsMax: [5, 5, 5] }),
      [1, 10],
    );
  });
  // 389 boids in a 7.2-unit square, r = 0.9: 7.5 per unit^2, as 3,001 in Chromium's 20-unit one.
  test('2D wrap, grid, 389 boids: 1 and 10 steps', async () => {
    await expectParity(
      parityParams({
        dimensions: 2,
        boundary: 'wrap',
        count: 389,
        perceptionRadius: 0.9,
        boundsMin: [-3.6, -3.6, -3.6],
        boundsMax: [3.6, 3.6, 3.6],
      }),
      [1, 10],
    );
  });
});
