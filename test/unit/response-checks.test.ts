// The plain checks of src/wire/response-checks.ts against the zod schemas they are generated
// from: current with them, and giving what safeParse gives (refused or not, and the same data,
// keys in the same order) on valid answers, answers with a part changed, and random JSON.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { checksSource, CHECKS_FILE, schemaFields } from '../../scripts/gen-wire-checks.mjs';
import * as accountSchemas from '../../src/wire/account-schemas.js';
import { number, object, oneOf, optional } from '../../src/wire/check-kinds.js';
import { CHECKS, FIELDS, REFUSED } from '../../src/wire/response-checks.js';
import * as wireSchemas from '../../src/wire/schemas.js';

type Mini = z.ZodMiniType;
const schemas = { ...wireSchemas, ...accountSchemas } as unknown as Record<string, Mini>;
const names = Object.keys(CHECKS) as Array<keyof typeof CHECKS>;

/** Def of a zod/mini schema, as much as the arbitraries below read. */
interface Def {
  type: string;
  innerType?: Mini;
  element?: Mini;
  valueType?: Mini;
  shape?: Record<string, Mini>;
  catchall?: Mini;
  entries?: Record<string, string>;
  format?: string;
}
const defOf = (s: Mini) => s.def as unknown as Def;

/** Values the schema accepts, with extra keys where it keeps them (some named like Object's own). */
function valid(s: Mini): fc.Arbitrary<unknown> {
  const def = defOf(s);
  switch (def.type) {
    case 'string':
      return fc.string();
    case 'boolean':
      return fc.boolean();
    case 'number':
      return def.format === 'safeint' ? fc.maxSafeInteger() : fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!));
    case 'unknown':
      return fc.jsonValue();
    case 'optional':
      return valid(def.innerType!);
    case 'nullable':
      return fc.option(valid(def.innerType!), { nil: null });
    case 'array':
      return fc.array(valid(def.element!), { maxLength: 2 });
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 4 }), valid(def.valueType!), { maxKeys: 3 });
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def.shape!).map(([k, v]) => [k, valid(v)]));
      const requiredKeys = Object.entries(def.shape!).filter(([, v]) => defOf(v).type !== 'optional').map(([k]) => k);
      const known = fc.record(shape, { requiredKeys });
      if (defOf(def.catchall ?? s).type !== 'unknown') return known;
      const extra = fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('toString', 'constructor', 'hasOwnProperty', '0', '10')), fc.jsonValue(), { maxKeys: 3 });
      // Extra keys before and after the known ones: zod puts the known ones first.
      return fc.tuple(extra, known, extra).map(([a, k, b]) => ({ ...a, ...k, ...b }));
    }
    default:
      throw new Error(`no arbitrary for ${def.type}`);
  }
}

/** A value with one part replaced, removed or given an odd twin: most are refused, some not. */
function mutated(value: unknown): fc.Arbitrary<unknown> {
  const odd = fc.oneof(fc.jsonValue(), fc.constantFrom(undefined, null, -0, 1.5, 2 ** 53, Infinity, NaN, '', [], {}, 'image', 'video', true));
  const paths: Array<Array<string | number>> = [];
  const walk = (v: unknown, path: Array<string | number>) => {
    paths.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], [...path, k]);
  };
  walk(value, []);
  return fc.tuple(fc.constantFrom(...paths), odd, fc.constantFrom('set', 'delete', 'proto')).map(([path, x, how]) => {
    const copy = structuredClone(value);
    if (path.length === 0) return how === 'set' ? x : copy;
    let parent = copy as Record<string | number, unknown>;
    for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (how === 'delete') delete parent[last];
    else if (how === 'set') parent[last] = x;
    // A key `__proto__` of the object's own, as JSON.parse makes it.
    else if (typeof parent[last] === 'object' && parent[last] !== null && !Array.isArray(parent[last])) Object.defineProperty(parent[last], '__proto__', { value: x, enumerable: true, configurable: true, writable: true });
    return copy;
  });
}

/**
 * Keys in order, all the way down, a key holding undefined told from a missing one, and each
 * object's prototype (toStrictEqual would compare an own key `constructor` as the class).
 */
function ordered(v: unknown): unknown {
  if (Array.isArray(v)) return ['array', v.length, ...v.map(ordered)];
  if (v !== null && typeof v === 'object') return [Object.getPrototypeOf(v) === Object.prototype ? 'object' : 'other', ...Object.entries(v).map(([k, x]) => [k, ordered(x)])];
  return v;
}

function agree(name: keyof typeof CHECKS, value: unknown): void {
  const zod = schemas[name]!.safeParse(value);
  const quick = CHECKS[name](value);
  expect(quick === REFUSED, `${name}: ${zod.success ? 'zod accepts' : 'zod refuses'} ${JSON.stringify(value)}`).toBe(!zod.success);
  if (zod.success) {
    expect(ordered(quick)).toEqual(ordered(zod.data));
    // A fresh copy, as zod makes: changing the answer later never changes what was read.
    if (value !== null && typeof value === 'object') expect(quick).not.toBe(value);
  }
}

