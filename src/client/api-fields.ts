// `socialpub api -f key=value` fields, once read: query parameters for GET (a repeated key
// becomes an array), JSON body fields otherwise (a value that parses as JSON is sent as JSON:
// -f count=5 is a number, -f 'tags=["a","b"]' an array, -f 'text="5"' the string "5").

export type Field = [key: string, value: string];

// Collected in Maps: a field named "constructor" or "__proto__" is a field like any other
// (Object.fromEntries makes it an own property), not a member of Object.prototype.
export function fieldsToQuery(fields: readonly Field[]): Record<string, string | string[]> {
  const query = new Map<string, string | string[]>();
  for (const [key, value] of fields) {
    const prev = query.get(key);
    query.set(key, prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value]);
  }
  return Object.fromEntries(query);
}

function fieldValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function fieldsToBody(fields: readonly Field[]): Record<string, unknown> {
  const body = new Map<string, unknown>();
  const repeated = new Set<string>();
  for (const [key, raw] of fields) {
    const value = fieldValue(raw);
    if (!body.has(key)) body.set(key, value);
    else if (repeated.has(key)) (body.get(key) as unknown[]).push(value);
    else {
      body.set(key, [body.get(key), value]);
      repeated.add(key);
    }
  }
  return Object.fromEntries(body);
}

/** Splits "/path?a=1&a=2" into the path and its query (repeated keys as arrays). */
export function splitPathQuery(path: string): { path: string; query: Record<string, string | string[]> } {
  const q = path.indexOf('?');
  if (q < 0) return { path, query: {} };
  const fields: Field[] = [...new URLSearchParams(path.slice(q + 1))].map(([k, v]) => [k, v]);
  return { path: path.slice(0, q), query: fieldsToQuery(fields) };
}
