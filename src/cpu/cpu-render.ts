/**
 * Canvas 2D drawing for the CPU backend: the same picture the GPU backends draw (src/core/scene.ts
 * and the look of src/core/look.ts). Each boid's mesh (the view's shape, animated by
 * animationAngles at the simulated time, as the GPU vertex shaders do) is oriented along its
 * velocity, its triangles projected with the flock's view-projection (column-major, GL clip
 * space), each face lit by `shade` and fogged by `fogAmount` (an alpha over what is below, as the
 * GPU's premultiplied blend), coloured by the view's colour mode (render-draw.ts boidColor); boids
 * shorter on screen than lodPixels, and the `dot` shape, are discs (squares under ROUND_DOT_PX).
 * Boids are drawn back to front over the view's background; predators are larger red boids,
 * obstacles shaded discs (flat circles in 2D) sorted in among the boids by depth; then the box
 * outline and the attractor's soft marker on top. With `trail` the boids go to a second canvas
 * that keeps them between frames, faded by `destination-out` each frame, drawn over the
 * background. Canvas 2D always antialiases its paths (`antialias` has no effect here).
 */
import type { RenderView } from '../backend';
import type { FlockParams } from '../core/params';
import {
  DOT_RADIUS,
  LOD_DOT,
  MESHES,
  MIN_DOT_PX,
  ROUND_DOT_PX,
  animateVertex,
  animationAngles,
  fogAmount,
  lookFrame,
  shade,
  type LookFrame,
} from '../core/look';
import { SCENE_COLORS, boidColor, viewBasis, type ColorContext } from '../core/render-draw';
import { defaultScene } from '../core/default-scene';
import type { RenderScene } from '../core/scene';
import type { FlockState } from '../core/state';

/** The default background of every backend, rgb(5, 8, 15), as CSS. */
export const BACKGROUND_CSS = '#05080f';

const css = (c: readonly number[], a = 1): string =>
  `rgba(${Math.round(c[0]! * 255)}, ${Math.round(c[1]! * 255)}, ${Math.round(c[2]! * 255)}, ${a})`;

/** Reusable per-boid arrays, grown on demand (one allocation per count change, none per frame). */
export class Canvas2DScratch {
  capacity = 0;
  depth = new Float32Array(0);
  order = new Uint32Array(0);
  private styles = new Map<number, string>();
  /** The canvas that keeps the boids between frames for `trail`. */
  trail: HTMLCanvasElement | OffscreenCanvas | null = null;

  ensure(n: number): void {
    if (n <= this.capacity) return;
    this.capacity = n;
    this.depth = new Float32Array(n);
    this.order = new Uint32Array(n);
  }

