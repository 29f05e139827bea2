// The one sandbox factory of the integration tests: a sandbox on 127.0.0.1 (port 0) driven by a
// manual clock that starts at START, so no test waits for real time. The support files of the
// sandbox, posts and results tests add their own oracles on top of it.
import { createManualClock, startSandbox, type ManualClock, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

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
