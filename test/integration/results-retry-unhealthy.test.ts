// `results retry` leaves out targets whose account is expired or disconnected in both dialects,
// against the sandbox over HTTP: socialpub's API says so in the account's status, SyncPostly's
// accounts have none, so there the account's newest result tells (TOKEN_EXPIRED, until a success).
// The same warning, the same body sent, the same exit codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, dialectEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { as } from './sandbox-support.js';
import { accountsOf, pick, type Account } from './accounts-support.js';
import { DIALECTS } from '../../src/wire/dialects.js';

let sb: TestSandbox;
let accounts: Account[];
let postId: string;
const acc = (platform: string, pred: (a: Account) => boolean) => pick(accounts, platform, pred);

/** A post scheduled in our dialect and published by the sandbox's publisher; its id. */
async function published(payloads: object): Promise<string> {
  const r = await as(sb, 'demo').post('/v1/schedule', { payloads, scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
  await sb.clock.advance(1000);
  return r.body.id as string;
}

beforeAll(async () => {
  // No random failures: every failure below is the account's or the content's doing.
  sb = await testSandbox({ failureRate: 0, seed: 8, ...ROOMY_LIMITS });
  accounts = await accountsOf(sb);
  // X to the expired account (TOKEN_EXPIRED); Instagram without media (MEDIA_REQUIRED, a healthy account).
  postId = await published({ 'twitter-x': { text: 'Launch day', accounts: [acc('twitter-x', (a) => a.status === 'expired').id] }, instagram: { text: 'Launch day' } });
});
afterAll(() => sb.close());

describe.each(DIALECTS)("results retry in %s's API", (dialect) => {
  const cli = (args: string[]) => runCli(args, { env: cliEnv(sb, 'demo', dialectEnv(dialect)) });

  it('leaves out the target on the expired account, says why and what to do, and sends the rest', async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const before = sb.requests.length;
    const r = await cli(['results', 'retry', postId, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).payloads)).toEqual(['instagram']);
    expect(r.stderr).toContain('left out 1 target whose account is expired or disconnected (--include-unhealthy sends it anyway):');
    expect(r.stderr).toMatch(new RegExp(`twitter-x @${expired.username}: TOKEN_EXPIRED`));
    expect(r.stderr).toContain(`twitter-x:@${expired.username} is expired, so publishing to it fails: reconnect it in the service's settings`);
    // One write, and the post it made (read back in our dialect) goes nowhere near the expired account.
    expect(sb.requests.slice(before).filter((q) => q.method !== 'GET')).toHaveLength(1);
    const made = await as(sb, 'demo').get(`/v1/posts/${JSON.parse(r.stdout).id}`);
    expect(Object.keys(made.body.payloads)).toEqual(['instagram']);
  });

  it('--include-unhealthy sends the expired account too', async () => {
    const r = await cli(['results', 'retry', postId, '--include-unhealthy', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).payloads).sort()).toEqual(['instagram', 'twitter-x']);
    expect(r.stderr).not.toContain('left out');
  });

  it('a post whose only failures are on an expired account: exit 2 with the fix, nothing written', async () => {
    const only = await published({ 'twitter-x': { text: `Again in ${dialect}`, accounts: [acc('twitter-x', (a) => a.status === 'expired').id] } });
    const before = sb.requests.length;
    const r = await cli(['results', 'retry', only]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('every failed target');
    expect(r.stderr).toContain("reconnect it in the service's settings");
    expect(sb.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
  });
});

describe('an account reconnected since the failure', () => {
  it('is left out while its newest result says disconnected, and retried once it has published again, in both dialects', async () => {
    const page = acc('linkedin', (a) => a.status === 'connected' && !a.isDefault);
    const demo = as(sb, 'demo');
    const retry = (dialect: string) => runCli(['results', 'retry', first, '--dry-run', '--json'], { env: cliEnv(sb, 'demo', dialectEnv(dialect as 'socialpub')) });
    expect((await demo.post(`/sandbox/accounts/${page.id}/disconnect`, {})).status).toBe(200);
    const first = await published({ linkedin: { text: 'We are hiring', accounts: [page.id] } });
    for (const dialect of DIALECTS) {
      const r = await retry(dialect);
      expect(r.code, `${dialect}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`linkedin:@${page.username} is disconnected, so publishing to it fails: reconnect it`);
    }
    expect((await demo.post(`/sandbox/accounts/${page.id}/reconnect`, {})).status).toBe(200);
    await published({ linkedin: { text: 'Still hiring', accounts: [page.id] } });
    for (const dialect of DIALECTS) {
      const r = await retry(dialect);
      expect(r.code, `${dialect}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('left out');
      expect(Object.keys(JSON.parse(r.stdout).requests[0].body.payloads)).toEqual(['linkedin']);
    }
  });
});
