// A change of `species` on a live flock (DESIGN.md section 1): every boid's species becomes
// id mod species (positions.w), positions and velocities stay, and the next steps are the
// reference's from that state. On every backend, paused and running.
import { describe, expect, test } from 'vitest';
import { type BackendKind, type FlockState } from '../../src/index';
import { referenceSteps } from '../../src/reference';
import { checkTolerance, parityParams } from '../support/compare';
import { flockMaker, sleep } from '../support/browser';

const make = flockMaker();

/** positions.w by boid id. */
function speciesOf(s: FlockState): number[] {
  return Array.from({ length: s.count }, (_, i) => s.positions[4 * i + 3]!);
}

function xyzOnly(a: Float32Array): number[] {
  return Array.from(a).filter((_, k) => k % 4 !== 3);
}

const BACKENDS: BackendKind[] = ['webgpu', 'webgl2', 'webgl2-tf', 'cpu'];

describe.each(BACKENDS)('species changed on a live flock (%s)', (backend) => {
  test('1 -> 3 -> 2: positions.w = id mod species, xyz kept, steps follow the reference', async () => {
    // 3001 boids (not a multiple of 2 or 3), one species to start with; a predator and
    // turbulence, whose paths depend on the simulated time, which the change must keep.
    const params = parityParams({ count: 3001, species: 1, predators: 1, turbulence: 0.5 });
    const f = await make(undefined, { backend, params, autoStart: false });
    expect(f.backend).toBe(backend);
    await f.step(2);
    const before = await f.readState();
    expect(new Set(speciesOf(before))).toEqual(new Set([0]));

    const t = f.time;
    expect(t).toBeCloseTo(2 * params.timeStep, 9);
    await f.setParams({ species: 3 });
    expect(f.params.species).toBe(3);
    expect(f.time).toBe(t);
    const three = await f.readState();
    expect(speciesOf(three)).toEqual(speciesOf(before).map((_, i) => i % 3));
    expect(xyzOnly(three.positions)).toEqual(xyzOnly(before.positions));
    expect(xyzOnly(three.velocities)).toEqual(xyzOnly(before.velocities));

    // The step after the change is the reference's step of three species from that state.
    await f.step(1);
    const got = await f.readState();
    const want = referenceSteps(three, f.params, 1, undefined, t);
    expect(speciesOf(got)).toEqual(speciesOf(want));
    const r = checkTolerance(got, want, f.params, 1);
    expect(r.ok, r.message).toBe(true);

    // Down to 2: no boid keeps species 2, and what readState gives is a valid state again.
    await f.setParams({ species: 2 });
    const two = await f.readState();
    expect(speciesOf(two)).toEqual(speciesOf(two).map((_, i) => i % 2));
    await expect(f.setState(two)).resolves.toBeUndefined();
  });

  test('while running: the change lands and the flock keeps moving', async () => {
    const params = parityParams({ count: 1201, species: 2 });
    const f = await make(undefined, { backend, params, autoStart: false });
    f.start();
    await sleep(300);
    const p = f.setParams({ species: 4 });
    await p;
    f.stop();
    const s = await f.readState();
    expect(speciesOf(s)).toEqual(speciesOf(s).map((_, i) => i % 4));
    // Moved from the seed's state (the loop ran before and after the change).
    const seedXyz = xyzOnly(
      (
        await make(undefined, { backend: 'cpu', params, autoStart: false }).then((g) =>
          g.readState(),
        )
      ).positions,
    );
    expect(xyzOnly(s.positions)).not.toEqual(seedXyz);
  });
});
