// Lifecycle of both WebGL2 backends (the feedback path with EXT_color_buffer_float hidden): dispose
// frees every GL object (gl-tracker: textures, framebuffers, and on the feedback path buffers and
// the feedback object), setState may change the count, setParams may change the grid, readState
// reads the state at the call, timings, sync, and a lost context is rebuilt on restore.
import { afterEach, describe, expect, test } from 'vitest';
import { NO_PASS_TIMES } from '../../src/backend';
import { FlockError } from '../../src/core/errors';
import { validateParams, type FlockParams } from '../../src/core/params';
import { referenceSteps } from '../../src/core/reference';
import { initialState, type FlockState } from '../../src/core/state';
import { liveGLObjectCount, liveGLObjects } from '../../src/webgl2/gl-tracker';
import type { WebGL2PathBackend } from '../../src/webgl2/webgl2-path-base';
import { addCanvas, sleep } from '../support/browser';
import { checkTolerance, parityParams } from '../support/compare';
import { WEBGL2_PATHS } from '../support/webgl2-paths';

function expectSameState(got: FlockState, want: FlockState): void {
  expect(got.count).toBe(want.count);
  const wantVel = want.velocities.slice();
  for (let i = 0; i < want.count; i++) wantVel[4 * i + 3] = 0;
  expect(got.positions).toEqual(want.positions);
  expect(got.velocities).toEqual(wantVel);
}

const view = {
  viewProj: new Float32Array([0.05, 0, 0, 0, 0, 0.05, 0, 0, 0, 0, -0.05, 0, 0, 0, 0, 1]),
  width: 32,
  height: 32,
  boidSize: 1,
};

