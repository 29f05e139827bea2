// The sandbox's social accounts over real HTTP: the list and one account (paged, filtered,
// isolated per workspace), payload `accounts` (checked, default filled in, echoed), one result
// per target account naming it, the social_account_id filter, and expired or disconnected
// accounts failing every time, before any random failure, until reconnected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountJson } from '../../src/sandbox/accounts.js';
import { allRows, as, call, manualSandbox, type TestSandbox } from './sandbox-support.js';

type Account = AccountJson;

let sb: TestSandbox;
let demo: ReturnType<typeof as>;
let other: ReturnType<typeof as>;
let accounts: Account[];

beforeAll(async () => {
  // No random failures here, so a success after a reconnect is the account's doing (see the failure-rate 1 test below).
  sb = await manualSandbox({ fixtures: 300, failureRate: 0, seed: 5, readLimit: 100_000, writeLimit: 100_000 });
  demo = as(sb, 'demo');
  other = as(sb, 'other');
  accounts = (await allRows<Account>(sb, demo.key, '/v1/social-accounts')).rows;
});
afterAll(() => sb.close());

const find = (platform: string, pred: (a: Account) => boolean = () => true) => accounts.find((a) => a.platform === platform && pred(a))!;

async function publish(payloads: Record<string, unknown>) {
  const r = await demo.post('/v1/schedule', { payloads, scheduledAt: new Date(sb.clock.now() + 60_000).toISOString() });
  expect(r.status, r.text).toBe(201);
  await sb.clock.advance(61_000);
  const results = await demo.get(`/api/v1/post-results?post_id=${r.body.id}&limit=100`);
  return { post: r.body, rows: results.body.data as { social_account_id: string | null; success: boolean; platform: string; error: { code: string } | null; platform_data: { username: string } }[] };
}

