/**
 * Bad values of each parameter, derived from its spec in PARAM_SCHEMA (type and range), for the
 * validation tests in Node and through a running flock: wrong types, non-finite numbers, values
 * just outside [min, max], a non-integer for integer fields, an option of the wrong type, one
 * obstacle too many. No DOM imports.
 */
import type { ParamSpec } from '../../src/core/params';

/** Just outside [min, max]. */
const below = (min: number) => min - Math.max(Math.abs(min) * 1e-6, 1e-6);
const above = (max: number) => max + Math.max(Math.abs(max) * 1e-6, 1e-6);

/** Bad values of one field, from its spec: wrong types, non-finite, just outside its range. */
export function badValues(spec: ParamSpec): unknown[] {
  switch (spec.type) {
    case 'int':
    case 'uint32':
      return [
        NaN,
        Infinity,
        below(spec.min),
        spec.min - 1,
        spec.max + 1,
        spec.min + 0.5,
        '1',
        null,
      ];
    case 'float':
      return [NaN, Infinity, -Infinity, below(spec.min), above(spec.max), '2', null];
    case 'vec3':
      return [
        [1, 2],
        [1, 2, NaN],
        'a,b,c',
        [1, 2, 'x'],
        [below(spec.min), 0, 0],
        [0, 0, above(spec.max)],
      ];
    case 'enum': {
      const first = spec.options[0]!;
      // An option's text where it is a number, a number where options are words.
      return ['nope', null, typeof first === 'number' ? String(first) : spec.options.length];
    }
    case 'obstacles':
      return [
        'a',
        null,
        { center: [0, 0, 0], radius: 1 },
        Array.from({ length: spec.maxItems + 1 }, () => ({ center: [0, 0, 0], radius: 1 })),
      ];
  }
}
