// --no-local-checks: the CLI's refusals that follow each platform's rules (media needed, text
// length) are left to the service, which judges the post itself. Without the flag the CLI
// refuses first and sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe('--no-local-checks', () => {
  let sb: TestSandbox;
  beforeAll(async () => (sb = await testSandbox({ ...ROOMY_LIMITS, failureRate: 0 })));
  afterAll(async () => sb?.close());

  it('without it, a text-only Instagram post is refused locally and nothing is sent', async () => {
    const before = sb.requests.length;
    const r = await runCli(['posts', 'create', '--platform', 'instagram', '--text', 'no picture'], { env: cliEnv(sb) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('instagram needs at least one');
    expect(sb.requests.length).toBe(before);
  });

  it('with it, the post goes to the service, which accepts the draft and fails publishing with MEDIA_REQUIRED', async () => {
    const r = await runCli(['posts', 'schedule', '--platform', 'instagram', '--text', 'no picture', '--at', '+1h', '--no-local-checks', '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    const post = JSON.parse(r.stdout) as { id: string };
    await sb.clock.advance(2 * 3_600_000);
    await sb.settle();
    const results = await runCli(['results', 'list', '--post', post.id, '--json'], { env: cliEnv(sb), clock: sb.clock });
    const rows = JSON.parse(results.stdout) as Array<{ success: boolean; error: { code: string } | null }>;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.success).toBe(false);
    expect(rows[0]!.error?.code).toBe('MEDIA_REQUIRED');
  });

  it('with it, a text over the limit is judged by the service (422, exit 2)', async () => {
    const before = sb.requests.length;
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'x'.repeat(301), '--no-local-checks'], { env: cliEnv(sb) });
    expect(r.code).toBe(2);
    expect(sb.requests.length).toBe(before + 1);
    expect(sb.requests.at(-1)!.status).toBe(422);
  });
});
