/**
 * The debugging aids drawn over a flock (the seeds' debug views), from the backend's own state
 * (flock.readState(): on the GPU backends a read-back of the GPU buffers, not the CPU reference):
 *
 * - `showGrid`: the uniform grid's occupied cells (2D: every cell that holds a boid; 3D: the
 *   slice of cells through the box centre, as wireframe squares), brighter the more boids;
 * - `showVelocities`: a line per boid from its position along its velocity (0.5 s of flight);
 * - `pickedBoid` (a boid id, -1 none): the perception and separation radii drawn around that
 *   boid, its neighbours (the model's N_i: eps < |d| < r, minimum image under wrap) ringed, the
 *   too-close ones (S_i) in red.
 *
 * A 2D canvas stacked over the flock's canvas (class `gpu-flock-debug`: the page positions it,
 * see src/app/app.css), drawn with the flock's own view-projection. State is read back while an
 * aid is on, one read at a time (so a slow device reads less often, never queues up).
 * Owns its canvas, its frame loop and its listeners; `dispose()` removes them.
 */
import type { Flock } from './flock';
import type { FlockParams } from './core/params';
import type { FlockState } from './core/state';
import { gridFor, cellCoord } from './core/grid';
import { defaultCamera, fitScale, viewProjection } from './core/render-math';

/** The debug options, as the view schema has them. */
export interface DebugView {
  /** Draw the grid's occupied cells (3D: the slice through the centre). */
  showGrid: boolean;
  /** Draw each boid's velocity (0.5 s of flight). */
  showVelocities: boolean;
  /** A boid id, or -1 for none (a fraction rounds down). */
  pickedBoid: number;
}

/** What the layer knows about the picked boid (ids index the state, boid-id order). */
export interface PickedBoid {
  /** The boid's id (its index in the state). */
  id: number;
  /** Ids of its neighbours N_i (eps < |d| < r). */
  neighbours: number[];
  /** Ids of the too-close ones S_i (|d| < min(rs, r)). */
  tooClose: number[];
}

const EPS = 1e-3;
/** Seconds of flight a velocity line shows. */
const VELOCITY_SECONDS = 0.5;
/** Most velocity lines drawn (every k-th boid beyond). */
const MAX_LINES = 40000;

type ViewFlock = Flock & { view?: Partial<DebugView> & { fit?: string } };

/** Offset d = q - p on one axis, the minimum image under wrap. */
function offset(q: number, p: number, size: number, wrap: boolean): number {
  let d = q - p;
  if (wrap) d -= size * Math.round(d / size);
  return d;
}

/** The neighbours of boid `id` in `state` by the model's rules (DESIGN section 1). */
export function neighboursOf(state: FlockState, params: FlockParams, id: number): PickedBoid {
  const P = state.positions;
  const r = params.perceptionRadius;
  const rs = Math.min(params.separationRadius, r);
  const wrap = params.boundary === 'wrap';
  const axes = params.dimensions === 2 ? 2 : 3;
  const size = [0, 1, 2].map((a) => params.boundsMax[a]! - params.boundsMin[a]!);
  const neighbours: number[] = [];
  const tooClose: number[] = [];
  for (let j = 0; j < state.count; j++) {
    if (j === id) continue;
    let d2 = 0;
    for (let a = 0; a < axes; a++) {
      const d = offset(P[4 * j + a]!, P[4 * id + a]!, size[a]!, wrap);
      d2 += d * d;
    }
    if (d2 > EPS * EPS && d2 < r * r) {
      neighbours.push(j);
      if (d2 < rs * rs) tooClose.push(j);
    }
  }
  return { id, neighbours, tooClose };
}

/**
 * The debug views drawn over a flock with Canvas 2D from `flock.readState()`: the grid's occupied
 * cells, velocity lines, and a picked boid's radii and neighbours (the demo's debug views).
 */
export class DebugLayer {
  /** The layer's own canvas, over the flock's. */
  readonly canvas: HTMLCanvasElement;
  /** The picked boid's neighbourhood as last read, or null. */
  picked: PickedBoid | null = null;
  private state: FlockState | null = null;
  private reading = false;
  private frame = 0;
  private disposed = false;
  private readonly ctx: CanvasRenderingContext2D;

