/**
 * The <gpu-flock> element's attributes, derived from the schemas (no DOM here, so Node can build
 * the README's attribute table from it): every parameter of PARAM_SCHEMA, and every view option
 * of the view schema, by its kebab-case name, plus the element's own attributes. Attribute text
 * is read by the one text codec (src/core/codec.ts, shared with the demo's URL, its link and the
 * embed code); text outside the format is named by attributeFormatError, with that format.
 */
import { PARAM_SCHEMA, allowedText, type ParamSpec } from '../core/params';
import { describeValue, type FlockError } from '../core/errors';
import { BOOLEAN_FORMAT, OBSTACLES_FORMAT, decodeText } from '../core/codec';

/** The shape of a schema entry the element needs (parameter and view specs both fit it). */
export interface SchemaEntry {
  /** The schema name, e.g. `perceptionRadius`. */
  name: string;
  /** Its type: `int`, `float`, `vec3`, `enum`, `bool`, `color`, `obstacles`, ... */
  type: string;
  /** The default value. */
  default: unknown;
  /** One line: what it does. */
  doc: string;
  /** Unit, e.g. `world units`. */
  unit?: string;
  /** The values an `enum` takes. */
  options?: readonly unknown[];
  /** An enum's values accepted beside `options` but not listed (the default's own name). */
  unlisted?: readonly unknown[];
  /** The default in words where it is not one value (the tables print it). */
  defaultText?: string;
  /** Smallest allowed number. */
  min?: number;
  /** Largest allowed number. */
  max?: number;
  /** A `float` that takes only integers (pickedBoid). */
  integer?: boolean;
}

/** One of the element's own attributes (not from a schema), as the README table lists it. */
export interface ElementAttribute {
  /** The attribute name. */
  attribute: string;
  /** What it takes, in words (Markdown). */
  allowed: string;
  /** Its default, in words (Markdown). */
  default: string;
  /** What it does (Markdown). */
  doc: string;
}

/** Which object an attribute feeds: flock params (setParams) or view options (setView). */
export type AttributeTarget = 'params' | 'view';

/** An attribute that comes from a schema (every parameter and view option, kebab case). */
export interface SchemaAttribute {
  /** The kebab-case attribute name, e.g. `perception-radius`. */
  attribute: string;
  /** The schema name, e.g. `perceptionRadius`. */
  name: string;
  /** Whether it feeds setParams or setView. */
  target: AttributeTarget;
  /** Its schema entry. */
  spec: SchemaEntry;
}

/** `perceptionRadius` -> `perception-radius`. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The element's own attributes (not in a schema), with their documentation. */
export const ELEMENT_ATTRIBUTES: readonly ElementAttribute[] = [
  {
    attribute: 'backend',
    allowed: '`auto`, `webgpu`, `webgl2`, `webgl2-tf`, `cpu`',
    default: '`auto`',
    doc: 'The rung to run; an explicit one that cannot start fires `error` (only `auto` falls back at the start; a context lost for good later falls to the next rung on any). Changing it rebuilds the flock.',
  },
  {
    attribute: 'disable',
    allowed: 'comma list of capability names',
    default: '(none)',
    doc: 'Hide capabilities to force a rung, e.g. `webgpu,EXT_color_buffer_float`. Changing it rebuilds the flock.',
  },
  {
    attribute: 'paused',
    allowed: 'boolean attribute',
    default: 'absent',
    doc: 'Present: the frame loop stops (the last frame stays).',
  },
  {
    attribute: 'interactive',
    allowed: 'boolean attribute',
    default: 'absent',
    doc: 'Present: the pointer attracts the flock; a second button or a long touch repels.',
  },
  {
    attribute: 'preset',
    allowed: '`murmuration`, `school`, `swarm`, `stress`',
    default: 'absent',
    doc: 'A scene (src/core/presets.ts): its parameters, view and box; other attributes override it, and `count` alone resizes its box. Changing it rebuilds the flock.',
  },
  {
    attribute: 'bounds',
    allowed: '`auto`',
    default: 'absent',
    doc: "`auto`: the box follows the element's shape at the default density (the same as `auto-bounds`; the default when no box is given).",
  },
  {
    attribute: 'motion',
    allowed: '`auto`, `always`',
    default: '`auto`',
    doc: 'With `prefers-reduced-motion: reduce` the element draws one still, formed flock; `always` animates anyway (the page opts in to motion).',
  },
];

/**
 * View options whose default differs in the element (DESIGN.md section 7): it warms a flock up
 * before the first frame (createFlock: 0), 2 simulated seconds in 3D and 3 in 2D
 * (defaultWarmupSeconds, src/core/warmup-runner.ts; the value here is the 3D one, the element
 * takes the 2D one when `dimensions="2"`). `pointer` is `element` when the `interactive`
 * attribute is present, else `off`, as in VIEW_SCHEMA.
 */
export const ELEMENT_VIEW_DEFAULTS: Readonly<Record<string, unknown>> = { warmup: 2 };
/**
 * How the attribute table and the typed attributes print an element default that depends on
 * other attributes (Markdown; backticks are dropped where plain text is wanted).
 */
export const ELEMENT_VIEW_DEFAULT_TEXT: Readonly<Record<string, string>> = {
  warmup: '`2` in 3D, `3` in 2D',
  autoBounds: '`true` unless `bounds-min`, `bounds-max` or `preset` is given',
  fit: '`cover` under `auto-bounds`, else `contain`',
};

