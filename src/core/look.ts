/**
 * The look of a boid (DESIGN section 7): its mesh (`shape`), the wing or tail animation (`flap`),
 * the shading (`lighting`), the depth cue (`fog`), the level of detail (`lodPixels`) (the
 * palettes: src/core/palette.ts). Every renderer draws from these: the WebGL2 vertex shader
 * (src/webgl2/look.glsl), the WebGPU one (src/webgpu/render.wgsl, `boidLook`) and the Canvas 2D
 * renderer (src/cpu/cpu-render.ts), which calls the functions below; so the three are one
 * picture, and tests check the shaders against these functions.
 *
 * The animation has no state. A wing's angle is a function of the boid's id, the simulated time t
 * and its velocity, evaluated per vertex:
 *
 *     h1, h2   = two 16-bit halves of lowbias32(id) / 65536   (per-boid phase offsets)
 *     effort w = clamp(2.5 * climb + slow, 0, 1)
 *                climb = max(0, v.y / |v|) (3D only), slow = (maxSpeed - |v|) / (maxSpeed - minSpeed)
 *     osc      = mix(sin(2 pi h1 + w1 t), sin(2 pi h1 + w2 t), w)      two fixed-rate oscillators
 *     glide g  = smoothstep(-0.2, 0.35, sin(2 pi h2 + wg t))            flap bursts and glides
 *     amp      = flap * mix(GLIDE + (1 - GLIDE) g, 1, w)
 *     wing     = DIHEDRAL min(flap, 1) + MAX_WING amp osc
 *
 * Why two oscillators and not one phase with a speed-dependent rate: a phase rate(v) * t jumps by
 * t * d(rate) whenever the rate changes (a pop that grows with t), and a phase that integrates the
 * rate would be state. Both oscillators here run at fixed rates (their phases w1 t, w2 t are
 * continuous in t), and the mix weight w is continuous in the velocity, which the integrator
 * changes continuously: so the angle never jumps, yet a climbing or slowed (speeding-up) boid
 * beats its wings at w2, faster, and a boid at cruise mostly glides with slow beats at w1. The
 * phases w t are taken modulo 2 pi on the CPU in float64 (lookClock), so float32 shaders lose no
 * precision after hours. Fish do the same with their tail (frequencies of FISH_RATES_HZ).
 */
import type { FlockParams } from './params';
import type { ViewBasis } from './render-draw';

/** The shapes' codes as the shaders number them (uniform `shape`). */
export const SHAPE_CODE = { arrow: 0, bird: 1, fish: 2, dot: 3 } as const;
export type Shape = keyof typeof SHAPE_CODE;

/** Parts of a mesh: how a vertex moves (float in the mesh's xyz + part vec4). */
export const PART = { rigid: 0, leftWing: 1, rightWing: 2, tail: 3 } as const;

/** Wing rest angle (radians, up) of a rigid or gliding bird: a slight V. */
export const DIHEDRAL = 0.14;
/** Wing stroke (radians) at flap 1 and full effort. */
export const MAX_WING = 0.85;
/** Share of the stroke left while gliding. */
export const GLIDE = 0.08;
/** Largest wing angle whatever flap is (radians): wings never cross through the body. */
export const WING_LIMIT = 1.3;
/** Tail swing (radians) at flap 1 and full effort; at cruise FISH_CRUISE of it. */
export const MAX_TAIL = 0.5;
export const FISH_CRUISE = 0.45;
/** Where the fish's tail turns (boid lengths along x). */
export const TAIL_PIVOT = -0.26;
/** Wingbeats per second at cruise and at effort, and the flap-glide cycle (Hz). */
export const BIRD_RATES_HZ = [2.6, 4.6, 0.21] as const;
/** Tail beats per second at cruise and at effort (the third is unused). */
export const FISH_RATES_HZ = [1.6, 3.2, 0.21] as const;
/** Dot radius (boid lengths) for `dot`; LOD dots have LOD_DOT of the projected length. */
export const DOT_RADIUS = 0.3;
export const LOD_DOT = 0.25;
/** Smallest dot radius, device pixels: a far dot stays visible. */
export const MIN_DOT_PX = 0.75;
/** Dots at least this wide (radius, px) are round (fragments outside the disc dropped). */
export const ROUND_DOT_PX = 1.5;

type Tri = [number[], number[], number[]];

