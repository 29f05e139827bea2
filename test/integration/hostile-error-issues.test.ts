// A 400 whose issues are 10 kB each, in both dialects' error shapes: every line the CLI writes
// stays short (the message is clipped, and so is each issue it turns into a hint), the GitHub
// Actions annotation too, and the exit code is the contract's 2.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { answer, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';

const LONG = 'z'.repeat(10_000);
const bodies = {
  socialpub: { error: { code: 'VALIDATION_ERROR', message: 'bad', issues: [{ path: `payloads.${LONG}`, message: LONG }] }, requestId: 'req_1' },
  syncpostly: { error: 'bad', issues: [{ path: ['caption'], message: LONG }] },
};

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(['socialpub', 'syncpostly'] as const)('a 400 with 10 kB issues (%s dialect)', (api) => {
  it('every stderr line stays under 1,000 characters, annotation included; exit 2', async () => {
    server = await startMisbehavingServer((_req, res) => answer(res, 400, bodies[api]));
    const env = { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_hostile_issues_000000000', SOCIALPUB_API: api, GITHUB_ACTIONS: 'true' };
    const r = await runCli(['posts', 'list', '--no-input'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/zzz…/);
    for (const line of r.stderr.split('\n')) expect(line.length, line.slice(0, 120)).toBeLessThan(1000);
  });
});

describe('a 400 with 5,000 issues', () => {
  it('shows the first 20 as hints and counts the rest, not 5,000 lines', async () => {
    const issues = Array.from({ length: 5000 }, (_, i) => ({ path: [`f${i}`], message: 'wrong' }));
    server = await startMisbehavingServer((_req, res) => answer(res, 400, { error: 'bad', issues }));
    const env = { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_hostile_issues_000000000', SOCIALPUB_API: 'syncpostly' };
    const r = await runCli(['posts', 'list', '--no-input'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('hint: f19: wrong');
    expect(r.stderr).not.toContain('f20: wrong');
    expect(r.stderr).toContain('… and 4980 more issues from the service, not shown');
    expect(r.stderr.split('\n').length).toBeLessThan(30);
  });
});
