// Shared by the posts integration tests: a sandbox on a manual clock, plain-HTTP reads of what
// the service holds (the oracle, without the client under test), and a CLI clock on the
// sandbox's time.
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import type { Post } from '../../src/wire/schemas.js';
import { cliEnv as sandboxEnv, dialectEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import type { Dialect } from '../../src/wire/dialects.js';

export { START } from '../helpers/sandbox.js';
export type { Sandbox };
export type ManualSandbox = TestSandbox;

export function manualSandbox(options: SandboxOptions = {}): Promise<ManualSandbox> {
  return testSandbox({ seed: 11, failureRate: 0.3, ...ROOMY_LIMITS, ...options });
}

export function demoKey(sb: Sandbox): string {
  return sb.key('demo');
}

export function cliEnv(sb: Sandbox, dialect: Dialect = 'socialpub'): Record<string, string> {
  return sandboxEnv(sb, 'demo', { TZ: 'UTC', ...dialectEnv(dialect) });
}

/** GET over plain HTTP, retried past injected faults (the oracle must not be flaky). */
export async function oracleGet<T>(sb: Sandbox, path: string): Promise<T> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const res = await fetch(new URL(path, sb.url), { headers: { authorization: `Bearer ${demoKey(sb)}` }, signal: AbortSignal.timeout(5000) });
      if (res.status === 200) return (await res.json()) as T;
    } catch {
      // reset or lost: ask again
    }
  }
  throw new Error(`oracle read of ${path} kept failing`);
}

export async function postTotal(sb: Sandbox, status?: string): Promise<number> {
  const page = await oracleGet<{ meta: { total: number } }>(sb, `/v1/posts?limit=1${status ? `&status=${status}` : ''}`);
  return page.meta.total;
}

export async function allPosts(sb: Sandbox, status?: string): Promise<Post[]> {
  const out: Post[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await oracleGet<{ data: Post[]; meta: { total: number } }>(sb, `/v1/posts?limit=100&offset=${offset}${status ? `&status=${status}` : ''}`);
    out.push(...page.data);
    if (page.data.length < 100) return out;
  }
}

export { advancingClock as sandboxClock } from '../helpers/advancing-clock.js';

/** Magic bytes of a tiny JPEG: enough for type sniffing, any size after truncate. */
export const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);
export const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
export const MP4_HEAD = Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 0, 0]);
