// Why a live publish fails in the sandbox: TOKEN_EXPIRED and ACCOUNT_DISCONNECTED only from the
// account's state, DUPLICATE_CONTENT only from an earlier post with the same text on the same
// account within DUPLICATE_WINDOW_MS (on the platforms that refuse duplicates), never at random.
// The fixtures (generated history) keep their seeded codes, those among them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountJson } from '../../src/sandbox/accounts.js';
import { DUPLICATE_WINDOW_MS } from '../../src/sandbox/failures.js';
import { allRows, as, manualSandbox, type TestSandbox } from './sandbox-support.js';

interface Row {
  id: string;
  post_id: string;
  platform: string;
  success: boolean;
  social_account_id: string | null;
  error: { code: string; message: string; context: Record<string, unknown> } | null;
}

const FACT_CODES = ['TOKEN_EXPIRED', 'ACCOUNT_DISCONNECTED', 'DUPLICATE_CONTENT'];

async function publish(sb: TestSandbox, payloads: Record<string, unknown>): Promise<{ id: string; rows: Row[] }> {
  const demo = as(sb, 'demo');
  const r = await demo.post('/v1/schedule', { payloads, scheduledAt: new Date(sb.clock.now() + 60_000).toISOString() });
  expect(r.status, r.text).toBe(201);
  await sb.clock.advance(61_000);
  await sb.settle();
  const rows = (await demo.get(`/api/v1/post-results?post_id=${r.body.id}&limit=100`)).body.data as Row[];
  return { id: r.body.id, rows };
}

describe('random failures of a live publish', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await manualSandbox({ fixtures: 3000, failureRate: 1, seed: 11, writeLimit: 100_000, readLimit: 100_000 });
  });
  afterAll(() => sb.close());

  it('never say the token expired, the account was disconnected or the post was a duplicate of nothing', async () => {
    const accounts = (await allRows<AccountJson>(sb, as(sb, 'demo').key, '/v1/social-accounts')).rows;
    const connected = accounts.filter((a) => a.status === 'connected');
    const codes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const payloads = Object.fromEntries([...new Set(connected.map((a) => a.platform))].map((p) => [p, { text: `Post number ${i} for ${p}`, accounts: connected.filter((a) => a.platform === p).map((a) => a.id) }]));
      for (const r of (await publish(sb, payloads)).rows) {
        expect(r.success).toBe(false);
        codes.push(r.error!.code);
      }
    }
    expect(codes.length).toBeGreaterThan(100);
    expect(codes.filter((c) => FACT_CODES.includes(c))).toEqual([]);
    // Still random among the others.
    expect(new Set(codes).size).toBeGreaterThan(2);
  });

  it('the fixtures (history made from the seed) keep every code, those too', async () => {
    const rows = (await allRows<Row>(sb, as(sb, 'demo').key, '/api/v1/post-results')).rows.filter((r) => !r.success);
    const codes = new Set(rows.map((r) => r.error!.code));
    expect(codes.has('TOKEN_EXPIRED')).toBe(true);
    expect(codes.has('DUPLICATE_CONTENT')).toBe(true);
  });
});

describe('DUPLICATE_CONTENT', () => {
  let sb: TestSandbox;
  let accounts: AccountJson[];
  beforeAll(async () => {
    sb = await manualSandbox({ failureRate: 0, seed: 12, writeLimit: 100_000, readLimit: 100_000 });
    accounts = (await allRows<AccountJson>(sb, as(sb, 'demo').key, '/v1/social-accounts')).rows;
  });
  afterAll(() => sb.close());

  const same = { linkedin: { text: 'Launch day!' }, 'twitter-x': { text: 'Launch day!' }, bluesky: { text: 'Launch day!' } };

  it('comes from an earlier post with the same text on the same account, naming it, on the platforms that refuse duplicates', async () => {
    const first = await publish(sb, same);
    expect(first.rows.map((r) => r.success)).toEqual([true, true, true]);
    await sb.clock.advance(3_600_000);
    const again = await publish(sb, same);
    const by = (p: string) => again.rows.find((r) => r.platform === p)!;
    for (const p of ['linkedin', 'twitter-x']) {
      expect(by(p).error).toMatchObject({ code: 'DUPLICATE_CONTENT', context: { duplicateOf: { postId: first.id, resultId: first.rows.find((r) => r.platform === p)!.id } } });
      expect(by(p).error!.message).toContain(first.id);
    }
    // Bluesky takes the same text twice.
    expect(by('bluesky').success).toBe(true);
    // Another text, or the same text on another account, is no duplicate.
    expect((await publish(sb, { linkedin: { text: 'Launch day! (2)' } })).rows[0]!.success).toBe(true);
    const careers = accounts.find((a) => a.platform === 'linkedin' && !a.isDefault)!;
    expect((await publish(sb, { linkedin: { text: 'Launch day!', accounts: [careers.id] } })).rows[0]!.success).toBe(true);
  });

  it('a failed earlier attempt is nothing to repeat, and the window ends', async () => {
    await sb.clock.advance(DUPLICATE_WINDOW_MS);
    const later = await publish(sb, same);
    expect(later.rows.map((r) => r.success)).toEqual([true, true, true]);
    // The duplicate that failed just now is not what a next post repeats: the published one is.
    await sb.clock.advance(60_000);
    const next = await publish(sb, { linkedin: same.linkedin });
    expect(next.rows[0]!.error).toMatchObject({ code: 'DUPLICATE_CONTENT', context: { duplicateOf: { postId: later.id } } });
  });
});
