/**
 * The `<gpu-flock ...>` line for a flock's parameters and view (the demo's "Copy embed code",
 * DESIGN.md section 7): the attributes that differ from what the element does without them, in
 * schema order, so that pasting the line into a page gives the same parameters and view. No DOM
 * (unit-tested in Node). Owns nothing.
 */
import { PARAM_SCHEMA, defaultParams, type FlockParams } from '../core/params';
import { VIEW_SCHEMA, resolvedShape, type ViewOptions } from '../core/view';
import { encodeText } from '../core/codec';
import { defaultWarmupSeconds } from '../core/warmup-runner';
import { ELEMENT_VIEW_DEFAULTS, kebabCase } from './attributes';

/** What the line is made from. */
export interface EmbedState {
  params: FlockParams;
  view: Partial<ViewOptions> | Readonly<Record<string, unknown>>;
  /** An explicit backend (null or 'auto': left out). */
  backend?: string | null;
  /** Hidden capabilities (empty: left out). */
  disable?: readonly string[];
}

/** View options the line leaves out: debug state of one session (the picked boid). */
const LEFT_OUT = new Set(['pickedBoid']);

/** An attribute value, HTML-escaped for a double-quoted attribute. */
function quoted(text: string): string {
  return `"${text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The element line for `s`. `count` is always written (without it the element picks a count
 * for the device); other parameters and view options only where they differ from the element's
 * defaults (its warmup is 2 s in 3D, 3 s in 2D; its box follows it unless one is given, framed
 * with fit cover: a flock in DESIGN's default box is written `auto-bounds="false"`). Booleans are bare attributes when true, `="false"` when a true
 * default is turned off; `pointer: element` is written `interactive`, `autoBounds` as
 * `bounds="auto"` (and then no bounds-min/bounds-max: the box follows the element). Values are
 * written by the text codec (src/core/codec.ts encodeText): numbers as JavaScript's shortest
 * exact text, so they read back as the same doubles; obstacles as `x,y,z,r; x,y,z,r`.
 */
export function embedCode(s: EmbedState): string {
  const attrs: string[] = [];
  const add = (name: string, value?: string) =>
    attrs.push(value === undefined ? name : `${name}=${quoted(value)}`);
  if (s.backend && s.backend !== 'auto') add('backend', s.backend);
  if (s.disable && s.disable.length > 0) add('disable', s.disable.join(','));
  const view = s.view as Readonly<Record<string, unknown>>;
  const auto = view.autoBounds === true;
  const defaults = defaultParams() as unknown as Record<string, unknown>;
  const params = s.params as unknown as Record<string, unknown>;
  for (const spec of PARAM_SCHEMA) {
    const v = params[spec.name];
    if (auto && (spec.name === 'boundsMin' || spec.name === 'boundsMax')) continue;
    if (spec.name !== 'count' && same(v, defaults[spec.name])) continue;
    add(kebabCase(spec.name), encodeText(spec, v));
  }
  for (const spec of VIEW_SCHEMA) {
    if (LEFT_OUT.has(spec.name)) continue;
    const v = view[spec.name];
    if (v === undefined) continue;
    if (spec.name === 'autoBounds') {
      if (v === true) add('bounds', 'auto');
      // The element's box follows it unless one is given: DESIGN's box is written as no box.
      else if (
        same(params.boundsMin, defaults.boundsMin) &&
        same(params.boundsMax, defaults.boundsMax)
      )
        add('auto-bounds', 'false');
      continue;
    }
    if (spec.name === 'fit' && v === (auto ? 'cover' : 'contain')) continue;
    if (spec.name === 'pointer' && v === 'element') {
      add('interactive');
      continue;
    }
    const d =
      spec.name === 'warmup'
        ? defaultWarmupSeconds(s.params.dimensions)
        : spec.name in ELEMENT_VIEW_DEFAULTS
          ? ELEMENT_VIEW_DEFAULTS[spec.name]
          : spec.default;
    if (same(v, d)) continue;
    // A flock's view reads its default shape resolved (bird in 3D, arrow in 2D).
    if (spec.name === 'shape' && v === resolvedShape('auto', s.params.dimensions)) continue;
    if (spec.type === 'boolean') add(kebabCase(spec.name), v === true ? undefined : 'false');
    else add(kebabCase(spec.name), encodeText(spec, v));
  }
  return `<gpu-flock ${attrs.join(' ')}></gpu-flock>`;
}
