/**
 * The one text form of every parameter (PARAM_SCHEMA) and view option (VIEW_SCHEMA): what the
 * demo's URL, the <gpu-flock> element's attributes, "copy link" and "copy embed code" read and
 * write. One format per schema type, the number pattern once:
 *
 * | type | text | example |
 * |---|---|---|
 * | `int`, `uint32` | an integer in decimal digits, optional sign (INTEGER_TEXT) | `1200`, `-1` |
 * | `float` | a decimal number; as `int` where the view spec says `integer` | `0.75`, `1e-3` |
 * | `vec3` | 3 numbers split by commas or spaces | `1,2,3`, `1 2 3` |
 * | `obstacles` | a JSON list of {center, radius}, or `x,y,z,r; x,y,z,r`; empty: none | `0,0,0,4; 10,0,0,2` |
 * | `enum` | one of the options, by its text | `wrap`, `2` |
 * | `boolean` | empty (a present attribute), `true`, `1` (true); `false`, `0` (false) | `false` |
 * | `color` | a CSS colour, as written (validation checks it) | `#05080f`, `transparent` |
 *
 * decodeText reads text that follows the format into the value validation takes, and names text
 * that does not in a FlockError (field, text, allowed form); ranges and cross-field rules are
 * left to validateParams / validateView. encodeText writes the text that decodes to the value.
 * No DOM (Node runs it).
 */
import { FlockError, describeValue } from './errors';
import { PARAM_SCHEMA, allowedText, paramSpec, type ParamSpec } from './params';
import { VIEW_SCHEMA, viewAllowedText, viewSpec, type ViewSpec } from './view';

/**
 * The shape of a schema entry the codec reads: a ParamSpec and a ViewSpec both fit it (the
 * element's SchemaEntry too). `type` is one of the table's types (`bool` is read as `boolean`).
 */
export interface CodecEntry {
  /** The schema name, e.g. `perceptionRadius`: the field a FlockError names. */
  name: string;
  /** The schema type. */
  type: string;
  /** An enum's values. */
  options?: readonly unknown[];
  /** An enum's values accepted beside `options` but not listed. */
  unlisted?: readonly unknown[];
  /** A number that must be an integer (a `float` view option holding an id: pickedBoid). */
  integer?: boolean;
}

/** A decimal number: optional sign, digits with an optional point, an optional exponent. No hex, no `Infinity`. */
export const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * An integer's text: HTML's rules for parsing integers, strict (a web component's integer
 * attribute, as `<input maxlength>`): ASCII whitespace around is skipped; between, an optional
 * sign and decimal digits only. Not `1e3`, `64.0`, `0x10` or `64px` (HTML would read `64.0` and
 * `64px` as 64; a typo is named here instead).
 */
export const INTEGER_TEXT = /^[\t\n\f\r ]*[+-]?\d+[\t\n\f\r ]*$/;

/** The number `text` (trimmed) spells in NUMBER_TEXT's form, else undefined. */
export function numberFromText(text: string): number | undefined {
  const t = text.trim();
  return NUMBER_TEXT.test(t) ? Number(t) : undefined;
}

/** The number `text` spells, or the text itself (a typed value that validation then names). */
export function numberOrText(text: string): number | string {
  return numberFromText(text) ?? text;
}

/** A boolean's text: empty, `true`, `1` (true); `false`, `0` (false), any case; else undefined. */
export function booleanFromText(text: string): boolean | undefined {
  const l = text.trim().toLowerCase();
  if (l === '' || l === 'true' || l === '1') return true;
  if (l === 'false' || l === '0') return false;
  return undefined;
}

/** The obstacles text form, as the README's attribute table gives it (Markdown). */
export const OBSTACLES_FORMAT = 'JSON list, or `x,y,z,r; x,y,z,r` (up to 16)';

/** The boolean text form in FlockError's words (`allowed`). */
export const BOOLEAN_ALLOWED = 'true or false: empty, "true" or "1" (true), "false" or "0" (false)';

/** The boolean text form (Markdown). */
export const BOOLEAN_FORMAT = 'present (true), `true`, `1`, `false` or `0`';

/** What decodeText gives: the value, or the error naming the text and the allowed form. */
export type Decoded = { ok: true; value: unknown } | { ok: false; error: FlockError };

/** The parameter or view option of this name, or undefined. */
export function codecEntry(name: string): ParamSpec | ViewSpec | undefined {
  return paramSpec(name) ?? viewSpec(name);
}

/** Every entry the codec covers: the parameters, then the view options. */
export const CODEC_ENTRIES: readonly (ParamSpec | ViewSpec)[] = [...PARAM_SCHEMA, ...VIEW_SCHEMA];

function isBoolean(type: string): boolean {
  return type === 'boolean' || type === 'bool';
}

