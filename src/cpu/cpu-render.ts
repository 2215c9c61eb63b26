/**
 * Canvas 2D drawing for the CPU backend: the same picture the GPU backends draw, made of flat
 * arrowheads. Each boid is projected with the flock's view-projection (column-major, GL clip
 * space), oriented along its projected velocity, sized from the boid length at its depth (at
 * least ~2 px), coloured by speed (src/core/render-math.ts speedColor) and drawn back to front
 * over the shared dark background.
 */
import type { RenderView } from '../backend';
import type { FlockParams } from '../core/params';
import { speedColor } from '../core/render-math';
import type { FlockState } from '../core/state';

/** The clear colour of every backend, rgb(0.02, 0.03, 0.06), as CSS. */
export const BACKGROUND_CSS = '#05080f';

/** Half-width of the boid mesh across its velocity, in boid lengths (BOID_MESH spans z = +-0.25). */
const HALF_WIDTH = 0.25;
/** Shortest drawn half-length, in boid lengths: a boid flying at the camera stays visible. */
const MIN_HALF_LENGTH = 0.12;
/** Smallest half-extent in device pixels, so a far boid is still about 2 px. */
const MIN_HALF_PX = 1;

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

/**
 * Draws `state` into `ctx` (whose canvas is view.width x view.height device pixels).
 * Boids behind the camera or outside the depth range are skipped, as the GPU clipper would.
 */
export function drawFlockCanvas2D(
  ctx: CanvasRenderingContext2D,
  state: FlockState,
  params: Pick<FlockParams, 'minSpeed' | 'maxSpeed'>,
  view: RenderView,
  scratch: Canvas2DScratch,
): void {
  const W = view.width;
  const H = view.height;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.fillStyle = BACKGROUND_CSS;
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);

  const n = state.count;
  scratch.ensure(n);
  const { sx, sy, ux, uy, halfLength, halfWidth, depth, rgb, order } = scratch;
  const m = view.viewProj;
  const m0 = m[0]!,
    m1 = m[1]!,
    m3 = m[3]!,
    m4 = m[4]!,
    m5 = m[5]!,
    m7 = m[7]!;
  const m8 = m[8]!,
    m9 = m[9]!,
    m11 = m[11]!,
    m12 = m[12]!,
    m13 = m[13]!,
    m15 = m[15]!;
  const m2 = m[2]!,
    m6 = m[6]!,
    m10 = m[10]!,
    m14 = m[14]!;
  // Row 1 of viewProj is P11 times a unit row of the view rotation, so its length is the
  // projection's focal scale; pixels per world unit at clip depth w are focal * H/2 / w (both axes).
  const focal = Math.hypot(m1, m5, m9);
  const L = view.boidSize;
  const P = state.positions;
  const V = state.velocities;
  let drawn = 0;
  for (let i = 0; i < n; i++) {
    const px = P[4 * i]!,
      py = P[4 * i + 1]!,
      pz = P[4 * i + 2]!;
    const cw = m3 * px + m7 * py + m11 * pz + m15;
    if (!(cw > 1e-6)) continue;
    const cz = m2 * px + m6 * py + m10 * pz + m14;
    if (cz < -cw || cz > cw) continue;
    const x = ((m0 * px + m4 * py + m8 * pz + m12) / cw) * 0.5 * W + 0.5 * W;
    const y = 0.5 * H - ((m1 * px + m5 * py + m9 * pz + m13) / cw) * 0.5 * H;
    const lengthPx = (L * focal * 0.5 * H) / cw;
    if (x < -lengthPx || x > W + lengthPx || y < -lengthPx || y > H + lengthPx) continue;

    const vx = V[4 * i]!,
      vy = V[4 * i + 1]!,
      vz = V[4 * i + 2]!;
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
      const qw = m3 * qx + m7 * qy + m11 * qz + m15;
      if (qw > 1e-6) {
        dx = ((m0 * qx + m4 * qy + m8 * qz + m12) / qw) * 0.5 * W + 0.5 * W - x;
        dy = 0.5 * H - ((m1 * qx + m5 * qy + m9 * qz + m13) / qw) * 0.5 * H - y;
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
    const [r, g, b] = speedColor(speed, params.minSpeed, params.maxSpeed);
    sx[drawn] = x;
    sy[drawn] = y;
    ux[drawn] = dx;
    uy[drawn] = dy;
    halfLength[drawn] = Math.max(hl, MIN_HALF_LENGTH * lengthPx, MIN_HALF_PX);
    halfWidth[drawn] = Math.max(HALF_WIDTH * lengthPx, MIN_HALF_PX);
    depth[drawn] = cw;
    rgb[drawn] = (Math.round(r * 255) << 16) | (Math.round(g * 255) << 8) | Math.round(b * 255);
    order[drawn] = drawn;
    drawn++;
  }

  // Back to front: farthest (largest clip w) first, so nearer boids cover farther ones.
  const ord = order.subarray(0, drawn);
  ord.sort((a, b) => depth[b]! - depth[a]!);

  // Consecutive boids of one colour share a path: far fewer fill calls, same overlap order.
  let current = -1;
  ctx.beginPath();
  for (let k = 0; k < drawn; k++) {
    const j = ord[k]!;
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
}