/** Flat-shaded triangles -> Float32Array(8 * vertices): xyz + part, face normal xyz + 0. */
function mesh(tris: readonly { part: number; v: Tri }[]): Float32Array {
  const out = new Float32Array(8 * 3 * tris.length);
  tris.forEach(({ part, v }, t) => {
    const [a, b, c] = v;
    const e1 = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
    const e2 = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
    let n = [
      e1[1]! * e2[2]! - e1[2]! * e2[1]!,
      e1[2]! * e2[0]! - e1[0]! * e2[2]!,
      e1[0]! * e2[1]! - e1[1]! * e2[0]!,
    ];
    // Up (or out to the side for vertical faces): the shaders turn it toward the eye anyway.
    if (n[1]! < 0 || (Math.abs(n[1]!) < 1e-9 && n[2]! < 0)) n = n.map((x) => -x);
    const l = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    for (let k = 0; k < 3; k++) {
      const o = 8 * (3 * t + k);
      out.set([v[k]![0]!, v[k]![1]!, v[k]![2]!, part, n[0]! / l, n[1]! / l, n[2]! / l, 0], o);
    }
  });
  return out;
}

/**
 * The meshes, in boid lengths (nose at x = +0.5, y up, z to the left), Float32Array(8 * vertices)
 * as `mesh` writes them. `arrow`: today's arrowhead (4 triangles); `bird`: a ridged body and two
 * swept wings that turn about the body axis (4 triangles, as cheap as the arrow); `fish`: a body
 * of two crossed planes (plan and profile) and a crossed tail that turns about y at TAIL_PIVOT
 * (6 triangles); `dot`: a camera-facing quad (corners +-1, drawn round by the fragment stage).
 */
export const MESHES: Readonly<Record<Shape, Float32Array>> = {
  arrow: mesh([
    {
      part: 0,
      v: [
        [0.5, 0, 0],
        [-0.5, 0.15, 0],
        [-0.5, 0, 0.25],
      ],
    },
    {
      part: 0,
      v: [
        [0.5, 0, 0],
        [-0.5, 0, -0.25],
        [-0.5, 0.15, 0],
      ],
    },
    {
      part: 0,
      v: [
        [0.5, 0, 0],
        [-0.5, 0, 0.25],
        [-0.5, -0.1, 0],
      ],
    },
    {
      part: 0,
      v: [
        [0.5, 0, 0],
        [-0.5, -0.1, 0],
        [-0.5, 0, -0.25],
      ],
    },
  ]),
  bird: mesh([
    // Body: a ridged diamond, beak to tail.
    {
      part: 0,
      v: [
        [0.5, 0.02, 0],
        [0.04, -0.02, 0.085],
        [-0.5, 0.02, 0],
      ],
    },
    {
      part: 0,
      v: [
        [0.5, 0.02, 0],
        [-0.5, 0.02, 0],
        [0.04, -0.02, -0.085],
      ],
    },
    // Wings: root chord on the body axis (they turn about it), tips swept back. Long and narrow
    // (a starling's or a swift's, chord 0.22 at the root): the bird's plan area, body and both
    // wings, is 0.26 square lengths against the arrow's 0.25, so at the same size a bird fills
    // the same pixels as an arrow (a software rasteriser pays per pixel).
    {
      part: 1,
      v: [
        [0.16, 0, 0],
        [-0.06, 0, 0],
        [-0.26, 0, 0.8],
      ],
    },
    {
      part: 2,
      v: [
        [0.16, 0, 0],
        [-0.26, 0, -0.8],
        [-0.06, 0, 0],
      ],
    },
  ]),
  fish: mesh([
    // Plan (seen from above) and profile (seen from the side), nose to the tail's root.
    {
      part: 0,
      v: [
        [0.5, 0, 0],
        [0.1, 0, 0.12],
        [TAIL_PIVOT, 0, 0],
      ],
    },
    {
      part: 0,
      v: [
        [0.5, 0, 0],
        [TAIL_PIVOT, 0, 0],
        [0.1, 0, -0.12],
      ],
    },
    {
      part: 0,
      v: [
        [0.5, 0, 0],
        [0.06, 0.17, 0],
        [TAIL_PIVOT, 0, 0],
      ],
    },
    {
      part: 0,
      v: [
        [0.5, 0, 0],
        [TAIL_PIVOT, 0, 0],
        [0.1, -0.13, 0],
      ],
    },
    // The tail fin, crossed too, so it shows (and sways) from above and from the side.
    {
      part: 3,
      v: [
        [TAIL_PIVOT, 0, 0],
        [-0.5, 0, 0.15],
        [-0.5, 0, -0.15],
      ],
    },
    {
      part: 3,
      v: [
        [TAIL_PIVOT, 0, 0],
        [-0.5, 0.16, 0],
        [-0.5, -0.16, 0],
      ],
    },
  ]),
  dot: mesh([
    {
      part: 0,
      v: [
        [-1, -1, 0],
        [1, -1, 0],
        [1, 1, 0],
      ],
    },
    {
      part: 0,
      v: [
        [-1, -1, 0],
        [1, 1, 0],
        [-1, 1, 0],
      ],
    },
  ]),
};

