/**
 * Pointer and orbit camera controls for the demo. Mouse: the left button is the pointer
 * (flock.pointer: the flock is drawn to it while held), the right button or Shift pushes it away;
 * the camera moves with a modifier held (Alt, Ctrl or Cmd + drag rotates, with the right button or
 * Shift too it pans) or with the middle button; the wheel zooms (distance); in 2D a camera drag
 * pans (the camera looks straight down z). Pitch is clamped short of the poles. Touch: one finger is the pointer (flock.pointer: the flock is
 * drawn to it; held still for LONG_PRESS_MS it pushes away instead), two fingers orbit (pan in
 * 2D) by moving together and zoom by pinching. Listens on a container element, so it keeps working when
 * a fallback replaces the flock's canvas, and mutates `flock.camera` in place. The container should
 * have `touch-action: none` so touches never scroll the page. Owns its listeners; `dispose()` removes them.
 */
import { vec3 } from 'gl-matrix';
import type { Flock } from '../index';

/** Radians per pixel of drag, as a fraction of the element height: a full-height drag turns 180 degrees. */
const ROTATE_PER_HEIGHT = Math.PI;
const PITCH_LIMIT = Math.PI / 2 - 0.01;
/** Wheel zoom: distance *= exp(deltaY * this) (deltaY in pixels). */
const WHEEL_ZOOM = 0.0015;
/** A touch held this long (ms) within LONG_PRESS_SLOP pixels repels instead of attracting. */
const LONG_PRESS_MS = 450;
const LONG_PRESS_SLOP = 10;

type PointerMode = 'attract' | 'repel' | 'off';
/** flock.pointer where the library has it (the attractor under a screen point). */
type PointerFlock = Flock & { pointer?(x: number, y: number, mode: PointerMode): void };

export class OrbitControls {
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private pinchDistance = 0;
  private readonly cleanups: (() => void)[] = [];
  /** The mouse button held as the pointer (not a camera drag), by pointer id. */
  private mouse: number | null = null;
  /** The one-finger pointer: its id, mode, where it went down and the long-press timer. */
  private touch: { id: number; mode: PointerMode; x0: number; y0: number; timer: number } | null =
    null;

  /**
   * @param element the element that receives pointer and wheel events (the flock's container)
   * @param flock whose `camera` is moved
   * @param onChange called after every camera change (e.g. to redraw while paused)
   */
  constructor(
    private readonly element: HTMLElement,
    private readonly flock: Flock,
    private readonly onChange: () => void = () => {},
  ) {
    const on = <K extends keyof HTMLElementEventMap>(
      type: K,
      fn: (e: HTMLElementEventMap[K]) => void,
      opts?: AddEventListenerOptions,
    ) => {
      element.addEventListener(type, fn, opts);
      this.cleanups.push(() => element.removeEventListener(type, fn, opts));
    };
    on('pointerdown', (e) => this.down(e));
    on('pointermove', (e) => this.move(e));
    on('pointerup', (e) => this.up(e));
    on('pointercancel', (e) => this.up(e));
    on('wheel', (e) => this.wheel(e), { passive: false });
    on('contextmenu', (e) => e.preventDefault());
  }

  dispose(): void {
    for (const c of this.cleanups.splice(0)) c();
    this.pointers.clear();
  }

  /** A mouse press with a modifier or the middle button moves the camera; others are the pointer. */
  private static cameraDrag(e: PointerEvent): boolean {
    return e.altKey || e.ctrlKey || e.metaKey || e.button === 1 || (e.buttons & 4) !== 0;
  }

  /** Repel with the right button or Shift, else attract. */
  private static mouseMode(e: PointerEvent): PointerMode {
    return e.shiftKey || e.button === 2 || (e.buttons & 2) !== 0 ? 'repel' : 'attract';
  }

  private down(e: PointerEvent): void {
    if (e.pointerType !== 'touch' && this.pointers.size === 0 && !OrbitControls.cameraDrag(e)) {
      this.mouse = e.pointerId;
      this.sendPointer(e.clientX, e.clientY, OrbitControls.mouseMode(e));
    }
    if (e.pointerType === 'touch') {
      const touches = [...this.pointers.keys()].length;
      if (touches === 0) this.touchPointer(e, 'attract');
      else this.releaseTouchPointer();
    }
    try {
      // Keeps the drag when the pointer leaves the window; throws for a pointer that is not active (synthetic events).
      this.element.setPointerCapture(e.pointerId);
    } catch {
      // Dragging still works inside the element.
    }
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    this.pinchDistance = this.currentPinchDistance();
    this.element.classList.add('dragging');
    e.preventDefault();
  }

  private up(e: PointerEvent): void {
    if (this.touch?.id === e.pointerId) this.releaseTouchPointer();
    if (this.mouse === e.pointerId) {
      // With both buttons held, letting one go keeps the pointer on with the other's mode.
      if (e.type === 'pointerup' && (e.buttons & 3) !== 0) {
        this.sendPointer(e.clientX, e.clientY, OrbitControls.mouseMode(e));
        return;
      }
      this.mouse = null;
      this.sendPointer(e.clientX, e.clientY, 'off');
    }
    if (!this.pointers.delete(e.pointerId)) return;
    if (this.element.hasPointerCapture(e.pointerId))
      this.element.releasePointerCapture(e.pointerId);
    this.pinchDistance = this.currentPinchDistance();
    if (this.pointers.size === 0) this.element.classList.remove('dragging');
  }