  /**
   * @param flock whose state and view it draws
   * @param host the element the layer's canvas goes into (over the flock's canvas)
   * @param options where the debug options live when the flock's view has none of them
   */
  constructor(
    private readonly flock: Flock,
    host: HTMLElement,
    readonly options: DebugView = { showGrid: false, showVelocities: false, pickedBoid: -1 },
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'gpu-flock-debug';
    this.canvas.setAttribute('aria-hidden', 'true');
    host.appendChild(this.canvas);
    this.ctx = this.canvas.getContext('2d')!;
    const loop = () => {
      if (this.disposed) return;
      this.tick();
      this.frame = requestAnimationFrame(loop);
    };
    this.frame = requestAnimationFrame(loop);
  }

  /** The debug options in force: the flock's view where it has them, else `options`. */
  get debug(): DebugView {
    const v = (this.flock as ViewFlock).view ?? {};
    return {
      showGrid: v.showGrid ?? this.options.showGrid,
      showVelocities: v.showVelocities ?? this.options.showVelocities,
      pickedBoid: Math.floor(v.pickedBoid ?? this.options.pickedBoid),
    };
  }

  /** Whether any aid is on. */
  get active(): boolean {
    const d = this.debug;
    return d.showGrid || d.showVelocities || d.pickedBoid >= 0;
  }

  /**
   * The id of the boid drawn nearest to (clientX, clientY) within `slop` CSS pixels, from a fresh
   * read of the state; -1 when none is that close.
   */
  async pick(clientX: number, clientY: number, slop = 16): Promise<number> {
    const state = await this.flock.readState();
    this.state = state;
    let best = -1;
    let bestD = slop * slop;
    const P = state.positions;
    const flat = this.flock.params.dimensions === 2;
    const vp = this.projection();
    const rect = this.flock.canvas.getBoundingClientRect();
    for (let i = 0; i < state.count; i++) {
      const q = this.toClient(P[4 * i]!, P[4 * i + 1]!, flat ? 0 : P[4 * i + 2]!, vp, rect);
      if (!q) continue;
      const dx = q[0] - clientX;
      const dy = q[1] - clientY;
      const d = dx * dx + dy * dy;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  /** Where a world point is drawn, in CSS pixels of the viewport (clientX, clientY); null behind the eye. */
  toClient(
    x: number,
    y: number,
    z: number,
    vp = this.projection(),
    rect: Pick<
      DOMRect,
      'left' | 'top' | 'width' | 'height'
    > = this.flock.canvas.getBoundingClientRect(),
  ): [number, number] | null {
    const s = project(vp, x, y, z);
    if (!s) return null;
    return [rect.left + ((s[0] + 1) / 2) * rect.width, rect.top + ((1 - s[1]) / 2) * rect.height];
  }

  /** Removes the layer's canvas; the layer draws nothing after. */
  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.frame);
    this.canvas.remove();
  }

  /** The flock's view-projection for its drawing buffer (the same as the renderers'). */
  private projection(): Float32Array {
    const c = this.flock.canvas;
    const aspect = c.width / Math.max(1, c.height);
    const fit = (this.flock as ViewFlock).view?.fit === 'cover' ? 'cover' : 'contain';
    return viewProjection(
      this.flock.camera,
      aspect,
      false,
      fitScale(this.flock.params, fit, aspect),
    );
  }

  private tick(): void {
    const debug = this.debug;
    const on = debug.showGrid || debug.showVelocities || debug.pickedBoid >= 0;
    this.canvas.hidden = !on;
    if (!on) {
      this.picked = null;
      return;
    }
    if (!this.reading) {
      this.reading = true;
      this.flock
        .readState()
        .then((s) => {
          this.state = s;
        })
        .catch(() => {
          // Disposed or lost: the next frame tries again or the layer goes with the flock.
        })
        .finally(() => {
          this.reading = false;
        });
    }
    this.draw(debug);
  }

