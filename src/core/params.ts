/**
 * The parameter schema (param-schema.ts: FlockParams, the spec types and PARAM_SCHEMA, re-exported
 * here): the single source for validation, the demo's GUI (labels, units, folders, slider spans),
 * the element's attributes and URL parsing; the term table beside it (src/core/terms.ts) says how
 * each parameter reaches the shaders. This module validates against it.
 * Units: world units and seconds.
 */
import { FlockError, describeValue } from './errors';
import {
  PARAM_SCHEMA,
  type FlockParams,
  type Obstacle,
  type ObstaclesSpec,
  type ParamSpec,
  type Vec3,
} from './param-schema';

export * from './param-schema';

const SPEC_BY_NAME = new Map(PARAM_SCHEMA.map((s) => [s.name, s]));

/** The spec of one parameter, or undefined for an unknown name. */
export function paramSpec(name: string): ParamSpec | undefined {
  return SPEC_BY_NAME.get(name as keyof FlockParams);
}

/** A fresh copy of the defaults. */
export function defaultParams(): FlockParams {
  const out: Record<string, unknown> = {};
  for (const s of PARAM_SCHEMA) out[s.name] = copyValue(s.default);
  return out as unknown as FlockParams;
}

/** A deep copy of a parameter value (vectors and obstacle lists are never shared). */
function copyValue<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x: unknown) => copyValue(x)) as T;
  if (v !== null && typeof v === 'object') {
    const o = v as unknown as Obstacle;
    return { center: [...o.center] as Vec3, radius: o.radius } as T;
  }
  return v;
}

/** Words for a spec's allowed values, used in FlockError.allowed. */
export function allowedText(spec: ParamSpec): string {
  const unit = spec.unit ? ` (${spec.unit})` : '';
  switch (spec.type) {
    case 'enum':
      return `one of ${spec.options.map((o) => describeValue(o)).join(', ')}`;
    case 'int':
    case 'uint32':
      return `an integer from ${spec.min} to ${spec.max}${unit}`;
    case 'float':
      return `a finite number from ${spec.min} to ${spec.max}${unit}`;
    case 'vec3':
      return `3 finite numbers, each from ${spec.min} to ${spec.max}${unit}`;
    case 'obstacles':
      return `an array of at most ${spec.maxItems} spheres {center: [x, y, z], radius}, centre components from ${spec.min} to ${spec.max}, radius from ${spec.minRadius} to ${spec.maxRadius}${unit}`;
  }
}