describe('GET /v1/social-accounts', () => {
  it('lists realistic accounts: one default per platform, two on some, one expired, handles repeating across platforms', () => {
    expect(accounts.length).toBe(12);
    for (const a of accounts) {
      expect(a.id).toMatch(/^acc_/);
      expect(Number.isNaN(Date.parse(a.connectedAt))).toBe(false);
    }
    const platforms = new Set(accounts.map((a) => a.platform));
    for (const p of platforms) expect(accounts.filter((a) => a.platform === p && a.isDefault).length).toBe(1);
    expect(accounts.filter((a) => a.platform === 'linkedin').length).toBe(2);
    expect(accounts.filter((a) => a.status === 'expired').length).toBe(1);
    const handles = accounts.map((a) => a.username);
    expect(handles.length - new Set(handles).size).toBeGreaterThan(0);
  });

  it('pages and filters by platform and status, and refuses an unknown status naming it', async () => {
    const page = await demo.get('/v1/social-accounts?limit=5&offset=5');
    expect(page.body.meta).toEqual({ offset: 5, limit: 5, total: 12 });
    expect(page.body.data.map((a: Account) => a.id)).toEqual(accounts.slice(5, 10).map((a) => a.id));
    const li = await demo.get('/v1/social-accounts?platform=linkedin&platform=instagram&status=connected');
    expect(li.body.data.every((a: Account) => ['linkedin', 'instagram'].includes(a.platform) && a.status === 'connected')).toBe(true);
    expect(li.body.meta.total).toBe(4);
    const bad = await demo.get('/v1/social-accounts?status=asleep');
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('status');
  });

  it('answers one account, and 404 NOT_FOUND for an unknown id or another workspace\'s', async () => {
    const one = await demo.get(`/v1/social-accounts/${accounts[3]!.id}`);
    expect(one.body).toEqual(accounts[3]);
    const foreign = await other.get(`/v1/social-accounts/${accounts[3]!.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await demo.get('/v1/social-accounts/acc_nope')).status).toBe(404);
  });
});

describe('payload accounts', () => {
  it('echoes the default when none is named, and publishes one result per named account, naming it', async () => {
    const careers = find('linkedin', (a) => !a.isDefault);
    const page = find('linkedin', (a) => a.isDefault);
    const { post, rows } = await publish({ linkedin: { text: 'Two pages', accounts: [page.id, careers.id] }, bluesky: { text: 'Default' } });
    expect(post.payloads.bluesky.accounts).toEqual([find('bluesky').id]);
    expect(post.payloads.linkedin.accounts).toEqual([page.id, careers.id]);
    expect(rows.length).toBe(3);
    const li = rows.filter((r) => r.platform === 'linkedin');
    expect(new Set(li.map((r) => r.social_account_id))).toEqual(new Set([page.id, careers.id]));
    expect(li.find((r) => r.social_account_id === careers.id)!.platform_data.username).toBe(careers.username);
  });

  it('refuses an id of another platform or workspace with 422 naming the field', async () => {
    const ig = find('instagram');
    const wrong = await demo.post('/v1/posts', { payloads: { linkedin: { text: 'x', accounts: [ig.id] } } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.issues[0].path).toBe('payloads.linkedin.accounts.0');
    expect(wrong.body.error.issues[0].message).toContain('instagram');
    const foreign = await other.post('/v1/posts', { payloads: { linkedin: { text: 'x', accounts: [find('linkedin').id] } } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.issues[0].path).toBe('payloads.linkedin.accounts.0');
  });
});

describe('account health', () => {
  it('fails TOKEN_EXPIRED every time for an expired account, before any random failure, and the filter finds those rows', async () => {
    const expired = accounts.find((a) => a.status === 'expired')!;
    for (let i = 0; i < 3; i++) {
      const { rows } = await publish({ [expired.platform]: { text: `Try ${i}`, accounts: [expired.id] } });
      expect(rows.map((r) => [r.success, r.error?.code, r.social_account_id])).toEqual([[false, 'TOKEN_EXPIRED', expired.id]]);
    }
    const filtered = await demo.get(`/api/v1/post-results?social_account_id=${expired.id}&limit=100`);
    expect(filtered.body.data.length).toBeGreaterThanOrEqual(3);
    expect(filtered.body.data.every((r: { social_account_id: string }) => r.social_account_id === expired.id)).toBe(true);
    expect(filtered.body.data.slice(0, 3).every((r: { error: { code: string } }) => r.error.code === 'TOKEN_EXPIRED')).toBe(true);
  });

  it('disconnects and reconnects through the sandbox-only route, with the workspace key', async () => {
    const tiktok = find('tiktok');
    expect((await call(sb, 'POST', `/sandbox/accounts/${tiktok.id}/disconnect`)).status).toBe(401);
    expect((await other.post(`/sandbox/accounts/${tiktok.id}/disconnect`, {})).status).toBe(404);
    const changed = await demo.post(`/sandbox/accounts/${tiktok.id}/disconnect`, {});
    expect(changed.body.status).toBe('disconnected');
    const media = { media: [{ url: 'https://cdn.example/clip.mp4', type: 'video' }] };
    const down = await publish({ tiktok: { text: 'Down', ...media } });
    expect(down.rows.map((r) => r.error?.code)).toEqual(['ACCOUNT_DISCONNECTED']);
    await demo.post(`/sandbox/accounts/${tiktok.id}/reconnect`, {});
    const up = await publish({ tiktok: { text: 'Up', ...media } });
    expect(up.rows.map((r) => r.success)).toEqual([true]);
    // The failure stays what it was when it happened.
    const again = await demo.get(`/api/v1/post-results?post_id=${down.post.id}`);
    expect(again.body.data[0].error.code).toBe('ACCOUNT_DISCONNECTED');
    const expire = await demo.post(`/sandbox/accounts/${tiktok.id}/expire`, {});
    expect(expire.body.status).toBe('expired');
    expect((await publish({ tiktok: { text: 'Expired', ...media } })).rows[0]!.error!.code).toBe('TOKEN_EXPIRED');
  });

  it('spreads fixture rows over a platform\'s accounts, and the filter total matches the rows', async () => {
    const ig = accounts.filter((a) => a.platform === 'instagram');
    const all = (await allRows<{ social_account_id: string | null; platform: string }>(sb, demo.key, '/api/v1/post-results')).rows;
    for (const a of ig) {
      const mine = all.filter((r) => r.social_account_id === a.id).length;
      expect(mine).toBeGreaterThan(0);
      const page = await demo.get(`/api/v1/post-results?social_account_id=${a.id}&limit=1`);
      expect(page.body.meta.total).toBe(mine);
    }
  });

  it('fails ACCOUNT_DISCONNECTED before the random failures of a failure rate of 1', async () => {
    const harsh = await manualSandbox({ failureRate: 1, seed: 9 });
    try {
      const key = harsh.key('demo');
      const li = (await call(harsh, 'GET', '/v1/social-accounts?platform=linkedin', { key })).body.data[0] as Account;
      await call(harsh, 'POST', `/sandbox/accounts/${li.id}/disconnect`, { key });
      for (let i = 0; i < 4; i++) {
        const r = await call(harsh, 'POST', '/v1/schedule', { key, body: { payloads: { linkedin: { text: `Try ${i}` } }, scheduledAt: new Date(harsh.clock.now() + 1000).toISOString() } });
        await harsh.clock.advance(1000);
        const rows = await call(harsh, 'GET', `/api/v1/post-results?post_id=${r.body.id}`, { key });
        expect(rows.body.data.map((x: { error: { code: string } }) => x.error.code)).toEqual(['ACCOUNT_DISCONNECTED']);
      }
    } finally {
      await harsh.close();
    }
  });

  it('gives the demo workspace extra accounts with the accounts option', async () => {
    const big = await manualSandbox({ accounts: 50 });
    try {
      const r = await call(big, 'GET', '/v1/social-accounts?limit=100', { key: big.key('demo') });
      expect(r.body.meta.total).toBe(50);
      expect(new Set(r.body.data.map((a: Account) => a.id)).size).toBe(50);
    } finally {
      await big.close();
    }
  });
});
