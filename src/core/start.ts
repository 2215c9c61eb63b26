/**
 * The `groups` start (DESIGN.md section 1, param `start`): a formed flock at t = 0, made from
 * the seed through the same PRNG as the uniform start (mulberry32, src/core/state.ts), on the CPU,
 * so every backend starts from the same bits.
 *
 * The recipe:
 * 1. A lattice tiles the box (per axis `n = floor(size / a)` cells of `size / n`, so it tiles a
 *    wrapped box exactly), spacing `a = max(rs', 0.6 r)` (rs' = min(separationRadius,
 *    perceptionRadius), r = perceptionRadius): about a formed flock's spacing. When the groups
 *    would take more than FILL of the box, `a` shrinks toward rs'/2; a box that cannot hold
 *    `count` sites at rs'/2 gets the spacing that holds them (the one case where two boids may
 *    be closer than rs'/2).
 * 2. G = clamp(round(sqrt(count) / 12), 1, 8) groups (fewer when the groups fill most of the box),
 *    centres by Mitchell's best candidate (8 tries each: the one farthest from the centres so
 *    far; inset from walls, anywhere under `wrap`), each group a ball holding about count / G
 *    sites. A site belongs to the group whose centre is nearest relative to the radius; the
 *    `count` sites nearest their centres (relative distance) are taken, so groups are round
 *    and grow (and merge) when the box is crowded.
 * 3. Boid i sits at its site plus a jitter of at most 0.35 (cell - rs'/2) per axis, so no two
 *    boids are closer than rs'/2 (sites are one per cell); its heading is its group's heading
 *    turned by at most 0.35 rad (2D: an angle; 3D: a random offset of that size, normalised); its
 *    speed is the group's speed (in the middle of [minSpeed, maxSpeed]) within 5%, clamped into
 *    [minSpeed, maxSpeed]; species i mod species; velocities.w = 0.
 *
 * PRNG order: per group its centre (best of 8 candidates, `axes` draws each), heading (1 draw in
 * 2D, 2 in 3D) and speed (1 draw); then per boid, in id order: jitter (`axes` draws), heading
 * offset (1 draw in 2D, 3 in 3D), speed (1 draw). Boid ids run group by group in lattice order.
 * Local order (src/core/order.ts) at t = 0 is about 0.97 (tests/unit/start.test.ts: >= 0.9 for
 * counts from 2 to 50,000, 2D and 3D, soft and wrap).
 */
import type { FlockParams } from './params';
import { randomDirection, type FlockState } from './state';

/** The most of the box the groups take before the lattice tightens. */
const FILL = 0.35;
/** Most groups. */
const MAX_GROUPS = 8;
/** Heading spread within a group, radians (2D) or offset length (3D). */
const HEADING_SPREAD = 0.35;
/** Jitter of a boid around its site, as a fraction of (cell - rs'/2). */
const JITTER = 0.35;

