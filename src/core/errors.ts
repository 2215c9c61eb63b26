/**
 * FlockError: the one error type gpu-flock throws for bad input and unsupported devices.
 * It names the field, the rejected value and what would have been allowed, so a user can act on it.
 */
export class FlockError extends Error {
  /** The parameter, option or capability at fault, e.g. `perceptionRadius` or `backend`. */
  readonly field: string;
  /** The rejected value, as given. */
  readonly value: unknown;
  /** What is allowed, in words, e.g. `0.01 to 1000 (world units)`. */
  readonly allowed: string;
  /**
   * The largest value allowed, where a number above a device's limit is what failed (a count
   * above a backend's limit on this device), so a caller can cap to it; otherwise undefined.
   */
  readonly limit: number | undefined;

  constructor(field: string, value: unknown, allowed: string, detail?: string, limit?: number) {
    const shown = describeValue(value);
    super(
      `${field} = ${shown} is not allowed; allowed: ${cut(allowed, MAX_SHOWN_TEXT)}` +
        (detail ? ` (${cut(detail, MAX_SHOWN_TEXT)})` : ''),
    );
    this.name = 'FlockError';
    this.field = field;
    this.value = value;
    this.allowed = allowed;
    this.limit = limit;
  }
}

/** Longest printed value in an error message, characters (the value itself stays in `.value`). */
export const MAX_SHOWN_VALUE = 200;
/** Longest `allowed` or detail text in an error message, characters. */
export const MAX_SHOWN_TEXT = 600;
/** Most names a list in a message shows (shownList); the rest are counted. */
export const MAX_SHOWN_NAMES = 10;

/** `text`, or its first `max` characters and how long it was. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * A list of names for a message: the first MAX_SHOWN_NAMES, each cut to 40 characters, then
 * "and N more" (a `disable` list of 10,000 unknown names gave a 69 KB message).
 * @param quote wraps each name in double quotes
 */
export function shownList(names: readonly string[], quote = false): string {
  const shown = names
    .slice(0, MAX_SHOWN_NAMES)
    .map((n) => cut(n, 40))
    .map((n) => (quote ? JSON.stringify(n) : n));
  const more = names.length - shown.length;
  return shown.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

/**
 * A short printable form of any value, for error messages: at most MAX_SHOWN_VALUE characters
 * (a longer one is cut and says how long it was). Never throws (hostile objects, Proxies).
 */
export function describeValue(value: unknown): string {
  const text = printValue(value);
  if (text.length <= MAX_SHOWN_VALUE) return text;
  return `${text.slice(0, MAX_SHOWN_VALUE)}… (${text.length} characters)`;
}

function printValue(value: unknown): string {
  try {
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'symbol' || typeof value === 'function') return typeof value;
    if (Array.isArray(value)) return `[${value.map(printValue).join(', ')}]`;
    if (ArrayBuffer.isView(value)) {
      return `${value.constructor.name}(${(value as unknown as ArrayLike<number>).length})`;
    }
    if (value === undefined) return 'undefined';
    if (isElement(value)) return elementText(value);
    const json = JSON.stringify(value);
    if (json === undefined) return String(value);
    // A DOM node, a Map, a class instance: JSON shows '{}'; name what it is instead.
    const proto = value === null ? null : (Object.getPrototypeOf(value) as object | null);
    if (json === '{}' && proto !== null && proto !== Object.prototype) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      if (typeof name === 'string' && name !== '') return `a ${name}`;
    }
    return json;
  } catch {
    try {
      return String(value);
    } catch {
      return `an unprintable ${typeof value}`;
    }
  }
}

interface ElementLike {
  nodeType: number;
  tagName: string;
  id?: unknown;
  classList?: ArrayLike<string>;
}

function isElement(value: unknown): value is ElementLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { nodeType?: unknown }).nodeType === 1 &&
    typeof (value as { tagName?: unknown }).tagName === 'string'
  );
}

/** An element as a selector a user recognises: `<div#hero.banner>` (at most 2 classes). */
function elementText(el: ElementLike): string {
  let text = `<${el.tagName.toLowerCase()}`;
  if (typeof el.id === 'string' && el.id !== '') text += `#${cut(el.id, 40)}`;
  const classes = el.classList ? Array.from(el.classList) : [];
  for (const c of classes.slice(0, 2)) text += `.${cut(c, 40)}`;
  if (classes.length > 2) text += '…';
  return `${text}>`;
}
