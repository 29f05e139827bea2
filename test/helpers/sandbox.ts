// The one sandbox factory of the integration tests: a sandbox on 127.0.0.1 (port 0) driven by a
// manual clock that starts at START, so no test waits for real time. The support files of the
// sandbox, posts and results tests add their own oracles on top of it.
import { createManualClock, startSandbox, type ManualClock, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import type { Dialect } from '../../src/wire/dialects.js';
import { SP_PATHS } from '../../src/wire/syncpostly/assumptions.js';
import { PATHS } from '../../src/wire/protocol.js';

export const START = Date.parse('2026-12-01T09:00:00.000Z');

export type TestSandbox = Sandbox & { clock: ManualClock };

/** Limits high enough that a test about something else never meets them. */
export const ROOMY_LIMITS = { writeLimit: 100_000, readLimit: 1_000_000 } as const;

export async function testSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const clock = createManualClock(START);
  const sb = await startSandbox({ port: 0, seed: 1, clock, ...options });
  return Object.assign(sb, { clock });
}

/** The environment that points the CLI at a workspace of the sandbox. */
export function cliEnv(sb: Sandbox, workspace: 'demo' | 'other' | 'lapsed' = 'demo', extra: Record<string, string> = {}): Record<string, string> {
  return { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key(workspace), ...extra };
}

/**
 * The dialect switch of the CLI tests: the sandbox serves both APIs on one port, and
 * SOCIALPUB_API makes a run speak one of them (`describe.each(DIALECTS)` runs a flow in each).
 */
export function dialectEnv(dialect: Dialect): Record<string, string> {
  return { SOCIALPUB_API: dialect };
}

/** Where each dialect creates a post. */
export const CREATE_PATH: Record<Dialect, string> = { socialpub: PATHS.posts, syncpostly: SP_PATHS.posts };

/**
 * The next request `method path` (of `workspace`, when given) has its answer lost: the sandbox
 * commits the work, then cuts the connection (the chaos fault `lost`), once. Returns what cancels
 * it. `loseNextAnswer(sb)` loses our dialect's next create; SyncPostly's:
 * `loseNextAnswer(sb, 'POST', CREATE_PATH.syncpostly)`.
 */
export function loseNextAnswer(sb: Sandbox, method = 'POST', path: string | RegExp = CREATE_PATH.socialpub, workspace?: string): () => void {
  return sb.failNext({ fault: 'lost', method, path, ...(workspace !== undefined ? { workspace } : {}) });
}
