// Shared by the sandbox's own integration tests: a sandbox on a manual clock per test file and
// a plain-fetch helper (no client code: the sandbox is tested only through the wire).
import type { Sandbox } from '../../src/sandbox/index.js';

export { START, testSandbox as manualSandbox, type TestSandbox } from '../helpers/sandbox.js';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string | undefined;
  body?: unknown;
  /** Raw body, sent as is. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export async function call<T = any>(sb: Sandbox, method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(new URL(path, sb.url), { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A client bound to one workspace key. */
export function as(sb: Sandbox, workspace: string) {
  const key = sb.key(workspace);
  return {
    key,
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>(sb, 'GET', path, { key, ...(headers ? { headers } : {}) }),
    post: <T = any>(path: string, body: unknown, headers?: Record<string, string>) => call<T>(sb, 'POST', path, { key, body, ...(headers ? { headers } : {}) }),
  };
}

export const text = (platforms: string[], words = 'Hello from the sandbox tests') => Object.fromEntries(platforms.map((p) => [p, { text: `${words} (${p})` }]));

/** Every row of a list endpoint, page by page (limit 100), in the service's order. */
export async function allRows<T = any>(sb: Sandbox, key: string, path: string, query = ''): Promise<{ rows: T[]; total: number }> {
  const rows: T[] = [];
  let total: number;
  for (let offset = 0; ; offset += 100) {
    const r = await call(sb, 'GET', `${path}?offset=${offset}&limit=100${query}`, { key });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
    total = r.body.meta.total;
    rows.push(...r.body.data);
    if (r.body.data.length < 100) return { rows, total };
  }
}
