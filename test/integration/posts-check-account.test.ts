// `posts check --account`: the accounts named as create names them, their platforms judged, and a
// check row per account saying whether publishing to it would work, in both dialects against the
// sandbox over HTTP. Without --account the check stays offline (no key, no request).
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, dialectEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { bashComplete, sq } from '../helpers/shell-complete.js';
import { as } from './sandbox-support.js';
import { accountsOf, pick, type Account } from './accounts-support.js';
import { DIALECTS } from '../../src/wire/dialects.js';
import { callTool, sandboxToolContext } from '../helpers/mcp-context.js';

let sb: TestSandbox;
let accounts: Account[];
const acc = (platform: string, pred: (a: Account) => boolean) => pick(accounts, platform, pred);
const expired = () => acc('twitter-x', (a) => a.status === 'expired');
const careers = () => acc('linkedin', (a) => !a.isDefault);

type Check = { rule: string; verdict: string; item?: string; actual: string; limit: string; message?: string; fix?: string };
type Report = { accepted: boolean; problems: Array<{ field: string; message: string }>; targets: Array<{ platform: string; accepted: boolean; checks: Check[] }> };
const statusRows = (r: Report, platform: string) => r.targets.find((t) => t.platform === platform)!.checks.filter((c) => c.rule === 'account.status');

beforeAll(async () => {
  sb = await testSandbox({ failureRate: 0, seed: 8, ...ROOMY_LIMITS });
  accounts = await accountsOf(sb);
  // Each account's newest result, which SyncPostly's dialect reads its state from: the expired X
  // account failed with TOKEN_EXPIRED, the careers page published.
  await as(sb, 'demo').post('/v1/schedule', {
    payloads: { 'twitter-x': { text: 'Launch day', accounts: [expired().id] }, linkedin: { text: 'Launch day', accounts: [careers().id] } },
    scheduledAt: new Date(sb.clock.now() + 1000).toISOString(),
  });
  await sb.clock.advance(1000);
});
afterAll(() => sb.close());

describe.each(DIALECTS)("posts check --account in %s's API", (dialect) => {
  const cli = (args: string[]) => runCli(args, { env: cliEnv(sb, 'demo', dialectEnv(dialect)) });

  it("judges the account's platform only, and passes a connected account", async () => {
    const before = sb.requests.length;
    const r = await cli(['posts', 'check', '--account', `linkedin:@${careers().username}`, '--text', 'We are hiring', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.targets.map((t) => t.platform)).toEqual(['linkedin']);
    expect(statusRows(report, 'linkedin')).toEqual([expect.objectContaining({ verdict: 'pass', item: `linkedin:@${careers().username}`, actual: 'connected', limit: 'connected' })]);
    // Reads only: nothing is written by a check.
    expect(sb.requests.slice(before).every((q) => q.method === 'GET')).toBe(true);
  });

  it('fails on an expired account with the fix the create warning gives, and exits 2', async () => {
    const r = await cli(['posts', 'check', '--account', `@${expired().username}`, '--text', 'Help desk', '--json']);
    expect(r.code, r.stderr).toBe(2);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.accepted).toBe(false);
    const [row] = statusRows(report, 'twitter-x');
    expect(row).toMatchObject({ verdict: 'fail', actual: 'expired', item: `twitter-x:@${expired().username}` });
    expect(row).toMatchObject({ message: 'expired: publishing to it fails until it is reconnected', fix: "reconnect it in the service's settings (Settings → Connected accounts), then check again" });
    // The table names it too, with the fix under it.
    const table = await cli(['posts', 'check', '--account', `@${expired().username}`, '--text', 'Help desk']);
    expect(table.code).toBe(2);
    expect(table.stdout).toMatch(/account\.status\tfail\ttwitter-x:@\S+\texpired\tconnected/);
    // Said once: the account and its state, then what to do.
    expect(table.stderr).toContain(`twitter-x:@${expired().username}: expired: publishing to it fails until it is reconnected (fix: reconnect it in the service's settings`);
  });

  it('with --platform, judges every platform named and the account on its own; an account of another platform is a problem', async () => {
    const r = await cli(['posts', 'check', '--platform', 'linkedin,bluesky', '--account', careers().id, '--text', 'Hiring', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.targets.map((t) => [t.platform, statusRows(report, t.platform).length])).toEqual([
      ['linkedin', 1],
      ['bluesky', 0],
    ]);
    const off = await cli(['posts', 'check', '--platform', 'bluesky', '--account', careers().id, '--text', 'Hiring', '--json']);
    expect(off.code).toBe(2);
    expect((JSON.parse(off.stdout) as Report).problems).toEqual([expect.objectContaining({ field: '--account', message: expect.stringContaining('the post does not go to linkedin') })]);
  });

  it("an account with no result in the window: connected in our API (its status says), not known in SyncPostly's (no status, no result)", async () => {
    const quiet = acc('bluesky', (a) => a.isDefault);
    const r = await cli(['posts', 'check', '--account', quiet.id, '--text', 'Hello', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const [row] = statusRows(JSON.parse(r.stdout) as Report, 'bluesky');
    expect(row).toMatchObject(dialect === 'socialpub' ? { verdict: 'pass', actual: 'connected' } : { verdict: 'unknown', actual: 'unknown', message: expect.stringContaining('not known') });
  });

  it('with --file, judges the body\'s platforms and the account of its platform', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'socialpub-check-account-')), 'post.json');
    writeFileSync(file, JSON.stringify({ payloads: { linkedin: { text: 'Hiring' }, bluesky: { text: 'Hiring' } } }));
    const r = await cli(['posts', 'check', '--file', file, '--account', `@${expired().username}`, '--json']);
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.targets.map((t) => t.platform)).toEqual(['linkedin', 'bluesky']);
    expect(report.problems).toEqual([expect.objectContaining({ message: expect.stringContaining('the post does not go to twitter-x') })]);
  });

  it('an unknown account is exit 2 naming it', async () => {
    const r = await cli(['posts', 'check', '--account', '@nobody_here', '--text', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--account @nobody_here: no such account');
  });
});

