/**
 * The `groups` start (DESIGN.md section 1, param `start`): a formed flock at t = 0, made from
 * the seed through the same PRNG as the uniform start (mulberry32, src/core/state.ts), on the CPU,
 * so every backend starts from the same bits.
 *
 * The recipe (a murmuration's look: many loose flocks of different sizes, drawn out along their
 * flight, spread over the box; not a few tight balls):
 * 1. A lattice tiles the box (per axis `n = floor(size / a)` cells of `size / n`, so it tiles a
 *    wrapped box exactly), spacing `a = max(rs', 0.75 r)` (rs' = min(separationRadius,
 *    perceptionRadius), r = perceptionRadius): a loose flock's spacing, a handful of neighbours
 *    each. When the groups would take more than FILL of the box, `a` shrinks toward rs'/2; a box
 *    that cannot hold `count` sites at rs'/2 gets the spacing that holds them (the one case where
 *    two boids may be closer than rs'/2).
 * 2. G = clamp(round(sqrt(count) / 7), 1, 16) groups (fewer when the groups fill most of the
 *    box), centres by Mitchell's best candidate (8 tries each: the one farthest from the centres
 *    so far; inset from walls, anywhere under `wrap`). Group g has a weight w_g in [0.5, 1.5]
 *    (its share of the boids) and is an ellipsoid (2D: an ellipse) drawn out STRETCH times along
 *    its heading, its cross-section narrowed so its volume stays a ball's of radius R_g; R_g
 *    holds about count * w_g / sum(w) sites. A site's score for a group is its ellipsoidal
 *    distance from the centre over R_g; a site belongs to the group where its score is least;
 *    the `count` sites with the least scores are taken, so groups keep their shapes and grow (and
 *    merge) when the box is crowded.
 *    2D (64 boids or more): seen from above, a filled lattice reads as a parade, so the lattice
 *    is up to FINE_2D = 1.5 times finer per axis (its cell still >= rs'/2) and each site is kept
 *    with the probability that gives the coarse lattice's density (a hash of the site and one
 *    draw), and a kept site's score is scaled by a hashed factor in [0.85, 1.15] so group edges
 *    are ragged; not where the box would run short of sites.
 * 3. Boid i sits at its site plus a jitter of at most 0.45 (cell - rs'/2) per axis, so no two
 *    boids are closer than rs'/2 (sites are one per cell); its heading is its group's heading
 *    turned by at most 0.35 rad (2D: an angle; 3D: a random offset of that size, normalised); its
 *    speed is the group's speed (in the middle of [minSpeed, maxSpeed]) within 5%, clamped into
 *    [minSpeed, maxSpeed]; species i mod species; velocities.w = 0.
 *
 * PRNG order: per group its centre (best of 8 candidates, `axes` draws each), heading (1 draw in
 * 2D, 2 in 3D), speed (1 draw) and weight (1 draw); the 2D thinning's salt (1 draw, only when
 * thinned); then per boid, in id order: jitter (`axes`
 * draws), heading offset (1 draw in 2D, 3 in 3D), speed (1 draw). Boid ids run group by group in
 * lattice order. Local order (src/core/order.ts) at t = 0 is about 0.96 (tests/unit/start.test.ts:
 * >= 0.9 for counts from 2 to 50,000, 2D and 3D, soft and wrap).
 */
import type { FlockParams } from './params';
import { randomDirection, type FlockState } from './state';

/** The most of the box the groups take before the lattice tightens. */
const FILL = 0.5;
/** Most groups. */
const MAX_GROUPS = 16;
/** Boids per group: G is about sqrt(count) / GROUP_DIVISOR. */
const GROUP_DIVISOR = 7;
/** A group's length along its heading over a ball's diameter of the same volume. */
const STRETCH = 1.8;
/** Heading spread within a group, radians (2D) or offset length (3D). */
const HEADING_SPREAD = 0.35;
/** Jitter of a boid around its site, as a fraction of (cell - rs'/2); under 0.5 keeps rs'/2. */
const JITTER = 0.45;
/**
 * 2D: the lattice is up to this much finer per axis and thinned at random to the same density
 * (seen from above, a lattice's rows read as a parade, not a flock).
 */
