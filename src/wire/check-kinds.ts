// The kinds of schema the plain response checks are made of (src/wire/response-checks.ts,
// generated from the zod/mini schemas by scripts/gen-wire-checks.mjs). Each gives what zod/mini's
// safeParse gives as data for that kind, or REFUSED: test/unit/response-checks.test.ts compares
// them with zod on valid, mutated and random answers.

/** What a check returns for a value its schema refuses. */
export const REFUSED: unique symbol = Symbol('refused');

/** A schema as a plain function: the parsed value (a fresh copy for objects and arrays), or REFUSED. */
export type Check = (value: unknown) => unknown;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's test for a record: an object whose constructor, if a function, has an ordinary prototype. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const ctor = value.constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf');
}

export const string: Check = (value) => (typeof value === 'string' ? value : REFUSED);
/** z.number(): finite (JSON.parse makes Infinity of 1e999). */
export const number: Check = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : REFUSED);
/** z.int(): a safe integer. */
export const int: Check = (value) => (Number.isSafeInteger(value) ? value : REFUSED);
export const boolean: Check = (value) => (typeof value === 'boolean' ? value : REFUSED);
export const unknown: Check = (value) => value;

export function optional(inner: Check): Check {
  return (value) => (value === undefined ? value : inner(value));
}

export function nullable(inner: Check): Check {
  return (value) => (value === null ? value : inner(value));
}

/** z.enum of strings. */
export function oneOf(values: readonly string[]): Check {
  return (value) => (values.includes(value as string) ? value : REFUSED);
}

export function array(item: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return REFUSED;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const x = item(value[i]);
      if (x === REFUSED) return REFUSED;
      out[i] = x;
    }
    return out;
  };
}

/** A record keyed by any string: its own enumerable string keys (a symbol key is refused), `__proto__` left out. */
export function record(item: Check): Check {
  return (value) => {
    if (!isPlainObject(value)) return REFUSED;
    const out: Record<string, unknown> = {};
    for (const key of Reflect.ownKeys(value)) {
      if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
      if (typeof key !== 'string') return REFUSED;
      const x = item(value[key]);
      if (x === REFUSED) return REFUSED;
      out[key] = x;
    }
    return out;
  };
}

/** A key of an object schema: its name, its check, and whether it may be missing (zod's optional: then left out). */
export type Key = readonly [name: string, check: Check, mayBeMissing?: 1];

/**
 * An object schema: its keys in the schema's order, then the others as they come (`loose`: kept,
 * `__proto__` aside), dropped (`strip`) or refused (`strict`, `__proto__` included).
 */
export function object(keys: readonly Key[], others: 'loose' | 'strip' | 'strict'): Check {
  const names = new Set(keys.map(([name]) => name));
  return (value) => {
    if (!isObject(value)) return REFUSED;
    const out: Record<string, unknown> = {};
    for (const [name, check, mayBeMissing] of keys) {
      const present = name in value;
      if (!present && mayBeMissing) continue;
      const x = check(value[name]);
      if (x === REFUSED || !present) return REFUSED;
      out[name] = x;
    }
    if (others === 'loose') {
      for (const key in value) if (key !== '__proto__' && !names.has(key)) out[key] = value[key];
    } else if (others === 'strict') {
      for (const key in value) if (!names.has(key)) return REFUSED;
    }
    return out;
  };
}