/** Vertices per boid of each shape. */
export function meshVertices(shape: Shape): number {
  return MESHES[shape].length / 8;
}
/** The most vertices of any shape (the shaders' mesh arrays hold this many). */
export const MAX_MESH_VERTICES = 18;

/** lowbias32 (Chris Wellons' hash-prospector): a 32-bit integer hash, the same in GLSL and WGSL. */
export function hash32(x: number): number {
  x = x >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * The oscillators' phases at simulated time t (seconds): 2 pi f t modulo 2 pi for the shape's three
 * rates (cruise, effort, glide cycle), in float64 so float32 shaders keep precision for any t.
 */
export function lookClock(shape: Shape, t: number): [number, number, number] {
  const rates = shape === 'fish' ? FISH_RATES_HZ : BIRD_RATES_HZ;
  return rates.map((f) => {
    const cycles = f * t;
    return 2 * Math.PI * (cycles - Math.floor(cycles));
  }) as [number, number, number];
}

const smoothstep = (a: number, b: number, x: number): number => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/**
 * The animation angles of boid `id` (radians): `wing` (a bird's wings, up) and `tail` (a fish's
 * tail, to the left), as the module's docstring gives them.
 * @param v velocity, world units/s; @param clock lookClock(shape, t)
 */
export function animationAngles(
  id: number,
  vx: number,
  vy: number,
  vz: number,
  clock: readonly number[],
  flap: number,
  minSpeed: number,
  maxSpeed: number,
  dimensions: number,
): { wing: number; tail: number } {
  const h = hash32(id);
  const h1 = (h & 0xffff) / 65536;
  const h2 = (h >>> 16) / 65536;
  const speed = Math.hypot(vx, vy, vz);
  const climb = dimensions === 3 && speed > 0 ? Math.max(0, vy / speed) : 0;
  const slow = Math.min(1, Math.max(0, (maxSpeed - speed) / Math.max(maxSpeed - minSpeed, 1e-6)));
  const w = Math.min(1, Math.max(0, 2.5 * climb + slow));
  const a = 2 * Math.PI * h1;
  const osc = Math.sin(a + clock[0]!) * (1 - w) + Math.sin(a + clock[1]!) * w;
  const g = smoothstep(-0.2, 0.35, Math.sin(2 * Math.PI * h2 + clock[2]!));
  const amp = flap * ((GLIDE + (1 - GLIDE) * g) * (1 - w) + w);
  const wing = Math.min(
    WING_LIMIT,
    Math.max(-WING_LIMIT, DIHEDRAL * Math.min(flap, 1) + MAX_WING * amp * osc),
  );
  const tail = flap * MAX_TAIL * (FISH_CRUISE * (1 - w) + w) * osc;
  return { wing, tail };
}

/**
 * One mesh vertex after the animation, in boid lengths: position and normal (both 3).
 * Wings turn about the body axis (x), the left one by +wing, the right one by -wing; the tail turns
 * about the vertical through TAIL_PIVOT by `tail`.
 */
export function animateVertex(
  m: Float32Array,
  vertex: number,
  angles: { wing: number; tail: number },
): { p: [number, number, number]; n: [number, number, number] } {
  const o = 8 * vertex;
  const part = m[o + 3]!;
  let p: [number, number, number] = [m[o]!, m[o + 1]!, m[o + 2]!];
  let n: [number, number, number] = [m[o + 4]!, m[o + 5]!, m[o + 6]!];
  if (part === PART.leftWing || part === PART.rightWing) {
    const a = part === PART.leftWing ? angles.wing : -angles.wing;
    const c = Math.cos(a);
    const s = Math.sin(a);
    const rot = (q: [number, number, number]): [number, number, number] => [
      q[0],
      q[1] * c + q[2] * s,
      q[2] * c - q[1] * s,
    ];
    p = rot(p);
    n = rot(n);
  } else if (part === PART.tail) {
    const c = Math.cos(angles.tail);
    const s = Math.sin(angles.tail);
    p = [TAIL_PIVOT + (p[0] - TAIL_PIVOT) * c - p[2] * s, p[1], (p[0] - TAIL_PIVOT) * s + p[2] * c];
    n = [n[0] * c - n[2] * s, n[1], n[0] * s + n[2] * c];
  }
  return { p, n };
}

/** What the shading of a vertex needs, per frame (lookFrame). */
export interface LookFrame {
  /** Unit world direction toward the key light. */
  lightDir: [number, number, number];
  /** Unit world direction of the sky (the hemispheric ambient's up). */
  skyDir: [number, number, number];
  /** Key light, sky and ground colours (sRGB factors). */
  lightColor: [number, number, number];
  skyColor: [number, number, number];
  groundColor: [number, number, number];
  /** Fog: view distance where it starts, and 1 / the distance over which it reaches `fog` (0: none). */
  fogNear: number;
  fogInvSpan: number;
  /** Device pixels per world unit at clip w = 1 (the projected length of a boid is size * this / w). */
  pxPerUnit: number;
  /** lookClock of the shape at the frame's simulated time. */
  clock: [number, number, number];
}

/**
 * The per-frame values of the look: light directions (3D: the key light high over the viewer's
 * left shoulder in world space, sky +y; 2D: the camera looks down z, so the sky is +z and the key
 * light leans from the top left), colours from the palette's light (sky: a pale tint of it, ground:
 * a dim warm-grey; the key light itself), and fog over the box's depth seen from the eye (none in
 * 2D: the plane has no depth).
 */
export function lookFrame(
  params: Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>,
  shape: Shape,
  light: readonly number[],
  basis: ViewBasis,
  viewProj: ArrayLike<number>,
  height: number,
  time: number,
): LookFrame {
  const dims = params.dimensions === 2 ? 2 : 3;
  const unit = (x: number, y: number, z: number): [number, number, number] => {
    const l = Math.hypot(x, y, z) || 1;
    return [x / l, y / l, z / l];
  };
  const lightDir = dims === 2 ? unit(-0.35, 0.45, 1) : unit(-0.4, 1, 0.35);
  const skyDir: [number, number, number] = dims === 2 ? [0, 0, 1] : [0, 1, 0];
  const l = [light[0]!, light[1]!, light[2]!] as [number, number, number];
  const skyColor = l.map((c) => 0.55 + 0.45 * c) as [number, number, number];
  const groundColor: [number, number, number] = [0.36, 0.34, 0.33];
  let fogNear = 0;
  let fogInvSpan = 0;
  if (dims === 3) {
    const c = [0, 1, 2].map((a) => 0.5 * (params.boundsMin[a]! + params.boundsMax[a]!));
    const r =
      0.5 *
      Math.hypot(
        params.boundsMax[0] - params.boundsMin[0],
        params.boundsMax[1] - params.boundsMin[1],
        params.boundsMax[2] - params.boundsMin[2],
      );
    const d =
      (c[0]! - basis.eye[0]) * basis.forward[0] +
      (c[1]! - basis.eye[1]) * basis.forward[1] +
      (c[2]! - basis.eye[2]) * basis.forward[2];
    fogNear = d - r;
    fogInvSpan = r > 0 ? 1 / (2 * r) : 0;
  }
  const m = viewProj;
  return {
    lightDir,
    skyDir,
    lightColor: l,
    skyColor,
    groundColor,
    fogNear,
    fogInvSpan,
    pxPerUnit: Math.hypot(m[1]!, m[5]!, m[9]!) * 0.5 * height,
    clock: lookClock(shape, time),
  };
}

/**
 * The lit colour of a face (sRGB in [0, 1]): `base` times a hemispheric ambient (ground to sky by
 * the normal's height) plus the key light's Lambert term, mixed with the flat colour by
 * `lighting`. `n` is the unit world normal already turned toward the eye.
 */
export function shade(
  base: readonly number[],
  n: readonly number[],
  lighting: number,
  f: Pick<LookFrame, 'lightDir' | 'skyDir' | 'lightColor' | 'skyColor' | 'groundColor'>,
): [number, number, number] {
  const up = 0.5 + 0.5 * (n[0]! * f.skyDir[0] + n[1]! * f.skyDir[1] + n[2]! * f.skyDir[2]);
  const lambert = Math.max(
    0,
    n[0]! * f.lightDir[0] + n[1]! * f.lightDir[1] + n[2]! * f.lightDir[2],
  );
  return [0, 1, 2].map((c) => {
    const hemi = f.groundColor[c]! + (f.skyColor[c]! - f.groundColor[c]!) * up;
    const lit = base[c]! * (0.6 * hemi + 0.65 * lambert * f.lightColor[c]!);
    return Math.min(1, base[c]! + (lit - base[c]!) * lighting);
  }) as [number, number, number];
}

/** Fog amount of a point at view distance `d` (along the camera's forward axis), 0..fog. */
export function fogAmount(
  d: number,
  fog: number,
  f: Pick<LookFrame, 'fogNear' | 'fogInvSpan'>,
): number {
  return fog * Math.min(1, Math.max(0, (d - f.fogNear) * f.fogInvSpan));
}
