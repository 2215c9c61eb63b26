/**
 * Reading a <gpu-flock> element's attributes into createFlock options: the backend, the disable
 * list and the preset (the attributes that rebuild the flock), the element's own defaults, and
 * every schema attribute checked over the ones accepted so far. A bad value is reported (the
 * host fires 'error') and left out, or replaced by the value an earlier flock of the element
 * accepted. No flock here: the element owns that.
 */
import { DISABLE_NAMES, FlockError } from '../index';
import type { BackendChoice, FlockOptions } from '../index';
import { validateParams } from '../core/params';
import { shownList } from '../core/errors';
import { validateView } from '../core/view';
import { BOOLEAN_ALLOWED, booleanFromText } from '../core/codec';
import { isPresetName, presetOptions, rescaleForCount, PRESET_NAMES } from '../core/presets';
import {
  ELEMENT_VIEW_DEFAULTS,
  attributeFormatError,
  parseAttribute,
  schemaAttributes,
  type SchemaAttribute,
} from './attributes';
import { VIEW_SCHEMA_ENTRIES } from './view-support';

/** The backends the `backend` attribute takes. */
export const BACKENDS: readonly BackendChoice[] = ['auto', 'webgpu', 'webgl2', 'webgl2-tf', 'cpu'];

/** Every schema attribute (parameters and view options, kebab case). */
export const SCHEMA_ATTRS: readonly SchemaAttribute[] = schemaAttributes(VIEW_SCHEMA_ENTRIES);
/** The schema attributes by attribute name. */
export const BY_ATTRIBUTE = new Map(SCHEMA_ATTRS.map((a) => [a.attribute, a]));
/** The attributes whose change builds a new flock. */
export const REBUILD_ATTRIBUTES = new Set(['backend', 'disable', 'preset']);

/** The names of a `disable` attribute (comma- or space-separated). */
export function disableList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** backend, disable and preset by name: a change back to a flock's own needs no rebuild. */
export const rebuildValues = (el: AttributeSource): Map<string, string | null> =>
  new Map([...REBUILD_ATTRIBUTES].map((n) => [n, el.getAttribute(n)]));

/** The error of a bad backend, disable or preset value (these rebuild the flock), or null. */
export function rebuildValueError(name: string, value: string | null): FlockError | null {
  const v = value?.trim() ?? '';
  if (name === 'backend' && value !== null && !BACKENDS.includes(v as BackendChoice))
    return new FlockError('backend', value, `one of ${BACKENDS.map((x) => `"${x}"`).join(', ')}`);
  if (name === 'disable' && value !== null) {
    const unknown = disableList(value).filter(
      (d) => !(DISABLE_NAMES as readonly string[]).includes(d),
    );
    if (unknown.length > 0)
      return new FlockError(
        'disable',
        value,
        `a comma list of ${DISABLE_NAMES.join(', ')}`,
        `unknown: ${shownList(unknown)}`,
      );
  }
  if (name === 'preset' && v !== '' && !isPresetName(v))
    return new FlockError(
      'preset',
      value,
      `one of ${PRESET_NAMES.map((n) => `"${n}"`).join(', ')}`,
    );
  return null;
}

/** A schema attribute's default value (a copy of an array default). */
function schemaDefault(attr: SchemaAttribute): unknown {
  const d = attr.spec.default;
  return Array.isArray(d) ? [...(d as unknown[])] : d;
}