/** The `groups` start of DESIGN.md section 1 (the recipe above), drawn from `rand`. */
export function groupsState(params: FlockParams, rand: () => number): FlockState {
  const { count, boundsMin: lo, boundsMax: hi, dimensions, minSpeed, maxSpeed } = params;
  const axes = dimensions === 2 ? 2 : 3;
  const wrap = params.boundary === 'wrap';
  const r = params.perceptionRadius;
  const rsEff = Math.min(params.separationRadius, r);
  const minDist = rsEff / 2;
  const size = [0, 1, 2].map((a) => (a < axes ? hi[a]! - lo[a]! : 1));
  let volume = 1;
  for (let a = 0; a < axes; a++) volume *= size[a]!;

  // 1. The lattice.
  let spacing = Math.max(rsEff, 0.6 * r);
  const fitted = Math.pow((FILL * volume) / count, 1 / axes);
  if (fitted < spacing) spacing = Math.max(fitted, minDist);
  const cellsFor = (s: number) =>
    [0, 1, 2].map((a) => (a < axes ? Math.max(1, Math.floor(size[a]! / s)) : 1));
  let n = cellsFor(spacing);
  while (n[0]! * n[1]! * n[2]! < count) {
    spacing *= 0.97;
    n = cellsFor(spacing);
  }
  const cell = [0, 1, 2].map((a) => (a < axes ? size[a]! / n[a]! : 0));
  let cellVolume = 1;
  for (let a = 0; a < axes; a++) cellVolume *= cell[a]!;
  const jitter = cell.map((c) => Math.max(0, JITTER * (c - minDist)));

  // 2. The groups.
  const fill = Math.min(1, (count * cellVolume) / volume);
  let groups = Math.min(MAX_GROUPS, Math.max(1, Math.round(Math.sqrt(count) / 12)));
  if (fill > 0.3) groups = Math.max(1, Math.round((groups * (1 - fill)) / 0.7));
  const ball = axes === 2 ? Math.PI : (4 * Math.PI) / 3;
  let radius = 1.1 * Math.pow(((count / groups) * cellVolume) / ball, 1 / axes);
  const offset = (x: number, c: number, a: number): number => {
    let d = x - c;
    if (wrap) d -= size[a]! * Math.round(d / size[a]!);
    return d;
  };
  const centres: number[][] = [];
  const headings: number[][] = [];
  const speeds: number[] = [];
  for (let g = 0; g < groups; g++) {
    let best: number[] = [];
    let bestD = -1;
    for (let t = 0; t < 8; t++) {
      const c = [0, 0, 0];
      for (let a = 0; a < axes; a++) {
        const inset = wrap ? 0 : Math.min(size[a]! / 2, 0.8 * radius);
        c[a] = lo[a]! + inset + rand() * (size[a]! - 2 * inset);
      }
      let d = Infinity;
      for (const o of centres) {
        let q = 0;
        for (let a = 0; a < axes; a++) q += offset(c[a]!, o[a]!, a) ** 2;
        d = Math.min(d, q);
      }
      if (d > bestD) {
        bestD = d;
        best = c;
      }
    }
    centres.push(best);
    headings.push(randomDirection(rand, axes));
    speeds.push(minSpeed + (maxSpeed - minSpeed) * (0.35 + 0.3 * rand()));
  }

  // Sites: each group's ball, a site kept by the group it is nearest to (relative distance).
  let sites: number[] = [];
  let scores: number[] = [];
  let owners: number[] = [];
  for (;;) {
    sites = [];
    scores = [];
    owners = [];
    const span = [0, 1, 2].map((a) => Math.min(n[a]!, 2 * Math.ceil(radius / (cell[a]! || 1)) + 1));
    for (let g = 0; g < groups; g++) {
      const c = centres[g]!;
      // Per axis: the window's lattice indices and every group's squared offset along it.
      const index: number[][] = [];
      const off2: Float64Array[] = [];
      for (let a = 0; a < 3; a++) {
        const m = span[a]!;
        const ids: number[] = [];
        const o = new Float64Array(m * groups);
        // The window of sites around the centre (the whole axis once it spans it).
        const first =
          a >= axes || (!wrap && m === n[a])
            ? 0
            : Math.floor((c[a]! - lo[a]!) / cell[a]! - m / 2 + 0.5);
        for (let t = 0; t < m; t++) {
          let id = first + t;
          if (a < axes && wrap) id = ((id % n[a]!) + n[a]!) % n[a]!;
          ids.push(id);
          if (a >= axes) continue;
          const x = lo[a]! + (id + 0.5) * cell[a]!;
          for (let h = 0; h < groups; h++) o[t * groups + h] = offset(x, centres[h]![a]!, a) ** 2;
        }
        index.push(ids);
        off2.push(o);
      }
      const [ix, iy, iz] = index as [number[], number[], number[]];
      const [ox, oy, oz] = off2 as [Float64Array, Float64Array, Float64Array];
      for (let k = 0; k < span[2]!; k++) {
        for (let j = 0; j < span[1]!; j++) {
          for (let i = 0; i < span[0]!; i++) {
            if (!wrap && (ix[i]! < 0 || ix[i]! >= n[0]! || iy[j]! < 0 || iy[j]! >= n[1]!)) continue;
            if (!wrap && (iz[k]! < 0 || iz[k]! >= n[2]!)) continue;
            const mine = ox[i * groups + g]! + oy[j * groups + g]! + oz[k * groups + g]!;
            if (mine > radius * radius) continue;
            let own = true;
            for (let h = 0; h < groups && own; h++) {
              if (h === g) continue;
              const q = ox[i * groups + h]! + oy[j * groups + h]! + oz[k * groups + h]!;
              if (q < mine || (q === mine && h < g)) own = false;
            }
            if (!own) continue;
            sites.push(ix[i]! + n[0]! * (iy[j]! + n[1]! * iz[k]!));
            scores.push(Math.sqrt(mine) / radius);
            owners.push(g);
          }
        }
      }
    }
    if (sites.length >= count) break;
    radius *= 1.25;
  }

  // The `count` sites nearest their centres: a threshold by bins, then the nearest in its bin.
  const chosen = pickSmallest(scores, count);

  // 3. The boids.
  const positions = new Float32Array(4 * count);
  const velocities = new Float32Array(4 * count);
  let i = 0;
  for (let s = 0; s < sites.length; s++) {
    if (!chosen[s]) continue;
    let rest = sites[s]!;
    const idx = [0, 0, 0];
    idx[0] = rest % n[0]!;
    rest = (rest - idx[0]) / n[0]!;
    idx[1] = rest % n[1]!;
    idx[2] = (rest - idx[1]) / n[1]!;
    for (let a = 0; a < axes; a++) {
      const base = lo[a]! + (idx[a]! + 0.5) * cell[a]!;
      let x = Math.fround(base + (2 * rand() - 1) * jitter[a]!);
      if (x >= hi[a]!) x = Math.fround(base);
      if (x < lo[a]!) x = Math.fround(base);
      positions[4 * i + a] = x;
    }
    const h = headings[owners[s]!]!;
    let dx: number, dy: number, dz: number;
    if (axes === 2) {
      const phi = Math.atan2(h[1]!, h[0]!) + (2 * rand() - 1) * HEADING_SPREAD;
      dx = Math.cos(phi);
      dy = Math.sin(phi);
      dz = 0;
    } else {
      // An offset of length at most HEADING_SPREAD (a cube's point, scaled into the ball).
      const o = [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1];
      const ol = Math.hypot(o[0]!, o[1]!, o[2]!);
      const k = ol > 1 ? HEADING_SPREAD / ol : HEADING_SPREAD;
      dx = h[0]! + k * o[0]!;
      dy = h[1]! + k * o[1]!;
      dz = h[2]! + k * o[2]!;
      const l = Math.hypot(dx, dy, dz);
      dx /= l;
      dy /= l;
      dz /= l;
    }
    const sg = speeds[owners[s]!]!;
    const speed = Math.min(maxSpeed, Math.max(minSpeed, sg * (1 + 0.05 * (2 * rand() - 1))));
    positions[4 * i + 3] = i % params.species;
    velocities[4 * i] = dx * speed;
    velocities[4 * i + 1] = dy * speed;
    velocities[4 * i + 2] = dz * speed;
    i++;
  }
  return { count, positions, velocities };
}

/**
 * Marks the `k` smallest of `scores` (values in [0, 1]; ties: the earlier index): bins give the
 * threshold in O(n), then only the threshold bin is sorted.
 */
export function pickSmallest(scores: readonly number[], k: number): Uint8Array {
  const n = scores.length;
  const chosen = new Uint8Array(n);
  const BINS = 4096;
  const binOf = (s: number) => Math.min(BINS - 1, Math.max(0, Math.floor(s * BINS)));
  const counts = new Uint32Array(BINS);
  for (let i = 0; i < n; i++) counts[binOf(scores[i]!)]!++;
  let below = 0;
  let edge = 0;
  while (edge < BINS && below + counts[edge]! < k) below += counts[edge++]!;
  const inEdge: number[] = [];
  for (let i = 0; i < n; i++) {
    const b = binOf(scores[i]!);
    if (b < edge) chosen[i] = 1;
    else if (b === edge) inEdge.push(i);
  }
  inEdge.sort((x, y) => scores[x]! - scores[y]! || x - y);
  for (let j = 0; j < k - below && j < inEdge.length; j++) chosen[inEdge[j]!] = 1;
  return chosen;
}
