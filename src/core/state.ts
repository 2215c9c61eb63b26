/**
 * FlockState, the seeded PRNG and the initial state. Every backend starts from the same bits:
 * the initial state is generated here, on the CPU, and uploaded.
 */
import { FlockError, describeValue } from './errors';
import { MAX_COUNT, type FlockParams } from './params';
import { groupsState } from './start';

/**
 * The state of a flock in boid-id order.
 * positions: Float32Array(4*count), xyz in world units + w = species s_i (an integer in [0, species)).
 * velocities: Float32Array(4*count), xyz in world units per second + w = |N_i| of the last step
 * (0 before the first).
 */
export interface FlockState {
  /** Number of boids. */
  count: number;
  /** Float32Array(4*count): xyz in world units + w = species. */
  positions: Float32Array;
  /** Float32Array(4*count): xyz in world units per second + w = |N_i| of the last step. */
  velocities: Float32Array;
}

/**
 * A unit direction, uniform on the circle (2D: one draw, the angle) or the sphere (3D: two draws,
 * z then the angle; Archimedes' cylinder projection), from `rand` (e.g. mulberry32). The draw
 * order is part of every seed's initial state: the uniform start, the groups start's headings and
 * the boids a count change adds all take their directions here.
 */
export function randomDirection(rand: () => number, axes: 2 | 3): [number, number, number] {
  if (axes === 2) {
    const phi = 2 * Math.PI * rand();
    return [Math.cos(phi), Math.sin(phi), 0];
  }
  const z = 2 * rand() - 1;
  const phi = 2 * Math.PI * rand();
  const s = Math.sqrt(Math.max(0, 1 - z * z));
  return [s * Math.cos(phi), s * Math.sin(phi), z];
}

/**
 * mulberry32 (Tommy Ettinger, 2017): a 32-bit PRNG with a 2^32 period, enough for initial states.
 * Returns a function giving uniform numbers in [0, 1) with 24 random bits (exact in float32).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 8) >>> 0) / 16777216;
  };
}

/** The largest float32 strictly below x (x finite, positive or negative). */
function float32Below(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  if (x > 0) u[0] = u[0]! - 1;
  else if (x < 0) u[0] = u[0]! + 1;
  else u[0] = 0x80000001;
  return f[0]!;
}

/**
 * The seed's initial state, of the shape `params.start` asks for: `groups` (a formed flock:
 * src/core/start.ts gives the recipe) or `uniform` (uniformState). Both draw from
 * mulberry32(params.seed). A params object without `start` (older callers) is `uniform`.
 */
export function initialState(params: FlockParams): FlockState {
  if (params.start === 'groups') return groupsState(params, mulberry32(params.seed));
  return uniformState(params);
}

/**
 * The `uniform` initial state: positions uniform in the box [min, max) (float32, strictly below max),
 * velocities in a uniform random direction with speed uniform in [minSpeed, maxSpeed], boid i of
 * species i mod species (positions.w), velocities.w = 0.
 * Per boid the PRNG is drawn in this order: x, y, z (3D only), direction (1 draw in 2D, 2 in 3D), speed.
 * In 2D, z and v.z are 0.
 */
export function uniformState(params: FlockParams): FlockState {
  const { count, boundsMin: lo, boundsMax: hi, dimensions, minSpeed, maxSpeed } = params;
  const rand = mulberry32(params.seed);
  const positions = new Float32Array(4 * count);
  const velocities = new Float32Array(4 * count);
  const axes = dimensions === 2 ? 2 : 3;
  for (let i = 0; i < count; i++) {
    for (let a = 0; a < axes; a++) {
      let x = Math.fround(lo[a]! + rand() * (hi[a]! - lo[a]!));
      if (x >= hi[a]!) x = float32Below(hi[a]!);
      positions[4 * i + a] = x;
    }
    const [dx, dy, dz] = randomDirection(rand, axes);
    const speed = minSpeed + rand() * (maxSpeed - minSpeed);
    positions[4 * i + 3] = i % params.species;
    velocities[4 * i] = dx * speed;
    velocities[4 * i + 1] = dy * speed;
    velocities[4 * i + 2] = dz * speed;
  }
  return { count, positions, velocities };
}