const FINE_2D = 1.5;
/** 2D, thinned: a site's score is scaled by up to 1 +- EDGE_2D/2, so a group's edge is ragged. */
const EDGE_2D = 0.3;
/** The fewest boids the 2D thinning is for (a handful must sit within a perception radius). */
const FINE_MIN_COUNT = 64;

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
  let spacing = Math.max(rsEff, 0.75 * r);
  const fitted = Math.pow((FILL * volume) / count, 1 / axes);
  if (fitted < spacing) spacing = Math.max(fitted, minDist);
  const cellsFor = (s: number) =>
    [0, 1, 2].map((a) => (a < axes ? Math.max(1, Math.floor(size[a]! / s)) : 1));
  let n = cellsFor(spacing);
  while (n[0]! * n[1]! * n[2]! < count) {
    spacing *= 0.97;
    n = cellsFor(spacing);
  }
  // 2D: a finer lattice (its cell still >= rs'/2), each site kept with probability `keep`, so
  // the kept sites have the coarse lattice's density; not where the box would run short of sites.
  let keep = 1;
  if (axes === 2 && count >= FINE_MIN_COUNT) {
    const fine = Math.min(FINE_2D, spacing / minDist);
    const nf = cellsFor(spacing / fine);
    const k = (n[0]! * n[1]!) / (nf[0]! * nf[1]!);
    if (k < 0.95 && nf[0]! * nf[1]! * k >= 1.5 * count) {
      n = nf;
      keep = k;
    }
  }
  const cell = [0, 1, 2].map((a) => (a < axes ? size[a]! / n[a]! : 0));
  let cellVolume = 1;
  for (let a = 0; a < axes; a++) cellVolume *= cell[a]!;
  const jitter = cell.map((c) => Math.max(0, JITTER * (c - minDist)));
  // The area or volume a boid takes: a cell's over the share of sites kept.
  const boidVolume = cellVolume / keep;

  // 2. The groups.
  const fill = Math.min(1, (count * boidVolume) / volume);
  let groups = Math.min(MAX_GROUPS, Math.max(1, Math.round(Math.sqrt(count) / GROUP_DIVISOR)));
  if (fill > 0.3) groups = Math.max(1, Math.round((groups * (1 - fill)) / 0.7));
  const ball = axes === 2 ? Math.PI : (4 * Math.PI) / 3;
  // The mean group's radius (a ball of count / groups sites); each group's from its weight.
  let radius = 1.1 * Math.pow(((count / groups) * boidVolume) / ball, 1 / axes);
  const offset = (x: number, c: number, a: number): number => {
    let d = x - c;
    if (wrap) d -= size[a]! * Math.round(d / size[a]!);
    return d;
  };
  const centres: number[][] = [];
  const headings: number[][] = [];
  const speeds: number[] = [];
  const weights: number[] = [];
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
    weights.push(0.5 + rand());
  }
  let meanWeight = 0;
  for (const w of weights) meanWeight += w / groups;
  // Group g's radius over the mean's: its weight's share of the volume.
  const scale = weights.map((w) => Math.pow(w / meanWeight, 1 / axes));
  // Which sites the thinning keeps: a hash of the site and one draw, below `keep` * 2^32.
  const salt = keep < 1 ? Math.floor(rand() * 2 ** 32) : 0;
  const keepBelow = keep * 2 ** 32;
  const hash = (site: number, k: number): number => {
    let h = Math.imul(site ^ salt ^ k, 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 15), 0x85ebca77);
    h ^= h >>> 13;
    return h >>> 0;
  };
  const kept = (site: number): boolean => hash(site, 0) < keepBelow;
  // Across the heading the ellipsoid is narrowed so its volume is the ball's.
  const narrow = Math.pow(STRETCH, 1 / (axes - 1));

  // Sites: each group's ellipsoid; a site kept by the group where its score is least. The best
  // score and group per lattice site live in typed arrays (a Map when the lattice is huge: a big
  // box for few boids).
  const total = n[0]! * n[1]! * n[2]!;
  const dense = total <= Math.max(1 << 22, 16 * count);
  const bestScore = dense ? new Float64Array(total).fill(Infinity) : null;
  const bestGroup = dense ? new Int32Array(total) : null;
  const bestMap = dense ? null : new Map<number, number>();
  const touched: number[] = [];
  let sites: number[] = [];
  let scores: number[] = [];
  let owners: number[] = [];
  for (;;) {
    for (const site of touched) bestScore?.fill(Infinity, site, site + 1);
    touched.length = 0;
    bestMap?.clear();
    for (let g = 0; g < groups; g++) {
      const c = centres[g]!;
      const h = headings[g]!;
      const rg = radius * scale[g]!;
      // Per axis: the window's lattice indices (-1: outside the box) and offsets from the centre.
      const index: Int32Array[] = [];
      const off: Float64Array[] = [];
      for (let a = 0; a < 3; a++) {
        if (a >= axes) {
          index.push(new Int32Array(1));
          off.push(new Float64Array(1));
          continue;
        }
        // The ellipsoid's half-extent along this axis.
        const reach = rg * Math.sqrt((STRETCH * h[a]!) ** 2 + (1 - h[a]! ** 2) / (narrow * narrow));
        const m = Math.min(n[a]!, 2 * Math.ceil(reach / cell[a]!) + 1);
        const first =
          !wrap && m === n[a] ? 0 : Math.floor((c[a]! - lo[a]!) / cell[a]! - m / 2 + 0.5);
        const ids = new Int32Array(m);
        const o = new Float64Array(m);
        for (let t = 0; t < m; t++) {
          let id = first + t;
          if (wrap) id = ((id % n[a]!) + n[a]!) % n[a]!;
          else if (id < 0 || id >= n[a]!) id = -1;
          ids[t] = id;
          o[t] = id < 0 ? 0 : offset(lo[a]! + (id + 0.5) * cell[a]!, c[a]!, a);
        }
        index.push(ids);
        off.push(o);
      }
      const [ix, iy, iz] = index as [Int32Array, Int32Array, Int32Array];
      const [ox, oy, oz] = off as [Float64Array, Float64Array, Float64Array];
      const [hx, hy, hz] = h as [number, number, number];
      const inv2 = 1 / (rg * rg);
      const n2 = narrow * narrow;
      for (let k = 0; k < iz.length; k++) {
        if (iz[k]! < 0) continue;
        for (let j = 0; j < iy.length; j++) {
          if (iy[j]! < 0) continue;
          const yz = oy[j]! * hy + oz[k]! * hz;
          const yz2 = oy[j]! ** 2 + oz[k]! ** 2;
          const row = n[0]! * (iy[j]! + n[1]! * iz[k]!);
          for (let i = 0; i < ix.length; i++) {
            if (ix[i]! < 0) continue;
            const along = ox[i]! * hx + yz;
            const across2 = Math.max(0, ox[i]! ** 2 + yz2 - along * along);
            const score2 = ((along / STRETCH) ** 2 + across2 * n2) * inv2;
            if (score2 > 1) continue;
            const site = ix[i]! + row;
            if (keep < 1 && !kept(site)) continue;
            if (bestScore) {
              const held = bestScore[site]!;
              if (held <= score2) continue;
              if (held === Infinity) touched.push(site);
              bestScore[site] = score2;
              bestGroup![site] = g;
            } else {
              const held = bestMap!.get(site);
              if (held !== undefined && Math.floor(held) / 2 ** 20 <= score2) continue;
              // Score (to 2^-20) and group packed in one number.
              bestMap!.set(site, Math.floor(score2 * 2 ** 20) * 2 ** 20 + g);
            }
          }
        }
      }
    }
    const found = bestScore ? touched.length : bestMap!.size;
    if (found >= count) {
      const list = bestScore ? touched : [...bestMap!.keys()];
      const groupOf = (site: number) =>
        bestScore ? bestGroup![site]! : bestMap!.get(site)! % 2 ** 20;
      const scoreOf = (site: number) =>
        bestScore ? bestScore[site]! : Math.floor(bestMap!.get(site)! / 2 ** 20) / 2 ** 20;
      // Group by group, each in lattice order (boid ids run that way).
      const byGroup: number[][] = Array.from({ length: groups }, () => []);
      for (const site of list) byGroup[groupOf(site)]!.push(site);
      sites = [];
      for (const b of byGroup) for (const site of Int32Array.from(b).sort()) sites.push(site);
      scores = sites.map((site) => Math.sqrt(scoreOf(site)));
      if (keep < 1) {
        scores = scores.map((sc, k) => {
          const u = hash(sites[k]!, 0x5bd1e995) / 2 ** 32;
          return Math.min(1, sc * (1 + EDGE_2D * (u - 0.5)));
        });
      }
      owners = sites.map(groupOf);
      break;
    }
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