  /** A CSS colour for sRGB `c` at alpha `a`, cached by its 8-bit channels. */
  style(c: readonly number[], a: number): string {
    const q = (x: number) => Math.max(0, Math.min(255, Math.round(x * 255)));
    const key = ((q(c[0]!) << 16) | (q(c[1]!) << 8) | q(c[2]!)) * 256 + q(a);
    let s = this.styles.get(key);
    if (s === undefined) {
      s = `rgba(${q(c[0]!)}, ${q(c[1]!)}, ${q(c[2]!)}, ${(q(a) / 255).toFixed(3)})`;
      if (this.styles.size > 8192) this.styles.clear();
      this.styles.set(key, s);
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
    this.fwd = viewBasis(m).forward;
  }
  /** The viewing direction (unit, world). */
  readonly fwd: [number, number, number];
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
  // Lit from over the viewer's left shoulder, as the GPU impostors (src/webgl2/sphere.frag.glsl).
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
  time = 0,
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
  const { depth, order } = scratch;
  const pr = new Projector(view, W, H);
  const colors: ColorContext = {
    mode: scene.colorMode,
    dimensions: dims,
    minSpeed: params.minSpeed,
    maxSpeed: params.maxSpeed,
    table: scene.table,
    color: scene.color,
    densityMax: scene.densityMax,
    ramp: scene.ramp,
  };
  const basis = viewBasis(view.viewProj);
  const box = {
    boundsMin: params.boundsMin ?? [0, 0, 0],
    boundsMax: params.boundsMax ?? [1, 1, 1],
    dimensions: dims,
  } as Pick<FlockParams, 'boundsMin' | 'boundsMax' | 'dimensions'>;
  const look = lookFrame(box, scene.shape, scene.light, basis, view.viewProj, H, time);
  const P = state.positions;
  const V = state.velocities;
  // Boids in front of the camera and on screen (as the GPU clipper keeps them), by clip w;
  // entries >= n are predators.
  let drawn = 0;
  const keep = (x: number, y: number, z: number, L: number, at: number): void => {
    const cw = pr.w(x, y, z);
    if (!(cw > 1e-6)) return;
    const cz = pr.z(x, y, z);
    if (cz < -cw || cz > cw) return;
    const sx = pr.sx(x, y, z, cw);
    const sy = pr.sy(x, y, z, cw);
    const reach = (L * pr.pxPerUnit) / cw;
    if (sx < -reach || sx > W + reach || sy < -reach || sy > H + reach) return;
    depth[at] = cw;
    order[drawn++] = at;
  };
  for (let i = 0; i < n; i++) keep(P[4 * i]!, P[4 * i + 1]!, P[4 * i + 2]!, view.boidSize, i);
  const S = scene.predators;
  for (let k = 0; k < predators; k++)
    keep(S[8 * k]!, S[8 * k + 1]!, S[8 * k + 2]!, scene.predatorSize, n + k);
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

  // Trails: the boids (and what sorts among them) go to a canvas kept between frames, faded here.
  let draw: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D = ctx;
  if (scene.trail > 0) {
    const cw = ctx.canvas.width;
    const ch = ctx.canvas.height;
    if (!scratch.trail || scratch.trail.width !== cw || scratch.trail.height !== ch) {
      scratch.trail =
        typeof OffscreenCanvas !== 'undefined'
          ? new OffscreenCanvas(cw, ch)
          : Object.assign(document.createElement('canvas'), { width: cw, height: ch });
    }
    const t = scratch.trail.getContext('2d') as CanvasRenderingContext2D | null;
    if (t) {
      draw = t;
      t.setTransform(1, 0, 0, 1, 0, 0);
      t.globalCompositeOperation = 'destination-out';
      t.fillStyle = `rgba(0, 0, 0, ${1 - scene.trail})`;
      t.fillRect(0, 0, cw, ch);
      t.globalCompositeOperation = 'source-over';
    }
  } else {
    scratch.trail = null;
  }

  const style = { current: '' };
  const flush = () => {
    if (style.current) draw.fill();
    style.current = '';
    draw.beginPath();
  };
  const use = (s: string) => {
    if (s === style.current) return;
    if (style.current) draw.fill();
    draw.beginPath();
    draw.fillStyle = s;
    style.current = s;
  };
  const pen: BoidPen = { ctx: draw, pr, scene, look, scratch, use, params, eye: basis.eye };
  draw.beginPath();
  for (let k = 0; k < drawn; k++) {
    const j = ord[k]!;
    // An obstacle farther away than this boid is drawn first (its own path).
    while (nextSphere < spheres.length && spheres[nextSphere]!.depth > depth[j]!) {
      flush();
      drawObstacle(draw as CanvasRenderingContext2D, spheres[nextSphere++]!, dims);
      draw.beginPath();
    }
    // Boids are j < n (state rows of 4 floats); predators after them (scene rows of 8: position,
    // then the velocity divided by maxSpeed).
    const boid = j < n;
    const id = boid ? j : j - n;
    const at = boid ? 4 * id : 8 * id;
    const pos = boid ? P : S;
    const vel = boid ? V : S;
    const va = boid ? at : at + 4;
    const vs = boid ? 1 : params.maxSpeed;
    const vx = vel[va]! * vs,
      vy = vel[va + 1]! * vs,
      vz = vel[va + 2]! * vs;
    drawBoid(
      pen,
      id,
      pos[at]!,
      pos[at + 1]!,
      pos[at + 2]!,
      vx,
      vy,
      vz,
      boid ? view.boidSize : scene.predatorSize,
      boid ? boidColor(colors, vx, vy, vz, P[at + 3]!, V[at + 3]!) : SCENE_COLORS.predator,
    );
  }
  flush();
  while (nextSphere < spheres.length)
    drawObstacle(draw as CanvasRenderingContext2D, spheres[nextSphere++]!, dims);
  if (draw !== ctx && scratch.trail) ctx.drawImage(scratch.trail, 0, 0);

  if (scene.bounds) drawBounds(ctx, pr, scene.bounds.min, scene.bounds.max, dims);
  if (scene.attractor) {
    const [x, y, z, s] = scene.attractor;
    const w = pr.w(x, y, z);
    if (w > 1e-6) {
      const cx = pr.sx(x, y, z, w);
      const cy = pr.sy(x, y, z, w);
      const R = (scene.attractorRadius * pr.pxPerUnit) / w;
      const c = s > 0 ? SCENE_COLORS.attract : SCENE_COLORS.repel;
      // The GPU marker's profile (src/webgl2/marker.frag.glsl): a bright core, a wide halo, a faint ring.
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

/** What every boid of one frame is drawn with (see drawBoid). */
interface BoidPen {
  ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  pr: Projector;
  scene: RenderScene;
  look: LookFrame;
  scratch: Canvas2DScratch;
  /** Sets the fill style, filling the path so far when it changes. */
  use: (style: string) => void;
  params: Pick<FlockParams, 'minSpeed' | 'maxSpeed'>;
  /** The camera's position (world units). */
  eye: readonly number[];
}

/**
 * One boid (or predator) of colour `base`: its mesh's triangles, animated, lit and fogged per
 * face (look.glsl's boidLook on the CPU), or a dot when it is the `dot` shape or shorter on screen
 * than lodPixels. Adds to the current path while the fill style stays the same (`use`).
 */
function drawBoid(
  pen: BoidPen,
  id: number,
  px: number,
  py: number,
  pz: number,
  vx: number,
  vy: number,
  vz: number,
  L: number,
  base: readonly number[],
): void {
  const { ctx, pr, scene, look, scratch, use, params, eye } = pen;
  const dims = scene.dimensions;
  const cw = pr.w(px, py, pz);
  const lengthPx = (L * look.pxPerUnit) / cw;
  const fogAt = (x: number, y: number, z: number) =>
    fogAmount(
      (x - eye[0]!) * pr.fwd[0] + (y - eye[1]!) * pr.fwd[1] + (z - eye[2]!) * pr.fwd[2],
      scene.fog,
      look,
    );
  if (scene.shape === 'dot' || (scene.lodPixels > 0 && lengthPx < scene.lodPixels)) {
    const r = Math.max((scene.shape === 'dot' ? DOT_RADIUS : LOD_DOT) * lengthPx, MIN_DOT_PX);
    const n = unit3(eye[0]! - px, eye[1]! - py, eye[2]! - pz);
    const f = fogAt(px, py, pz);
    use(
      scratch.style(
        shade(base, n, scene.lighting, look).map((c) => c),
        1 - f,
      ),
    );
    const x = pr.sx(px, py, pz, cw);
    const y = pr.sy(px, py, pz, cw);
    if (r >= ROUND_DOT_PX) {
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    } else ctx.rect(x - r, y - r, 2 * r, 2 * r);
    return;
  }
  const speed = Math.hypot(vx, vy, vz);
  const fwd = speed > 1e-12 ? [vx / speed, vy / speed, vz / speed] : [1, 0, 0];
  const ref = dims === 2 ? [0, 0, 1] : Math.abs(fwd[1]!) < 0.999 ? [0, 1, 0] : [0, 0, 1];
  const side = unit3(
    fwd[1]! * ref[2]! - fwd[2]! * ref[1]!,
    fwd[2]! * ref[0]! - fwd[0]! * ref[2]!,
    fwd[0]! * ref[1]! - fwd[1]! * ref[0]!,
  );
  const up = [
    side[1] * fwd[2]! - side[2] * fwd[1]!,
    side[2] * fwd[0]! - side[0] * fwd[2]!,
    side[0] * fwd[1]! - side[1] * fwd[0]!,
  ];
  const mesh = MESHES[scene.shape];
  const angles = animationAngles(
    id,
    vx,
    vy,
    vz,
    look.clock,
    scene.flap,
    params.minSpeed,
    params.maxSpeed,
    dims,
  );
  const toWorld = (q: readonly number[], k: number) =>
    q[0]! * fwd[k]! + q[1]! * up[k]! + q[2]! * side[k]!;
  for (let t = 0; t < mesh.length / 24; t++) {
    const pts: number[] = [];
    let n: number[] = [0, 0, 0];
    let cx = 0,
      cy = 0,
      cz = 0;
    let ok = true;
    for (let v = 0; v < 3; v++) {
      const a = animateVertex(mesh, 3 * t + v, angles);
      const x = px + L * toWorld(a.p, 0);
      const y = py + L * toWorld(a.p, 1);
      const z = pz + L * toWorld(a.p, 2);
      cx += x / 3;
      cy += y / 3;
      cz += z / 3;
      if (v === 0) n = [toWorld(a.n, 0), toWorld(a.n, 1), toWorld(a.n, 2)];
      const w = pr.w(x, y, z);
      if (!(w > 1e-6)) ok = false;
      pts.push(pr.sx(x, y, z, w), pr.sy(x, y, z, w));
    }
    if (!ok) continue;
    // Turned toward the eye, as the shaders do per vertex (a face's vertices share its normal).
    if (n[0]! * (eye[0]! - cx) + n[1]! * (eye[1]! - cy) + n[2]! * (eye[2]! - cz) < 0)
      n = n.map((x) => -x);
    use(
      scratch.style(
        shade(base, unit3(n[0]!, n[1]!, n[2]!), scene.lighting, look),
        1 - fogAt(cx, cy, cz),
      ),
    );
    // One winding for every triangle: faces of one colour share a path, and under the nonzero
    // rule overlapping faces of opposite windings would cancel.
    const area =
      (pts[2]! - pts[0]!) * (pts[5]! - pts[1]!) - (pts[4]! - pts[0]!) * (pts[3]! - pts[1]!);
    const [b, c] = area >= 0 ? [2, 4] : [4, 2];
    ctx.moveTo(pts[0]!, pts[1]!);
    ctx.lineTo(pts[b]!, pts[b + 1]!);
    ctx.lineTo(pts[c]!, pts[c + 1]!);
    ctx.closePath();
  }
}

function unit3(x: number, y: number, z: number): [number, number, number] {
  const l = Math.hypot(x, y, z) || 1;
  return [x / l, y / l, z / l];
}
