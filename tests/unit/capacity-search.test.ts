// The capacity search (src/core/capacity-search.ts) against frame costs worked out by hand: the count it
// reports holds the budget, the next one it measured does not, within the precision asked; its
// bounds (probes, wall time, per-probe timeouts, the backend's cap) hold.
import { describe, expect, test } from 'vitest';
import { roundCount, searchCapacity, stepsPerFrame } from '../../src/core/capacity-search';

/** A device: fixed ms per frame, ms per boid per step, ms per boid drawn. */
function device(fixedMs: number, stepUs: number, drawUs: number) {
  const calls: [number, number][] = [];
  const cost = (count: number, steps: number) =>
    fixedMs + (steps * stepUs * count) / 1000 + (drawUs * count) / 1000;
  return {
    calls,
    cost,
    measure: async (count: number, steps: number) => {
      calls.push([count, steps]);
      return cost(count, steps);
    },
  };
}

describe('stepsPerFrame and roundCount', () => {
  test('steps a frame takes to keep real time with steps of 1/60 s', () => {
    expect(stepsPerFrame(60)).toBe(1);
    expect(stepsPerFrame(30)).toBe(2);
    expect(stepsPerFrame(20)).toBe(3);
    expect(stepsPerFrame(144)).toBe(1); // never fewer than one
    expect(stepsPerFrame(30, 1 / 120)).toBe(4);
  });

  test('two significant figures', () => {
    expect(roundCount(1448)).toBe(1400);
    expect(roundCount(181019)).toBe(180000);
    expect(roundCount(2048)).toBe(2000);
    expect(roundCount(99.6)).toBe(100);
    expect(roundCount(37.4)).toBe(37);
    expect(roundCount(0.2)).toBe(1);
  });
});

describe('searchCapacity', () => {
  test('doubling then bisection brackets the count within the precision', async () => {
    // 4 ms fixed, 0.1 us a boid a step, 0.02 us a boid drawn. 60 fps (1 step): 4 + 0.12e-3 N
    // <= 16.67 ms -> N <= 105,555. 30 fps (2 steps): 4 + 0.22e-3 N <= 33.33 -> N <= 133,333.
    const d = device(4, 0.1, 0.02);
    const { results, probes } = await searchCapacity(d.measure, { start: 1024 });
    const [r60, r30] = results;
    expect(r60!.fps).toBe(60);
    expect(r60!.steps).toBe(1);
    expect(r30!.steps).toBe(2);
    for (const [r, exact] of [
      [r60!, 105_555],
      [r30!, 133_333],
    ] as const) {
      expect(r.count).toBeLessThanOrEqual(exact);
      expect(d.cost(r.count, r.steps)).toBeLessThanOrEqual(1000 / r.fps);
      expect(r.failsAt).not.toBeNull();
      expect(d.cost(r.failsAt!, r.steps)).toBeGreaterThan(1000 / r.fps);
      expect(r.failsAt! / r.count).toBeLessThanOrEqual(1.1 + 1e-9);
      expect(r.count).toBeGreaterThan(exact / 1.1);
      expect(r.frameMs).toBeCloseTo(d.cost(r.count, r.steps), 9);
      expect(r.bounded).toBe(false);
    }
    // Every (count, steps) measured once.
    const keys = d.calls.map(([c, s]) => `${c}|${s}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(probes.length).toBe(d.calls.length);
    // From 1,024: doublings to 131,000 (7 of them) fail there, then bisections.
    expect(d.calls.slice(0, 8).map((c) => c[0])).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 64000, 130000,
    ]);
  });

  test('a start above the capacity halves down to it', async () => {
    // 20 ms fixed + 1 us a boid (1 step + draw: 2 us): 60 fps never (20 > 16.7); 30 fps:
    // 20 + 3e-3 N <= 33.3 (2 steps + draw: 3 us) -> N <= 4,444.
    const d = device(20, 1, 1);
    const { results } = await searchCapacity(d.measure, { start: 65536 });
    expect(results[0]!.count).toBe(0); // nothing holds 60 fps
    expect(results[0]!.failsAt).toBe(64); // halved down to minCount
    expect(results[1]!.count).toBeLessThanOrEqual(4444);
    expect(results[1]!.count).toBeGreaterThan(4444 / 1.1);
  });

  test("the backend's cap: a count that holds at maxCount is the answer, nothing failed", async () => {
    const d = device(1, 0.001, 0.001);
    const { results } = await searchCapacity(d.measure, { start: 1024, maxCount: 4096 });
    expect(results.map((r) => r.count)).toEqual([4096, 4096]);
    expect(results.map((r) => r.failsAt)).toEqual([null, null]);
    expect(Math.max(...d.calls.map((c) => c[0]))).toBe(4096);
  });

  test('a probe that ran past its time bound (Infinity, NaN) does not hold', async () => {
    const { results } = await searchCapacity(
      async (count) => (count > 3000 ? Infinity : count > 2500 ? NaN : 1),
      { start: 1000, fps: [60] },
    );
    expect(results[0]!.count).toBeLessThanOrEqual(2500);
    expect(results[0]!.count).toBeGreaterThan(2500 / 1.1);
  });

  test('bounded: at most maxProbes measurements, and a deadline on the clock', async () => {
    const d = device(4, 0.1, 0.02);
    const few = await searchCapacity(d.measure, { start: 1024, maxProbes: 3 });
    expect(few.probes.length).toBe(3);
    expect(few.results[0]!.bounded).toBe(true);
    expect(few.results[0]!.count).toBe(4000); // 1,000, 2,000, 4,000 held: a lower bound
    expect(few.results[1]!.bounded).toBe(true);

    // Each measurement takes 700 ms of a fake clock; the search may take 2,000 ms.
    let t = 0;
    const slow = await searchCapacity(
      async (count, steps) => {
        t += 700;
        return d.cost(count, steps);
      },
      { start: 1024, deadlineMs: 2000, now: () => t },
    );
    expect(slow.probes.length).toBe(3); // started at 0, 700, 1,400; not at 2,100
    expect(slow.results.every((r) => r.bounded)).toBe(true);
  });
});
