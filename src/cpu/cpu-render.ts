/**
 * Canvas 2D drawing for the CPU backend: the same picture the GPU backends draw (src/core/scene.ts),
 * made of flat arrowheads. Each boid is projected with the flock's view-projection (column-major,
 * GL clip space), oriented along its projected velocity, sized from the boid length at its depth
 * (at least ~2 px), coloured by the view's colour mode (src/core/render-math.ts boidColor) and
 * drawn back to front over the view's background; predators are larger red arrowheads, obstacles
 * shaded discs (flat circles in 2D) sorted in among the boids by depth; then the box outline and
 * the attractor's soft marker on top.
 */
import type { RenderView } from '../backend';
import type { FlockParams } from '../core/params';
import { SCENE_COLORS, boidColor, type ColorContext } from '../core/render-math';
import { defaultScene, type RenderScene } from '../core/scene';
import type { FlockState } from '../core/state';

/** The default background of every backend, rgb(5, 8, 15), as CSS. */
export const BACKGROUND_CSS = '#05080f';

/** Half-width of the boid mesh across its velocity, in boid lengths (BOID_MESH spans z = +-0.25). */
const HALF_WIDTH = 0.25;
/** Shortest drawn half-length, in boid lengths: a boid flying at the camera stays visible. */
const MIN_HALF_LENGTH = 0.12;
/** Smallest half-extent in device pixels, so a far boid is still about 2 px. */
const MIN_HALF_PX = 1;

const pack = (c: readonly number[]): number =>
  (Math.round(c[0]! * 255) << 16) | (Math.round(c[1]! * 255) << 8) | Math.round(c[2]! * 255);
const css = (c: readonly number[], a = 1): string =>
  `rgba(${Math.round(c[0]! * 255)}, ${Math.round(c[1]! * 255)}, ${Math.round(c[2]! * 255)}, ${a})`;

/** Reusable per-boid arrays, grown on demand (one allocation per count change, none per frame). */
export class Canvas2DScratch {
  capacity = 0;
  sx = new Float32Array(0);
  sy = new Float32Array(0);
  ux = new Float32Array(0);
  uy = new Float32Array(0);
  halfLength = new Float32Array(0);
  halfWidth = new Float32Array(0);
  depth = new Float32Array(0);
  rgb = new Uint32Array(0);
  order = new Uint32Array(0);
  private styles = new Map<number, string>();

  ensure(n: number): void {
    if (n <= this.capacity) return;
    this.capacity = n;
    this.sx = new Float32Array(n);
    this.sy = new Float32Array(n);
    this.ux = new Float32Array(n);
    this.uy = new Float32Array(n);
    this.halfLength = new Float32Array(n);
    this.halfWidth = new Float32Array(n);
    this.depth = new Float32Array(n);
    this.rgb = new Uint32Array(n);
    this.order = new Uint32Array(n);
  }

  /** A CSS colour for a packed 0xRRGGBB, cached (there are few distinct colours per frame). */
  style(rgb: number): string {
    let s = this.styles.get(rgb);
    if (s === undefined) {
      s = `#${rgb.toString(16).padStart(6, '0')}`;
      if (this.styles.size > 4096) this.styles.clear();
      this.styles.set(rgb, s);
    }
    return s;
  }
}

/** The projection of one frame: clip transform and pixel scale. */
class Projector {
  readonly m: ArrayLike<number>;
  /** Pixels per world unit at clip depth w = 1 (row 1 of viewProj is P11 times a unit row). */
  readonly pxPerUnit: number;
  constructor(
    view: RenderView,
    readonly W = view.width,
    readonly H = view.height,
  ) {
    this.m = view.viewProj;
    const m = this.m;
    this.pxPerUnit = Math.hypot(m[1]!, m[5]!, m[9]!) * 0.5 * H;
  }
  /** Clip w of a point (> 0 in front of the camera). */
  w(x: number, y: number, z: number): number {
    const m = this.m;
    return m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
  }
  /** Clip z of a point. */
  z(x: number, y: number, z: number): number {
    const m = this.m;
    return m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
  }
  /** Screen x, y in device pixels (y down) of a point with clip w = `w`. */
  sx(x: number, y: number, z: number, w: number): number {
    const m = this.m;
    return ((m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) / w) * 0.5 * this.W + 0.5 * this.W;
  }
  sy(x: number, y: number, z: number, w: number): number {
    const m = this.m;
    return 0.5 * this.H - ((m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) / w) * 0.5 * this.H;
  }
}

