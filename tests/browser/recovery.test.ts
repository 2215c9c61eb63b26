// Issue 11 items 1, 3, 4: real context and device losses (WEBGL_lose_context, GPUDevice.destroy)
// without rollback, and every promise settles. The flock's recovery logic (the loop running
// through a loss, dispose() cutting step() short, calls made during a fallback) is tested in Node
// on fake backends: tests/unit/flock-recovery.test.ts.
// The ballistic scene (tests/support/ballistic.ts) says exactly how many steps a state holds.
import { describe, expect, test } from 'vitest';
import { FlockError, initialState, type Flock, type FlockState } from '../../src/index';
import type { Backend } from '../../src/backend';
import { ballisticError, ballisticParams } from '../support/ballistic';
import { flockError, flockMaker, once, sleep } from '../support/browser';

const make = flockMaker();

const backendOf = (f: Flock) => (f as unknown as { _backend: Backend | null })._backend;

function loseExt(f: Flock): WEBGL_lose_context {
  const gl = f.canvas.getContext('webgl2') as WebGL2RenderingContext;
  return gl.getExtension('WEBGL_lose_context')!;
}

function deviceOf(f: Flock): GPUDevice {
  return (backendOf(f) as unknown as { device: GPUDevice }).device;
}

/** Loses the flock's context or device and waits until it is back (restored or fallen back). */
async function loseAndRecover(f: Flock): Promise<CustomEvent> {
  if (f.backend === 'webgpu') {
    const fell = once<CustomEvent>(f, 'fallback', 60_000);
    deviceOf(f).destroy();
    return fell;
  }
  const ext = loseExt(f);
  const lost = once(f, 'contextlost');
  ext.loseContext();
  await lost;
  await sleep(100);
  const back = once<CustomEvent>(f, 'contextrestored');
  ext.restoreContext();
  return back;
}

const GPU_RUNGS = ['webgl2', 'webgl2-tf', 'webgpu'] as const;

describe.each(GPU_RUNGS)('%s: no rollback of explicit work (item 1)', (backend) => {
  test('paused: steps and setState survive a loss exactly; lostSteps is 0', async () => {
    const params = ballisticParams();
    const f = await make(undefined, { backend, params, autoStart: false });
    const s0 = initialState(params);
    await f.step(37);
    const ev = await loseAndRecover(f);
    expect(ev.detail.lostSteps).toBe(0);
    const s = await f.readState();
    expect(ballisticError(s, s0, params, 37)).toBeLessThan(2e-3);
    // A state given by setState, then steps, also survive a second loss.
    const moved = initialState({ ...params, seed: 99 });
    f.setState(moved);
    await f.step(21);
    const ev2 = await loseAndRecover(f);
    expect(ev2.detail.lostSteps).toBe(0);
    expect(ballisticError(await f.readState(), moved, params, 21)).toBeLessThan(2e-3);
  });
});

describe('every promise settles (items 3 and 4)', () => {
  test('a WebGL context never restored falls back to the next rung with the state (timeout)', async () => {
    const params = ballisticParams();
    const f = await make(undefined, { backend: 'webgl2', params, autoStart: false });
    const s0 = initialState(params);
    await f.step(11);
    const fell = once<CustomEvent>(f, 'fallback', 30_000);
    const lost = once(f, 'contextlost');
    loseExt(f).loseContext();
    await lost;
    const read = f.readState();
    const stepped = f.step(3);
    const finished = f.finish();
    const e = await fell;
    expect(e.detail.from).toBe('webgl2');
    expect(e.detail.to).toBe('webgl2-tf');
    expect(e.detail.lostSteps).toBe(0);
    expect(e.detail.reason).toMatch(/not restored within/);
    expect(f.backend).toBe('webgl2-tf');
    expect(ballisticError(await read, s0, params, 11)).toBeLessThan(2e-3);
    await stepped;
    await finished;
    expect(ballisticError(await f.readState(), s0, params, 14)).toBeLessThan(2e-3);
  });

  test('step() interrupted by a WebGPU device loss applies whole on the next rung (issue 21)', async () => {
    const f = await make(undefined, {
      backend: 'auto',
      params: ballisticParams(),
      autoStart: false,
    });
    expect(f.backend).toBe('webgpu');
    const params = f.params;
    const s0 = initialState(params);
    const long = f.step(400);
    await sleep(100);
    const fell = once<CustomEvent>(f, 'fallback', 60_000);
    deviceOf(f).destroy();
    await long;
    const e = await fell;
    expect(e.detail.lostSteps).toBe(0);
    expect(f.backend).toBe('webgl2');
    expect(ballisticError(await f.readState(), s0, params, 400)).toBeLessThan(2e-3);
  });

  test('step() issued just after loseContext() resolves only once the steps are really done', async () => {
    const params = ballisticParams();
    const f = await make(undefined, { backend: 'webgl2', params, autoStart: false });
    const s0 = initialState(params);
    const ext = loseExt(f);
    ext.loseContext();
    let done = false;
    const stepped = f.step(10).then(() => {
      done = true;
    });
    await sleep(300);
    expect(done).toBe(false);
    const back = once(f, 'contextrestored');
    ext.restoreContext();
    await back;
    await stepped;
    expect(ballisticError(await f.readState(), s0, params, 10)).toBeLessThan(2e-3);
  });

  test.each(['webgl2', 'webgpu'] as const)(
    '%s: a readState() in flight at a loss completes with the state or rejects with a FlockError',
    async (backend) => {
      const params = ballisticParams();
      const f = await make(undefined, { backend, params, autoStart: false });
      const s0 = initialState(params);
      await f.step(7);
      const read = f.readState();
      if (backend === 'webgpu') {
        deviceOf(f).destroy();
      } else {
        const ext = loseExt(f);
        ext.loseContext();
        await sleep(100);
        ext.restoreContext();
      }
      const got: unknown = await read.then(
        (s) => s,
        (e: unknown) => e,
      );
      if (got instanceof Error) {
        expect(got).toBeInstanceOf(FlockError);
        expect((got as FlockError).field).toBe('flock');
      } else {
        expect(ballisticError(got as FlockState, s0, params, 7)).toBeLessThan(2e-3);
      }
    },
  );
});

