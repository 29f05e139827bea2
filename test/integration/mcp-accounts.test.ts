// list_accounts, the write tools' `accounts`, and retry_failed leaving out expired accounts, against
// the sandbox over HTTP (the tools' run functions with a real client), as the commands do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toToolError } from '../../src/mcp/errors.js';
import { checkArgs } from '../../src/mcp/json-schema.js';
import { TOOLS, toolsFor } from '../../src/mcp/tools/index.js';
import type { ToolContext } from '../../src/mcp/types.js';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { as } from './sandbox-support.js';
import { accountsOf, pick, type Account as BaseAccount } from './accounts-support.js';
import { sandboxToolContext } from '../helpers/mcp-context.js';

type Account = BaseAccount & { health: { lastSuccess: unknown; lastFailure: { code: string } | null } };

let sb: TestSandbox;
let tc: ToolContext;
let accounts: BaseAccount[];

beforeAll(async () => {
  sb = await testSandbox({ failureRate: 0, seed: 4, readLimit: 1_000_000, writeLimit: 100_000 });
  tc = sandboxToolContext(sb);
  accounts = await accountsOf(sb);
});
afterAll(() => sb.close());

const tool = (name: string) => TOOLS.find((t) => t.name === name)!;
async function call(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  expect(checkArgs(tool(name).inputSchema, args)).toEqual([]);
  return tool(name).run(args, tc);
}
const acc = (platform: string, pred: (a: BaseAccount) => boolean) => pick(accounts, platform, pred);

