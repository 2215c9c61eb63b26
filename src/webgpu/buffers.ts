/**
 * The GPU buffers of one WebGPU simulation (simulation.ts) and their sizes for (count, grid,
 * sort): the state, the steer pass's input, |N_i|, the cell table and the scan levels above it,
 * the counting sort's (key, rank) pairs or the bitonic sort's padded key array, and the fixed
 * uniform buffers. Owns every buffer it makes (`dispose()`); the pass modules only read them.
 */
import { FlockError } from '../core/errors';
import type { Grid } from '../core/grid';
import { nextPow2 } from '../core/numbers';
import { MAX_COUNT, type FlockParams } from '../core/params';
import { BufferUsage } from './constants';
import { SIM_UNIFORMS, SORT_STAGE_UNIFORMS } from './uniforms';

/** Bytes of one boid's state (position + velocity vec4f, in two blocks). */
export const BOID_BYTES = 32;
/** Elements per scan block per lane (ITEMS in scan.wgsl). */
export const SCAN_ITEMS = 4;
/** Stride of the per-stage bitonic uniforms (dynamic offsets must be 256-byte aligned at most). */
export const STAGE_STRIDE = 256;

/** min(maxStorageBufferBindingSize, maxBufferSize) of a device, and `cap` when given. */
export function bufferLimit(limits: GPUSupportedLimits, cap = Infinity): number {
  return Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize, cap);
}

/** Largest count whose boid records fit one storage binding of this device (and `cap` bytes). */
export function maxCountFor(limits: GPUSupportedLimits, cap = Infinity): number {
  return Math.max(1, Math.min(MAX_COUNT, Math.floor(bufferLimit(limits, cap) / BOID_BYTES)));
}

export const align = (x: number, a: number): number => Math.ceil(x / a) * a;

/** One level of the counting sort's prefix scan. */
export interface ScanLevel {
  /** Elements at this level. */
  n: number;
  /** Byte offset in the partials buffer (level 0 lives in cellStart). */
  offset: number;
}

/** A byte range of a buffer, as a binding takes it. */
export interface BufferRange {
  buffer: GPUBuffer;
  offset: number;
  size: number;
}

/** The buffers of one simulation; the count-dependent ones exist after the first `ensureLayout`. */
export class SimBuffers {
  /** Bytes one buffer may hold (bufferLimit). */
  readonly limit: number;
  readonly maxCount: number;
  /** SimParams uniform (SIM_UNIFORMS). */
  readonly uniforms: GPUBuffer;
  /** One SortStage per power of two: the entry for height 2^k at k * STAGE_STRIDE. */
  readonly stages: GPUBuffer;
  /** The top scan level has no level above: its block total goes nowhere (arrayLength check). */
  readonly dummy: GPUBuffer;
  state: GPUBuffer | null = null;
  nbr: GPUBuffer | null = null;
  sorted: GPUBuffer | null = null;
  cellStart: GPUBuffer | null = null;
  partials: GPUBuffer | null = null;
  keyRank: GPUBuffer | null = null;
  pairs: GPUBuffer | null = null;
  scanLevels: ScanLevel[] = [];
  /** Boids the count-dependent buffers hold. */
  count = 0;
  /** Padded length of the bitonic key array (0 unless sort = 'bitonic'). */
  sortSize = 0;
  /** grid.cellCount + 1: entries of cellStart. */
  cells = 0;
  private layoutKey = '';
  private readonly owned = new Set<GPUBuffer>();

  constructor(
    readonly device: GPUDevice,
    private readonly label: string,
    maxBufferBytes?: number,
  ) {
    this.limit = bufferLimit(device.limits, maxBufferBytes);
    this.maxCount = maxCountFor(device.limits, maxBufferBytes);
    this.uniforms = this.buffer(
      'uniforms',
      SIM_UNIFORMS.size,
      BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    );
    this.stages = this.buffer(
      'sortStages',
      32 * STAGE_STRIDE,
      BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    );
    const stages = new ArrayBuffer(32 * STAGE_STRIDE);
    for (let k = 0; k < 32; k++)
      SORT_STAGE_UNIFORMS.pack({ height: (2 ** k) >>> 0 }, stages, k * STAGE_STRIDE);
    device.queue.writeBuffer(this.stages, 0, stages);
    this.dummy = this.buffer('scanTop', 16, BufferUsage.STORAGE);
  }

