// Request URLs: a path under the base URL (or an absolute URL), plus query parameters, with
// arrays as repeated keys (post_id=a&post_id=b), the encoding the contract chose.
import type { QueryValue } from './types.js';

export function isAbsoluteUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): URL {
  const url = isAbsoluteUrl(path)
    ? new URL(path)
    : new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (isList(value)) {
      url.searchParams.delete(key);
      for (const item of value) url.searchParams.append(key, String(item));
    } else {
      // A scalar replaces a value the path may already carry (paging sets offset/limit).
      url.searchParams.set(key, String(value));
    }
  }
  return url;
}

function isList(value: QueryValue): value is readonly (string | number)[] {
  return Array.isArray(value);
}

/** The key only ever travels to the origin of the base URL. */
export function sameOrigin(a: string | URL, b: string | URL): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