/**
 * Re-assigns species in place: positions.w = id mod species (DESIGN.md section 1: changing
 * `species` keeps positions and velocities). Returns the same state.
 */
export function assignSpecies(state: FlockState, species: number): FlockState {
  for (let i = 0; i < state.count; i++) state.positions[4 * i + 3] = i % species;
  return state;
}

/** A deep copy. */
export function cloneState(s: FlockState): FlockState {
  return { count: s.count, positions: s.positions.slice(), velocities: s.velocities.slice() };
}

/**
 * Checks an explicit state: integer count in [1, maxCount], Float32Array(4*count) arrays (or plain
 * arrays of numbers, which are converted), every value finite. In 2D, z must be 0; positions.w
 * is the species, an integer in [0, species). velocities.w (|N_i|) is taken as given.
 * @throws FlockError naming `state.count`, `state.positions` or `state.velocities`, the value and the allowed form.
 */
export function validateState(
  state: unknown,
  dimensions: 2 | 3 = 3,
  maxCount = MAX_COUNT,
  species = 1,
): FlockState {
  if (state === null || typeof state !== 'object') {
    throw new FlockError('state', state, 'an object { count, positions, velocities }');
  }
  // Read each field once, inside a guard: a getter or a Proxy trap that throws is a FlockError.
  const read = (field: string, get: () => unknown): unknown => {
    try {
      return get();
    } catch (e) {
      throw new FlockError(field, undefined, 'a readable value', `reading it threw: ${String(e)}`);
    }
  };
  const s = state as Record<string, unknown>;
  const count = read('state.count', () => s.count);
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > maxCount) {
    throw new FlockError('state.count', count, `an integer from 1 to ${maxCount}`);
  }
  const arrays: Record<'positions' | 'velocities', Float32Array> = {
    positions: new Float32Array(0),
    velocities: new Float32Array(0),
  };
  for (const key of ['positions', 'velocities'] as const) {
    const field = `state.${key}`;
    const v = read(field, () => s[key]);
    const wanted = `a Float32Array(4*count) = Float32Array(${4 * count})`;
    if (!(v instanceof Float32Array) && !Array.isArray(v)) throw new FlockError(field, v, wanted);
    // Copied value by value (also from a Proxy or a subclass), then checked as stored: float32.
    const src = v as ArrayLike<unknown>;
    const length = read(field, () => src.length);
    if (length !== 4 * count) {
      throw new FlockError(field, v, `length 4*count = ${4 * count}, got ${describeValue(length)}`);
    }
    const arr = new Float32Array(4 * count);
    for (let i = 0; i < arr.length; i++) {
      const x = read(field, () => src[i]);
      if (typeof x !== 'number') throw new FlockError(`${field}[${i}]`, x, 'a finite number');
      arr[i] = x;
      if (!Number.isFinite(arr[i]!)) {
        throw new FlockError(
          `${field}[${i}]`,
          x,
          'a finite number in float32 (magnitude below 3.4e38)',
        );
      }
      if (dimensions === 2 && i % 4 === 2 && x !== 0) {
        throw new FlockError(`${field}[${i}]`, x, '0 (z must be 0 in 2D)');
      }
      if (key === 'positions' && i % 4 === 3 && !(Number.isInteger(x) && x >= 0 && x < species)) {
        throw new FlockError(
          `${field}[${i}]`,
          x,
          `a species: an integer from 0 to ${species - 1} (positions.w)`,
        );
      }
    }
    arrays[key] = arr;
  }
  return { count, positions: arrays.positions, velocities: arrays.velocities };
}
