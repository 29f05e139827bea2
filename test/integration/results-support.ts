// Shared by the results integration tests: a sandbox per file, plain-HTTP access to it as the
// oracle (what the service itself says, read without the client under test), and clocks that
// let the in-process CLI run on the sandbox's manual clock.
import { createManualClock, type ManualClock } from '../../src/sandbox/clock.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { PostResult } from '../../src/wire/schemas.js';

export const START = Date.parse('2026-12-01T09:00:00.000Z');

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export async function sandboxFor(options: { fixtures?: number; failureRate?: number; seed?: number } = {}): Promise<Sandbox & { clock: ManualClock }> {
  const clock = createManualClock(START);
  const sb = await startSandbox({
    port: 0,
    seed: options.seed ?? 7,
    clock,
    fixtures: options.fixtures ?? 0,
    failureRate: options.failureRate ?? 0.2,
    writeLimit: 100_000,
    readLimit: 1_000_000,
  });
  return Object.assign(sb, { clock });
}

export function keyOf(sb: Sandbox, name: 'demo' | 'other' | 'lapsed'): string {
  const w = sb.workspaces.find((x) => x.name === name);
  if (!w) throw new Error(`no workspace ${name}`);
  return w.apiKey;
}

export function cliEnv(sb: Sandbox, workspace: 'demo' | 'other' = 'demo'): Record<string, string> {
  return { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: keyOf(sb, workspace) };
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
export async function schedulePost(sb: Sandbox & { clock: ManualClock }, key: string, platforms: string[], inMs: number): Promise<{ id: string }> {
  const payloads = Object.fromEntries(platforms.map((p) => [p, { text: `Release notes ${p} ${inMs}` }]));
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
