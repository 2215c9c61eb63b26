/**
 * Which neighbour search and sort the frame loop's steps run (issue 21: no frozen frames).
 * The compute pipelines are made on first use (pipelines 'on-use', shaders.ts): a step with a
 * search or sort no step ran before (bitonic, brute force) would create its pipelines on the spot,
 * and a compile stalls a software GPU's frames for seconds (SwiftShader here: a storm of random
 * setParams froze the page). So live steps keep the last search and sort whose pipelines exist,
 * with every other parameter the newest (the same model and the same neighbours; only the order of
 * the sums differs), while the new ones compile in the background through the device's variant
 * cache (steer.ts): one compile at a time with the steer variants, and only once the parameters
 * stayed unchanged COMPILE_QUIET_MS. Explicit steps and the test hooks run the newest at once.
 */
import type { FlockParams } from '../core/params';
import type { ProgramName } from './programs';
import { compileInBackground, compiled, type ComputeProgram } from './shaders';
import { steerName, type DeviceVariants } from './steer';

/** The compute programs one step with `params` runs (its neighbour search and sort). */
export function stepPrograms(params: FlockParams): ProgramName[] {
  if (params.neighborSearch !== 'grid') return ['copyRecords', 'steerBrute'];
  if (params.sort === 'bitonic') {
    return [
      'makeKeys',
      'localSort',
      'localDisperseAll',
      'globalFlip',
      'globalDisperse',
      'cellTable',
      'reorder',
      'steerGrid',
    ];
  }
  return ['clearCounts', 'countCells', 'scanBlocks', 'addBlockSums', 'scatter', 'steerGrid'];
}

/** Each program set's id in the device's variant keys (simulations of other workgroup sizes). */
const ids = new WeakMap<object, number>();
let nextId = 0;

export class StepPlan {
  private readonly id: number;
  private disposed = false;
  /** The last substitution live() made, given again while its inputs stay (no new layout). */
  private memo: { p: FlockParams; running: string; out: FlockParams } | null = null;

  constructor(
    private readonly programs: Readonly<Record<ProgramName, ComputeProgram>>,
    private readonly variants: DeviceVariants,
  ) {
    let id = ids.get(programs);
    if (id === undefined) ids.set(programs, (id = nextId++));
    this.id = id;
  }

  /** Whether a step with `p` runs without creating a pipeline. */
  ready(p: FlockParams): boolean {
    return compiled(this.programs, stepPrograms(p));
  }

  /**
   * The parameters a live step runs for the newest `p` while `running` is laid out: `p` when its
   * pipelines exist (or those of `running` do not either: nothing to keep), else `p` with the
   * search and sort of `running`.
   */
  live(p: FlockParams, running: FlockParams): FlockParams {
    if (this.ready(p) || !this.ready(running)) return p;
    // A compile that failed is not waited for: the step creates the pipeline and reports why.
    if (this.variants.cache.failure(this.key(p)) !== undefined) return p;
    if (p.neighborSearch === running.neighborSearch && p.sort === running.sort) return p;
    const plan = `${running.neighborSearch}|${running.sort}`;
    if (this.memo?.p !== p || this.memo.running !== plan) {
      const out = { ...p, neighborSearch: running.neighborSearch, sort: running.sort };
      this.memo = { p, running: plan, out };
    }
    return this.memo.out;
  }

  /**
   * `p` is the new parameters: asks for the pipelines of its search and sort when they do not
   * exist (compiled once the device's compiler is free and the parameters stayed unchanged).
   */
  request(p: FlockParams): void {
    if (this.disposed) return;
    const cache = this.variants.cache;
    if (this.ready(p)) {
      cache.withdraw(this);
      return;
    }
    const names = stepPrograms(p);
    const key = this.key(p);
    const programs = this.programs;
    // The cache holds the plan's steer program as its value: what the sort and search feed.
    const job = () => compileInBackground(programs, names).then(() => programs[steerName(p)]);
    this.variants.jobs.set(key, job);
    cache.request(this, key);
  }

  private key(p: FlockParams): string {
    return `plan|${this.id}|${stepPrograms(p).join(',')}`;
  }

  /** Resolves once the newest parameters' pipelines exist (or failed to compile). */
  settled(): Promise<void> {
    return this.variants.cache.settled(this);
  }

  dispose(): void {
    this.disposed = true;
    this.variants.cache.withdraw(this);
  }
}