  private move(e: PointerEvent): void {
    const last = this.pointers.get(e.pointerId);
    if (!last) return;
    const dx = e.clientX - last.x;
    const dy = e.clientY - last.y;
    last.x = e.clientX;
    last.y = e.clientY;
    if (this.pointers.size >= 2) {
      const d = this.currentPinchDistance();
      if (this.pinchDistance > 0 && d > 0) this.zoom(this.pinchDistance / d);
      this.pinchDistance = d;
      // Two fingers moving together orbit (pan in 2D): each finger's move counts half.
      const half = [dx / this.pointers.size, dy / this.pointers.size] as const;
      if (this.flock.params.dimensions === 2) this.pan(half[0], half[1]);
      else this.rotate(half[0], half[1]);
      return;
    }
    if (this.mouse === e.pointerId) {
      this.sendPointer(e.clientX, e.clientY, OrbitControls.mouseMode(e));
      return;
    }
    if (this.touch?.id === e.pointerId) {
      if (Math.hypot(e.clientX - this.touch.x0, e.clientY - this.touch.y0) > LONG_PRESS_SLOP) {
        window.clearTimeout(this.touch.timer);
      }
      this.sendPointer(e.clientX, e.clientY, this.touch.mode);
      return;
    }
    const pan =
      this.flock.params.dimensions === 2 || e.shiftKey || (e.buttons & 2) !== 0 || e.button === 2;
    if (pan) this.pan(dx, dy);
    else this.rotate(dx, dy);
  }

  /** One finger down: the pointer attracts there; held still, it repels. */
  private touchPointer(e: PointerEvent, mode: PointerMode): void {
    const x = e.clientX;
    const y = e.clientY;
    const timer = window.setTimeout(() => {
      if (!this.touch) return;
      this.touch.mode = 'repel';
      this.sendPointer(x, y, 'repel');
    }, LONG_PRESS_MS);
    this.touch = { id: e.pointerId, mode, x0: x, y0: y, timer };
    this.sendPointer(x, y, mode);
  }

  private releaseTouchPointer(): void {
    if (!this.touch) return;
    window.clearTimeout(this.touch.timer);
    this.touch = null;
    this.sendPointer(0, 0, 'off');
  }

  private sendPointer(x: number, y: number, mode: PointerMode): void {
    const f = this.flock as PointerFlock;
    f.pointer?.(x, y, mode);
    this.onChange();
  }

  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? this.height() : 1;
    this.zoom(Math.exp(e.deltaY * unit * WHEEL_ZOOM));
  }

  private height(): number {
    return Math.max(1, this.element.clientHeight);
  }

  private currentPinchDistance(): number {
    if (this.pointers.size < 2) return 0;
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a!.x - b!.x, a!.y - b!.y);
  }

  /** Drag right turns the flock right (the eye orbits left); drag down shows it more from above. */
  rotate(dx: number, dy: number): void {
    const cam = this.flock.camera;
    const k = ROTATE_PER_HEIGHT / this.height();
    cam.yaw -= dx * k;
    cam.pitch = Math.min(PITCH_LIMIT, Math.max(-PITCH_LIMIT, cam.pitch + dy * k));
    this.onChange();
  }

  /** Multiplies the eye distance by `factor`, kept within a range around the box size. */
  zoom(factor: number): void {
    const cam = this.flock.camera;
    const p = this.flock.params;
    const box = Math.hypot(
      p.boundsMax[0] - p.boundsMin[0],
      p.boundsMax[1] - p.boundsMin[1],
      p.dimensions === 2 ? 0 : p.boundsMax[2] - p.boundsMin[2],
    );
    cam.distance = Math.min(20 * box, Math.max(0.02 * box, cam.distance * factor));
    this.onChange();
  }

  /** Moves the target so the picture follows the pointer (in the view plane through the target). */
  pan(dx: number, dy: number): void {
    const cam = this.flock.camera;
    const eye = vec3.fromValues(
      cam.target[0] + cam.distance * Math.cos(cam.pitch) * Math.sin(cam.yaw),
      cam.target[1] + cam.distance * Math.sin(cam.pitch),
      cam.target[2] + cam.distance * Math.cos(cam.pitch) * Math.cos(cam.yaw),
    );
    const forward = vec3.normalize(vec3.create(), vec3.sub(vec3.create(), cam.target, eye));
    const right = vec3.normalize(vec3.create(), vec3.cross(vec3.create(), forward, [0, 1, 0]));
    const up = vec3.cross(vec3.create(), right, forward);
    // World units per pixel at the target's depth.
    const perPixel = (2 * cam.distance * Math.tan(cam.fovY / 2)) / this.height();
    const move = vec3.create();
    vec3.scaleAndAdd(move, move, right, -dx * perPixel);
    vec3.scaleAndAdd(move, move, up, dy * perPixel);
    cam.target = [cam.target[0] + move[0], cam.target[1] + move[1], cam.target[2] + move[2]];
    this.onChange();
  }
}
