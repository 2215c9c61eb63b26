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

  constructor(field: string, value: unknown, allowed: string, detail?: string) {
    const shown = describeValue(value);
    super(
      `${field} = ${shown} is not allowed; allowed: ${allowed}` + (detail ? ` (${detail})` : ''),
    );
    this.name = 'FlockError';
    this.field = field;
    this.value = value;
    this.allowed = allowed;
  }
}

/** Longest printed value in an error message, characters (the value itself stays in `.value`). */
export const MAX_SHOWN_VALUE = 200;

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
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return `an unprintable ${typeof value}`;
    }
  }
}
