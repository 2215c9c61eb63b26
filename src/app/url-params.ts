/**
 * The demo's URL query -> createFlock options (DESIGN.md section 4, "The demo"). Driven by the
 * parameter schema and the view schema, each value read by the text codec the element's
 * attributes use (src/core/codec.ts: numbers, vec3 as `x,y,z`, obstacles as `x,y,z,r; x,y,z,r`
 * or JSON, enums by name, booleans as empty/1/true/0/false): every parameter name is accepted, every view option name too (`colorMode=heading`, `showBounds`,
 * `background=transparent`, `%23` for a colour's `#`), plus `backend`, `paused`, `disable` and `limits`. Anything invalid or unknown becomes an error
 * message and is left out, so the flock starts with the rest.
 */
import {
  DISABLE_NAMES,
  FlockError,
  PARAM_SCHEMA,
  VIEW_SCHEMA,
  paramSpec,
  validateParams,
  validateView,
  viewSpec,
  type FlockOptions,
  type FlockParams,
} from '../index';
import { booleanFromText, decodeText } from '../core/codec';

export interface ParsedQuery {
  /** Options for createFlock (params holds only the accepted parameters). */
  options: FlockOptions;
  /** `paused`, `paused=1`, `paused=true`: start without the frame loop. */
  paused: boolean;
  /** One readable message per ignored query parameter. */
  errors: string[];
}

type BackendChoice = NonNullable<FlockOptions['backend']>;
const BACKENDS: readonly BackendChoice[] = ['auto', 'webgpu', 'webgl2', 'webgl2-tf', 'cpu'];

