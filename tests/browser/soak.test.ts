// Issue 11 soak test (bounded: about 90 s of soak): one flock runs while others are created and
// disposed on every rung, parameters change at random, its WebGL context is lost and restored
// every few seconds, and calls are made throughout. At the end its state is finite, every promise
// the API returned has settled, no 'error' fired, every loss ended in a restore or (a restore
// slower than the timeout, on a loaded machine: issue 21) the fallback to webgl2-tf, no step was
// lost, and the live GL contexts and WebGPU devices are exactly those of the live flocks (WebGPU
// flocks share one device), late restores included.
import { describe, expect, test } from 'vitest';
import { createFlock, mulberry32, type Flock } from '../../src/index';
import { boxMaker, sleep } from '../support/browser';
import { trackContexts } from '../support/contexts';

const SOAK_MS = 90_000;

const box = boxMaker();

describe('soak', () => {
  test(`${SOAK_MS / 1000} s of churn, random parameters and context losses`, async () => {
    const track = trackContexts();
    const rand = mulberry32(20261201);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const errors: unknown[] = [];
    const promises: Promise<unknown>[] = [];
    const watch = (p: Promise<unknown>) => {
      promises.push(p.catch(() => undefined));
      return p;
    };
    const listen = (f: Flock) =>
      f.addEventListener('error', (e) => errors.push((e as CustomEvent).detail.error));
    const mainBox = box(96, 64);
    const main = await createFlock(mainBox, {
      backend: 'webgl2',
      params: { count: 2500, seed: 5 },
    });
    listen(main);
    // Each loss ends in a restore, or, when the restore is slower than the restore timeout (a
    // loaded machine), in the documented fallback to webgl2-tf: the contract allows that. It
    // never allows a lost step (lostSteps, on either event).
    let restored = 0;
    let losses = 0;
    let lostSteps = 0;
    const fallbacks: string[] = [];
    main.addEventListener('contextrestored', (e) => {
      restored++;
      lostSteps += (e as CustomEvent<{ lostSteps: number }>).detail.lostSteps;
    });
    main.addEventListener('fallback', (e) => {
      const d = (e as CustomEvent<{ reason: string; lostSteps?: number }>).detail;
      fallbacks.push(d.reason);
      lostSteps += d.lostSteps ?? 0;
    });
    const churn: { f: Flock; div: HTMLDivElement }[] = [];
    const t0 = performance.now();
    let nextLoss = t0 + 4000;
    try {
      while (performance.now() - t0 < SOAK_MS) {
        const now = performance.now();
        if (now >= nextLoss && main.backend === 'webgl2') {
          nextLoss = now + 4000 + rand() * 3000;
          const ext = (main.canvas.getContext('webgl2') as WebGL2RenderingContext).getExtension(
            'WEBGL_lose_context',
          )!;
          ext.loseContext();
          losses++;
          watch(main.step(1 + Math.floor(rand() * 5)));
          await sleep(100 + rand() * 400);
          ext.restoreContext();
        }
        switch (Math.floor(rand() * 6)) {
          case 0:
            watch(
              main.setParams({
                separationWeight: Math.round(rand() * 300) / 100,
                alignmentWeight: Math.round(rand() * 300) / 100,
                cohesionWeight: Math.round(rand() * 300) / 100,
                maxSpeed: 3 + Math.round(rand() * 50) / 10,
                perceptionRadius: 1 + Math.round(rand() * 20) / 10,
              }),
            );
            break;
          case 1:
            watch(
              main.setParams({ count: 1500 + Math.floor(rand() * 2000), seed: pick([1, 2, 3]) }),
            );
            break;
          case 2:
            watch(main.step(1 + Math.floor(rand() * 20)));
            break;
          case 3:
            watch(main.readState());
            break;
          case 4: {
            const div = box(96, 64);
            const backend = pick(['webgl2', 'webgl2-tf', 'cpu', 'webgpu'] as const);
            const f = await watch(
              createFlock(div, { backend, params: { count: 300 + Math.floor(rand() * 700) } }),
            ).catch((e: unknown) => {
              errors.push(e);
              return null;
            });
            if (f) {
              listen(f as Flock);
              churn.push({ f: f as Flock, div });
            } else div.remove();
            break;
          }
          default:
            if (churn.length > 0) {
              const { f, div } = churn.splice(Math.floor(rand() * churn.length), 1)[0]!;
              watch(f.step(3));
              watch(f.readState());
              f.dispose();
              div.remove();
            }
        }
        await sleep(100 + rand() * 500);
      }
      for (const { f, div } of churn.splice(0)) {
        f.dispose();
        div.remove();
      }
      const settled = await Promise.race([
        Promise.allSettled(promises).then(() => 'settled'),
        sleep(30_000).then(() => 'pending'),
      ]);
      expect(settled).toBe('settled');
      const s = await main.readState();
      expect(s.positions.every(Number.isFinite)).toBe(true);
      expect(s.velocities.every(Number.isFinite)).toBe(true);
      expect(restored + fallbacks.length).toBe(losses);
      expect(losses).toBeGreaterThan(5);
      for (const reason of fallbacks) expect(reason).toMatch(/not restored within/);
      expect(main.backend).toBe(fallbacks.length === 0 ? 'webgl2' : 'webgl2-tf');
      expect(lostSteps).toBe(0);
      expect(errors).toEqual([]);
      // Only the main flock is left: one context (webgl2's, or webgl2-tf's after a fallback), and
      // no WebGPU device; a context restored after the fallback (late) must have been released.
      await sleep(1000);
      expect(track.liveGL()).toBe(1);
      expect(track.liveDevices()).toBe(0);
      main.dispose();
      await sleep(200);
      expect(track.liveGL()).toBe(0);
    } finally {
      track.restore();
      for (const { f, div } of churn) {
        f.dispose();
        div.remove();
      }
      main.dispose();
      mainBox.remove();
    }
  });
});
