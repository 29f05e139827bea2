// Query strings: pages (offset, limit) and array parameters in the three encodings the
// contract accepts: repeated keys (a=1&a=2), brackets (a[]=1&a[]=2) and comma lists (a=1,2).
// The values are held to the contract's schemas (src/wire/contract.ts), as the OpenAPI document
// describes them.
import * as z from 'zod/mini';
import { limitParam, MAX_OFFSET, offsetParam } from '../../wire/contract.js';
import { PAGE } from '../../wire/protocol.js';
import { badRequest } from './reply.js';

export function multiValues(query: URLSearchParams, name: string): string[] {
  const out: string[] = [];
  for (const key of [name, `${name}[]`]) {
    for (const raw of query.getAll(key)) {
      for (const part of raw.split(',')) {
        const v = part.trim();
        if (v !== '') out.push(v);
      }
    }
  }
  return out;
}

/** An array parameter whose values a contract enum lists: 400 naming the unknown ones and the fix. */
export function enumValues<E extends Record<string, string>>(query: URLSearchParams, name: string, schema: z.ZodMiniEnum<E>, what: string): E[keyof E][] {
  const values = multiValues(query, name);
  const unknown = values.filter((v) => !z.safeParse(schema, v).success);
  if (unknown.length) {
    const allowed = schema.options.join(', ');
    throw badRequest(`unknown ${what} ${unknown.map((v) => JSON.stringify(v)).join(', ')}; use ${allowed}`, [{ path: name, message: `must be one of ${allowed}` }]);
  }
  return values as E[keyof E][];
}

export function pageParams(query: URLSearchParams): { offset: number; limit: number } {
  const issues: { path: string; message: string }[] = [];
  const read = (name: string, fallback: number, schema: typeof offsetParam, hint: string) => {
    const values = query.getAll(name);
    if (values.length === 0) return fallback;
    const raw = values[values.length - 1]!;
    // Digits only (no sign, exponent or spaces), then the contract's bounds.
    if (values.length > 1 || !/^\d+$/.test(raw) || !z.safeParse(schema, Number(raw)).success) {
      issues.push({ path: name, message: `${JSON.stringify(values.length > 1 ? values.join(',') : raw)} is out of range: ${hint}` });
      return fallback;
    }
    return Number(raw);
  };
  const offset = read('offset', 0, offsetParam, `a whole number from 0 to ${MAX_OFFSET}`);
  const limit = read('limit', PAGE.defaultLimit, limitParam, `a whole number from 1 to ${PAGE.maxLimit}`);
  if (issues.length) throw badRequest(issues.map((i) => `${i.path} ${i.message}`).join('; '), issues);
  return { offset, limit };
}
