// --fixtures: N results of published posts, spread over the past, paged from anywhere with
// any filters, consistent with their posts (a post is failed when one of its rows failed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRows, as, manualSandbox, START, type TestSandbox } from './sandbox-support.js';

interface Row {
  id: string;
  post_id: string;
  success: boolean;
  platform: string;
  created_at: string;
}

let sb: TestSandbox;
let demo: ReturnType<typeof as>;
let rows: Row[];

beforeAll(async () => {
  sb = await manualSandbox({ fixtures: 5000, failureRate: 0.2, seed: 12, readLimit: 100_000 });
  demo = as(sb, 'demo');
  rows = (await allRows<Row>(sb, demo.key, '/api/v1/post-results')).rows;
});
afterAll(() => sb.close());

describe('fixtures', () => {
  it('loads N results into demo only, in the 30 days before the start, newest first', async () => {
    expect(rows).toHaveLength(5000);
    expect(new Set(rows.map((r) => r.id)).size).toBe(5000);
    const times = rows.map((r) => Date.parse(r.created_at));
    expect(Math.max(...times)).toBeLessThan(START);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(START - 30 * 24 * 3_600_000);
    for (let i = 1; i < times.length; i++) expect(times[i - 1]).toBeGreaterThanOrEqual(times[i]!);
    const failures = rows.filter((r) => !r.success).length / rows.length;
    expect(failures).toBeGreaterThan(0.15);
    expect(failures).toBeLessThan(0.25);
    expect((await as(sb, 'other').get('/api/v1/post-results')).body.meta.total).toBe(0);
  });

  it('serves any page, near the end too, exactly as the full list has it', async () => {
    for (const offset of [0, 2500, 4900, 4990, 4999]) {
      const r = await demo.get(`/api/v1/post-results?offset=${offset}&limit=100`);
      expect(r.body.data.map((x: Row) => x.id)).toEqual(rows.slice(offset, offset + 100).map((x) => x.id));
    }
  });

  it('pages filtered lists from anywhere, several platforms merged', async () => {
    const wanted = ['twitter-x', 'youtube', 'facebook-page', 'tiktok'];
    const expected = rows.filter((r) => wanted.includes(r.platform));
    expect(expected.length).toBeGreaterThan(1500);
    for (const offset of [0, 777, expected.length - 50]) {
      const r = await demo.get(`/api/v1/post-results?platform=${wanted.join(',')}&offset=${offset}&limit=100`);
      expect(r.body.meta.total).toBe(expected.length);
      expect(r.body.data.map((x: Row) => x.id)).toEqual(expected.slice(offset, offset + 100).map((x) => x.id));
    }
  });

  it('lists the fixture posts, published or failed as their rows say, filterable by status', async () => {
    const posts = (await allRows<{ id: string; status: string; payloads: Record<string, unknown> }>(sb, demo.key, '/v1/posts')).rows;
    const byPost = new Map<string, Row[]>();
    for (const r of rows) byPost.set(r.post_id, [...(byPost.get(r.post_id) ?? []), r]);
    expect(posts).toHaveLength(byPost.size);
    for (const p of posts) {
      const mine = byPost.get(p.id)!;
      expect(p.status).toBe(mine.some((r) => !r.success) ? 'failed' : 'published');
      expect(Object.keys(p.payloads).sort()).toEqual(mine.map((r) => r.platform).sort());
    }
    const failed = posts.filter((p) => p.status === 'failed');
    const page = await demo.get(`/v1/posts?status=failed&offset=${failed.length - 3}&limit=10`);
    expect(page.body.meta.total).toBe(failed.length);
    expect(page.body.data.map((p: { id: string }) => p.id)).toEqual(failed.slice(-3).map((p) => p.id));
  });
});
