/**
 * The demo's dat.gui panel, built from the schemas (PARAM_SCHEMA and the view schema): a scene
 * menu on top, then folders Flock, Behaviours, World, View and Backend. Each control has a label
 * in words with its unit (`Perception radius (units)`) and a tooltip from the schema's doc and
 * allowed range.
 *
 * Numbers: the slider spans a range a person would explore (the schema's `slider`); the text box
 * takes any
 * value, and the schema decides: a value outside the slider that the schema allows is applied and
 * the slider widens to show it; one it rejects leaves the flock as it was and shows the
 * FlockError's text under the field. Controls that do nothing on the running backend are left
 * out (`sort` off WebGPU, `draw mode` on cpu). `sync()` re-reads the flock (the demo calls it
 * whenever parameters or view change from code, the URL or a preset). Owns its DOM; `dispose()`
 * removes it.
 */
import { GUI, type GUIController } from 'dat.gui';
import {
  PARAM_SCHEMA,
  PRESETS,
  PRESET_NAMES,
  allowedText,
  type Flock,
  type FlockParams,
  type ParamSpec,
} from '../index';
import type { ParamFolder } from '../core/params';
import { numberOrText } from '../core/codec';

/** A view-schema entry as the panel reads it (src/core/view.ts's specs fit it). */
export interface ViewSpecLike {
  name: string;
  type: 'float' | 'enum' | 'boolean' | 'color';
  default: unknown;
  unit: string;
  doc: string;
  min?: number;
  max?: number;
  step?: number;
  options?: readonly string[];
}

/**
 * Slider spans and labels of the view options (the parameters' are in PARAM_SCHEMA: `label`,
 * `slider`, `folder`), until the view schema carries them too.
 */
const VIEW_SLIDERS: Record<string, readonly [number, number]> = {
  densityMax: [0, 400],
  boidSize: [0, 4],
  pickedBoid: [-1, 16384],
};
const VIEW_LABELS: Record<string, string> = {
  background: 'Background',
  colorMode: 'Colour by',
  color: 'Boid colour',
  colorMap: 'Density colour map',
  densityMax: 'Density scale top',
  boidSize: 'Boid size',
  fit: 'Framing',
  showBounds: 'Box outline',
  showObstacles: 'Obstacles',
  showPredators: 'Predators',
  showAttractor: 'Attractor marker',
  showGrid: 'Grid cells in use',
  showVelocities: 'Velocity lines',
  pickedBoid: 'Picked boid (click one)',
};

type FolderName = ParamFolder | 'View';

/** `world units/s²` -> `units/s²`: the labels say it short, the tooltips in full. */
function shortUnit(unit: string): string {
  return unit.replace(/world units/g, 'units');
}