describe('list_accounts', () => {
  it('is read-only (kept with --read-only) and lists the accounts with their health', async () => {
    expect(tool('list_accounts').annotations.readOnlyHint).toBe(true);
    expect(toolsFor(true).map((t) => t.name)).toContain('list_accounts');
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const demo = as(sb, 'demo');
    await demo.post('/v1/schedule', { payloads: { 'twitter-x': { text: 'Help desk', accounts: [expired.id] } }, scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
    await sb.clock.advance(1000);
    const r = await call('list_accounts', { statuses: ['expired'] });
    expect(r.accounts.map((a: Account) => a.id)).toEqual([expired.id]);
    expect(r.accounts[0].health.lastFailure.code).toBe('TOKEN_EXPIRED');
    expect(r.note).toContain("reconnecting in the service's settings");
  });

  it("filters by status in SyncPostly's API too, on the status the newest results tell, and says so", async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    await as(sb, 'demo').post('/v1/schedule', { payloads: { 'twitter-x': { text: 'Status check', accounts: [expired.id] } }, scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
    await sb.clock.advance(1000);
    const sp = sandboxToolContext(sb, 'demo', 'syncpostly');
    const args = { platforms: ['twitter-x'], statuses: ['expired'] };
    expect(checkArgs(tool('list_accounts').inputSchema, args)).toEqual([]);
    const r = (await tool('list_accounts').run(args, sp)) as Record<string, any>;
    expect(r.accounts.map((a: Account) => a.id)).toEqual([expired.id]);
    expect(r.accounts[0].status).toBe('expired');
    expect(r.note).toContain("statuses: SyncPostly's accounts carry no status, so it is inferred from each account's newest result");
    const connected = (await tool('list_accounts').run({ platforms: ['twitter-x'], statuses: ['connected'] }, sp)) as Record<string, any>;
    expect(connected.accounts.map((a: Account) => a.id)).not.toContain(expired.id);
  });
});

describe('write tools take accounts', () => {
  it('create_draft publishes to the named accounts, their platform taken when none is given', async () => {
    const careers = acc('linkedin', (a) => !a.isDefault);
    const r = await call('create_draft', { accounts: [`linkedin:@${careers.username}`], text: 'Hiring' });
    expect(r.post.platforms).toEqual(['linkedin']);
    const stored = await as(sb, 'demo').get(`/v1/posts/${r.post.id}`);
    expect(stored.body.payloads.linkedin.accounts).toEqual([careers.id]);
  });

  it('schedule_post to an expired account says, in its note, that the target will fail until the user reconnects it', async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const healthy = acc('bluesky', (a) => a.isDefault);
    const at = new Date(sb.clock.now() + 86_400_000).toISOString();
    const r = await call('schedule_post', { accounts: [`twitter-x:@${expired.username}`, `bluesky:@${healthy.username}`], text: 'Help desk hours', at });
    expect(r.post.status).toBe('scheduled');
    expect(r.note).toBe(`post scheduled. Tell the user: twitter-x:@${expired.username} is expired; reconnect it in the service's settings (Settings → Connected accounts) before the post goes out, or that target fails`);
    const fine = await call('create_draft', { accounts: [`bluesky:@${healthy.username}`], text: 'All good' });
    expect(fine.note).toBe('draft created');
  });

  it('an ambiguous handle is invalid input naming accounts, with the candidates', async () => {
    const err = await call('create_draft', { accounts: ['@socialpub.demo'], text: 'x' }).then(
      () => undefined,
      (e: unknown) => toToolError(e, 'default'),
    );
    expect(err?.code).toBe('invalid_input');
    expect(JSON.stringify(err)).toContain('threads:@socialpub.demo');
  });

  it('update_post moves a platform to another account', async () => {
    const d = await call('create_draft', { platforms: ['linkedin'], text: 'Move me' });
    const careers = acc('linkedin', (a) => !a.isDefault);
    const r = await call('update_post', { post_id: d.post.id, accounts: [careers.id] });
    expect(r.post).toMatchObject({ id: d.post.id, platforms: ['linkedin'] });
    expect((await call('get_post', { post_id: d.post.id })).post.payloads.linkedin.accounts).toEqual([careers.id]);
  });

  it('update_post asks the user before a scheduled post goes to other accounts, naming that change', async () => {
    const careers = acc('linkedin', (a) => !a.isDefault);
    const s = await call('schedule_post', { platforms: ['linkedin'], text: 'Scheduled', at: new Date(sb.clock.now() + 3_600_000).toISOString() });
    const asked: string[] = [];
    const stopped = { note: 'the user said no' };
    const r = await tool('update_post').run({ post_id: s.post.id, accounts: [careers.id] }, { ...tc, confirm: async (change) => (asked.push(change.summary), stopped) });
    expect(r).toBe(stopped);
    expect(asked).toEqual([expect.stringContaining('publish linkedin to other accounts')]);
    expect(asked[0]).not.toContain('media');
  });
});

describe('retry_failed', () => {
  it('leaves out targets on an expired account and says what to do, unless include_unhealthy', async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const demo = as(sb, 'demo');
    const p = await demo.post('/v1/schedule', { payloads: { 'twitter-x': { text: 'Both', accounts: [acc('twitter-x', (a) => a.isDefault).id, expired.id] }, instagram: { text: 'No media' } }, scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
    await sb.clock.advance(1000);
    const r = await call('retry_failed', { post_id: p.body.id, dry_run: true });
    expect(r.retrying.map((t: { platform: string }) => t.platform)).toEqual(['instagram']);
    expect(r.left_out).toEqual([expect.objectContaining({ platform: 'twitter-x', account_id: expired.id, code: 'TOKEN_EXPIRED' })]);
    expect(r.left_out[0].fix).toContain("reconnect it in the service's settings");
    const all = await call('retry_failed', { post_id: p.body.id, include_unhealthy: true, dry_run: true });
    expect(all.requests[0].body.payloads['twitter-x'].accounts).toEqual([expired.id]);
  });

  it("in SyncPostly's API too, where the account's newest result (TOKEN_EXPIRED) says it is expired", async () => {
    const expired = acc('twitter-x', (a) => a.status === 'expired');
    const p = await as(sb, 'demo').post('/v1/schedule', { payloads: { 'twitter-x': { text: 'Once more', accounts: [expired.id] }, instagram: { text: 'Once more' } }, scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
    await sb.clock.advance(1000);
    const r = (await tool('retry_failed').run({ post_id: p.body.id, dry_run: true }, sandboxToolContext(sb, 'demo', 'syncpostly'))) as Record<string, any>;
    expect(r.retrying.map((t: { platform: string }) => t.platform)).toEqual(['instagram']);
    expect(r.left_out).toEqual([expect.objectContaining({ platform: 'twitter-x', account_id: expired.id, code: 'TOKEN_EXPIRED' })]);
    expect(r.left_out[0].fix).toContain(`twitter-x:@${expired.username} is expired, so publishing to it fails: reconnect it in the service's settings`);
  });
});
