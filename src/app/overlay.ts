/**
 * The demo's text overlay: backend and device, FPS, step time (with how it was measured), per-pass
 * times, the rungs of the ladder that were skipped and why, and every error (URL parameters,
 * rejected GUI values, runtime errors, a failed start). Plain DOM; the flock is polled a few times
 * per second. Each line carries a data-field attribute for tests.
 */
import { CPU_MAX_COUNT, PASS_NAMES, type BackendKind, type Flock } from '../index';

export class Overlay {
  private flock: Flock | null = null;
  private status = '';
  private probe = '';
  /** The count the probe chose: its line shows only while the flock runs that count. */
  private probeCount = -1;
  /** The note beside that count on the first line ('chosen for 30 fps'). */
  private probeNote = '';
  /** A note about the count (the cpu cap, a count cut to keep the page answering), and the count it is about. */
  private countNote: { text: string; count: number } | null = null;
  private urlErrors: string[] = [];
  private guiError: string | null = null;
  private runtimeErrors: string[] = [];
  private fatal: string | null = null;
  private timer = 0;

  constructor(private readonly root: HTMLElement) {
    // Phone layout: a tap on the one line unfolds the rest (and folds it again).
    root.addEventListener('click', () => root.classList.toggle('expanded'));
    this.render();
  }

  attach(flock: Flock): void {
    this.flock = flock;
    this.timer = window.setInterval(() => this.render(), 250);
    this.render();
  }

  setUrlErrors(errors: string[]): void {
    this.urlErrors = errors;
    this.render();
  }

  setGuiError(message: string | null): void {
    this.guiError = message;
    this.render();
  }

  addRuntimeError(message: string): void {
    this.runtimeErrors.push(message);
    if (this.runtimeErrors.length > 5) this.runtimeErrors.shift();
    this.render();
  }

  /**
   * What the demo chose for this device (the count probe on a small touch screen or a slow
   * device), the count it chose and the note beside it on the first line ('chosen for 30 fps'
   * when the probe measured it to hold 30 fps): shown while the flock runs that count, so that
   * the overlay never says it of a count picked since from the menu or the panel.
   */
  setProbe(text: string, count: number, note: string): void {
    this.probe = text;
    this.probeCount = count;
    this.probeNote = note;
    this.render();
  }

  /** A note about `count` (the cpu cap, a cut count), shown while the flock runs that count. */
  setCountNote(text: string, count: number): void {
    this.countNote = { text, count };
    this.render();
  }

  /** A transient state worth a line: 'context lost', 'restored', ... ('' clears it). */
  setStatus(text: string): void {
    this.status = text;
    this.render();
  }

  /** The flock could not start: say why (and nothing else updates). */
  setFatal(message: string): void {
    this.fatal = message;
    this.render();
  }

  dispose(): void {
    window.clearInterval(this.timer);
  }

