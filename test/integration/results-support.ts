// Shared by the results integration tests: a sandbox per file, plain-HTTP access to it as the
// oracle (what the service itself says, read without the client under test), and clocks that
// let the in-process CLI run on the sandbox's manual clock.
import type { ManualClock, Sandbox } from '../../src/sandbox/index.js';
import type { PostResult } from '../../src/wire/schemas.js';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

export { START, cliEnv } from '../helpers/sandbox.js';
export type { Sandbox };

export function sandboxFor(options: { fixtures?: number; failureRate?: number; seed?: number } = {}): Promise<TestSandbox> {
  return testSandbox({ seed: 7, fixtures: 0, failureRate: 0.2, ...ROOMY_LIMITS, ...options });
}

export function keyOf(sb: Sandbox, name: 'demo' | 'other' | 'lapsed'): string {
  return sb.key(name);
}

export async function api<T = unknown>(sb: Sandbox, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(new URL(path, sb.url), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Every result of the workspace, in the service's order, read page by page over plain HTTP. */
export async function allResults(sb: Sandbox, key: string, query = ''): Promise<PostResult[]> {
  const out: PostResult[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await api<{ data: PostResult[]; meta: { total: number } }>(sb, key, 'GET', `/api/v1/post-results?offset=${offset}&limit=100${query}`);
    if (r.status !== 200) throw new Error(`oracle read failed: ${r.status} ${JSON.stringify(r.body)}`);
    out.push(...r.body.data);
    if (r.body.data.length < 100 || offset + 100 >= r.body.meta.total) return out;
  }
}

/** Schedules a text-only post on these platforms, due `inMs` after the sandbox's now. */
/** Each post's own text: the sandbox refuses a repeat of a text the account published within a day (DUPLICATE_CONTENT). */
let scheduled = 0;

export async function schedulePost(sb: Sandbox & { clock: ManualClock }, key: string, platforms: string[], inMs: number): Promise<{ id: string }> {
  const n = ++scheduled;
  const payloads = Object.fromEntries(platforms.map((p) => [p, { text: `Release notes ${p} ${inMs} #${n}` }]));
  const r = await api<{ id: string }>(sb, key, 'POST', '/v1/schedule', { payloads, scheduledAt: new Date(sb.clock.now() + inMs).toISOString() });
  if (r.status >= 300) throw new Error(`schedule failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export { advancingClock } from '../helpers/advancing-clock.js';

export function parseNdjson(text: string): PostResult[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as PostResult);
}