describe.each(DIALECTS)("check_post's accounts in %s's API, as posts check --account", (dialect) => {
  type ToolReport = { accepted: boolean; problems: Array<{ field: string; message: string }>; platforms: Array<{ platform: string; accepted: boolean; checks: Check[] }> };
  const check = (args: Record<string, unknown>) => callTool(sandboxToolContext(sb, 'demo', dialect), 'check_post', args) as Promise<ToolReport>;
  const rowsOf = (r: ToolReport, platform: string) => r.platforms.find((t) => t.platform === platform)!.checks.filter((c) => c.rule === 'account.status');

  it("judges the accounts' platforms, passes a connected account, and reads only", async () => {
    const before = sb.requests.length;
    const r = await check({ accounts: [`linkedin:@${careers().username}`], text: 'We are hiring' });
    expect(r.accepted).toBe(true);
    expect(r.platforms.map((t) => t.platform)).toEqual(['linkedin']);
    expect(rowsOf(r, 'linkedin')).toEqual([expect.objectContaining({ verdict: 'pass', item: `linkedin:@${careers().username}`, actual: 'connected' })]);
    expect(sb.requests.length).toBeGreaterThan(before);
    expect(sb.requests.slice(before).every((q) => q.method === 'GET')).toBe(true);
  });

  it('fails an expired account, with the fix in problems too', async () => {
    const r = await check({ accounts: [`@${expired().username}`], text: 'Help desk' });
    expect(r.accepted).toBe(false);
    expect(rowsOf(r, 'twitter-x')).toEqual([expect.objectContaining({ verdict: 'fail', actual: 'expired' })]);
    expect(r.problems).toContainEqual(expect.objectContaining({ message: expect.stringContaining('publishing to it fails') }));
  });

  it('with platforms, an account of a platform the post does not go to is a problem naming accounts', async () => {
    const r = await check({ platforms: ['bluesky'], accounts: [careers().id], text: 'Hiring' });
    expect(r.accepted).toBe(false);
    expect(r.problems).toContainEqual(expect.objectContaining({ field: 'accounts', message: expect.stringContaining('the post does not go to linkedin') }));
  });

  it('an unknown account is invalid input naming it', async () => {
    const err = await check({ accounts: ['@nobody_here'], text: 'x' }).catch((e: unknown) => e);
    expect(String(err)).toContain('@nobody_here');
    expect(JSON.stringify(err)).toContain('"field":"accounts"');
  });

  it('without accounts it stays offline: no request', async () => {
    const before = sb.requests.length;
    const r = await check({ platforms: ['linkedin'], text: 'Offline' });
    expect(r.accepted).toBe(true);
    expect(sb.requests.length).toBe(before);
  });
});

describe('posts check without --account', () => {
  it('stays offline: no key, no profile, no request', async () => {
    const before = sb.requests.length;
    const r = await runCli(['posts', 'check', '--platform', 'linkedin', '--text', 'Offline', '--json'], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(sb.requests.length).toBe(before);
  });

  it('--account needs a key, and says so (exit 3)', async () => {
    const r = await runCli(['posts', 'check', '--account', careers().id, '--text', 'Hiring'], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: undefined } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no API key');
  });

  it('--account cannot be combined with --from-file (the file names each row\'s accounts), nothing read', async () => {
    const before = sb.requests.length;
    const r = await runCli(['posts', 'check', '--from-file', '-', '--account', careers().id], { env: cliEnv(sb), stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--account cannot be combined with --from-file');
    expect(sb.requests.length).toBe(before);
  });
});

describe('shell completion', () => {
  it('completes posts check --account as posts create --account, from the same cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-check-account-'));
    const script = join(dir, 'socialpub.bash');
    writeFileSync(script, (await runCli(['completion', 'bash'])).stdout);
    // The scripts ask `socialpub completion --list-accounts` at Tab: a stand-in answers.
    const shim = join(dir, 'socialpub');
    writeFileSync(shim, `#!/bin/sh\n[ "$2" = --list-accounts ] && printf '%s\\n' ${sq('linkedin:@acme-careers')} ${sq('@acme-careers')}\n`);
    chmodSync(shim, 0o755);
    const complete = (line: string) => bashComplete(script, line, { env: { PATH: `${dir}:${process.env.PATH}` } });
    expect(complete('socialpub posts check --account ')).toEqual(['@acme-careers', 'linkedin:@acme-careers']);
    expect(complete('socialpub posts check --account ')).toEqual(complete('socialpub posts create --account '));
  });
});