/** A Markdown form in FlockError's words (backticks as double quotes). */
function plain(markdown: string): string {
  return markdown.replace(/`/g, '"');
}

/**
 * The allowed values in FlockError's words: the schema's own text (the same words validation
 * uses, so a URL's `count=lots` reads as before), the text form for obstacles and booleans.
 */
export function allowedForm(entry: CodecEntry): string {
  if (entry.type === 'obstacles') return plain(OBSTACLES_FORMAT);
  if (isBoolean(entry.type)) return BOOLEAN_ALLOWED;
  const param = paramSpec(entry.name);
  if (param && param.type === entry.type) return allowedText(param);
  const view = viewSpec(entry.name);
  if (view && view.type === entry.type) return viewAllowedText(view);
  switch (entry.type) {
    case 'int':
    case 'uint32':
      return 'an integer';
    case 'float':
      return entry.integer ? 'an integer' : 'a finite number';
    case 'vec3':
      return '3 finite numbers x,y,z';
    case 'enum':
      return `one of ${[...(entry.options ?? [])].map((o) => describeValue(o)).join(', ')}`;
    default:
      return entry.type;
  }
}

/** Numbers split by commas and/or spaces (`1,2,3`, `1 2 3`, `1, 2, 3`). */
function numberList(text: string): (number | undefined)[] {
  return text
    .trim()
    .split(/\s*,\s*|\s+/)
    .map(numberFromText);
}

function fail(entry: CodecEntry, value: unknown, detail?: string): Decoded {
  return { ok: false, error: new FlockError(entry.name, value, allowedForm(entry), detail) };
}

function isInteger(entry: CodecEntry): boolean {
  return entry.type === 'int' || entry.type === 'uint32' || entry.integer === true;
}

/**
 * Reads `text` as `entry`'s type wants it (the module table). Text outside the format gives a
 * FlockError naming entry.name, the text (a fraction for an integer: the number) and the allowed
 * form; a value in the format but out of range is returned for validation to name.
 */
export function decodeText(entry: CodecEntry, text: string): Decoded {
  const t = text.trim();
  switch (entry.type) {
    case 'int':
    case 'uint32':
    case 'float': {
      const n = numberFromText(t);
      if (n === undefined) return fail(entry, text);
      if (!isInteger(entry)) return { ok: true, value: n };
      if (!Number.isInteger(n)) return fail(entry, n);
      if (!INTEGER_TEXT.test(text)) return fail(entry, text, 'digits only: no exponent or point');
      return { ok: true, value: n || 0 }; // "-0" reads 0
    }
    case 'vec3': {
      const n = numberList(t);
      if (n.length !== 3 || n.some((x) => x === undefined)) return fail(entry, text);
      return { ok: true, value: n };
    }
    case 'enum': {
      const all = [...(entry.options ?? []), ...(entry.unlisted ?? [])];
      const found = all.find((o) => String(o) === t);
      return found === undefined ? fail(entry, text) : { ok: true, value: found };
    }
    case 'bool':
    case 'boolean': {
      const b = booleanFromText(t);
      return b === undefined ? fail(entry, text) : { ok: true, value: b };
    }
    case 'obstacles':
      return decodeObstacles(entry, text);
    default:
      return { ok: true, value: text };
  }
}

function decodeObstacles(entry: CodecEntry, text: string): Decoded {
  const t = text.trim();
  if (t === '') return { ok: true, value: [] };
  if (t.startsWith('[')) {
    try {
      return { ok: true, value: JSON.parse(t) as unknown };
    } catch (e) {
      return fail(entry, text, `not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const parts = t.split(';');
  const out: { center: number[]; radius: number }[] = [];
  for (let k = 0; k < parts.length; k++) {
    const n = numberList(parts[k]!);
    if (n.length !== 4 || n.some((x) => x === undefined)) {
      const shown = describeValue(parts[k]!.trim());
      return fail(
        entry,
        text,
        `sphere ${k + 1} of ${parts.length}, ${shown}, is not 4 numbers x,y,z,r`,
      );
    }
    const [x, y, z, r] = n as number[];
    out.push({ center: [x!, y!, z!], radius: r! });
  }
  return { ok: true, value: out };
}

/** Options of encodeText. */
export interface EncodeOptions {
  /**
   * Round every number to this many decimals (the demo's link: short, readable); default: the
   * shortest text that reads back as the same double (String(x)).
   */
  decimals?: number;
}

function numberText(x: number, decimals: number | undefined): string {
  if (decimals === undefined) return String(x);
  const f = 10 ** decimals;
  return String(Math.round(x * f) / f);
}

/**
 * The text of `value` in `entry`'s format, which decodeText reads back as `value` (exactly, when
 * no `decimals` is given). Obstacles as `x,y,z,r; x,y,z,r` (no obstacles: empty text); booleans
 * as `true`/`false`; anything the schema does not type (a colour) as String(value).
 */
export function encodeText(entry: CodecEntry, value: unknown, options: EncodeOptions = {}): string {
  const num = (x: unknown) => (typeof x === 'number' ? numberText(x, options.decimals) : String(x));
  switch (entry.type) {
    case 'int':
    case 'uint32':
    case 'float':
      return num(value);
    case 'vec3':
      return (value as readonly unknown[]).map(num).join(',');
    case 'obstacles':
      return (value as readonly { center: readonly number[]; radius: number }[])
        .map((o) => [...o.center, o.radius].map(num).join(','))
        .join('; ');
    default:
      return String(value);
  }
}

/**
 * The value a text stands for, as `spec`'s type wants it (decodeText), or the text unchanged
 * where it is outside the format, so validateView's error shows it. Kept for the public API;
 * new code uses decodeText, which names the format.
 */
export function viewValueFromText(spec: ViewSpec, text: string): unknown {
  const d = decodeText(spec, text);
  return d.ok ? d.value : text;
}