/** The attributes an element reads (getAttribute, hasAttribute). */
export interface AttributeSource {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

/**
 * A boolean element attribute (`paused`, `interactive`): absent is false; present reads as the
 * codec's booleans (empty, `true`, `1`; `false`, `0`). Any other text is reported (`report`,
 * a FlockError naming the attribute, its text and BOOLEAN_ALLOWED) and the last good value in
 * `memory` is kept (false when there is none).
 */
export function flagAttribute(
  el: AttributeSource,
  name: 'paused' | 'interactive',
  memory: Pick<AttributeMemory, 'lastGood'>,
  report?: (attribute: string, text: string | null, e: unknown) => void,
): boolean {
  const text = el.getAttribute(name);
  const value = text === null ? false : booleanFromText(text);
  if (value === undefined) {
    report?.(name, text, new FlockError(name, text, BOOLEAN_ALLOWED));
    return (memory.lastGood.get(name) as boolean | undefined) ?? false;
  }
  memory.lastGood.set(name, value);
  return value;
}

/**
 * An absent attribute's value: the element's own default where it has one (attributes.ts:
 * `pointer` from `interactive`, `autoBounds` from `bounds="auto"`, ELEMENT_VIEW_DEFAULTS), else
 * the schema's.
 */
export function elementDefaultOf(
  el: AttributeSource,
  attr: SchemaAttribute,
  memory: Pick<AttributeMemory, 'lastGood'> = { lastGood: new Map() },
): unknown {
  if (attr.target === 'view') {
    if (attr.name === 'pointer')
      return flagAttribute(el, 'interactive', memory) ? 'element' : 'off';
    if (attr.name === 'autoBounds') return elementAutoBounds(el);
    if (attr.name === 'fit') {
      const given = el.getAttribute('auto-bounds');
      const auto = given !== null ? given.trim() !== 'false' : elementAutoBounds(el);
      return auto ? 'cover' : 'contain';
    }
    if (attr.name in ELEMENT_VIEW_DEFAULTS) return ELEMENT_VIEW_DEFAULTS[attr.name];
  }
  return schemaDefault(attr);
}

/**
 * Whether the element's box follows its shape (view.autoBounds) when `auto-bounds` is not given
 * (issue 27 item 3: every way in fills its canvas): with `bounds="auto"`, or when no box is given
 * at all (no `bounds`, `bounds-min`, `bounds-max` or `preset`: a preset's scene has its own box).
 * Under it the element frames the box with `fit="cover"`, so the flock spans the element.
 */
export function elementAutoBounds(el: AttributeSource): boolean {
  const bounds = el.getAttribute('bounds');
  if (bounds !== null) return bounds.trim() === 'auto';
  return (
    !el.hasAttribute('bounds-min') && !el.hasAttribute('bounds-max') && !el.hasAttribute('preset')
  );
}

/** null when `view` validates over the defaults, else the error. */
function checkView(view: Record<string, unknown>): unknown {
  try {
    validateView(view);
    return null;
  } catch (e) {
    return e;
  }
}

/** null when `params` validate over the defaults, else the error. */
function checkParams(params: Record<string, unknown>): unknown {
  try {
    validateParams(params);
    return null;
  } catch (e) {
    return e;
  }
}

/** What optionsFromAttributes remembers between the element's flocks (the element keeps it). */
export interface AttributeMemory {
  /** The last value of each schema attribute that a flock accepted, by attribute name. */
  readonly lastGood: Map<string, unknown>;
  /** Schema attributes whose last value was rejected. */
  readonly rejected: Set<string>;
  /** The last good `disable` list (a bad value keeps it); undefined when absent. */
  goodDisable: FlockOptions['disable'] | undefined;
}

/** createFlock options with the view as a plain record (the element fills it by name). */
export type ElementOptions = FlockOptions & { view: Record<string, unknown> };

/**
 * The createFlock options the attributes of `el` give; bad ones are passed to `report` (the
 * element fires 'error') and left out, or replaced by the last good value in `memory`. Updates
 * `memory` (lastGood, rejected, goodDisable). autoStart is false: the element starts the loop.
 */
export function optionsFromAttributes(
  el: AttributeSource,
  memory: AttributeMemory,
  report: (attribute: string, text: string | null, e: unknown) => void,
): ElementOptions {
  const options: ElementOptions = { view: {}, autoStart: false };
  const backend = el.getAttribute('backend');
  if (backend !== null) {
    const b = backend.trim() as BackendChoice;
    if (BACKENDS.includes(b)) options.backend = b;
    else
      report(
        'backend',
        backend,
        new FlockError('backend', backend, `one of ${BACKENDS.map((x) => `"${x}"`).join(', ')}`),
      );
  }
  const disable = el.getAttribute('disable');
  if (disable !== null) {
    const bad = rebuildValueError('disable', disable);
    if (bad) {
      report('disable', disable, bad);
      // The last good list when there is one (a bad value keeps it); else the known names.
      options.disable =
        memory.goodDisable ??
        disableList(disable).filter((d) => (DISABLE_NAMES as readonly string[]).includes(d));
    } else {
      options.disable = disableList(disable) as FlockOptions['disable'];
      memory.goodDisable = options.disable;
    }
  } else {
    memory.goodDisable = undefined;
  }
  // A preset (src/core/presets.ts) gives the starting parameters and view; attributes override.
  const params: Record<string, unknown> = {};
  const presetText = el.getAttribute('preset');
  let preset: ReturnType<typeof presetOptions> | null = null;
  if (presetText !== null && presetText.trim() !== '') {
    if (isPresetName(presetText.trim())) {
      preset = presetOptions(presetText.trim());
      Object.assign(params, preset.params);
      const viewNames = new Set(VIEW_SCHEMA_ENTRIES.map((e) => e.name));
      for (const [k, v] of Object.entries(preset.view)) {
        if (viewNames.has(k)) options.view[k] = v;
      }
    } else {
      const allowed = `one of ${PRESET_NAMES.map((n) => `"${n}"`).join(', ')}`;
      report('preset', presetText, new FlockError('preset', presetText, allowed));
    }
  }
  // The element's own defaults (warmup 2 s; pointer from `interactive`; the box follows the
  // element unless one is given, framed with fit cover).
  flagAttribute(el, 'interactive', memory, report);
  flagAttribute(el, 'paused', memory, report);
  for (const name of ['warmup', 'pointer', 'autoBounds', 'fit']) {
    const a = SCHEMA_ATTRS.find((x) => x.target === 'view' && x.name === name);
    if (a) options.view[name] = elementDefaultOf(el, a, memory);
  }
  const bounds = el.getAttribute('bounds');
  if (bounds !== null && bounds.trim() !== 'auto')
    report('bounds', bounds, new FlockError('bounds', bounds, '"auto"'));
  // An attribute in the API's camelCase (perceptionRadius: HTML lowercases it) sets nothing: say so.
  for (const a of SCHEMA_ATTRS) {
    const flat = a.attribute.replaceAll('-', '');
    if (flat !== a.attribute && el.hasAttribute(flat)) {
      const allowed = `the attribute ${a.attribute} (attributes are kebab case)`;
      report(flat, el.getAttribute(flat), new FlockError(flat, el.getAttribute(flat), allowed));
    }
  }
  // Schema attributes: each applied over the ones accepted so far; one that fails only because
  // of another (min-speed above the default max-speed, with a larger max-speed given) is retried.
  let pending = SCHEMA_ATTRS.filter((a) => el.hasAttribute(a.attribute));
  const failures = new Map<string, unknown>();
  for (let progress = true; progress && pending.length > 0;) {
    progress = false;
    const next: SchemaAttribute[] = [];
    for (const a of pending) {
      const text = el.getAttribute(a.attribute) ?? '';
      const value = parseAttribute(a.spec, text);
      const err =
        attributeFormatError(a, text) ??
        (a.target === 'params'
          ? checkParams({ ...params, [a.name]: value })
          : checkView({ ...options.view, [a.name]: value }));
      if (err === null) {
        if (a.target === 'params') params[a.name] = value;
        else options.view[a.name] = value;
        memory.lastGood.set(a.attribute, value);
        failures.delete(a.attribute);
        progress = true;
      } else {
        failures.set(a.attribute, err);
        next.push(a);
      }
    }
    pending = next;
  }
  for (const a of pending) {
    memory.rejected.add(a.attribute);
    report(a.attribute, el.getAttribute(a.attribute), failures.get(a.attribute));
    // The value an earlier flock of this element accepted, if it still fits with the rest.
    if (!memory.lastGood.has(a.attribute)) continue;
    const last = memory.lastGood.get(a.attribute);
    const err =
      a.target === 'params'
        ? checkParams({ ...params, [a.name]: last })
        : checkView({ ...options.view, [a.name]: last });
    if (err !== null) continue;
    if (a.target === 'params') params[a.name] = last;
    else options.view[a.name] = last;
  }
  // A count given beside a preset moves the preset's box with it (same density) unless the
  // bounds are given too.
  if (
    preset &&
    el.hasAttribute('count') &&
    !el.hasAttribute('bounds-min') &&
    !el.hasAttribute('bounds-max') &&
    params.count !== preset.params.count
  ) {
    Object.assign(params, rescaleForCount(validateParams(preset.params), params.count as number));
  }
  options.params = params;
  return options;
}