/** Every schema-driven attribute: the params', then the view options'. */
export function schemaAttributes(viewSchema: readonly SchemaEntry[] = []): SchemaAttribute[] {
  const out: SchemaAttribute[] = [];
  for (const spec of PARAM_SCHEMA as readonly SchemaEntry[]) {
    out.push({ attribute: kebabCase(spec.name), name: spec.name, target: 'params', spec });
  }
  for (const spec of viewSchema) {
    out.push({ attribute: kebabCase(spec.name), name: spec.name, target: 'view', spec });
  }
  return out;
}

/**
 * The value of an attribute's text for the schema's type (src/core/codec.ts decodeText); text
 * outside the format is returned as it is (attributeFormatError names it). Booleans: present
 * (empty), `true`, `1`, `false`, `0`. Lists of obstacles: JSON, or `x,y,z,r; x,y,z,r`.
 */
export function parseAttribute(spec: SchemaEntry, text: string): unknown {
  const d = decodeText(spec, text);
  return d.ok ? d.value : text;
}

/**
 * The error of attribute text that does not follow its attribute's format (src/core/codec.ts),
 * else null: a number that is not one, a fraction for an integer (`picked-boid="1.5"`), a
 * boolean other than present/`true`/`1`/`false`/`0` (`antialias="off"`), an enum's unknown
 * name, an `obstacles` text that is neither a JSON list nor `x,y,z,r; x,y,z,r`. Text in the
 * format with values out of range is left to validation, which names the field (for obstacles:
 * the sphere and the field).
 * @returns a FlockError naming the schema field (the attribute's name for obstacles, the same),
 *   the text and the allowed form, or null
 */
export function attributeFormatError(
  attr: Pick<SchemaAttribute, 'attribute' | 'spec'>,
  text: string,
): FlockError | null {
  const d = decodeText(attr.spec, text);
  return d.ok ? null : d.error;
}

/**
 * The allowed values in words, for the table (the schema's own text where it has one); `asText`:
 * as attribute text (an integer's is digits only, src/core/codec.ts INTEGER_TEXT).
 */
function allowedOf(spec: SchemaEntry, asText = false): string {
  if (spec.type === 'bool' || spec.type === 'boolean') return BOOLEAN_FORMAT;
  if (spec.type === 'obstacles') return OBSTACLES_FORMAT;
  if (spec.type === 'color')
    return 'a CSS colour' + (spec.name === 'background' ? ', or `transparent`' : '');
  if (spec.options) return spec.options.map((o) => `\`${String(o)}\``).join(', ');
  if (['int', 'uint32', 'float', 'vec3'].includes(spec.type) && spec.min !== undefined) {
    const kind =
      spec.type === 'vec3'
        ? 'x,y,z'
        : spec.type === 'float' && !spec.integer
          ? 'number'
          : asText
            ? 'integer (digits only)'
            : 'integer';
    const range = `${describeValue(spec.min)} to ${describeValue(spec.max)}`;
    return `${kind}, ${range}${spec.unit ? ` ${spec.unit}` : ''}`;
  }
  try {
    return allowedText(spec as ParamSpec) ?? spec.type;
  } catch {
    return spec.type;
  }
}

function defaultOf(spec: SchemaEntry, target: AttributeTarget): string {
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (target === 'view' && spec.name in ELEMENT_VIEW_DEFAULT_TEXT) {
    return ELEMENT_VIEW_DEFAULT_TEXT[spec.name]!;
  }
  const d =
    target === 'view' && spec.name in ELEMENT_VIEW_DEFAULTS
      ? ELEMENT_VIEW_DEFAULTS[spec.name]
      : spec.default;
  if (spec.type === 'bool' || spec.type === 'boolean') return `\`${String(Boolean(d))}\``;
  if (Array.isArray(d)) {
    if (d.length === 0) return '(none)';
    if (d.every((x) => typeof x === 'number')) return `\`${d.join(',')}\``;
    return `\`${JSON.stringify(d)}\``;
  }
  if (typeof d === 'number') {
    // 1/60 and the like: a short decimal, not 17 digits.
    return `\`${Number.isInteger(d) ? d : Number(d.toPrecision(6))}\``;
  }
  return `\`${String(d)}\``;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The view options as a Markdown table (option, allowed values, default, what it does), from
 * VIEW_SCHEMA: the README's "View options" table (createFlock's defaults: the schema's).
 */
export function viewOptionsTable(viewSchema: readonly SchemaEntry[]): string {
  const rows = ['| option | allowed | default | what it does |', '|---|---|---|---|'];
  for (const s of viewSchema) {
    const allowed = s.type === 'boolean' ? '`true`, `false`' : allowedOf(s);
    rows.push(
      `| \`${s.name}\` | ${cell(allowed)} | ${cell(defaultOf(s, 'params'))} | ${cell(s.doc)} |`,
    );
  }
  return rows.join('\n');
}

/**
 * The README's attribute table (Markdown), generated from the schemas: every attribute the
 * element reads, its allowed values, its default and what it does.
 */
export function attributeTable(viewSchema: readonly SchemaEntry[] = []): string {
  const rows = ['| attribute | allowed | default | what it does |', '|---|---|---|---|'];
  for (const a of schemaAttributes(viewSchema)) {
    const what = a.target === 'view' ? `${a.spec.doc} (view option \`${a.name}\`)` : a.spec.doc;
    rows.push(
      `| \`${a.attribute}\` | ${cell(allowedOf(a.spec, true))} | ${cell(defaultOf(a.spec, a.target))} | ${cell(what)} |`,
    );
  }
  for (const e of ELEMENT_ATTRIBUTES) {
    rows.push(`| \`${e.attribute}\` | ${e.allowed} | ${e.default} | ${cell(e.doc)} |`);
  }
  return rows.join('\n');
}
