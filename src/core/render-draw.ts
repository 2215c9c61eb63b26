/**
 * What the renderers compute per boid and per frame on the CPU (the Canvas 2D renderer's colours,
 * the scene's fixed colours, the camera axes of a view-projection), apart from
 * src/core/render-math.ts, whose camera and colour-table code the flock runs at first load: only
 * the renderers import this, so a bundle loads it with them.
 */
import { COLOR_TABLE_SIZE, SPEED_RAMP, invert4 } from './render-math';

/** Colour of a boid moving at `speed`, RGB in [0, 1]. */
export function speedColor(
  speed: number,
  minSpeed: number,
  maxSpeed: number,
  ramp: readonly (readonly number[])[] = SPEED_RAMP,
): [number, number, number] {
  const span = maxSpeed - minSpeed;
  let t = span > 1e-6 ? (speed - minSpeed) / span : speed / Math.max(maxSpeed, 1e-6);
  t = Math.min(1, Math.max(0, t)) * 3;
  const i = Math.min(2, Math.floor(t));
  const f = t - i;
  const a = ramp[i]!;
  const b = ramp[i + 1]!;
  return [a[0]! + (b[0]! - a[0]!) * f, a[1]! + (b[1]! - a[1]!) * f, a[2]! + (b[2]! - a[2]!) * f];
}

/** Linear lookup at t in [0, 1]: sequential (entry 0 .. last) or cyclic (t = 1 wraps to entry 0). */
function lookup(table: Float32Array, t: number, cyclic: boolean): [number, number, number] {
  const n = COLOR_TABLE_SIZE;
  let i: number;
  let j: number;
  let f: number;
  if (cyclic) {
    const x = (t - Math.floor(t)) * n;
    i = Math.min(n - 1, Math.floor(x));
    f = x - i;
    j = (i + 1) % n;
  } else {
    const x = Math.min(1, Math.max(0, t)) * (n - 1);
    i = Math.min(n - 2, Math.floor(x));
    f = x - i;
    j = i + 1;
  }
  return [0, 1, 2].map((c) => table[4 * i + c]! + (table[4 * j + c]! - table[4 * i + c]!) * f) as [
    number,
    number,
    number,
  ];
}

/** What boidColor needs besides the boid. */
export interface ColorContext {
  mode: number;
  dimensions: number;
  minSpeed: number;
  maxSpeed: number;
  /** colorTable(view). */
  table: Float32Array;
  /** The uniform mode's colour, sRGB. */
  color: readonly [number, number, number];
  densityMax: number;
  /** The speed mode's 4 stops (the palette's); SPEED_RAMP when absent. */
  ramp?: readonly (readonly number[])[];
}

/**
 * A boid's colour, sRGB in [0, 1]: the CPU twin of src/webgl2/boid-color.glsl and render.wgsl's
 * boidColor. `speed`: speedColor; `uniform`: the colour; `species`: palette[s]; `density`:
 * the map at clamp(|N_i| / densityMax, 0, 1); `heading`: the cyclic map at the flight
 * direction's angle (atan2(vy, vx) in 2D, atan2(vz, vx) in 3D) / 2 pi + 1/2, and in 3D mixed
 * halfway toward white when climbing straight up (toward black when diving).
 */
export function boidColor(
  ctx: ColorContext,
  vx: number,
  vy: number,
  vz: number,
  species: number,
  neighbours: number,
): [number, number, number] {
  switch (ctx.mode) {
    case 1:
      return [ctx.color[0], ctx.color[1], ctx.color[2]];
    case 2: {
      const s = Math.min(COLOR_TABLE_SIZE - 1, Math.max(0, Math.round(species)));
      return [ctx.table[4 * s]!, ctx.table[4 * s + 1]!, ctx.table[4 * s + 2]!];
    }
    case 3:
      return lookup(ctx.table, neighbours / ctx.densityMax, false);
    case 4: {
      const speed = Math.hypot(vx, vy, vz);
      // As the shaders: no direction (atan2(0, 0)) points along +x.
      const hy = ctx.dimensions === 2 ? vy : vz;
      const angle = vx * vx + hy * hy > 0 ? Math.atan2(hy, vx) : 0;
      const c = lookup(ctx.table, angle / (2 * Math.PI) + 0.5, true);
      if (ctx.dimensions === 2 || !(speed > 0)) return c;
      const u = vy / speed;
      return c.map((x) => (u > 0 ? x + (1 - x) * 0.5 * u : x * (1 + 0.5 * u))) as [
        number,
        number,
        number,
      ];
    }
    default:
      return speedColor(Math.hypot(vx, vy, vz), ctx.minSpeed, ctx.maxSpeed, ctx.ramp);
  }
}

/** Colours of the scene's other objects, sRGB (every renderer uses these). */
export const SCENE_COLORS = {
  obstacle: [0.42, 0.48, 0.58] as const,
  predator: [0.95, 0.12, 0.1] as const,
  bounds: [0.42, 0.48, 0.58] as const,
  attract: [0.5, 1.0, 0.72] as const,
  repel: [1.0, 0.55, 0.25] as const,
};

/** Camera axes recovered from a perspective view-projection (column-major, GL clip space). */
export interface ViewBasis {
  /** Eye position, world units. */
  eye: [number, number, number];
  /** Unit vectors: screen right, screen up, and the viewing direction (into the screen). */
  right: [number, number, number];
  up: [number, number, number];
  forward: [number, number, number];
}

function unit(x: number, y: number, z: number): [number, number, number] {
  const l = Math.hypot(x, y, z) || 1;
  return [x / l, y / l, z / l];
}

/**
 * The camera of a perspective view-projection P*V: rows 0 and 1 of P*V are the view's right and up
 * rows scaled by the projection, row 3 is the viewing direction (P's last row is (0, 0, -1, 0));
 * the eye is the point P*V maps to clip (0, 0, c, 0), i.e. inverse(P*V) * (0, 0, 1, 0).
 */
export function viewBasis(viewProj: ArrayLike<number>): ViewBasis {
  const m = viewProj;
  const inv = invert4(viewProj);
  let eye: [number, number, number] = [0, 0, 0];
  if (inv && Math.abs(inv[11]!) > 1e-20)
    eye = [inv[8]! / inv[11]!, inv[9]! / inv[11]!, inv[10]! / inv[11]!];
  return {
    eye,
    right: unit(m[0]!, m[4]!, m[8]!),
    up: unit(m[1]!, m[5]!, m[9]!),
    forward: unit(m[3]!, m[7]!, m[11]!),
  };
}
