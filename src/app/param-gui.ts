/**
 * The demo's dat.gui panel, built from PARAM_SCHEMA: one control per parameter (numbers as
 * sliders over a GUI-sized range, enums as dropdowns, vec3 as a folder of three numbers), each
 * applied live through flock.setParams. A rejected value (FlockError) is reported through
 * `onError` and every control reverts to flock.params. Owns the GUI's DOM; `dispose()` removes it.
 */
import { GUI, type GUIController } from 'dat.gui';
import { PARAM_SCHEMA, type Flock, type FlockParams, type ParamSpec } from '../index';

/**
 * Slider ranges for the GUI, inside the schema's (often vast) valid range: the part a person
 * would explore. A value outside (from the URL) widens the slider to include it.
 */
const GUI_RANGES: Partial<Record<keyof FlockParams, [number, number]>> = {
  count: [1, 131072],
  boundsMin: [-256, 256],
  boundsMax: [-256, 256],
  perceptionRadius: [0.1, 10],
  separationWeight: [0, 5],
  alignmentWeight: [0, 5],
  cohesionWeight: [0, 5],
  maxSpeed: [0.1, 30],
  minSpeed: [0, 30],
  maxSteerForce: [0, 30],
  timeStep: [0.001, 0.05],
  seed: [0, 9999],
};

export interface GuiActions {
  togglePause(): void;
  step(): void;
  reset(): void;
  resetCamera(): void;
}

export interface ParamGuiOptions {
  flock: Flock;
  actions: GuiActions;
  /** A parameter change was rejected (the message names field, value and allowed range); null after one succeeds. */
  onError(message: string | null): void;
  /** Called after a parameter change was applied. */
  onChange?(name: keyof FlockParams): void;
}

function sliderRange(spec: ParamSpec, current: number[], maxCount: number): [number, number] {
  if (spec.type === 'enum') return [0, 0];
  const wanted = GUI_RANGES[spec.name];
  let lo = Math.max(spec.min, wanted?.[0] ?? spec.min);
  let hi = Math.min(
    spec.max,
    wanted?.[1] ?? Math.max(spec.min + 1, 10 * Math.abs(Number(spec.default))),
  );
  if (spec.name === 'count') hi = Math.min(hi, maxCount);
  for (const v of current) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return [lo, hi];
}

export class ParamGui {
  readonly gui: GUI;
  private readonly values: Record<string, unknown> = {};
  private readonly vectors: Record<string, { x: number; y: number; z: number }> = {};
  private readonly controllers: GUIController[] = [];
  private pauseController: GUIController | null = null;

  constructor(private readonly opts: ParamGuiOptions) {
    const { flock } = opts;
    this.gui = new GUI({ width: 270 });
    this.gui.domElement.id = 'param-gui';
    const params = flock.params as unknown as Record<string, unknown>;
    const maxCount = flock.maxCount > 0 ? flock.maxCount : Infinity;
    for (const spec of PARAM_SCHEMA) {
      // Obstacle lists come from the URL, presets and code; a slider cannot edit them.
      if (spec.type === 'obstacles') continue;
      const title = spec.unit ? `${spec.doc} (${spec.unit})` : spec.doc;
      const value = params[spec.name];
      if (spec.type === 'vec3') {
        const v = value as [number, number, number];
        const proxy = { x: v[0], y: v[1], z: v[2] };
        this.vectors[spec.name] = proxy;
        const folder = this.gui.addFolder(spec.name);
        folder.domElement.title = title;
        const [lo, hi] = sliderRange(spec, v, maxCount);
        for (const axis of ['x', 'y', 'z'] as const) {
          const c = folder.add(proxy, axis, lo, hi, 1);
          c.onChange(() => this.apply(spec.name, [proxy.x, proxy.y, proxy.z]));
          this.controllers.push(c);
        }
        continue;
      }
      this.values[spec.name] = value;
      let c: GUIController;
      if (spec.type === 'enum') {
        c = this.gui.add(this.values, spec.name, spec.options as string[]);
        // dat.gui hands back the <option>'s text; map it to the schema's option (2 and 3 are numbers).
        c.onChange((v: unknown) => {
          const option = spec.options.find((o) => String(o) === String(v));
          this.apply(spec.name, option ?? v);
        });
      } else {
        const [lo, hi] = sliderRange(spec, [value as number], maxCount);
        const integer = spec.type !== 'float';
        const step = spec.step ?? (integer ? 1 : (hi - lo) / 1000);
        c = this.gui.add(this.values, spec.name, lo, hi, step);
        // Re-initialising parameters apply when the drag ends, the others live while dragging.
        const handler = (v: unknown) => this.apply(spec.name, v);
        if (spec.reinit) c.onFinishChange(handler);
        else c.onChange(handler);
      }
      c.domElement.parentElement?.parentElement?.setAttribute('title', title);
      this.controllers.push(c);
    }

    const actions = opts.actions;
    const buttons = {
      pause: () => actions.togglePause(),
      step: () => actions.step(),
      reset: () => actions.reset(),
      resetCamera: () => actions.resetCamera(),
    };
    this.pauseController = this.gui.add(buttons, 'pause');
    this.gui.add(buttons, 'step').name('single step');
    this.gui.add(buttons, 'reset').name('reset flock');
    this.gui.add(buttons, 'resetCamera').name('reset camera');
    this.setRunning(flock.running);
    if (window.innerWidth < 640) this.gui.close();
  }

  /** Labels the pause button after the loop's state. */
  setRunning(running: boolean): void {
    this.pauseController?.name(running ? 'pause' : 'resume');
  }

  private apply(name: keyof FlockParams, value: unknown): void {
    try {
      this.opts.flock.setParams({ [name]: value } as Partial<FlockParams>);
      this.opts.onError(null);
      this.opts.onChange?.(name);
    } catch (e) {
      this.opts.onError(`rejected: ${e instanceof Error ? e.message : String(e)}`);
    }
    // Show what the flock holds now: the new value, or the old one after a rejection; a
    // dimensions or bounds change may have touched nothing else, but re-reading all is cheap.
    this.sync();
  }

  /** Sets every control from flock.params (after a rejection, a fallback, or a change elsewhere). */
  sync(): void {
    const params = this.opts.flock.params as unknown as Record<string, unknown>;
    for (const spec of PARAM_SCHEMA) {
      const v = params[spec.name];
      if (spec.type === 'vec3') {
        const p = this.vectors[spec.name]!;
        const a = v as number[];
        p.x = a[0]!;
        p.y = a[1]!;
        p.z = a[2]!;
      } else {
        this.values[spec.name] = v;
      }
    }
    for (const c of this.controllers) c.updateDisplay();
  }

  dispose(): void {
    this.gui.destroy();
  }
}