function checkObstacles(spec: ObstaclesSpec, value: unknown): Obstacle[] {
  if (!Array.isArray(value) || value.length > spec.maxItems) {
    throw new FlockError(spec.name, value, allowedText(spec));
  }
  return value.map((item: unknown, k): Obstacle => {
    const at = `${spec.name}[${k}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new FlockError(at, item, 'a sphere {center: [x, y, z], radius}');
    }
    const o = item as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (key !== 'center' && key !== 'radius') {
        throw new FlockError(`${at}.${key}`, o[key], 'only center and radius', 'unknown field');
      }
    }
    const c = o.center;
    const cArr = c as ArrayLike<unknown>;
    const centerOk =
      (Array.isArray(c) || ArrayBuffer.isView(c)) &&
      cArr.length === 3 &&
      [0, 1, 2].every((i) => {
        const x = cArr[i];
        return typeof x === 'number' && Number.isFinite(x) && x >= spec.min && x <= spec.max;
      });
    if (!centerOk) {
      throw new FlockError(
        `${at}.center`,
        c,
        `3 finite numbers, each from ${spec.min} to ${spec.max} (${spec.unit})`,
      );
    }
    const r = o.radius;
    if (typeof r !== 'number' || !Number.isFinite(r) || r < spec.minRadius || r > spec.maxRadius) {
      throw new FlockError(
        `${at}.radius`,
        r,
        `a finite number from ${spec.minRadius} to ${spec.maxRadius} (${spec.unit})`,
      );
    }
    return { center: [cArr[0], cArr[1], cArr[2]] as Vec3, radius: r };
  });
}

function checkField(spec: ParamSpec, value: unknown): unknown {
  try {
    return checkFieldValue(spec, value);
  } catch (e) {
    if (e instanceof FlockError) throw e;
    // A hostile value (a getter or Proxy trap that throws while it is read).
    throw new FlockError(spec.name, value, allowedText(spec), `reading it threw: ${String(e)}`);
  }
}

function checkFieldValue(spec: ParamSpec, value: unknown): unknown {
  const fail = (): never => {
    throw new FlockError(spec.name, value, allowedText(spec));
  };
  switch (spec.type) {
    case 'enum':
      if (!spec.options.includes(value as string | number)) fail();
      return value;
    case 'int':
    case 'uint32':
    case 'float': {
      if (typeof value !== 'number' || !Number.isFinite(value)) fail();
      const v = value as number;
      if (spec.type !== 'float' && !Number.isInteger(v)) fail();
      if (v < spec.min || v > spec.max) fail();
      return v;
    }
    case 'vec3': {
      const arr = value as ArrayLike<unknown>;
      if (!(Array.isArray(value) || ArrayBuffer.isView(value)) || arr.length !== 3) fail();
      const out: number[] = [];
      for (let i = 0; i < 3; i++) {
        const c = arr[i];
        if (typeof c !== 'number' || !Number.isFinite(c) || c < spec.min || c > spec.max) fail();
        out.push(c as number);
      }
      return out as Vec3;
    }
    case 'obstacles':
      return checkObstacles(spec, value);
  }
}

/** Number of axes that take part in the model: x, y (and z in 3D). */
export function activeAxes(p: Pick<FlockParams, 'dimensions'>): number {
  return p.dimensions === 2 ? 2 : 3;
}

/**
 * Merges `partial` over `base` and validates the result as a whole: each field against the schema,
 * then the cross-field rules (boundsMin < boundsMax on the active axes, minSpeed <= maxSpeed,
 * wrap needs at least 3 cells of size >= perceptionRadius per active axis).
 * Returns a new object; `base` is never modified.
 * @throws FlockError naming the first offending field, its value and the allowed range; unknown keys too.
 */
export function validateParams(
  partial: Partial<FlockParams> | Record<string, unknown> = {},
  base: FlockParams = defaultParams(),
): FlockParams {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
    throw new FlockError('params', partial, 'an object of parameter names to values');
  }
  const merged: Record<string, unknown> = { ...base };
  let entries: [string, unknown][];
  try {
    entries = Object.entries(partial);
  } catch (e) {
    throw new FlockError('params', partial, 'a plain object', `reading it threw: ${String(e)}`);
  }
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    const spec = SPEC_BY_NAME.get(key as keyof FlockParams);
    if (!spec) {
      throw new FlockError(
        key,
        value,
        `a known parameter: ${PARAM_SCHEMA.map((s) => s.name).join(', ')}`,
        'unknown parameter',
      );
    }
    merged[key] = checkField(spec, value);
  }
  const p = merged as unknown as FlockParams;
  // Copy vectors so callers cannot alias our state.
  p.boundsMin = [...p.boundsMin] as Vec3;
  p.boundsMax = [...p.boundsMax] as Vec3;
  p.attractor = [...p.attractor] as Vec3;
  p.wind = [...p.wind] as Vec3;
  p.obstacles = copyValue(p.obstacles);
  // A conflict between two fields is reported on the one the caller changed.
  const given = (k: keyof FlockParams) => (partial as Record<string, unknown>)[k] !== undefined;
  const axes = activeAxes(p);
  for (let a = 0; a < axes; a++) {
    // Compared as the GPU stores them (float32): [999999.99, 1e6] is an empty box there.
    if (!(Math.fround(p.boundsMin[a]!) < Math.fround(p.boundsMax[a]!))) {
      if (given('boundsMin') && !given('boundsMax')) {
        throw new FlockError(
          'boundsMin',
          p.boundsMin,
          `each active component less than boundsMax (${describeValue(p.boundsMax)}), also in float32`,
        );
      }
      throw new FlockError(
        'boundsMax',
        p.boundsMax,
        `each active component greater than boundsMin (${describeValue(p.boundsMin)}), also in float32`,
      );
    }
  }
  if (p.minSpeed > p.maxSpeed) {
    if (given('maxSpeed') && !given('minSpeed')) {
      throw new FlockError(
        'maxSpeed',
        p.maxSpeed,
        `minSpeed (${p.minSpeed}) to 1000 world units/s`,
      );
    }
    throw new FlockError('minSpeed', p.minSpeed, `0 to maxSpeed (${p.maxSpeed}) world units/s`);
  }
  if (p.boundary === 'wrap') {
    for (let a = 0; a < axes; a++) {
      const size = p.boundsMax[a]! - p.boundsMin[a]!;
      if (Math.floor(size / p.perceptionRadius) < 3) {
        const third = Math.floor((size / 3) * 1e6) / 1e6;
        const why = `wrap needs 3 cells per axis: perceptionRadius at most ${third} world units (a third of the box side ${size})`;
        if (given('perceptionRadius'))
          throw new FlockError('perceptionRadius', p.perceptionRadius, why);
        if (given('boundary'))
          throw new FlockError('boundary', p.boundary, `"soft" or "bounce" here, or ${why}`);
        const side = given('boundsMin') && !given('boundsMax') ? 'boundsMin' : 'boundsMax';
        throw new FlockError(
          side,
          p[side],
          `a box at least 3*perceptionRadius = ${3 * p.perceptionRadius} wide per active axis under wrap`,
        );
      }
    }
  }
  return p;
}

/** The names among `changed` that re-initialise the flock (count, dimensions, seed). */
export function needsReinit(changed: Iterable<string>): boolean {
  for (const k of changed) if (SPEC_BY_NAME.get(k as keyof FlockParams)?.reinit) return true;
  return false;
}
