// Post results over real HTTP: success and failure rows merged newest first, pagination after
// the merge, totals under filters, several filter values in each encoding, row shapes, and
// workspace isolation. Fixtures and live publishes are mixed on purpose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../src/wire/platforms.js';
import { allRows, as, manualSandbox, text, type TestSandbox } from './sandbox-support.js';

interface Row {
  id: string;
  post_id: string;
  success: boolean;
  social_account_id: string | null;
  platform_data: { id: string; url: string | null; username: string };
  error: { code: string; message: string; context: Record<string, unknown> } | null;
  platform: string;
  created_at: string;
}

let sb: TestSandbox;
let demo: ReturnType<typeof as>;
let other: ReturnType<typeof as>;
let all: Row[];
const live: string[] = [];

beforeAll(async () => {
  sb = await manualSandbox({ fixtures: 600, failureRate: 0.3, seed: 3, readLimit: 100_000 });
  demo = as(sb, 'demo');
  other = as(sb, 'other');
  // Live publishes on top of the fixtures, at three different times.
  for (const [i, platforms] of [['twitter-x', 'bluesky', 'linkedin'], ['instagram'], ['threads', 'twitter-x']].entries()) {
    const r = await demo.post('/v1/schedule', { payloads: text(platforms), scheduledAt: new Date(sb.clock.now() + (i + 1) * 60_000).toISOString() });
    live.push(r.body.id);
  }
  await sb.clock.advance(10 * 60_000);
  await other.post('/v1/schedule', { payloads: text(['twitter-x']), scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
  await sb.clock.advance(5000);
  all = (await allRows<Row>(sb, demo.key, '/api/v1/post-results')).rows;
});
afterAll(() => sb.close());

const ids = (rows: Row[]) => rows.map((r) => r.id);

describe('GET /api/v1/post-results', () => {
  it('merges success and failure rows into one list, newest first by event time', () => {
    expect(all.length).toBe(606);
    expect(new Set(ids(all)).size).toBe(all.length);
    expect(all.some((r) => r.success)).toBe(true);
    expect(all.some((r) => !r.success)).toBe(true);
    for (let i = 1; i < all.length; i++) expect(Date.parse(all[i - 1]!.created_at)).toBeGreaterThanOrEqual(Date.parse(all[i]!.created_at));
    // Successes and failures interleave: the merge is not "all successes, then all failures".
    const switches = all.filter((r, i) => i > 0 && r.success !== all[i - 1]!.success).length;
    expect(switches).toBeGreaterThan(50);
    // The live rows are the newest.
    expect(new Set(all.slice(0, 6).map((r) => r.post_id))).toEqual(new Set(live));
  });

  it('applies offset and limit after the merge', async () => {
    for (const [offset, limit] of [[0, 1], [3, 7], [250, 100], [599, 10], [606, 5]] as const) {
      const r = await demo.get(`/api/v1/post-results?offset=${offset}&limit=${limit}`);
      expect(r.body.meta).toEqual({ offset, limit, total: 606 });
      expect(ids(r.body.data)).toEqual(ids(all.slice(offset, offset + limit)));
    }
  });

  it('defaults to 10 rows and refuses out-of-range paging (400)', async () => {
    const r = await demo.get('/api/v1/post-results');
    expect(r.body.meta).toEqual({ offset: 0, limit: 10, total: 606 });
    expect(r.body.data).toHaveLength(10);
    for (const q of ['limit=1000', 'limit=0', 'offset=-3', 'offset=x']) {
      const bad = await demo.get(`/api/v1/post-results?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.error.issues[0].path).toBe(q.split('=')[0]);
    }
  });

  it('counts only matching rows in meta.total under each filter', async () => {
    for (const platform of ['twitter-x', 'instagram']) {
      const r = await demo.get(`/api/v1/post-results?platform=${platform}&limit=100&offset=5`);
      const expected = all.filter((x) => x.platform === platform);
      expect(r.body.meta.total).toBe(expected.length);
      expect(ids(r.body.data)).toEqual(ids(expected.slice(5, 105)));
    }
    const post = await demo.get(`/api/v1/post-results?post_id=${live[0]}`);
    expect(post.body.meta.total).toBe(3);
    expect(post.body.data.map((r: Row) => r.platform).sort()).toEqual(['bluesky', 'linkedin', 'twitter-x']);
    const both = await demo.get(`/api/v1/post-results?post_id=${live[0]}&platform=bluesky`);
    expect(both.body.meta.total).toBe(1);
    expect(both.body.data[0].platform).toBe('bluesky');
  });

  it('takes several values per filter as repeated keys, key[] or a comma list, with the same answer', async () => {
    const platforms = ['bluesky', 'threads', 'pinterest'];
    const expected = all.filter((r) => platforms.includes(r.platform));
    const answers = [];
    for (const q of ['platform=bluesky&platform=threads&platform=pinterest', 'platform[]=bluesky&platform[]=threads&platform[]=pinterest', 'platform=bluesky,threads,pinterest', 'platform=bluesky,threads&platform[]=pinterest']) {
      const r = await demo.get(`/api/v1/post-results?${q}&offset=20&limit=50`);
      expect(r.body.meta.total, q).toBe(expected.length);
      answers.push(ids(r.body.data));
    }
    for (const a of answers) expect(a).toEqual(ids(expected.slice(20, 70)));

    const fixturePost = all[all.length - 1]!.post_id;
    const posts = [live[0]!, live[2]!, fixturePost];
    const byPost = all.filter((r) => posts.includes(r.post_id));
    for (const q of [`post_id=${posts.join('&post_id=')}`, `post_id[]=${posts.join('&post_id[]=')}`, `post_id=${posts.join(',')}`]) {
      const r = await demo.get(`/api/v1/post-results?${q}&limit=100`);
      expect(r.body.meta.total, q).toBe(byPost.length);
      expect(ids(r.body.data)).toEqual(ids(byPost));
    }
  });

  it('refuses an unknown platform in the filter (400) and matches nothing for unknown post ids', async () => {
    const bad = await demo.get('/api/v1/post-results?platform=myspace');
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('platform');
    const none = await demo.get('/api/v1/post-results?post_id=post_nothing');
    expect(none.body).toEqual({ data: [], meta: { offset: 0, limit: 10, total: 0 } });
  });

  it('shapes failure rows: success false, url null, error {code, message, context}', () => {
    const failures = all.filter((r) => !r.success);
    expect(failures.length).toBeGreaterThan(100);
    const codes = new Set(failures.map((r) => r.error!.code));
    for (const code of ['API_RATE_LIMIT', 'PLATFORM_UNAVAILABLE', 'TOKEN_EXPIRED']) expect(codes).toContain(code);
    // The fixture posts are text only: a platform cannot refuse media it was not given.
    expect(codes).not.toContain('MEDIA_REJECTED');
    for (const r of failures) {
      expect(r.platform_data.url).toBeNull();
      expect(r.error).toEqual({ code: expect.any(String), message: expect.any(String), context: expect.objectContaining({ provider: expect.any(String), http_status: expect.any(Number) }) });
    }
  });

  it('shapes success rows: a live URL of the platform, a username, no error', () => {
    const hosts: Record<string, RegExp> = {
      'twitter-x': /^https:\/\/x\.com\/[^/]+\/status\/\d{19}$/,
      instagram: /^https:\/\/www\.instagram\.com\/p\/[^/]+\/$/,
      linkedin: /^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:\d+\/$/,
      'facebook-page': /^https:\/\/www\.facebook\.com\/\d+\/posts\/\d+$/,
      tiktok: /^https:\/\/www\.tiktok\.com\/@[^/]+\/video\/\d+$/,
      youtube: /^https:\/\/www\.youtube\.com\/watch\?v=[\w-]{11}$/,
      bluesky: /^https:\/\/bsky\.app\/profile\/[^/]+\/post\/\w+$/,
      threads: /^https:\/\/www\.threads\.net\/@[^/]+\/post\/\w+$/,
      pinterest: /^https:\/\/www\.pinterest\.com\/pin\/\d+\/$/,
    };
    const successes = all.filter((r) => r.success);
    expect(new Set(successes.map((r) => r.platform))).toEqual(new Set(PLATFORMS));
    for (const r of successes) {
      expect(r.error).toBeNull();
      expect(r.platform_data.url).toMatch(hosts[r.platform]!);
      expect(r.platform_data.username.length).toBeGreaterThan(2);
    }
  });

  it('leaves social_account_id null on a small share of rows, as the API document allows', () => {
    const nulls = all.filter((r) => r.social_account_id === null).length;
    expect(nulls).toBeGreaterThan(0);
    expect(nulls / all.length).toBeLessThan(0.08);
    expect(all.filter((r) => r.social_account_id !== null).every((r) => /^acc_/.test(r.social_account_id!))).toBe(true);
  });
});

describe('GET /api/v1/post-results/{id}', () => {
  it('returns the row exactly as listed', async () => {
    for (const row of [all[0]!, all[300]!, all[all.length - 1]!]) {
      const r = await demo.get(`/api/v1/post-results/${row.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(row);
    }
  });

  it('answers 404 for another workspace’s result exactly like a missing one', async () => {
    const theirs = (await other.get('/api/v1/post-results')).body.data as Row[];
    expect(theirs).toHaveLength(1);
    expect(ids(all)).not.toContain(theirs[0]!.id);
    const foreign = await demo.get(`/api/v1/post-results/${theirs[0]!.id}`);
    const missing = await demo.get('/api/v1/post-results/res_000000000000');
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.error.message.replace(theirs[0]!.id, 'ID')).toBe(missing.body.error.message.replace('res_000000000000', 'ID'));
    // A post id is not a result id, even in the right workspace.
    expect((await demo.get(`/api/v1/post-results/${all[0]!.post_id}`)).status).toBe(404);
    // And the other workspace's lists never show demo's rows.
    expect((await other.get(`/api/v1/post-results?post_id=${live[0]}`)).body.meta.total).toBe(0);
  });
});
