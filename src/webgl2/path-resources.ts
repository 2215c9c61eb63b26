/**
 * The objects a WebGL2 path (texture or transform feedback, webgl2-path-base.ts) owns per build,
 * and what its state read brings back: the types both paths and their base share.
 */
import type { SortTargets } from './bitonic-sort';
import type { CellBounds } from './cell-bounds';
import type { GpuTimer } from './gpu-timer';
import type { PassEnv } from './pass-env';
import type { AsyncReader, ReadRequest } from './readback';
import type { Target } from './textures';
import type { ProgramVariants } from './program-variants';

/** The count-dependent objects of a path. */
export interface StateObjects<P> {
  /** The current state and the scratch/next one; `cur` says which is current. */
  states: [P, P];
  /** The key pass's and the bitonic sort's targets (the sorted RG32UI keys among them). */
  sort: SortTargets;
}

/** The objects of one build that do not depend on the path. */
export interface SharedResources<E extends PassEnv> {
  env: E;
  reader: AsyncReader;
  timer: GpuTimer;
  table: Target;
  /** R32F exact cell thresholds of the grid (cell-bounds.ts). */
  bounds: CellBounds;
  /** The params' program variants, linked in the background or between frames. */
  variants: ProgramVariants;
}

/** Everything one build of a path owns. */
export type PathResources<E extends PassEnv, S> = SharedResources<E> & S;

/**
 * What a state read brings back from element 0 (at least `count`): 4 floats per element of
 * positions and velocities, and |N_i| every `nbrStride` floats of `nbr`.
 */
export interface StateRead {
  reqs: ReadRequest[];
  pos: Float32Array;
  vel: Float32Array;
  nbr: Float32Array;
  nbrStride: number;
}