  private render(): void {
    // pieces: the compact line's pieces (see below), joined by spaces in `text`.
    const lines: [field: string, text: string, cls?: string, pieces?: string[]][] = [];
    const f = this.flock;
    if (f) {
      const p = f.params;
      // The phone layout shows only this line (app.css): backend, count, fps, and how many
      // messages a tap on it unfolds (the caption at the bottom names the scene). A narrow
      // screen wraps it between its pieces rather than cutting it off.
      const messages = this.urlErrors.length + (this.guiError ? 1 : 0) + this.runtimeErrors.length;
      const probed = this.probe !== '' && p.count === this.probeCount;
      // The pieces a narrow screen may wrap between (app.css), each but the last ending in its
      // separator's dot; the count's note follows the count with no dot between.
      const pieces = [`${f.backend} ·`, `${p.count} boids${probed ? '' : ' ·'}`];
      if (probed) pieces.push(`(${this.probeNote}) ·`);
      pieces.push(`${f.stats.fps.toFixed(0)} fps ·`);
      if (f.running && f.stats.stepsPerFrame > 0 && f.stats.timeScale < 0.95)
        pieces.push(`${f.stats.timeScale.toPrecision(2)}x real time ·`);
      if (messages > 0) pieces.push(`${messages} message${messages > 1 ? 's' : ''} (tap) ·`);
      pieces.push(pieces.pop()!.slice(0, -2));
      lines.push(['compact', pieces.join(' '), undefined, pieces]);
      const info = f.deviceInfo ? ` — ${f.deviceInfo}` : '';
      lines.push(['backend', `backend: ${f.backend}${info}`]);
      lines.push([
        'scene',
        `${p.count} boids · ${p.dimensions}D · ${p.neighborSearch} · ${p.boundary}` +
          // Stopped while a status line says why (the count probe measuring) is not a pause.
          (f.running || this.status ? '' : ' · paused'),
      ]);
      const s = f.stats;
      const step =
        s.timing === 'none'
          ? 'not measured yet'
          : `${s.stepMs.toFixed(2)} ms (${s.timing}` +
            (s.resolutionMs ? `, timer resolution ${s.resolutionMs.toPrecision(2)} ms)` : ')');
      lines.push(['fps', `${s.fps.toFixed(1)} fps · step ${step}`]);
      if (f.running && s.stepsPerFrame > 0) {
        // Slow motion is said plainly: the device cannot step as fast as real time.
        const pace = s.timeScale < 0.95 ? `${s.timeScale.toPrecision(2)}x real time` : 'real time';
        lines.push(['pace', `${s.stepsPerFrame.toFixed(1)} steps/frame · ${pace}`]);
      }
      const passes = PASS_NAMES.filter((k) => s.passes[k] !== null).map(
        (k) => `${k} ${s.passes[k]!.toFixed(2)}`,
      );
      if (passes.length > 0) lines.push(['passes', `passes (ms): ${passes.join(' · ')}`]);
      const reasons = Object.entries(f.fallbackReasons) as [BackendKind, string][];
      for (const [kind, why] of reasons) {
        // The cpu rung's cap note is about the count it started with: gone once another runs.
        if (kind === f.backend && why.startsWith('count capped') && p.count !== CPU_MAX_COUNT)
          continue;
        // The chosen rung's own entry is a note (the cpu count cap), not a skip.
        const text = kind === f.backend ? `${kind}: ${why}` : `skipped ${kind}: ${why}`;
        lines.push(['fallback', text, 'note']);
      }
    } else if (!this.fatal) {
      lines.push(['backend', 'starting…']);
    }
    const count = f?.params.count;
    if (this.probe && (count === undefined || count === this.probeCount))
      lines.push(['probe', this.probe, 'note']);
    if (this.countNote && (count === undefined || count === this.countNote.count))
      lines.push(['count', this.countNote.text, 'note']);
    if (this.status) lines.push(['status', this.status, 'note']);
    if (this.fatal) lines.push(['fatal', `could not start: ${this.fatal}`, 'error']);
    for (const e of this.urlErrors) lines.push(['error', e, 'error']);
    if (this.guiError) lines.push(['error', this.guiError, 'error']);
    for (const e of this.runtimeErrors) lines.push(['error', e, 'error']);

    // Rebuild only when the text changed, so selecting an error message with the mouse works.
    const key = JSON.stringify(lines);
    if (this.root.dataset.key === key) return;
    this.root.dataset.key = key;
    this.root.replaceChildren(
      ...lines.map(([field, text, cls, pieces]) => {
        const div = document.createElement('div');
        div.dataset.field = field;
        if (cls) div.className = cls;
        if (pieces) {
          // One inline block per piece (wrapped inside only when wider than the line), the
          // separator's dot kept at the end of the piece before it, and a plain space between
          // them where the line may wrap: the text reads the same ('a · b (note) · c').
          pieces.forEach((piece, k) => {
            const span = document.createElement('span');
            span.textContent = piece;
            if (k > 0) div.append(' ');
            div.append(span);
          });
        } else {
          div.textContent = text;
        }
        return div;
      }),
    );
  }
}