  /** A buffer of at least `size` bytes (16-byte multiple), owned until drop() or dispose(). */
  buffer(name: string, size: number, usage: number): GPUBuffer {
    const b = this.device.createBuffer({
      label: `${this.label}.${name}`,
      size: align(Math.max(size, 16), 16),
      usage,
    });
    this.owned.add(b);
    return b;
  }

  /** Destroys `b` (when given); returns null for `field = drop(field) ?? ...`. */
  drop(b: GPUBuffer | null): null {
    if (b) {
      this.owned.delete(b);
      b.destroy();
    }
    return null;
  }

  private checkFits(what: string, bytes: number, count: number): void {
    if (bytes <= this.limit) return;
    throw new FlockError(
      'count',
      count,
      `an integer from 1 to ${this.maxCount} on this device`,
      `${what} needs ${bytes} bytes; the device's maxStorageBufferBindingSize/maxBufferSize is ${this.limit}`,
    );
  }

  /**
   * Buffers sized for (params.count, grid, params.sort); the state buffers are kept when the
   * count stays. `sortWorkgroup` and `scanWorkgroup`: the bitonic and scan workgroup sizes.
   * @returns true when anything was made again (bind groups over the old ones are stale).
   * @throws FlockError('count', ...) when a buffer would exceed the device's limits; nothing changes then.
   */
  ensureLayout(
    params: FlockParams,
    grid: Grid,
    sortWorkgroup: number,
    scanWorkgroup: number,
  ): boolean {
    const count = params.count;
    const bitonic = params.sort === 'bitonic';
    const key = `${count}|${grid.cellCount}|${params.sort}`;
    if (key === this.layoutKey) return false;
    if (count > this.maxCount) {
      throw new FlockError(
        'count',
        count,
        `an integer from 1 to ${this.maxCount} on this device`,
        `${count} boids need ${count * BOID_BYTES} bytes of boid records; the device's maxStorageBufferBindingSize/maxBufferSize is ${this.limit}`,
        this.maxCount,
      );
    }
    const cells = grid.cellCount + 1;
    this.checkFits('the cell table', cells * 4, count);
    const sortSize = bitonic ? Math.max(nextPow2(count), 2 * sortWorkgroup) : 0;
    if (bitonic) this.checkFits('the bitonic key array', sortSize * 8, count);

    if (count !== this.count || !this.state) {
      const stateUsage =
        BufferUsage.STORAGE | BufferUsage.VERTEX | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
      this.state = this.drop(this.state) ?? this.buffer('state', count * BOID_BYTES, stateUsage);
      this.nbr = this.drop(this.nbr) ?? this.buffer('nbr', count * 4, stateUsage);
      this.sorted =
        this.drop(this.sorted) ??
        this.buffer(
          'sorted',
          count * BOID_BYTES,
          BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
        );
    }
    this.cellStart =
      this.drop(this.cellStart) ??
      this.buffer('cellStart', cells * 4, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
    // Scan levels: level 0 is cellStart itself; each level above holds the block totals below.
    const block = scanWorkgroup * SCAN_ITEMS;
    const levels: ScanLevel[] = [{ n: cells, offset: 0 }];
    let partialBytes = 0;
    for (let n = cells; n > block;) {
      n = Math.ceil(n / block);
      levels.push({ n, offset: partialBytes });
      partialBytes = align(partialBytes + n * 4, 256);
    }
    this.scanLevels = levels;
    this.partials =
      this.drop(this.partials) ?? this.buffer('scanPartials', partialBytes, BufferUsage.STORAGE);
    this.keyRank = this.drop(this.keyRank);
    this.pairs = this.drop(this.pairs);
    if (bitonic) {
      this.pairs = this.buffer('pairs', sortSize * 8, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
    } else {
      this.keyRank = this.buffer('keyRank', count * 8, BufferUsage.STORAGE);
    }
    this.count = count;
    this.sortSize = sortSize;
    this.cells = cells;
    this.layoutKey = key;
    return true;
  }

  /** Scan level k as a binding: cellStart for level 0, its slice of the partials above. */
  levelRange(k: number): BufferRange {
    const l = this.scanLevels[k]!;
    return k === 0
      ? { buffer: this.cellStart!, offset: 0, size: l.n * 4 }
      : { buffer: this.partials!, offset: l.offset, size: l.n * 4 };
  }

  /** Destroys every buffer (idempotent). */
  dispose(): void {
    for (const b of this.owned) b.destroy();
    this.owned.clear();
    this.state = this.sorted = this.cellStart = this.partials = this.keyRank = this.pairs = null;
    this.nbr = null;
  }
}
