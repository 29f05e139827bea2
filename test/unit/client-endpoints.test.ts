// The endpoint helpers put the right method, path, query and body on the wire, with the key,
// User-Agent and JSON headers, and media uploads PUT raw bytes.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { buildUrl, prepareRequest } from '../../src/client/prepare.js';
import { BASE, fakeService, json, KEY, sampleResult, testClient, type FakeService, type SeenRequest } from './client-kit.js';

const post = { id: 'post_1', status: 'draft', payloads: { bluesky: { text: 'hi' } } };

/** A service that answers every request with something plausible; its `requests` are what was sent. */
function recordAll(): FakeService {
  const answer = (r: SeenRequest) => {
    if (r.path.startsWith('/v1/media') && r.method === 'POST') return { id: 'med_1', uploadUrl: `${BASE}/uploads/med_1?sig=abc`, url: `${BASE}/media/med_1` };
    if (r.path.startsWith('/uploads/')) return '';
    if (r.path.startsWith('/api/v1/post-results/')) return sampleResult('res/1 x');
    if (r.method === 'GET') return { data: [], meta: { offset: 0, limit: 10, total: 0 } };
    return post;
  };
  return fakeService().always(undefined, () => true, (r) => ({ status: r.method === 'GET' ? 200 : 201, body: answer(r), headers: json }));
}

describe('endpoint helpers', () => {
  it('posts.create / schedule POST JSON with the key and a user agent', async () => {
    const svc = recordAll();
    const seen = svc.requests;
    const { client } = testClient(svc, { userAgent: 'socialpub/9.9.9 node/20' });
    await client.posts.create({ payloads: { bluesky: { text: 'hi' } }, title: 't' });
    await client.posts.schedule({ postId: 'post_1', scheduledAt: '2026-12-01T09:00:00.000Z' }, { idempotencyKey: 'sched-1' });
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/posts', 'POST /v1/schedule']);
    expect(seen[0]!.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'socialpub/9.9.9 node/20' });
    expect(JSON.parse(seen[1]!.body!)).toEqual({ postId: 'post_1', scheduledAt: '2026-12-01T09:00:00.000Z' });
    expect(seen[1]!.headers['idempotency-key']).toBe('sched-1');
  });

  it('posts.list and results.list put filters in the query; results.get encodes the id', async () => {
    const svc = recordAll();
    const seen = svc.requests;
    const { client } = testClient(svc);
    await client.posts.list({ status: ['draft', 'failed'], limit: 5, offset: 10 });
    await client.results.list({ postId: ['p1', 'p2'], platform: ['twitter-x'] });
    await client.results.get('res/1 x');
    expect(seen.map((r) => r.path)).toEqual([
      '/v1/posts?status=draft&status=failed&offset=10&limit=5',
      '/api/v1/post-results?post_id=p1&post_id=p2&platform=twitter-x',
      '/api/v1/post-results/res%2F1%20x',
    ]);
    expect(seen.every((r) => r.body === undefined && r.headers['idempotency-key'] === undefined)).toBe(true);
  });

  it('media.create then upload: the bytes are PUT raw to the upload URL, with the key on the same origin', async () => {
    const svc = recordAll();
    const seen = svc.requests;
    const { client } = testClient(svc);
    const media = await client.media.create({ name: 'cat.png', mimeType: 'image/png', sizeBytes: 4 });
    await client.media.upload(media.data.uploadUrl, new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    const put = seen[1]!;
    expect(put.method).toBe('PUT');
    expect(put.path).toBe('/uploads/med_1?sig=abc');
    expect(put.headers['content-type']).toBe('image/png');
    expect(put.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(put.bytes).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('never sends the key to another origin', () => {
    const prepared = prepareRequest({ baseUrl: BASE, apiKey: KEY, userAgent: 'ua' }, { method: 'PUT', path: 'https://storage.example/bucket/x?sig=1', rawBody: new Uint8Array([1]) });
    expect(prepared.headers.authorization).toBeUndefined();
    expect(prepared.authenticated).toBe(false);
    const same = prepareRequest({ baseUrl: `${BASE}/prefix`, apiKey: KEY, userAgent: 'ua' }, { method: 'GET', path: '/v1/posts' });
    expect(same.url).toBe(`${BASE}/prefix/v1/posts`);
    expect(same.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('builds URLs: base path kept, scalars replace, arrays repeat, undefined dropped', () => {
    expect(buildUrl('http://h:1/base/', 'v1/posts', { a: 1, b: undefined, c: ['x', 'y'], d: true }).toString()).toBe('http://h:1/base/v1/posts?a=1&c=x&c=y&d=true');
    expect(buildUrl('http://h', '/p?offset=5&keep=1', { offset: 10 }).toString()).toBe('http://h/p?offset=10&keep=1');
  });

  it('close() refuses later requests', async () => {
    const svc = recordAll();
    const client = createClient({ baseUrl: BASE, apiKey: KEY, fetcher: svc.fetch });
    await client.close();
    await expect(client.results.get('x')).rejects.toThrow(/closed/);
    expect(svc.requests).toEqual([]);
  });

  it('reports RateLimit headers to onRateLimit', async () => {
    const svc = fakeService().once('GET', '/api/v1/post-results/r', {
      status: 200,
      body: sampleResult('r'),
      headers: { ...json, 'ratelimit-limit': '10000', 'ratelimit-remaining': '9876', 'ratelimit-reset': '1200' },
    });
    const seen: unknown[] = [];
    const { client } = testClient(svc, { onRateLimit: (info) => seen.push(info) });
    const res = await client.results.get('r');
    expect(seen).toEqual([{ limit: 10000, remaining: 9876, resetSeconds: 1200 }]);
    expect(res.rateLimit).toEqual({ limit: 10000, remaining: 9876, resetSeconds: 1200 });
  });
});
