// Accounts through the commands, in-process against the sandbox over HTTP: --account on posts
// create/edit and results list/wait, posts view naming each target account, results retry leaving
// out expired accounts (and sending a multi-account payload only to the accounts that failed),
// and the terminal confirmation naming a platform's default account.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { cliEnv, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { allRows, as } from './sandbox-support.js';
import { accountsOf, pick, type Account } from './accounts-support.js';

let sb: TestSandbox;
let accounts: Account[];
let postId: string;
const acc = (platform: string, pred: (a: Account) => boolean) => pick(accounts, platform, pred);
const cli = (args: string[], options: Parameters<typeof runCli>[1] = {}) => runCli(args, { env: cliEnv(sb), ...options });

beforeAll(async () => {
  // No random failures: every failure below is the account's or the content's doing.
  sb = await testSandbox({ failureRate: 0, seed: 8, readLimit: 1_000_000, writeLimit: 100_000 });
  const demo = as(sb, 'demo');
  accounts = await accountsOf(sb);
  const expired = acc('twitter-x', (a) => a.status === 'expired');
  const xDefault = acc('twitter-x', (a) => a.isDefault);
  // X to the default and the expired account; Instagram without media (MEDIA_REQUIRED, a healthy account).
  const r = await demo.post('/v1/schedule', {
    payloads: { 'twitter-x': { text: 'Launch day', accounts: [xDefault.id, expired.id] }, instagram: { text: 'Launch day' } },
    scheduledAt: new Date(sb.clock.now() + 60_000).toISOString(),
  });
  postId = r.body.id;
  await sb.clock.advance(61_000);
});
afterAll(() => sb.close());

