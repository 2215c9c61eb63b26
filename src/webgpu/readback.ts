/**
 * Reads from the simulation's buffers: one buffer copied to a mappable staging buffer after
 * optional extra passes, and the debug passes of the tests (|N_i| counted the way the step counts,
 * the sorted (cellKey, boid id) pairs). Each read owns its staging and output buffers until it
 * settles.
 */
import { BOID_BYTES, align } from './buffers';
import { run, type PassEnv } from './bind-groups';
import { BufferUsage, MapMode } from './constants';

/**
 * The first `bytes` bytes of `src` after the passes `encode` adds (submitted together).
 * @returns ArrayBuffer(bytes)
 */
export async function readBuffer(
  env: PassEnv,
  label: string,
  src: GPUBuffer,
  bytes: number,
  encode?: (e: GPUCommandEncoder) => void,
): Promise<ArrayBuffer> {
  const b = env.buffers;
  const staging = b.buffer('readback', bytes, BufferUsage.MAP_READ | BufferUsage.COPY_DST);
  try {
    const encoder = env.device.createCommandEncoder({ label: `${label}.read` });
    encode?.(encoder);
    encoder.copyBufferToBuffer(src, 0, staging, 0, align(bytes, 4));
    env.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(MapMode.READ, 0, align(bytes, 4));
    return staging.getMappedRange(0, align(bytes, 4)).slice(0, bytes);
  } finally {
    b.drop(staging);
  }
}

/**
 * |N_i| of each boid in the order of `sorted` (Uint32Array(count)), counted by steer.wgsl's count
 * entry over the grid (`grid`) or all boids, after `gather` filled `sorted` (and the cell table).
 */
export async function readNeighborCounts(
  env: PassEnv,
  label: string,
  grid: boolean,
  gather: (e: GPUCommandEncoder) => void,
): Promise<Uint32Array> {
  const b = env.buffers;
  const n = b.count;
  const out = b.buffer('debugCounts', n * 4, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
  try {
    const raw = await readBuffer(env, label, out, n * 4, (encoder) => {
      gather(encoder);
      const pass = encoder.beginComputePass({ label: 'debugCounts' });
      const bg = env.device.createBindGroup({
        layout: env.programs[grid ? 'countGrid' : 'countBrute'].layouts[0]!,
        entries: [
          { binding: 0, resource: { buffer: b.uniforms } },
          { binding: 1, resource: { buffer: b.sorted! } },
          ...(grid ? [{ binding: 2, resource: { buffer: b.cellStart! } }] : []),
          { binding: 4, resource: { buffer: out } },
        ],
      });
      run(env, pass, grid ? 'countGrid' : 'countBrute', n, env.wg.boid, bg);
      pass.end();
    });
    return new Uint32Array(raw);
  } finally {
    b.drop(out);
  }
}

/**
 * The (cellKey, boid id) of each element of `sorted` after `sort` ran (key, sort, reorder):
 * Uint32Array(count) each, in sorted order.
 */
export async function readSortedKeys(
  env: PassEnv,
  label: string,
  sort: (e: GPUCommandEncoder) => void,
): Promise<{ keys: Uint32Array; ids: Uint32Array }> {
  const b = env.buffers;
  const n = b.count;
  const out = b.buffer('debugKeys', n * 4, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
  try {
    const keys = new Uint32Array(
      await readBuffer(env, label, out, n * 4, (encoder) => {
        sort(encoder);
        const pass = encoder.beginComputePass({ label: 'debugKeys' });
        const bg = env.device.createBindGroup({
          layout: env.programs.sortedKeys.layouts[0]!,
          entries: [
            { binding: 0, resource: { buffer: b.uniforms } },
            { binding: 4, resource: { buffer: b.sorted! } },
            { binding: 5, resource: { buffer: out } },
          ],
        });
        run(env, pass, 'sortedKeys', n, env.wg.boid, bg);
        pass.end();
      }),
    );
    const rec = new Float32Array(await readBuffer(env, label, b.sorted!, n * BOID_BYTES));
    const ids = new Uint32Array(n);
    // vel.w of Boid records, or of the velocity block (sorted.wgsl).
    const blocks = env.programs.scatter.spec.constants?.SORTED_BLOCKS === 1;
    for (let i = 0; i < n; i++) ids[i] = rec[blocks ? 4 * n + 4 * i + 3 : 8 * i + 7]!;
    return { keys, ids };
  } finally {
    b.drop(out);
  }
}