  private draw(debug: DebugView): void {
    const src = this.flock.canvas;
    const w = src.width;
    const h = src.height;
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    const ctx = this.ctx;
    ctx.clearRect(0, 0, w, h);
    const state = this.state;
    const p = this.flock.params;
    if (!state || state.count !== p.count) return;
    const vp = this.projection();
    const toPx = (x: number, y: number, z: number): [number, number] | null => {
      const s = project(vp, x, y, z);
      return s ? [((s[0] + 1) / 2) * w, ((1 - s[1]) / 2) * h] : null;
    };
    const scale = Math.max(1, w / Math.max(1, src.clientWidth || w));
    if (debug.showGrid) this.drawGrid(state, p, toPx, scale);
    if (debug.showVelocities) this.drawVelocities(state, p, toPx, scale);
    if (debug.pickedBoid >= 0 && debug.pickedBoid < state.count) {
      this.drawPicked(state, p, debug.pickedBoid, toPx, scale);
    } else {
      this.picked = null;
    }
  }

  private drawGrid(
    state: FlockState,
    p: FlockParams,
    toPx: (x: number, y: number, z: number) => [number, number] | null,
    scale: number,
  ): void {
    const g = gridFor(p);
    const [nx, ny, nz] = g.dims;
    const counts = new Uint32Array(nx * ny);
    const zSlice = Math.floor(nz / 2);
    const P = state.positions;
    for (let i = 0; i < state.count; i++) {
      if (p.dimensions === 3) {
        const cz = cellCoord(P[4 * i + 2]!, p.boundsMin[2], g.cellSize[2], nz);
        if (cz !== zSlice) continue;
      }
      const cx = cellCoord(P[4 * i]!, p.boundsMin[0], g.cellSize[0], nx);
      const cy = cellCoord(P[4 * i + 1]!, p.boundsMin[1], g.cellSize[1], ny);
      counts[cx + nx * cy]!++;
    }
    let max = 1;
    for (const c of counts) max = Math.max(max, c);
    const z = p.dimensions === 3 ? p.boundsMin[2] + (zSlice + 0.5) * g.cellSize[2] : 0;
    const ctx = this.ctx;
    ctx.lineWidth = scale;
    // The slice's outline, then each occupied cell.
    const x0 = p.boundsMin[0];
    const y0 = p.boundsMin[1];
    const quad = (ax: number, ay: number, bx: number, by: number) => {
      const c = [toPx(ax, ay, z), toPx(bx, ay, z), toPx(bx, by, z), toPx(ax, by, z)];
      if (c.some((q) => q === null)) return false;
      ctx.moveTo(c[0]![0], c[0]![1]);
      for (let k = 1; k < 4; k++) ctx.lineTo(c[k]![0], c[k]![1]);
      ctx.closePath();
      return true;
    };
    ctx.beginPath();
    ctx.strokeStyle = 'rgba(255, 210, 120, 0.35)';
    quad(x0, y0, x0 + nx * g.cellSize[0], y0 + ny * g.cellSize[1]);
    ctx.stroke();
    // Cells binned by occupancy into 4 levels, one path each.
    for (let level = 1; level <= 4; level++) {
      ctx.beginPath();
      ctx.strokeStyle = `rgba(255, 210, 120, ${0.2 + 0.2 * level})`;
      for (let cy = 0; cy < ny; cy++) {
        for (let cx = 0; cx < nx; cx++) {
          const n = counts[cx + nx * cy]!;
          if (n === 0 || Math.min(4, Math.ceil((4 * n) / max)) !== level) continue;
          const ax = x0 + cx * g.cellSize[0];
          const ay = y0 + cy * g.cellSize[1];
          quad(ax, ay, ax + g.cellSize[0], ay + g.cellSize[1]);
        }
      }
      ctx.stroke();
    }
  }

