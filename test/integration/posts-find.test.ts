// findPost over real HTTP: GET /v1/posts/{id} on the sandbox, and, through a small node:http
// proxy that plays a service without that route (405, or a framework's plain 404 page), the
// fallback scan of the posts list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { findPost, PostNotFoundError } from '../../src/posts/find.js';
import type { PostResult } from '../../src/wire/schemas.js';
import { allResults, api, keyOf, sandboxFor, schedulePost } from './results-support.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { onePost, proxyWithout } from '../helpers/route-proxy.js';

describe('findPost', () => {
  let sb: TestSandbox;
  let oracle: PostResult[];
  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: 3000, failureRate: 0.4, seed: 3 });
    oracle = await allResults(sb, keyOf(sb, 'demo'));
  });
  afterAll(async () => {
    await sb?.close();
  });

  /** The oldest post with one target failed and another succeeded: deep in the list. */
  function oldMixedPost(): { id: string; rows: PostResult[] } {
    const byPost = new Map<string, PostResult[]>();
    for (const r of oracle) byPost.set(r.post_id, [...(byPost.get(r.post_id) ?? []), r]);
    const [id, rows] = [...byPost].reverse().find(([, rs]) => rs.some((r) => r.success) && rs.some((r) => !r.success))!;
    return { id, rows };
  }

  it('reads GET /v1/posts/{id}: one request, no list page, the targets field included', async () => {
    const { id, rows } = oldMixedPost();
    const client = createClient({ baseUrl: sb.url, apiKey: keyOf(sb, 'demo'), maxRetries: 0 });
    const before = sb.requests.length;
    let pages = 0;
    const post = await findPost(client, id, { statusHint: 'failed', onPage: () => pages++ });
    const sent = sb.requests.slice(before);
    expect(sent.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /v1/posts/${id}`]);
    expect(pages).toBe(0);
    expect(post.id).toBe(id);
    expect(post.targets).toEqual(Object.fromEntries(rows.map((r) => [r.platform, r.success ? 'published' : 'failed'])));
    await client.close();
  });

  it('GET /v1/posts/{id} is a read: it spends the read window, not the write one', async () => {
    const { id } = oldMixedPost();
    const read = async (path: string) => {
      const res = await fetch(new URL(path, sb.url), { headers: { authorization: `Bearer ${keyOf(sb, 'demo')}` } });
      await res.arrayBuffer();
      return { limit: Number(res.headers.get('ratelimit-limit')), remaining: Number(res.headers.get('ratelimit-remaining')) };
    };
    const list = await read('/v1/posts?limit=1');
    const one = await read(`/v1/posts/${id}`);
    expect(one.limit).toBe(list.limit); // the same (read) window
    expect(one.remaining).toBe(list.remaining - 1);
  });

  it('a NOT_FOUND 404 is a post that does not exist: no list scan', async () => {
    const client = createClient({ baseUrl: sb.url, apiKey: keyOf(sb, 'demo'), maxRetries: 0 });
    const before = sb.requests.length;
    await expect(findPost(client, 'post_000000000000')).rejects.toBeInstanceOf(PostNotFoundError);
    expect(sb.requests.slice(before).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['GET /v1/posts/post_000000000000 404']);
    await client.close();
  });

  it("another workspace's post is not found", async () => {
    const { id } = await schedulePost(sb, keyOf(sb, 'other'), ['bluesky'], 60_000);
    const client = createClient({ baseUrl: sb.url, apiKey: keyOf(sb, 'demo'), maxRetries: 0 });
    await expect(findPost(client, id)).rejects.toBeInstanceOf(PostNotFoundError);
    await client.close();
  });

  it('a draft has every target pending', async () => {
    const draft = await api<{ id: string }>(sb, keyOf(sb, 'demo'), 'POST', '/v1/posts', { payloads: { bluesky: { text: 'a' }, threads: { text: 'b' } } });
    const client = createClient({ baseUrl: sb.url, apiKey: keyOf(sb, 'demo'), maxRetries: 0 });
    const post = await findPost(client, draft.body.id);
    expect(post.status).toBe('draft');
    expect(post.targets).toEqual({ bluesky: 'pending', threads: 'pending' });
    await client.close();
  });

  it.each([
    ['405', { status: 405, body: '', type: 'text/plain' }],
    ['a 404 without the NOT_FOUND body', { status: 404, body: 'Cannot GET /v1/posts/x', type: 'text/plain' }],
  ])('%s: falls back to the list, the hinted statuses first', async (_name, answer) => {
    const proxy = await proxyWithout(sb.url, onePost('GET'), answer);
    const { id, rows } = oldMixedPost();
    const client = createClient({ baseUrl: proxy.url, apiKey: keyOf(sb, 'demo'), maxRetries: 0 });
    const before = sb.requests.length;
    let pages = 0;
    const post = await findPost(client, id, { statusHint: 'failed', onPage: () => pages++ });
    expect(post.id).toBe(id);
    expect(Object.keys(post.payloads).sort()).toEqual(rows.map((r) => r.platform).sort());
    const total = (await api<{ meta: { total: number } }>(sb, keyOf(sb, 'demo'), 'GET', '/v1/posts?limit=1')).body.meta.total;
    expect(pages).toBeGreaterThan(0);
    expect(pages).toBeLessThan(Math.ceil(total / 100));
    const lists = sb.requests.slice(before).filter((q) => q.path === '/v1/posts');
    expect(lists.length).toBeGreaterThan(0);
    expect(lists[0]!.query).toContain('status=failed');
    // Not found after the fallback read every list.
    await expect(findPost(client, 'post_000000000000')).rejects.toBeInstanceOf(PostNotFoundError);
    await client.close();
    await proxy.close();
  });
});