describe('the response checks', () => {
  it('are current with the schemas they are generated from (npm run build writes them)', () => {
    expect(readFileSync(CHECKS_FILE, 'utf8')).toBe(checksSource(schemas));
  });

  it('cover every response schema of the wire, and give the field names the schemas have', () => {
    const zodNames = Object.entries(schemas).filter(([, s]) => typeof (s as { safeParse?: unknown }).safeParse === 'function').map(([n]) => n);
    expect(names.slice().sort()).toEqual(zodNames.sort());
    for (const name of names) expect(FIELDS[name]).toEqual(schemaFields(schemas[name]));
  });

  for (const name of names) {
    it(`${name}: agrees with zod on valid answers, as sent and as JSON`, () => {
      fc.assert(
        fc.property(valid(schemas[name]!), (v) => {
          agree(name, v);
          agree(name, JSON.parse(JSON.stringify(v)));
        }),
        { numRuns: 120 },
      );
    });

    it(`${name}: agrees with zod on answers with one part changed`, () => {
      fc.assert(
        fc.property(valid(schemas[name]!).chain((v) => mutated(v)), (v) => agree(name, v)),
        { numRuns: 300 },
      );
    });
  }

  it('agree with zod at the edges each kind is strict about', () => {
    const media = { id: 'med_1', url: 'http://x/m' };
    for (const sizeBytes of [0, -1.5, Infinity, -Infinity, NaN, '1', null]) agree('mediaObjectSchema', { ...media, sizeBytes });
    agree('mediaObjectSchema', JSON.parse('{"id":"med_1","url":"u","sizeBytes":1e999}'));
    for (const total of [0, 1.5, -0, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), '3']) agree('postListSchema', { data: [], meta: { offset: 0, limit: 20, total } });
    for (const success of [true, false, 0, 'true', null]) agree('postResultSchema', { id: 'res_1', post_id: 'post_1', success });
    for (const targets of [{}, { x: 'published' }, { x: 1 }, [], null, JSON.parse('{"__proto__":"x","y":"z"}')]) agree('postSchema', { id: 'post_1', status: 'draft', payloads: {}, targets });
  });

  it('agree with zod on random JSON and on the odd values a body can hold', () => {
    const odd = [undefined, null, 0, '', 'x', [], {}, [1], JSON.parse('{"__proto__":{"id":"x"}}'), Object.create(null), new Date(0)];
    for (const name of names) for (const v of odd) agree(name, v);
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom(...names), (v, name) => agree(name, v)), { numRuns: 300 });
  });
});

describe('the generator', () => {
  it('refuses what it has no plain check for, naming where it is', () => {
    const one = (schema: Mini) => () => checksSource({ s: schema });
    expect(one(z.looseObject({ id: z.string().check(z.minLength(1)) }))).toThrow(/s\.id: a string with checks/);
    expect(one(z.looseObject({ at: z.iso.datetime() }))).toThrow(/s\.at: a string of format datetime/);
    expect(one(z.looseObject({ u: z.union([z.string(), z.number()]) }))).toThrow(/s\.u: a schema of type union/);
    expect(one(z.looseObject({ n: z.nullable(z.optional(z.string())) }))).toThrow(/a nullable optional/);
    expect(one(z.looseObject({ x: z.unknown() }))).toThrow(/s\.x: an unknown value under a key/);
    expect(one(z.object({ d: z._default(z.string(), 'x') }))).toThrow(/s\.d: a schema of type default/);
  });

  it('writes strict and stripping objects, and their checks agree with zod', () => {
    const strict = z.strictObject({ a: z.number(), b: z.optional(z.enum(['x', 'y'])) });
    const strip = z.object({ a: z.number(), b: z.optional(z.enum(['x', 'y'])) });
    expect(checksSource({ strict, strip })).toContain(`const c2 = object([["a", number], ["b", c1, 1]], 'strict');`);
    expect(checksSource({ strict, strip })).toContain(`object([["a", number], ["b", c1, 1]], 'strip')`);
    const keys = [['a', number], ['b', optional(oneOf(['x', 'y'])), 1]] as const;
    for (const v of [{ a: 1 }, { a: 1, b: 'x' }, { a: 1, c: 2 }, { a: Infinity }, { b: 'x' }, { a: 1, b: 'z' }, { a: 1, b: undefined }, JSON.parse('{"a":1,"__proto__":1}'), JSON.parse('{"c":0,"a":1}')]) {
      for (const [schema, others] of [[strict, 'strict'], [strip, 'strip']] as const) {
        const zod = schema.safeParse(v);
        const quick = object(keys, others)(v);
        expect(quick === REFUSED, `${others} ${JSON.stringify(v)}`).toBe(!zod.success);
        if (zod.success) expect(ordered(quick)).toEqual(ordered(zod.data));
      }
    }
  });
});