  private drawVelocities(
    state: FlockState,
    p: FlockParams,
    toPx: (x: number, y: number, z: number) => [number, number] | null,
    scale: number,
  ): void {
    const ctx = this.ctx;
    const P = state.positions;
    const V = state.velocities;
    const every = Math.max(1, Math.ceil(state.count / MAX_LINES));
    ctx.beginPath();
    ctx.lineWidth = scale;
    ctx.strokeStyle = 'rgba(160, 255, 200, 0.55)';
    const z2 = p.dimensions === 2;
    for (let i = 0; i < state.count; i += every) {
      const x = P[4 * i]!;
      const y = P[4 * i + 1]!;
      const z = z2 ? 0 : P[4 * i + 2]!;
      const a = toPx(x, y, z);
      const b = toPx(
        x + VELOCITY_SECONDS * V[4 * i]!,
        y + VELOCITY_SECONDS * V[4 * i + 1]!,
        z2 ? 0 : z + VELOCITY_SECONDS * V[4 * i + 2]!,
      );
      if (!a || !b) continue;
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(b[0], b[1]);
    }
    ctx.stroke();
  }

  private drawPicked(
    state: FlockState,
    p: FlockParams,
    id: number,
    toPx: (x: number, y: number, z: number) => [number, number] | null,
    scale: number,
  ): void {
    const picked = neighboursOf(state, p, id);
    this.picked = picked;
    const P = state.positions;
    const x = P[4 * id]!;
    const y = P[4 * id + 1]!;
    const z = p.dimensions === 2 ? 0 : P[4 * id + 2]!;
    const centre = toPx(x, y, z);
    if (!centre) return;
    const right = cameraRight(this.flock, p);
    /** Screen radius of a world radius r around the boid (along the camera's right). */
    const radius = (r: number) => {
      const e = toPx(x + r * right[0], y + r * right[1], z + r * right[2]);
      return e ? Math.hypot(e[0] - centre[0], e[1] - centre[1]) : 0;
    };
    const ctx = this.ctx;
    const ring = (q: [number, number], r: number, colour: string, width: number) => {
      ctx.beginPath();
      ctx.strokeStyle = colour;
      ctx.lineWidth = width * scale;
      ctx.arc(q[0], q[1], r, 0, 2 * Math.PI);
      ctx.stroke();
    };
    const close = new Set(picked.tooClose);
    for (const j of picked.neighbours) {
      const q = toPx(P[4 * j]!, P[4 * j + 1]!, p.dimensions === 2 ? 0 : P[4 * j + 2]!);
      if (q) ring(q, 4 * scale, close.has(j) ? '#ff5a4f' : '#ffe066', 1.5);
    }
    ring(centre, radius(p.perceptionRadius), 'rgba(255, 224, 102, 0.9)', 1.5);
    ring(centre, radius(Math.min(p.separationRadius, p.perceptionRadius)), '#ff5a4f', 1.5);
    ring(centre, 5 * scale, '#ffffff', 2.5);
  }
}

/** Clip -> NDC of a world point, or null behind the eye. */
function project(vp: Float32Array, x: number, y: number, z: number): [number, number] | null {
  const cw = vp[3]! * x + vp[7]! * y + vp[11]! * z + vp[15]!;
  if (!(cw > 1e-6)) return null;
  const cx = vp[0]! * x + vp[4]! * y + vp[8]! * z + vp[12]!;
  const cy = vp[1]! * x + vp[5]! * y + vp[9]! * z + vp[13]!;
  return [cx / cw, cy / cw];
}

/** The camera's right vector in world space (x in 2D). */
function cameraRight(flock: Flock, p: FlockParams): [number, number, number] {
  if (p.dimensions === 2) return [1, 0, 0];
  const cam = flock.camera ?? defaultCamera(p);
  // The eye orbits the target at (yaw, pitch); forward = -(sin yaw cos pitch, sin pitch, cos yaw cos pitch).
  const fx = -Math.cos(cam.pitch) * Math.sin(cam.yaw);
  const fz = -Math.cos(cam.pitch) * Math.cos(cam.yaw);
  // right = forward x up(0, 1, 0) = (-fz, 0, fx), normalised.
  const l = Math.hypot(fz, fx) || 1;
  return [-fz / l, 0, fx / l];
}
