// The sandbox's accounts are stored (--data): an account expired through the sandbox-only route
// is still expired after a restart, the failures it caused still name it (and keep their code
// after a reconnect), the seed is not planted again, and a database of schema 1 (results
// without accounts) is brought up to date on open, its rows on each platform's default account.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlite } from '../../src/sandbox/db/sqlite.js';
import { SCHEMA_VERSION } from '../../src/sandbox/db/schema.js';
import { createManualClock, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { allRows, call, START, text } from './sandbox-support.js';

interface Account {
  id: string;
  platform: string;
  status: string;
  isDefault: boolean;
  tokenExpiresAt: string | null;
  connectedAt: string;
}

const dir = mkdtempSync(join(tmpdir(), 'sandbox-accounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function publishNow(sb: Sandbox, key: string, clock: ReturnType<typeof createManualClock>, payloads: Record<string, unknown>): Promise<string> {
  const r = await call(sb, 'POST', '/v1/schedule', { key, body: { payloads, scheduledAt: new Date(clock.now() + 60_000).toISOString() } });
  expect(r.status, r.text).toBe(201);
  await clock.advance(61_000);
  await sb.settle();
  return r.body.id as string;
}

describe('accounts across restarts', () => {
  it('keeps an expired account expired, and its failed results naming it, after a restart on the same --data', async () => {
    const file = join(dir, 'accounts.db');
    const clock = createManualClock(START);
    const first = await startSandbox({ port: 0, clock, dataFile: file, fixtures: 50, failureRate: 0, seed: 7, webhookRetryDelaysMs: [] });
    const key = first.key('demo');
    const before = (await allRows<Account>(first, key, '/v1/social-accounts')).rows;
    const bluesky = before.find((a) => a.platform === 'bluesky' && a.isDefault)!;
    const expired = await call(first, 'POST', `/sandbox/accounts/${bluesky.id}/expire`, { key });
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ id: bluesky.id, status: 'expired', tokenExpiresAt: new Date(START).toISOString() });
    const postId = await publishNow(first, key, clock, text(['bluesky']));
    const failed = (await call(first, 'GET', `/api/v1/post-results?post_id=${postId}`, { key })).body.data;
    expect(failed.map((r: { success: boolean; error: { code: string } | null; social_account_id: string }) => [r.success, r.error?.code, r.social_account_id])).toEqual([[false, 'TOKEN_EXPIRED', bluesky.id]]);
    const fixtureFilter = await allRows(first, key, '/api/v1/post-results', `&social_account_id=${bluesky.id}`);
    await first.close();

    const db = new (sqlite().DatabaseSync)(file, { readOnly: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM accounts WHERE workspace = 1 AND status = 'expired'").get()).toEqual({ n: 2 });
      expect(db.prepare('SELECT platform, account_failure FROM results').all()).toEqual([{ platform: 'bluesky', account_failure: 'TOKEN_EXPIRED' }]);
    } finally {
      db.close();
    }

    // A day later, on the same file: nothing is seeded again (connection times stay the first start's).
    const laterClock = createManualClock(START + 24 * 3_600_000);
    const second = await startSandbox({ port: 0, clock: laterClock, dataFile: file });
    try {
      expect(second.restored).toBe(true);
      const after = (await allRows<Account>(second, key, '/v1/social-accounts')).rows;
      expect(after).toEqual(before.map((a) => (a.id === bluesky.id ? expired.body : a)));
      const again = (await call(second, 'GET', `/api/v1/post-results?post_id=${postId}`, { key })).body.data;
      expect(again).toEqual(failed);
      // The filter (index on workspace, account, row) finds the same rows, the failure first.
      expect(await allRows(second, key, '/api/v1/post-results', `&social_account_id=${bluesky.id}`)).toEqual(fixtureFilter);
      expect(fixtureFilter.rows[0].id).toBe(failed[0].id);
      expect(fixtureFilter.total).toBeGreaterThan(1);
      // Reconnected, it publishes again; the earlier failure keeps its code.
      expect((await call(second, 'POST', `/sandbox/accounts/${bluesky.id}/reconnect`, { key })).body.status).toBe('connected');
      const next = await publishNow(second, key, laterClock, text(['bluesky']));
      expect((await call(second, 'GET', `/api/v1/post-results?post_id=${next}`, { key })).body.data[0]).toMatchObject({ success: true, social_account_id: bluesky.id });
      expect((await call(second, 'GET', `/api/v1/post-results/${failed[0].id}`, { key })).body.error.code).toBe('TOKEN_EXPIRED');
    } finally {
      await second.close();
    }
  });

  // Schema 1 had neither results.nth nor the accounts; main's schema 2 had nth; this branch's first schema 2 had the accounts only.
  it.each([
    { from: 1, layout: 'without nth', dropNth: true },
    { from: 2, layout: 'with nth', dropNth: false },
  ])('brings a schema $from database ($layout) up to date: accounts seeded, stored results on their platform\'s default account', async ({ from, dropNth }) => {
    const file = join(dir, `schema${from}-${dropNth ? 'bare' : 'nth'}.db`);
    const clock = createManualClock(START);
    const first = await startSandbox({ port: 0, clock, dataFile: file, failureRate: 0, seed: 3, webhookRetryDelaysMs: [] });
    const key = first.key('demo');
    const postId = await publishNow(first, key, clock, text(['linkedin', 'threads']));
    const rows = (await call(first, 'GET', `/api/v1/post-results?post_id=${postId}`, { key })).body.data;
    await first.close();

    // Back to schema 1's layout: results without accounts, and its accounts table, never written.
    const db = new (sqlite().DatabaseSync)(file);
    db.exec(`DROP INDEX results_published_by_account; ALTER TABLE results DROP COLUMN duplicate_of;
      DROP INDEX results_by_account; ALTER TABLE results DROP COLUMN account_failure; ALTER TABLE results DROP COLUMN account;
      DROP TABLE accounts; CREATE TABLE accounts (id TEXT PRIMARY KEY, workspace INTEGER NOT NULL, platform TEXT NOT NULL, username TEXT NOT NULL,
      display_name TEXT, status TEXT NOT NULL DEFAULT 'active', is_default INTEGER NOT NULL DEFAULT 0, token_expires_at INTEGER, connected_at INTEGER NOT NULL) WITHOUT ROWID;
      ${dropNth ? 'DROP INDEX results_by_platform; ALTER TABLE results DROP COLUMN nth; CREATE INDEX results_by_platform ON results (workspace, platform, row);' : ''}
      PRAGMA user_version = ${from};`);
    db.close();

    const second = await startSandbox({ port: 0, clock: createManualClock(START + 3_600_000), dataFile: file });
    try {
      expect(second.restored).toBe(true);
      const accounts = (await allRows<Account>(second, key, '/v1/social-accounts')).rows;
      expect(accounts.length).toBe(12);
      const again = (await call(second, 'GET', `/api/v1/post-results?post_id=${postId}`, { key })).body.data;
      expect(again).toEqual(rows);
      for (const r of again) expect(r.social_account_id).toBe(accounts.find((a) => a.platform === r.platform && a.isDefault)!.id);
      const linkedin = accounts.find((a) => a.platform === 'linkedin' && a.isDefault)!;
      expect((await call(second, 'GET', `/api/v1/post-results?social_account_id=${linkedin.id}`, { key })).body.meta.total).toBe(1);
    } finally {
      await second.close();
    }
    const check = new (sqlite().DatabaseSync)(file, { readOnly: true });
    try {
      expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
      // Each stored row numbered among its platform's again (one post: the first of each).
      expect(check.prepare('SELECT platform, nth FROM results ORDER BY platform').all().map((r) => ({ ...r }))).toEqual([
        { platform: 'linkedin', nth: 0 },
        { platform: 'threads', nth: 0 },
      ]);
    } finally {
      check.close();
    }
  });
});