/**
 * A 64x64 canvas in the page whose first WebGL2 context (the flock's) is handed to `first` with
 * its WEBGL_lose_context as getContext makes it; @returns the canvas and how many WebGL2 contexts
 * it gave.
 */
function canvasWithHook(first: (gl: WebGL2RenderingContext, ext: WEBGL_lose_context) => void) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  document.body.append(canvas);
  const made = canvas.getContext.bind(canvas) as (id: string, o?: unknown) => unknown;
  const got = { canvas, contexts: 0 };
  (canvas as unknown as { getContext: typeof made }).getContext = (id, o) => {
    const gl = made(id, o) as WebGL2RenderingContext | null;
    if (id === 'webgl2' && gl && got.contexts++ === 0) {
      first(gl, gl.getExtension('WEBGL_lose_context')!);
    }
    return gl;
  };
  return got;
}

describe('a loss during the start (outside try, session 13)', () => {
  test('webgl2: a context lost while the flock starts (its event before the flock listens) is restored, not left for the next rung', async () => {
    // The loss comes while the start links its programs: before,
    // nothing had called preventDefault() on its 'webglcontextlost', so the browser refused
    // restoreContext() and the flock fell to webgl2-tf after RESTORE_TIMEOUT_MS.
    let ext: WEBGL_lose_context | null = null;
    const { canvas } = canvasWithHook((gl, lose) => {
      ext = lose;
      // Lost a task after the start's first program link: while its programs link.
      const link = gl.linkProgram.bind(gl);
      let linked = false;
      gl.linkProgram = (program) => {
        link(program);
        if (!linked) setTimeout(() => lose.loseContext(), 0);
        linked = true;
      };
    });
    canvas.addEventListener('webglcontextlost', () => setTimeout(() => ext!.restoreContext(), 50));
    const params = ballisticParams();
    const fell: string[] = [];
    const f = await make(canvas, { backend: 'webgl2', params, autoStart: false });
    f.addEventListener('fallback', () => fell.push(f.backend));
    expect(ext).not.toBeNull();
    await sleep(200);
    await f.step(5);
    await f.finish();
    // Twice RESTORE_TIMEOUT_MS would have fallen back by now had the restore been refused.
    await sleep(500);
    expect(fell).toEqual([]);
    expect(f.backend).toBe('webgl2');
    expect(ballisticError(await f.readState(), initialState(params), params, 5)).toBeLessThan(2e-3);
    canvas.remove();
  });

  test('webgl2: a context lost after getContext, before the capability checks, rejects with "lost before the start", not "EXT_color_buffer_float"', async () => {
    // Outside try: the loss came between openWebGL2's isContextLost() check and checkDevice(),
    // which read EXT_color_buffer_float as missing (every extension reads null on a lost context).
    // The task after getContext: before the start's first timer (gpuDone), so before its build.
    const hooked = canvasWithHook((_, lose) => setTimeout(() => lose.loseContext(), 0));
    const params = ballisticParams();
    const err = await flockError(
      make(hooked.canvas, { backend: 'webgl2', params, autoStart: false }),
    );
    hooked.canvas.remove();
    expect(hooked.contexts).toBe(1);
    expect(err.field).toBe('backend');
    expect(err.value).toBe('webgl2');
    expect(err.message).toMatch(/lost before the start/);
    expect(err.message).not.toMatch(/EXT_color_buffer_float/);
  });
});
