// An expired account named with --account (posts create, schedule, edit), a bulk file's account column or a write tool's
// `accounts` is said at once, in both dialects, against the sandbox over HTTP: socialpub's API says
// so in the account's status (no request beyond the accounts lookup), SyncPostly's accounts have
// none, so there the account's newest result tells (TOKEN_EXPIRED). The same words, the same exit.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, dialectEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { callTool, sandboxToolContext } from '../helpers/mcp-context.js';
import { as } from './sandbox-support.js';
import { accountsOf, pick, type Account } from './accounts-support.js';
import { DIALECTS } from '../../src/wire/dialects.js';
import { SP_PATHS } from '../../src/wire/syncpostly/assumptions.js';

let sb: TestSandbox;
let accounts: Account[];
const acc = (platform: string, pred: (a: Account) => boolean) => pick(accounts, platform, pred);
const expired = () => acc('twitter-x', (a) => a.status === 'expired');
const healthy = () => acc('twitter-x', (a) => a.isDefault);

beforeAll(async () => {
  sb = await testSandbox({ failureRate: 0, seed: 8, ...ROOMY_LIMITS });
  accounts = await accountsOf(sb);
  // The expired account's newest result: TOKEN_EXPIRED (what SyncPostly's dialect reads its state from).
  await as(sb, 'demo').post('/v1/schedule', { payloads: { 'twitter-x': { text: 'Launch day', accounts: [expired().id] } }, scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
  await sb.clock.advance(1000);
});
afterAll(() => sb.close());

/** The start of the warning our dialect has always given (its status says expired). */
const warning = (lines = '') => `twitter-x:@${expired().username}${lines} is expired, so publishing to it fails: reconnect it in the service's settings`;

describe.each(DIALECTS)("an expired account named in %s's API", (dialect) => {
  const cli = (args: string[]) => runCli(args, { env: cliEnv(sb, 'demo', dialectEnv(dialect)) });
  const later = () => new Date(sb.clock.now() + 86_400_000).toISOString();

  it('posts create --account warns before the write, and the draft is made', async () => {
    const before = sb.requests.length;
    const r = await cli(['posts', 'create', '--account', `twitter-x:@${expired().username}`, '--text', `Help desk (${dialect})`, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).not.toBe('');
    expect(r.stderr).toContain(warning());
    const sent = sb.requests.slice(before);
    expect(sent.filter((q) => q.method === 'POST')).toHaveLength(1);
    // Our dialect has the status on the account: no results read for it.
    if (dialect === 'socialpub') expect(sent.filter((q) => q.path.includes('post-results'))).toEqual([]);
  });

  it('posts schedule --account warns too; a healthy account is not warned about', async () => {
    const r = await cli(['posts', 'schedule', '--account', `twitter-x:@${expired().username}`, '--text', `Later (${dialect})`, '--at', later(), '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(warning());
    const fine = await cli(['posts', 'schedule', '--account', `twitter-x:@${healthy().username}`, '--text', `Fine (${dialect})`, '--at', later(), '-q']);
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).not.toContain('reconnect');
  });

  it('posts edit --account warns', async () => {
    const draft = await cli(['posts', 'create', '--account', `twitter-x:@${healthy().username}`, '--text', `Edit me (${dialect})`, '-q']);
    expect(draft.code, draft.stderr).toBe(0);
    const r = await cli(['posts', 'edit', draft.stdout.trim(), '--account', `twitter-x:@${expired().username}`, '--yes', '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(warning());
  });

  it("a bulk file's account column is told once, with its lines", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'socialpub-unhealthy-')), 'posts.csv');
    writeFileSync(file, `at,platforms,text,account\n${later()},twitter-x,First,@${expired().username}\n${later()},twitter-x,Second,twitter-x:@${healthy().username}\n${later()},twitter-x,Third,twitter-x:@${expired().username}\n`);
    const r = await cli(['posts', 'schedule', '--from-file', file, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const told = r.stderr.split('\n').filter((l) => l.includes('is expired'));
    expect(told).toEqual([expect.stringContaining(warning(' (lines 2, 4)'))]);
  });

  it("the write tools' note tells the user", async () => {
    const tc = sandboxToolContext(sb, 'demo', dialect);
    const r = await callTool(tc, 'schedule_post', { accounts: [`twitter-x:@${expired().username}`], text: `Tool (${dialect})`, at: later() });
    expect(r.note).toBe(`post scheduled. Tell the user: twitter-x:@${expired().username} is expired; reconnect it in the service's settings (Settings → Connected accounts) before the post goes out, or that target fails`);
    const fine = await callTool(tc, 'create_draft', { accounts: [`twitter-x:@${healthy().username}`], text: `Tool fine (${dialect})` });
    expect(fine.note).toBe('draft created');
  });
});

describe("SyncPostly's API, when the results that tell an account's state cannot be read", () => {
  it('the post is still made, without the warning: only the warning hung on that read', async () => {
    sb.failNext({ fault: 'error', method: 'GET', path: SP_PATHS.postResults });
    const env = cliEnv(sb, 'demo', dialectEnv('syncpostly'));
    const before = sb.requests.length;
    const r = await runCli(['--max-retries', '0', 'posts', 'create', '--account', `twitter-x:@${expired().username}`, '--text', 'Read failed', '-q'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('is expired');
    const sent = sb.requests.slice(before);
    expect(sent.some((q) => q.path === SP_PATHS.postResults && q.status === 500)).toBe(true);
    expect(sent.filter((q) => q.method === 'POST')).toHaveLength(1);
  });
});
