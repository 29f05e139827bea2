// Query strings: pages (offset, limit) and array parameters in the three encodings the
// contract accepts: repeated keys (a=1&a=2), brackets (a[]=1&a[]=2) and comma lists (a=1,2).
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

/** Largest offset accepted: far past any real list, small enough to stay an exact integer. */
const MAX_OFFSET = 1_000_000_000;

export function pageParams(query: URLSearchParams): { offset: number; limit: number } {
  const issues: { path: string; message: string }[] = [];
  const read = (name: string, fallback: number, min: number, max: number, hint: string) => {
    const values = query.getAll(name);
    if (values.length === 0) return fallback;
    const raw = values[values.length - 1]!;
    if (values.length > 1 || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      issues.push({ path: name, message: `${JSON.stringify(values.length > 1 ? values.join(',') : raw)} is out of range: ${hint}` });
      return fallback;
    }
    return Number(raw);
  };
  const offset = read('offset', 0, 0, MAX_OFFSET, 'a whole number ≥ 0');
  const limit = read('limit', PAGE.defaultLimit, 1, PAGE.maxLimit, `a whole number from 1 to ${PAGE.maxLimit}`);
  if (issues.length) throw badRequest(issues.map((i) => `${i.path} ${i.message}`).join('; '), issues);
  return { offset, limit };
}