/**
 * Projects one arrowhead (a boid or a predator) into `scratch` at index `at`; false when it is
 * behind the camera, outside the depth range or off-screen (as the GPU clipper would drop it).
 */
function projectArrow(
  pr: Projector,
  scratch: Canvas2DScratch,
  at: number,
  px: number,
  py: number,
  pz: number,
  vx: number,
  vy: number,
  vz: number,
  L: number,
  rgb: number,
): boolean {
  const cw = pr.w(px, py, pz);
  if (!(cw > 1e-6)) return false;
  const cz = pr.z(px, py, pz);
  if (cz < -cw || cz > cw) return false;
  const x = pr.sx(px, py, pz, cw);
  const y = pr.sy(px, py, pz, cw);
  const lengthPx = (L * pr.pxPerUnit) / cw;
  if (x < -lengthPx || x > pr.W + lengthPx || y < -lengthPx || y > pr.H + lengthPx) return false;
  const speed = Math.sqrt(vx * vx + vy * vy + vz * vz);
  // The nose, half a boid length ahead along the velocity, gives the on-screen direction.
  let dx = 1,
    dy = 0,
    hl = 0;
  if (speed > 0) {
    const k = (0.5 * L) / speed;
    const qx = px + vx * k,
      qy = py + vy * k,
      qz = pz + vz * k;
    const qw = pr.w(qx, qy, qz);
    if (qw > 1e-6) {
      dx = pr.sx(qx, qy, qz, qw) - x;
      dy = pr.sy(qx, qy, qz, qw) - y;
      hl = Math.hypot(dx, dy);
      if (hl > 1e-6) {
        dx /= hl;
        dy /= hl;
      } else {
        dx = 1;
        dy = 0;
      }
    }
  }
  scratch.sx[at] = x;
  scratch.sy[at] = y;
  scratch.ux[at] = dx;
  scratch.uy[at] = dy;
  scratch.halfLength[at] = Math.max(hl, MIN_HALF_LENGTH * lengthPx, MIN_HALF_PX);
  scratch.halfWidth[at] = Math.max(HALF_WIDTH * lengthPx, MIN_HALF_PX);
  scratch.depth[at] = cw;
  scratch.rgb[at] = rgb;
  scratch.order[at] = at;
  return true;
}

/** An obstacle on screen: centre, radius in pixels, clip depth. */
interface ScreenSphere {
  x: number;
  y: number;
  r: number;
  depth: number;
}

function drawObstacle(ctx: CanvasRenderingContext2D, o: ScreenSphere, dims: number): void {
  const c = SCENE_COLORS.obstacle;
  ctx.beginPath();
  ctx.arc(o.x, o.y, o.r, 0, 2 * Math.PI);
  if (dims === 2) {
    ctx.fillStyle = css(c.map((x) => x * 0.8));
    ctx.fill();
    ctx.lineWidth = Math.max(1, 0.1 * o.r);
    ctx.strokeStyle = css(c.map((x) => Math.min(1, x * 1.35)));
    ctx.beginPath();
    ctx.arc(o.x, o.y, o.r * 0.95, 0, 2 * Math.PI);
    ctx.stroke();
    return;
  }
  // Lit from over the viewer's left shoulder, as the GPU impostors (glsl/sphere.frag.glsl).
  const g = ctx.createRadialGradient(o.x - 0.35 * o.r, o.y - 0.45 * o.r, 0.05 * o.r, o.x, o.y, o.r);
  g.addColorStop(0, css(c.map((x) => Math.min(1, x + 0.25))));
  g.addColorStop(0.55, css(c.map((x) => x * 0.75)));
  g.addColorStop(1, css(c.map((x) => x * 0.22)));
  ctx.fillStyle = g;
  ctx.fill();
}