/** `perceptionRadius` -> `Perception radius` for names without a label. */
function words(name: string): string {
  const w = name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** A control's label: the schema's words (or the view option's, or the name in words) and the unit. */
export function labelOf(name: string, unit: string, label?: string): string {
  const u = shortUnit(unit);
  return `${label ?? VIEW_LABELS[name] ?? words(name)}${u ? ` (${u})` : ''}`;
}

export interface GuiActions {
  togglePause(): void;
  step(): void;
  reset(): void;
  resetCamera(): void;
  copyLink(): void;
  /** Puts the `<gpu-flock ...>` line of the current state on the clipboard. */
  copyEmbed(): void;
  /** '' for the default scene. */
  applyPreset(name: string): void;
  /** Reopens the page on another backend (keeping the state). */
  switchBackend(choice: string): void;
  /**
   * Changes parameters the demo's way (count and dimensions move the box under scaleBox).
   * @returns a note when the flock runs another value than the one asked for (a count cut to
   *   what this device draws in time), said under the row; null otherwise
   */
  setParams(partial: Partial<FlockParams>): string | null | void;
  setScaleBox(on: boolean): void;
}

export interface ParamGuiOptions {
  flock: Flock;
  actions: GuiActions;
  /** The view schema (empty where the flock has no view options). */
  viewSchema: readonly ViewSpecLike[];
  /** The scene menu's value: a preset name or '' (default). */
  preset(): string;
  scaleBox(): boolean;
  /** The backend choice the page was opened with ('auto' when none). */
  backendChoice: string;
  /** Called after a change was applied. */
  onChange?(name: string): void;
}

interface Row {
  name: string;
  target: 'params' | 'view';
  controllers: GUIController[];
  li: HTMLElement;
  /** The message under the row: a rejection ('error') or what a value became ('note'). */
  error: HTMLElement | null;
  /** The row's value (JSON) when the message was shown: once it changes, the message goes. */
  errorFor?: string;
}

type ViewFlock = Flock & {
  view?: Record<string, unknown>;
  setView?(partial: Record<string, unknown>): void;
};

export class ParamGui {
  readonly gui: GUI;
  private readonly values: Record<string, unknown> = {};
  private readonly vectors: Record<string, { x: number; y: number; z: number }> = {};
  private readonly rows = new Map<string, Row>();
  private readonly extra: GUIController[] = [];
  private pauseController: GUIController | null = null;
  private readonly menu = { scene: '', scaleBox: true, backend: 'auto', drawMode: 'instanced' };
  private readonly folders = new Map<FolderName, GUI>();
  /** Controllers sync() left alone while a person typed in them: refreshed when focus leaves. */
  private readonly stale = new Set<GUIController>();

  constructor(private readonly opts: ParamGuiOptions) {
    const flock = opts.flock as ViewFlock;
    this.gui = new GUI({ width: 330 });
    this.gui.domElement.id = 'param-gui';
    this.gui.domElement.addEventListener('focusout', (e) => {
      for (const c of this.stale) {
        if (!c.domElement.contains(e.target as Node)) continue;
        this.stale.delete(c);
        c.updateDisplay();
      }
    });
    this.menu.scene = opts.preset();
    this.menu.scaleBox = opts.scaleBox();
    this.menu.backend = opts.backendChoice;

    const sceneOptions: Record<string, string> = { 'Default scene': '' };
    for (const n of PRESET_NAMES) sceneOptions[PRESETS[n].title] = n;
    const scene = this.gui.add(this.menu, 'scene', sceneOptions).name('Scene');
    scene.onChange((v: string) => opts.actions.applyPreset(v));
    this.tooltip(scene, 'A preset: parameters and view in one (src/core/presets.ts)');
    this.extra.push(scene);

    for (const f of ['Flock', 'Behaviours', 'World', 'View', 'Backend'] as const) {
      const folder = this.gui.addFolder(f);
      folder.domElement.classList.add(`folder-${f.toLowerCase()}`);
      this.folders.set(f, folder);
    }
    this.folders.get('Flock')!.open();

    const params = flock.params as unknown as Record<string, unknown>;
    for (const spec of PARAM_SCHEMA) {
      // Obstacle lists come from the URL, presets and code; a slider cannot edit them.
      if (spec.type === 'obstacles') continue;
      if (spec.name === 'sort' && flock.backend !== 'webgpu') continue;
      const folder = this.folders.get(spec.folder)!;
      if (spec.name === 'boundsMin') {
        const c = folder.add(this.menu, 'scaleBox').name('Box scales with count');
        c.onChange((v: boolean) => opts.actions.setScaleBox(v));
        this.tooltip(
          c,
          'On: the box grows and shrinks with the count at a fixed density, so the look stays',
        );
        this.extra.push(c);
      }
      this.addParam(folder, spec, params[spec.name]);
    }

    const view = flock.view as unknown as Record<string, unknown>;
    for (const spec of opts.viewSchema) this.addView(spec, view[spec.name]);

    this.addBackendControls();
    this.setRunning(flock.running);
    if (window.matchMedia('(max-width: 640px)').matches) this.gui.close();
  }

  private tooltip(c: GUIController, text: string): HTMLElement {
    const li = c.domElement.closest('li') as HTMLElement;
    li.title = text;
    return li;
  }

  private addParam(folder: GUI, spec: ParamSpec, value: unknown): void {
    const label = labelOf(spec.name, spec.unit, spec.label);
    const tip = `${spec.doc}. Allowed: ${allowedText(spec)}`;
    if (spec.type === 'vec3') {
      const v = value as [number, number, number];
      const proxy = { x: v[0], y: v[1], z: v[2] };
      this.vectors[spec.name] = proxy;
      const sub = folder.addFolder(label);
      sub.domElement.title = tip;
      const controllers: GUIController[] = [];
      for (const axis of ['x', 'y', 'z'] as const) {
        // A number box without a slider: any value, the schema decides.
        const c = sub.add(proxy, axis);
        controllers.push(c);
      }
      const li = sub.domElement.closest('li') as HTMLElement;
      const row: Row = { name: spec.name, target: 'params', controllers, li, error: null };
      this.rows.set(spec.name, row);
      for (const c of controllers) {
        this.interceptTyping(c, row, (text) => {
          const axis = c.property as 'x' | 'y' | 'z';
          const next = { ...proxy, [axis]: numberOrText(text) };
          return [next.x, next.y, next.z];
        });
      }
      return;
    }
    if (spec.type === 'obstacles') return;
    this.values[spec.name] = value;
    let c: GUIController;
    if (spec.type === 'enum') {
      c = folder.add(this.values, spec.name, spec.options as string[]);
      // dat.gui hands back the <option>'s text; map it to the schema's option (2 and 3 are numbers).
      c.onChange((v: unknown) => {
        const option = spec.options.find((o) => String(o) === String(v));
        this.apply(row, option ?? v);
      });
    } else {
      const [lo, hi] = this.sliderRange(spec.name, spec.min, spec.max, spec.default, spec.slider, [
        value as number,
      ]);
      const integer = spec.type !== 'float';
      const step = spec.step ?? (integer ? 1 : (hi - lo) / 1000);
      c = folder.add(this.values, spec.name, lo, hi, step);
      // Re-initialising parameters apply when the drag ends, the others live while dragging.
      const handler = (v: unknown) => this.apply(row, v);
      if (spec.reinit) c.onFinishChange(handler);
      else c.onChange(handler);
    }
    c.name(label);
    const li = this.tooltip(c, tip);
    const row: Row = { name: spec.name, target: 'params', controllers: [c], li, error: null };
    this.rows.set(spec.name, row);
    if (spec.type !== 'enum') this.interceptTyping(c, row, numberOrText);
  }

  private addView(spec: ViewSpecLike, value: unknown): void {
    const folder = this.folders.get('View')!;
    const label = labelOf(spec.name, spec.unit);
    this.values[spec.name] = value;
    let c: GUIController;
    const row = { name: spec.name, target: 'view', controllers: [], error: null } as unknown as Row;
    if (spec.type === 'enum') {
      c = folder.add(this.values, spec.name, [...(spec.options ?? [])]);
      c.onChange((v: unknown) => this.apply(row, v));
    } else if (spec.type === 'boolean') {
      c = folder.add(this.values, spec.name);
      c.onChange((v: unknown) => this.apply(row, v));
    } else if (spec.type === 'color') {
      // A text box: any CSS colour (and `transparent` for the background), checked on Enter.
      c = folder.add(this.values, spec.name);
      c.onFinishChange((v: unknown) => this.apply(row, v));
    } else {
      const [lo, hi] = this.sliderRange(
        spec.name,
        spec.min ?? 0,
        spec.max ?? 1,
        spec.default as number,
        VIEW_SLIDERS[spec.name],
        [value as number],
      );
      c = folder.add(this.values, spec.name, lo, hi, spec.step ?? (hi - lo) / 1000);
      c.onChange((v: unknown) => this.apply(row, v));
    }
    c.name(label);
    row.controllers = [c];
    row.li = this.tooltip(c, `${spec.doc}`);
    this.rows.set(spec.name, row);
    if (spec.type === 'float') {
      this.interceptTyping(c, row, numberOrText);
    }
  }

  private addBackendControls(): void {
    const folder = this.folders.get('Backend')!;
    const { flock, actions } = this.opts;
    const b = folder
      .add(this.menu, 'backend', ['auto', 'webgpu', 'webgl2', 'webgl2-tf', 'cpu'])
      .name('Backend (reloads)');
    b.onChange((v: string) => actions.switchBackend(v));
    this.tooltip(b, `Running: ${flock.backend}. Another choice reopens the page on it`);
    this.extra.push(b);
    if (flock.backend !== 'cpu') {
      this.menu.drawMode = flock.drawMode;
      const d = folder.add(this.menu, 'drawMode', ['instanced', 'vertex-id']).name('Draw mode');
      d.onChange((v: 'instanced' | 'vertex-id') => {
        flock.drawMode = v;
        this.opts.onChange?.('drawMode');
      });
      this.tooltip(d, 'Instanced or vertex-id drawing of the boids (same pixels)');
      this.extra.push(d);
    }
    const buttons = {
      pause: () => actions.togglePause(),
      step: () => actions.step(),
      reset: () => actions.reset(),
      resetCamera: () => actions.resetCamera(),
      copyLink: () => actions.copyLink(),
      copyEmbed: () => actions.copyEmbed(),
    };
    this.pauseController = this.gui.add(buttons, 'pause');
    this.gui.add(buttons, 'step').name('Single step');
    this.gui.add(buttons, 'reset').name('Reset flock');
    this.gui.add(buttons, 'resetCamera').name('Reset camera');
    const copy = this.gui.add(buttons, 'copyLink').name('Copy link');
    copy.domElement.closest('li')!.classList.add('copy-link');
    this.tooltip(copy, 'Puts the whole state (scene, parameters, view, camera) in the address');
    const embed = this.gui.add(buttons, 'copyEmbed').name('Copy embed code');
    embed.domElement.closest('li')!.classList.add('copy-embed');
    this.tooltip(
      embed,
      'Puts the <gpu-flock> line of this flock on the clipboard (the attributes that differ from the defaults)',
    );
  }

  private sliderRange(
    name: string,
    min: number,
    max: number,
    def: unknown,
    wanted: readonly [number, number] | undefined,
    current: number[],
  ): [number, number] {
    let lo = Math.max(min, wanted?.[0] ?? min);
    let hi = Math.min(max, wanted?.[1] ?? Math.max(min + 1, 10 * Math.abs(Number(def))));
    if (name === 'count' && this.opts.flock.maxCount > 0) {
      hi = Math.min(hi, this.opts.flock.maxCount);
    }
    for (const v of current) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    return [lo, hi];
  }

  /**
   * Takes over the text box of a number control: dat.gui would clamp a typed value to the
   * slider's range; here the text goes to the schema as typed (capture listeners on the row run
   * before dat.gui's own on the input).
   */
  private interceptTyping(c: GUIController, row: Row, valueOf: (text: string) => unknown): void {
    const root = c.domElement;
    const input = root.querySelector('input');
    if (!input) return;
    root.addEventListener(
      'change',
      (e) => {
        if (e.target !== input) return;
        e.stopPropagation();
        this.apply(row, valueOf(input.value));
      },
      true,
    );
    root.addEventListener(
      'blur',
      (e) => {
        if (e.target === input) e.stopPropagation();
      },
      true,
    );
    root.addEventListener(
      'keydown',
      (e) => {
        if (e.target !== input || e.key !== 'Enter') return;
        e.stopPropagation();
        input.blur(); // fires 'change' when the text changed
      },
      true,
    );
  }

  /** Labels the pause button after the loop's state. */
  setRunning(running: boolean): void {
    this.pauseController?.name(running ? 'Pause (space)' : 'Resume (space)');
  }

  private apply(row: Row, value: unknown): void {
    const flock = this.opts.flock as ViewFlock;
    try {
      let note: string | null | void = null;
      if (row.target === 'view') flock.setView?.({ [row.name]: value });
      else note = this.opts.actions.setParams({ [row.name]: value } as Partial<FlockParams>);
      this.showError(row, note || null, 'note');
      this.opts.onChange?.(row.name);
    } catch (e) {
      this.showError(row, e instanceof Error ? e.message : String(e));
    }
    // Show what the flock holds now: the new value, or the old one after a rejection (in the
    // row just typed in as well, though its input may still have focus).
    this.sync();
    for (const c of row.controllers) {
      this.stale.delete(c);
      c.updateDisplay();
    }
  }

  /**
   * Shows `message` under the row (null clears it): a rejection ('error', role alert) or what a
   * value became ('note'). It stays while the row shows the value it was about, and goes once
   * the row's value changes (a preset, another valid value, a change from code): sync().
   */
  private showError(row: Row, message: string | null, kind: 'error' | 'note' = 'error'): void {
    row.errorFor = undefined;
    if (message === null) {
      row.error?.remove();
      row.error = null;
      row.li.classList.remove('has-error', 'has-note');
      return;
    }
    if (!row.error) {
      row.error = document.createElement('div');
      row.li.appendChild(row.error);
    }
    row.error.className = kind === 'error' ? 'field-error' : 'field-note';
    if (kind === 'error') row.error.setAttribute('role', 'alert');
    else row.error.setAttribute('role', 'status');
    row.error.textContent = message;
    row.li.classList.toggle('has-error', kind === 'error');
    row.li.classList.toggle('has-note', kind === 'note');
  }

  /** Clears every row's message (a new scene: what they were about is gone). */
  clearMessages(): void {
    for (const row of this.rows.values()) if (row.error) this.showError(row, null);
  }

  /** The error text shown under a field, or null. */
  errorOf(name: string): string | null {
    return this.rows.get(name)?.error?.textContent ?? null;
  }

  /**
   * Sets every control from the flock (after a rejection, a preset, a change from code or the
   * URL), but for one whose input has focus: the text a person is typing stays until they leave
   * the field (Enter, Tab, a click elsewhere), and the control shows the flock's value then.
   */
  sync(): void {
    const flock = this.opts.flock as ViewFlock;
    const params = flock.params as unknown as Record<string, unknown>;
    const view = flock.view ?? {};
    for (const row of this.rows.values()) {
      const v = row.target === 'view' ? view[row.name] : params[row.name];
      if (row.error) {
        // A message is about the value the row showed with it: a new value clears it.
        const key = JSON.stringify(v);
        if (row.errorFor === undefined) row.errorFor = key;
        else if (row.errorFor !== key) this.showError(row, null);
      }
      const proxy = this.vectors[row.name];
      if (proxy) {
        const a = v as number[];
        proxy.x = a[0]!;
        proxy.y = a[1]!;
        proxy.z = a[2]!;
      } else {
        this.values[row.name] = v;
        const c = row.controllers[0] as GUIController & { __min?: number; __max?: number };
        // A value outside the slider (typed, from the URL or code): widen the slider to it.
        if (typeof v === 'number' && c.__min !== undefined && c.__max !== undefined) {
          if (v < c.__min) c.min(v);
          if (v > c.__max) c.max(v);
        }
      }
      for (const c of row.controllers) this.refresh(c);
    }
    this.menu.scene = this.opts.preset();
    this.menu.scaleBox = this.opts.scaleBox();
    for (const c of this.extra) this.refresh(c);
  }

  /** Shows the controller's value, unless a person is typing in it (sync()). */
  private refresh(c: GUIController): void {
    if (c.domElement.contains(document.activeElement)) this.stale.add(c);
    else c.updateDisplay();
  }

  dispose(): void {
    this.gui.destroy();
  }
}