describe('posts create / edit --account', () => {
  it('publishes to the named account, taking its platform when none is given', async () => {
    const careers = acc('linkedin', (a) => !a.isDefault);
    const r = await cli(['posts', 'create', '--account', `linkedin:@${careers.username}`, '--text', 'We are hiring', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).payloads).toEqual({ linkedin: { text: 'We are hiring', accounts: [careers.id] } });
  });

  it('an ambiguous handle, or an account of a platform the post does not target, is exit 2 before any write', async () => {
    const before = sb.requests.length;
    const amb = await cli(['posts', 'create', '--account', '@socialpub.demo', '--platform', 'instagram', '--text', 'x']);
    expect(amb.code).toBe(2);
    expect(amb.stderr).toMatch(/3 accounts have this handle/);
    expect(amb.stderr).toContain('tiktok:@socialpub.demo');
    const off = await cli(['posts', 'create', '--account', acc('linkedin', (a) => a.isDefault).id, '--platform', 'bluesky', '--text', 'x']);
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('the post does not go to linkedin');
    expect(sb.requests.slice(before).every((q) => q.method === 'GET' && q.path === '/v1/social-accounts')).toBe(true);
  });

  it('an expired account named with --account is said at once on create and edit (its target would fail), a healthy one is not', async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const r = await cli(['posts', 'create', '--account', `twitter-x:@${expired.username}`, '--text', 'To the help desk', '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: twitter-x:@${expired.username} is expired, so publishing to it fails: reconnect it in the service's settings (Settings → Connected accounts), then retry\n`);
    expect(r.stderr).not.toContain('then retry:');
    const healthy = await cli(['posts', 'create', '--account', acc('linkedin', (a) => !a.isDefault).id, '--text', 'Hiring', '-q']);
    expect(healthy.code, healthy.stderr).toBe(0);
    expect(healthy.stderr).not.toContain('reconnect');
    const e = await cli(['posts', 'edit', healthy.stdout.trim(), '--account', `twitter-x:@${expired.username}`, '--yes', '-q']);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stderr).toContain(`twitter-x:@${expired.username} is expired`);
  });

  it('posts edit --account moves a platform to other accounts, and only that payload is sent', async () => {
    const draft = JSON.parse((await cli(['posts', 'create', '--platform', 'linkedin,bluesky', '--text', 'Edit me', '--json'])).stdout);
    const careers = acc('linkedin', (a) => !a.isDefault);
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', draft.id, '--account', careers.id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).payloads.linkedin.accounts).toEqual([careers.id]);
    expect(JSON.parse(r.stdout).payloads.bluesky).toEqual(draft.payloads.bluesky);
    expect(sb.requests.slice(before).filter((q) => q.method === 'PATCH')).toHaveLength(1);
  });

  it('on a terminal, the confirmation names the default account of a platform with several', async () => {
    const prompter = new ScriptedPrompter(['Hello pages', '', 'send']);
    const r = await cli(['posts', 'create', '--platform', 'linkedin', '-q'], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`linkedin → @${acc('linkedin', (a) => a.isDefault).username} (the default of 2 accounts; --account chooses another)`);
  });

  // The post as the sandbox keeps it: each payload echoes the accounts it goes to.
  const payloadsOf = (stdout: string) => (JSON.parse(stdout) as { payloads: Record<string, { accounts?: string[] }> }).payloads;

  it('an Edit at the confirmation keeps the account --account chose', async () => {
    const careers = acc('linkedin', (a) => !a.isDefault);
    const prompter = new ScriptedPrompter(['Careers text', '', 'edit', 'media', '', 'send']);
    const r = await cli(['posts', 'create', '--account', `linkedin:@${careers.username}`, '--json'], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('This will be sent').slice(1).every((part) => part.includes(`linkedin → @${careers.username}\n`))).toBe(true);
    expect(payloadsOf(r.stdout).linkedin?.accounts).toEqual([careers.id]);
  });

  it('Edit → Accounts starts from the account --account chose, ticked', async () => {
    const careers = acc('linkedin', (a) => !a.isDefault);
    const prompter = new ScriptedPrompter(['Careers text', '', 'edit', 'accounts', [careers.id], 'send']);
    const r = await cli(['posts', 'create', '--account', `linkedin:@${careers.username}`, '--json'], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    const ticked = prompter.offered.get('Accounts for linkedin')!.filter((c) => c.checked).map((c) => c.value);
    expect(ticked).toEqual([careers.id]);
  });

  it('Edit → Accounts picks which of a platform\'s accounts the post goes to', async () => {
    const careers = acc('linkedin', (a) => !a.isDefault);
    const prompter = new ScriptedPrompter(['Two pages', '', 'edit', 'accounts', [careers.id], 'send']);
    const r = await cli(['posts', 'create', '--platform', 'linkedin,bluesky', '--json'], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked).toContain('Accounts for linkedin');
    // Bluesky has one account: nothing to choose there.
    expect(prompter.asked).not.toContain('Accounts for bluesky');
    expect(r.stderr).toContain(`linkedin → @${careers.username}\n`);
    const payloads = payloadsOf(r.stdout);
    expect(payloads.linkedin?.accounts).toEqual([careers.id]);
    // The sandbox fills in the default where none was named.
    expect(payloads.bluesky?.accounts).toEqual([acc('bluesky', (a) => a.isDefault).id]);
  });
});

describe('bulk files: the account column', () => {
  it('schedules each row to its accounts; an unknown handle names its line, and nothing is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-accounts-'));
    const at = new Date(sb.clock.now() + 3_600_000).toISOString();
    const careers = acc('linkedin', (a) => !a.isDefault);
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, `at,platforms,text,account\n${at},linkedin,First,linkedin:@${careers.username}\n${at},bluesky,Second,@nobody_here\n`);
    const before = sb.requests.length;
    const refused = await cli(['posts', 'schedule', '--from-file', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 3: account @nobody_here: no such account');
    expect(sb.requests.slice(before).every((q) => q.method === 'GET')).toBe(true);
    const good = join(dir, 'good.csv');
    writeFileSync(good, `at,platforms,text,account\n${at},linkedin|bluesky,First,linkedin:@${careers.username}\n`);
    const r = await cli(['posts', 'schedule', '--from-file', good, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const posts = await allRows<{ payloads: Record<string, { accounts: string[] }> }>(sb, sb.key('demo'), '/v1/posts', '&status=scheduled');
    const mine = posts.rows.find((p) => p.payloads.linkedin?.accounts?.[0] === careers.id && p.payloads.bluesky);
    expect(mine).toBeDefined();
    expect(mine!.payloads.bluesky!.accounts).toEqual([acc('bluesky', (a) => a.isDefault).id]);
  });

  it('an expired account in the account column is told once, with the lines that name it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-accounts-'));
    const at = new Date(sb.clock.now() + 3_600_000).toISOString();
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const file = join(dir, 'expired.csv');
    writeFileSync(file, `at,platforms,text,account\n${at},twitter-x,First,@${expired.username}\n${at},linkedin,Second,\n${at},twitter-x,Third,twitter-x:@${expired.username}\n`);
    const r = await cli(['posts', 'schedule', '--from-file', file, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const told = r.stderr.split('\n').filter((l) => l.includes(`twitter-x:@${expired.username}`));
    expect(told).toEqual([`warning: twitter-x:@${expired.username} (lines 2, 4) is expired, so publishing to it fails: reconnect it in the service's settings (Settings → Connected accounts), then retry`]);
  });
});

describe('triage', () => {
  it('results list --account keeps that account\'s rows only', async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const r = await cli(['results', 'list', '--account', `@${expired.username}`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { social_account_id: string; error: { code: string } }[];
    expect(rows.length).toBe(1);
    expect(rows[0]!.social_account_id).toBe(expired.id);
    expect(rows[0]!.error.code).toBe('TOKEN_EXPIRED');
  });

  it('results wait and stats --account count only that account\'s targets', async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const xDefault = acc('twitter-x', (a) => a.isDefault);
    const healthy = await cli(['results', 'wait', '--post', postId, '--account', `@${xDefault.username}`, '--json']);
    expect(healthy.code, healthy.stderr).toBe(0);
    expect((JSON.parse(healthy.stdout) as { social_account_id: string }[]).map((r) => r.social_account_id)).toEqual([xDefault.id]);
    const broken = await cli(['results', 'wait', '--post', postId, '--account', expired.id]);
    expect(broken.code).toBe(7);
    const stats = await cli(['results', 'stats', '--by', 'account', '--account', `twitter-x:@${xDefault.username}`, '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect((JSON.parse(stats.stdout) as { groups: { key: string }[] }).groups.map((g) => g.key)).toEqual([xDefault.id]);
  });

  it('results stats --by account on a narrow terminal keeps platform and handle, not the id', async () => {
    const xDefault = acc('twitter-x', (a) => a.isDefault);
    const r = await cli(['results', 'stats', '--by', 'account', '--account', `twitter-x:@${xDefault.username}`], { tty: true, columns: 60 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^twitter-x +@${xDefault.username.replace(/[.]/g, '\\.')} `, 'm'));
    expect(r.stdout).not.toContain(xDefault.id);
    const wide = await cli(['results', 'stats', '--by', 'account', '--account', `twitter-x:@${xDefault.username}`], { tty: true, columns: 120 });
    expect(wide.stdout).toContain(xDefault.id);
  });

  it('posts view shows each target account with its outcome, and "account expired" beside that failure', async () => {
    const r = await cli(['posts', 'view', postId], { columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const xDefault = acc('twitter-x', (a) => a.isDefault);
    expect(r.stdout).toContain(`→ @${xDefault.username} (default)\n  ✓ published`);
    expect(r.stdout).toMatch(new RegExp(`→ @${expired.username}\\n  ✗ TOKEN_EXPIRED: .* · account expired`));
  });

  it('results wait says "account expired" beside the failure and what to do', async () => {
    const r = await cli(['results', 'wait', '--post', postId]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/TOKEN_EXPIRED: .* · account expired/);
    expect(r.stderr).toContain("reconnect it in the service's settings");
  });

  it('results retry leaves out the expired account and says why; --include-unhealthy sends only the account that failed', async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const r = await cli(['results', 'retry', postId, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).payloads)).toEqual(['instagram']);
    expect(r.stderr).toContain('left out 1 target whose account is expired or disconnected');
    expect(r.stderr).toContain(`twitter-x:@${expired.username} is expired, so publishing to it fails: reconnect it in the service's settings`);
    const all = await cli(['results', 'retry', postId, '--include-unhealthy', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const payloads = JSON.parse(all.stdout).payloads;
    // The default X account succeeded: sent again as it was, it would publish twice there.
    expect(payloads['twitter-x'].accounts).toEqual([expired.id]);
    expect(Object.keys(payloads).sort()).toEqual(['instagram', 'twitter-x']);
  });

  it('results retry of a post whose only failures are on an expired account is exit 2 with the fix', async () => {
    const demo = as(sb, 'demo');
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const p = await demo.post('/v1/schedule', { payloads: { 'twitter-x': { text: 'Again', accounts: [expired.id] } }, scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
    await sb.clock.advance(1000);
    const r = await cli(['results', 'retry', p.body.id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('every failed target');
    expect(r.stderr).toContain("reconnect it in the service's settings");
  });
});