/**
 * Draws `state` into `ctx` (whose canvas is view.width x view.height device pixels): the
 * picture of view.scene (defaultScene when the view carries none).
 * Boids behind the camera or outside the depth range are skipped, as the GPU clipper would.
 */
export function drawFlockCanvas2D(
  ctx: CanvasRenderingContext2D,
  state: FlockState,
  params: Pick<FlockParams, 'minSpeed' | 'maxSpeed'> & Partial<FlockParams>,
  view: RenderView,
  scratch: Canvas2DScratch,
): void {
  const W = view.width;
  const H = view.height;
  const scene: RenderScene = view.scene ?? defaultScene(params as FlockParams, view.boidSize);
  const dims = scene.dimensions;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = 'source-over';
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  const bg = scene.background;
  if (bg[3] > 0) {
    ctx.fillStyle = css(bg, bg[3]);
    ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  }

  const n = state.count;
  const predators = scene.predators.length / 8;
  scratch.ensure(n + predators);
  const { depth, rgb, order } = scratch;
  const pr = new Projector(view, W, H);
  const colors: ColorContext = {
    mode: scene.colorMode,
    dimensions: dims,
    minSpeed: params.minSpeed,
    maxSpeed: params.maxSpeed,
    table: scene.table,
    color: scene.color,
    densityMax: scene.densityMax,
  };
  const L = view.boidSize;
  const P = state.positions;
  const V = state.velocities;
  let drawn = 0;
  for (let i = 0; i < n; i++) {
    const vx = V[4 * i]!,
      vy = V[4 * i + 1]!,
      vz = V[4 * i + 2]!;
    const c = boidColor(colors, vx, vy, vz, P[4 * i + 3]!, V[4 * i + 3]!);
    const px = P[4 * i]!,
      py = P[4 * i + 1]!,
      pz = P[4 * i + 2]!;
    if (projectArrow(pr, scratch, drawn, px, py, pz, vx, vy, vz, L, pack(c))) drawn++;
  }
  const red = pack(SCENE_COLORS.predator);
  const S = scene.predators;
  for (let k = 0; k < predators; k++) {
    const o = 8 * k;
    if (
      projectArrow(
        pr,
        scratch,
        drawn,
        S[o]!,
        S[o + 1]!,
        S[o + 2]!,
        S[o + 4]!,
        S[o + 5]!,
        S[o + 6]!,
        scene.predatorSize,
        red,
      )
    )
      drawn++;
  }

  // Back to front: farthest (largest clip w) first, so nearer boids cover farther ones.
  const ord = order.subarray(0, drawn);
  ord.sort((a, b) => depth[b]! - depth[a]!);

  const spheres: ScreenSphere[] = [];
  for (let k = 0; k < scene.obstacles.length / 4; k++) {
    const [x, y, z, r] = scene.obstacles.subarray(4 * k, 4 * k + 4);
    const w = pr.w(x!, y!, z!);
    if (!(w > 1e-6)) continue;
    spheres.push({
      x: pr.sx(x!, y!, z!, w),
      y: pr.sy(x!, y!, z!, w),
      r: (r! * pr.pxPerUnit) / w,
      depth: w,
    });
  }
  spheres.sort((a, b) => b.depth - a.depth);
  let nextSphere = 0;

  const { sx, sy, ux, uy, halfLength, halfWidth } = scratch;
  // Consecutive boids of one colour share a path: far fewer fill calls, same overlap order.
  let current = -1;
  ctx.beginPath();
  for (let k = 0; k < drawn; k++) {
    const j = ord[k]!;
    // An obstacle farther away than this boid is drawn first (its own path).
    while (nextSphere < spheres.length && spheres[nextSphere]!.depth > depth[j]!) {
      if (current >= 0) ctx.fill();
      current = -1;
      drawObstacle(ctx, spheres[nextSphere++]!, dims);
      ctx.beginPath();
    }
    if (rgb[j] !== current) {
      if (current >= 0) ctx.fill();
      current = rgb[j]!;
      ctx.fillStyle = scratch.style(current);
      ctx.beginPath();
    }
    const x = sx[j]!,
      y = sy[j]!,
      ax = ux[j]!,
      ay = uy[j]!;
    const hl = halfLength[j]!,
      hw = halfWidth[j]!;
    // An arrowhead: nose, two back corners and a notch in the tail (as BOID_MESH seen from above).
    ctx.moveTo(x + ax * hl, y + ay * hl);
    ctx.lineTo(x - ax * hl - ay * hw, y - ay * hl + ax * hw);
    ctx.lineTo(x - ax * hl * 0.55, y - ay * hl * 0.55);
    ctx.lineTo(x - ax * hl + ay * hw, y - ay * hl - ax * hw);
    ctx.closePath();
  }
  if (current >= 0) ctx.fill();
  while (nextSphere < spheres.length) drawObstacle(ctx, spheres[nextSphere++]!, dims);

  if (scene.bounds) drawBounds(ctx, pr, scene.bounds.min, scene.bounds.max, dims);
  if (scene.attractor) {
    const [x, y, z, s] = scene.attractor;
    const w = pr.w(x, y, z);
    if (w > 1e-6) {
      const cx = pr.sx(x, y, z, w);
      const cy = pr.sy(x, y, z, w);
      const R = (scene.attractorRadius * pr.pxPerUnit) / w;
      const c = s > 0 ? SCENE_COLORS.attract : SCENE_COLORS.repel;
      // The GPU marker's profile (glsl/marker.frag.glsl): a bright core, a wide halo, a faint ring.
      const g = ctx.createRadialGradient(cx, cy, 0, cx, cy, R * 1.02);
      g.addColorStop(0, css(c, 1));
      g.addColorStop(0.05, css(c, 0.74));
      g.addColorStop(0.1, css(c, 0.33));
      g.addColorStop(0.2, css(c, 0.1));
      g.addColorStop(0.4, css(c, 0.01));
      g.addColorStop(0.95, css(c, 0));
      g.addColorStop(0.99, css(c, 0.3));
      g.addColorStop(1, css(c, 0));
      ctx.fillStyle = g;
      ctx.beginPath();
      ctx.arc(cx, cy, R * 1.02, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}

/** The box's 12 edges (4 at z = 0 in 2D); an edge with an end behind the camera is skipped. */
function drawBounds(
  ctx: CanvasRenderingContext2D,
  pr: Projector,
  min: readonly number[],
  max: readonly number[],
  dims: number,
): void {
  const corner = (bits: number): [number, number, number] => [
    bits & 1 ? max[0]! : min[0]!,
    bits & 2 ? max[1]! : min[1]!,
    dims === 2 ? 0 : bits & 4 ? max[2]! : min[2]!,
  ];
  ctx.strokeStyle = css(SCENE_COLORS.bounds);
  ctx.lineWidth = 1;
  ctx.beginPath();
  const axes = dims === 2 ? 2 : 3;
  for (let c = 0; c < 1 << axes; c++) {
    for (let a = 0; a < axes; a++) {
      if (c & (1 << a)) continue;
      const p = corner(c);
      const q = corner(c | (1 << a));
      const pw = pr.w(...p);
      const qw = pr.w(...q);
      if (!(pw > 1e-6 && qw > 1e-6)) continue;
      ctx.moveTo(pr.sx(...p, pw), pr.sy(...p, pw));
      ctx.lineTo(pr.sx(...q, qw), pr.sy(...q, qw));
    }
  }
  ctx.stroke();
}