/** A URL value as a message shows it: at most 200 characters, then how long it was. */
export function shownText(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}… (${text.length} characters)`;
}

/** Names for a message: the first 10 (quoted, each cut), then how many more. */
function shownList(names: readonly string[]): string {
  const shown = names.slice(0, 10).map((n) => JSON.stringify(shownText(n).slice(0, 40)));
  return shown.join(', ') + (names.length > 10 ? ` and ${names.length - 10} more` : '');
}

function messageOf(e: unknown): string {
  return e instanceof FlockError || e instanceof Error ? e.message : String(e);
}

function ignored(key: string, text: string, why: string): string {
  const shown = text === '' ? key : `${key}=${shownText(text)}`;
  return `URL parameter ${shown} ignored: ${why}`;
}

/**
 * Parses a query string (`location.search`, with or without the leading `?`).
 * Each parameter is validated alone over the defaults (so the message names the field, the value
 * and the allowed range); one that fails alone only because of another URL parameter (minSpeed
 * above the default maxSpeed, with a larger maxSpeed also given) is accepted; finally the accepted
 * set is validated together and any parameter that conflicts with the others is dropped.
 * A key given twice: the last one counts.
 * @param base parameters the URL's apply over (a preset's), instead of the defaults; keys the
 *   caller handles itself (`ownKeys`, e.g. the demo's `preset` and `camera`) are skipped
 */
export function parseQuery(
  search: string,
  base: Partial<FlockParams> = {},
  ownKeys: readonly string[] = [],
): ParsedQuery {
  const query = new URLSearchParams(search);
  for (const k of ownKeys) query.delete(k);
  const baseParams = validateParams(base);
  const problems = new Map<string, string>();
  const options: FlockOptions = {};
  let paused = false;

  const last = new Map<string, string>();
  for (const [k, v] of query) {
    last.delete(k); // keep the order of last occurrence
    last.set(k, v);
  }

  const raw = new Map<string, { text: string; value: unknown }>();
  const view: Record<string, unknown> = {};
  for (const [key, text] of last) {
    const vspec = viewSpec(key);
    if (vspec) {
      // View options are independent of each other: each is checked alone.
      const decoded = decodeText(vspec, text);
      if (!decoded.ok) {
        problems.set(key, messageOf(decoded.error));
        continue;
      }
      try {
        validateView({ [key]: decoded.value });
        view[key] = decoded.value;
      } catch (e) {
        problems.set(key, messageOf(e));
      }
      continue;
    }
    if (key === 'backend') {
      const b = text.trim() as BackendChoice;
      if (BACKENDS.includes(b)) options.backend = b;
      else problems.set(key, `allowed: one of ${BACKENDS.map((x) => `"${x}"`).join(', ')}`);
    } else if (key === 'paused') {
      const b = booleanFromText(text);
      if (b !== undefined) paused = b;
      else problems.set(key, 'allowed: paused, paused=1, paused=true, paused=0 or paused=false');
    } else if (key === 'limits') {
      // limits=phone: every backend sees a phone's limits (FlockOptions.limits).
      if (text.trim() === 'phone') options.limits = 'phone';
      else problems.set(key, 'allowed: limits=phone');
    } else if (key === 'disable') {
      const list = text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      const known = list.filter((d) => (DISABLE_NAMES as readonly string[]).includes(d));
      const unknown = list.filter((d) => !known.includes(d));
      if (unknown.length > 0) {
        problems.set(
          key,
          `unknown ${shownList(unknown)}` +
            (known.length > 0 ? ` (kept ${known.join(',')})` : '') +
            `; allowed: a comma list of ${DISABLE_NAMES.join(', ')}`,
        );
      }
      if (known.length > 0) options.disable = known;
    } else {
      raw.set(key, { text, value: text });
    }
  }

  // 1. Each parameter alone over the defaults.
  const accepted = new Map<string, unknown>();
  const failed = new Map<string, string>();
  for (const [key, entry] of raw) {
    const spec = paramSpec(key);
    if (!spec) {
      const names = [
        'backend',
        'paused',
        'disable',
        'limits',
        ...ownKeys,
        ...PARAM_SCHEMA.map((sp) => sp.name),
        ...VIEW_SCHEMA.map((sp) => sp.name),
      ];
      failed.set(key, `unknown URL parameter "${shownText(key)}"; known: ${names.join(', ')}`);
      continue;
    }
    const decoded = decodeText(spec, entry.text);
    if (!decoded.ok) {
      problems.set(key, messageOf(decoded.error));
      raw.delete(key);
      continue;
    }
    const value = (entry.value = decoded.value);
    try {
      validateParams({ [key]: value }, baseParams);
      accepted.set(key, value);
    } catch (e) {
      failed.set(key, messageOf(e));
    }
  }
  // 2. Those that fail alone may pass beside the others (a cross-field rule the URL satisfies).
  for (let changed = true; changed;) {
    changed = false;
    for (const key of failed.keys()) {
      const value = raw.get(key)!.value;
      if (!validTogether(accepted, key, value, baseParams)) continue;
      accepted.set(key, value);
      failed.delete(key);
      changed = true;
    }
  }
  // 3. The accepted set as a whole: drop whatever conflicts with the rest.
  while (accepted.size > 0) {
    try {
      validateParams(Object.fromEntries(accepted), baseParams);
      break;
    } catch (e) {
      // Blame the field the error names; else (boundsMax named for a bad boundsMin) the latest one.
      const field =
        e instanceof FlockError && accepted.has(e.field) ? e.field : [...accepted.keys()].pop()!;
      accepted.delete(field);
      failed.set(field, `${messageOf(e)} (with the other URL parameters)`);
    }
  }

  for (const [key, msg] of failed) problems.set(key, msg);
  const errors: string[] = [];
  for (const [key, text] of last) {
    const msg = problems.get(key);
    if (msg !== undefined) errors.push(ignored(key, text, msg));
  }
  if (accepted.size > 0) options.params = Object.fromEntries(accepted);
  if (Object.keys(view).length > 0) options.view = view;
  return { options, paused, errors };
}

/** True when `key = value` validates together with the accepted parameters. */
function validTogether(
  accepted: Map<string, unknown>,
  key: string,
  value: unknown,
  base: FlockParams,
): boolean {
  try {
    validateParams({ ...Object.fromEntries(accepted), [key]: value }, base);
    return true;
  } catch {
    return false;
  }
}