describe.each(WEBGL2_PATHS)('$kind lifecycle', (path) => {
  let backend: WebGL2PathBackend | null = null;
  afterEach(() => {
    backend?.dispose();
    backend?.canvas.remove();
    backend = null;
  });

  async function make(
    params: FlockParams,
    extra: { onLost?: (r: string) => void; onRestored?: () => void } = {},
  ): Promise<WebGL2PathBackend> {
    backend = await path.create({
      canvas: addCanvas(32),
      params,
      state: initialState(params),
      ...extra,
    });
    return backend;
  }

  test('a canvas whose context is already lost: a FlockError on backend, not "count from 1 to 1"', async () => {
    // Outside tester: a context lost during createFlock's start read MAX_TEXTURE_SIZE as 0 and
    // rejected with count = 512 is not allowed; allowed: an integer from 1 to 1 (MAX_TEXTURE_SIZE = 0).
    const canvas = addCanvas(32);
    canvas.getContext('webgl2')!.getExtension('WEBGL_lose_context')!.loseContext();
    const params = parityParams({ count: 512 });
    const err: unknown = await path.create({ canvas, params, state: initialState(params) }).then(
      (b) => (b.dispose(), null),
      (e: unknown) => e,
    );
    canvas.remove();
    expect(err).toBeInstanceOf(FlockError);
    expect((err as FlockError).field).toBe('backend');
    expect((err as FlockError).message).toMatch(/lost before the start/);
  });

  test('start links its programs without holding the page: a timer runs between the links and their status; the first step matches the CPU reference', async () => {
    // Issue 31 item 1: the start linked its 8-10 programs one by one (a link, then its status,
    // which waits for the driver), 200-400 ms of one task on SwiftShader.
    const params = parityParams({ count: 1003 });
    await path
      .create({ canvas: addCanvas(32), params, state: initialState(params) })
      .then((b) => b.dispose()); // the capability probe, cached: what follows is the start alone
    const proto = WebGL2RenderingContext.prototype;
    const orig = { link: proto.linkProgram, param: proto.getProgramParameter };
    const log: string[] = [];
    proto.linkProgram = function (this: WebGL2RenderingContext, p: WebGLProgram) {
      log.push('link');
      orig.link.call(this, p);
    };
    proto.getProgramParameter = function (
      this: WebGL2RenderingContext,
      p: WebGLProgram,
      n: GLenum,
    ) {
      if (n === this.LINK_STATUS) log.push('status');
      return orig.param.call(this, p, n) as unknown;
    };
    const ticker = setInterval(() => log.push('tick'), 0);
    let b: WebGL2PathBackend;
    try {
      b = await make(params);
    } finally {
      clearInterval(ticker);
      proto.linkProgram = orig.link;
      proto.getProgramParameter = orig.param;
    }
    const links = log.filter((e) => e === 'link').length;
    const firstStatus = log.indexOf('status');
    expect(
      links,
      'the steer, key, sort, cell-table, reorder and boid programs',
    ).toBeGreaterThanOrEqual(6);
    expect(log.slice(0, firstStatus).filter((e) => e === 'link').length, 'all started first').toBe(
      links,
    );
    expect(log.slice(log.lastIndexOf('link', firstStatus), firstStatus)).toContain('tick');
    b.step(1);
    const r = checkTolerance(
      await b.readState(),
      referenceSteps(initialState(params), params, 1),
      params,
      1,
    );
    expect(r.ok, r.message).toBe(true);
  });

  test('dispose frees every GL object, is idempotent, and stops the backend', async () => {
    const params = parityParams({ count: 1200 });
    const b = await make(params);
    const gl = b.gl;
    expect(liveGLObjectCount(gl)).toBeGreaterThan(10);
    b.step(2);
    b.render(view);
    b.drawMode = 'vertex-id';
    b.render(view);
    await b.readState();
    await b.debugSortedKeys!();
    await b.debugNeighborCounts!();
    b.setParams({ ...params, neighborSearch: 'brute', perceptionRadius: 1.5 });
    await b.debugNeighborCounts!();
    b.setState(initialState({ ...params, count: 5000 }));
    b.step(1);
    const pending = b.readState();
    expect(liveGLObjects(gl).TransformFeedback).toBe(path.kind === 'webgl2-tf' ? 1 : 0);
    b.dispose();
    await expect(pending).rejects.toThrow(/disposed/);
    expect(liveGLObjects(gl)).toEqual(
      Object.fromEntries(Object.keys(liveGLObjects(gl)).map((k) => [k, 0])),
    );
    expect(liveGLObjectCount(gl)).toBe(0);
    b.dispose();
    b.step(1);
    b.render(view);
    await expect(b.readState()).rejects.toThrow();
    expect(liveGLObjectCount(gl)).toBe(0);
    expect(gl.getError()).toBe(gl.NO_ERROR);
  });

  test('setState changes the count; readState returns exactly what was set', async () => {
    const b = await make(parityParams({ count: 5000 }));
    for (const count of [3, 1, 4097, 5000, 777]) {
      const params = parityParams({ count, seed: count });
      b.setParams(params);
      const state = initialState(params);
      // One species: positions.w = 0 (species parity lives in the behaviour tests).
      for (let i = 0; i < count; i++) state.positions[4 * i + 3] = 0;
      b.setState(state);
      expectSameState(await b.readState(), state);
      b.step(1);
      const report = checkTolerance(
        await b.readState(),
        referenceSteps(state, params, 1),
        params,
        1,
      );
      expect(report.ok, `count ${count}: ${report.message}`).toBe(true);
    }
  });

  test('setParams with another grid, bounds and boundary keeps the state and follows the reference', async () => {
    const params = parityParams();
    const b = await make(params);
    const state = initialState(params);
    const changed = validateParams(
      { perceptionRadius: 1.3, boundary: 'wrap', boundsMin: [-10, -10, -10.5] },
      params,
    );
    b.setParams(changed);
    expectSameState(await b.readState(), state);
    b.step(1);
    const report = checkTolerance(
      await b.readState(),
      referenceSteps(state, changed, 1),
      changed,
      1,
    );
    expect(report.ok, report.message).toBe(true);
  });

  test('readState returns the state at the call, whatever is submitted after it', async () => {
    const params = parityParams({ count: 2000 });
    const b = await make(params);
    const start = initialState(params);
    b.step(1);
    const first = b.readState();
    b.step(4);
    const report = checkTolerance(await first, referenceSteps(start, params, 1), params, 1);
    expect(report.ok, report.message).toBe(true);
    const later = checkTolerance(await b.readState(), referenceSteps(start, params, 5), params, 5);
    expect(later.ok, later.message).toBe(true);
  });

  test('sync resolves after submitted work and rejects once disposed', async () => {
    const b = await make(parityParams({ count: 700 }));
    b.step(2);
    await b.sync!();
    const s = await b.readState();
    expect(s.count).toBe(700);
    const pending = b.sync!();
    b.dispose();
    await expect(pending).rejects.toThrow(/disposed/);
    await expect(b.sync!()).rejects.toThrow(/disposed/);
  });

  test('timings: none without a GPU timer extension, gpu with one', async () => {
    const b = await make(parityParams({ count: 500 }));
    b.step(3);
    b.render(view);
    await b.readState();
    const t = b.timings();
    if (b.gl.getExtension('EXT_disjoint_timer_query_webgl2')) {
      expect(t.timing).toBe('gpu');
    } else {
      expect(t).toEqual({ timing: 'none', passes: NO_PASS_TIMES });
    }
  });

  test('context loss: onLost, no-ops while lost, rebuilt on restore with the last state', async () => {
    const events: string[] = [];
    let restored!: () => void;
    let lost!: () => void;
    const lostP = new Promise<void>((r) => (lost = r));
    const restoredP = new Promise<void>((r) => (restored = r));
    const params = parityParams({ count: 3000 });
    const b = await make(params, {
      onLost: (reason) => {
        events.push(`lost: ${reason}`);
        lost();
      },
      onRestored: () => {
        events.push('restored');
        restored();
      },
    });
    const gl = b.gl;
    const ext = gl.getExtension('WEBGL_lose_context')!;
    b.step(2);
    await b.readState();
    ext.loseContext();
    await lostP;
    expect(events).toEqual(['lost: WebGL context lost']);
    b.step(1);
    b.render(view);
    await expect(b.readState()).rejects.toThrow(/lost/);
    // Chromium allows restoreContext() only once the lost event's dispatch has finished (it reads
    // defaultPrevented afterwards); onLost runs inside that dispatch, so wait for the next task.
    await sleep(0);
    ext.restoreContext();
    await restoredP;
    expect(events).toEqual(['lost: WebGL context lost', 'restored']);
    expect(liveGLObjectCount(gl)).toBeGreaterThan(10);
    // The last state given (the initial one) is back; the Flock re-sends its own snapshot.
    const start = initialState(params);
    expectSameState(await b.readState(), start);
    b.step(1);
    const report = checkTolerance(await b.readState(), referenceSteps(start, params, 1), params, 1);
    expect(report.ok, report.message).toBe(true);
    b.dispose();
    expect(liveGLObjectCount(gl)).toBe(0);
  });
});
