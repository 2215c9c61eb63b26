/**
 * The pointer as the attractor (view.pointer, DESIGN.md section 7): `element` follows the pointer
 * over the flock's own element; `page` listens on the document, so the pointer works over the
 * heading and buttons a page draws above the flock (a hero background). Both: a move or a press
 * attracts, a second button or a touch held still for LONG_TOUCH_MS repels, leaving (the element,
 * the window, a cancelled touch) turns it off.
 *
 * `page` listeners are passive and never call preventDefault or capture the pointer, so clicks,
 * scrolling, text selection and focus of the content above stay the page's; the pointer counts
 * only while it is over the element's box (a pointer further down the page leaves the flock
 * alone). `element` keeps the element's old behaviour: its context menu is suppressed so that
 * the second button can repel.
 * Owns: its listeners and its long-touch timer (dispose() removes them; idempotent).
 */
import { FlockError } from './core/errors';

export type PointerMode = 'attract' | 'repel' | 'off';

/** What the follower drives (the Flock fits). */
export interface PointerSink {
  pointer(clientX: number, clientY: number, mode: PointerMode): void;
}

/** A touch held this long (ms) without moving far repels instead of attracting. */
export const LONG_TOUCH_MS = 450;

const ELEMENT_EVENTS = ['pointermove', 'pointerdown', 'pointerup', 'pointercancel', 'pointerleave'];
const PAGE_EVENTS = ['pointermove', 'pointerdown', 'pointerup', 'pointercancel'];

export class PointerFollow {
  private readonly cleanups: (() => void)[] = [];
  private longTouch = 0;
  /** The last mode sent (so a pointer moving outside the box sends 'off' once). */
  private last: PointerMode = 'off';

  /**
   * @param sink the flock (its pointer() puts the attractor under the point)
   * @param element the flock's element: `element` listens on it; `page` checks the point against its box
   * @param target 'element' or 'page'
   * @param onError what a pointer call throws, other than a disposed flock's error (the flock
   *   fires 'error': a handler it installed never throws into the page)
   */
  constructor(
    private readonly sink: PointerSink,
    private readonly element: HTMLElement,
    readonly target: 'element' | 'page',
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    const on = (ev: Event) => this.onPointer(ev as PointerEvent);
    if (target === 'element') {
      for (const type of ELEMENT_EVENTS) element.addEventListener(type, on);
      const onMenu = (ev: Event) => ev.preventDefault(); // the second button repels
      element.addEventListener('contextmenu', onMenu);
      this.cleanups.push(() => {
        for (const type of ELEMENT_EVENTS) element.removeEventListener(type, on);
        element.removeEventListener('contextmenu', onMenu);
      });
    } else {
      const doc = element.ownerDocument;
      const opts: AddEventListenerOptions = { passive: true, capture: true };
      for (const type of PAGE_EVENTS) doc.addEventListener(type, on, opts);
      // The pointer left the window.
      const onLeave = () => this.send(0, 0, 'off');
      doc.documentElement.addEventListener('pointerleave', onLeave, { passive: true });
      const win = doc.defaultView;
      win?.addEventListener('blur', onLeave);
      this.cleanups.push(() => {
        for (const type of PAGE_EVENTS) doc.removeEventListener(type, on, opts);
        doc.documentElement.removeEventListener('pointerleave', onLeave);
        win?.removeEventListener('blur', onLeave);
      });
    }
  }

  /**
   * Removes the listeners and, unless `final` (the flock itself goes), turns the attractor off if
   * this follower had it on. Idempotent.
   */
  dispose(final = false): void {
    clearTimeout(this.longTouch);
    for (const c of this.cleanups.splice(0)) c();
    if (!final && this.last !== 'off') this.send(0, 0, 'off');
    this.last = 'off';
  }

  private send(x: number, y: number, mode: PointerMode): void {
    if (mode === 'off' && this.last === 'off') return;
    this.last = mode;
    try {
      this.sink.pointer(x, y, mode);
    } catch (e) {
      // A disposed flock: nothing to follow any more. Anything else is reported.
      if (!(e instanceof FlockError && e.field === 'flock')) this.onError(e);
    }
  }

  private inside(ev: PointerEvent): boolean {
    const r = this.element.getBoundingClientRect();
    return (
      ev.clientX >= r.left && ev.clientX < r.right && ev.clientY >= r.top && ev.clientY < r.bottom
    );
  }

  private onPointer(ev: PointerEvent): void {
    clearTimeout(this.longTouch);
    const { clientX, clientY } = ev;
    if (ev.type === 'pointerleave' || ev.type === 'pointercancel') {
      this.send(clientX, clientY, 'off');
      return;
    }
    if (this.target === 'page' && !this.inside(ev)) {
      this.send(clientX, clientY, 'off');
      return;
    }
    if (ev.pointerType === 'touch') {
      if (ev.type === 'pointerup') {
        this.send(clientX, clientY, 'off');
        return;
      }
      this.send(clientX, clientY, 'attract');
      const view = this.element.ownerDocument.defaultView;
      if (view) {
        this.longTouch = view.setTimeout(() => this.send(clientX, clientY, 'repel'), LONG_TOUCH_MS);
      }
      return;
    }
    this.send(clientX, clientY, (ev.buttons & 2) !== 0 ? 'repel' : 'attract');
  }
}
