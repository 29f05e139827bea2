// The hostile test server serves what each mode claims, so tests built on it test something.
import { get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ESCAPES, HOSTILE, HOSTILE_HEADER, startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { postListSchema, postResultListSchema, postResultSchema, postSchema } from '../../src/wire/schemas.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function getJson(path: string): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetch(server!.url + path);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** Every string value in a JSON value, with where it was found. */
function strings(value: unknown, at = '$'): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

describe('hostile server', () => {
  it('answers the four read routes in the wire shapes, finite and clean by default', async () => {
    server = await startHostileServer({ rows: 5 });
    const results = await getJson('/api/v1/post-results?offset=3&limit=10');
    expect(postResultListSchema.parse(results.body)).toMatchObject({ data: [{ id: 'res_4' }, { id: 'res_5' }], meta: { offset: 3, limit: 10, total: 5 } });
    expect(postListSchema.parse((await getJson('/v1/posts?limit=2')).body).data.map((p) => p.id)).toEqual(['post_1', 'post_2']);
    expect(postSchema.parse((await getJson('/v1/posts/post_9')).body).id).toBe('post_9');
    expect(postResultSchema.parse((await getJson('/api/v1/post-results/res_2')).body)).toMatchObject({ id: 'res_2', success: false, error: { code: 'API_RATE_LIMIT' } });
    expect((await getJson('/v1/nothing')).status).toBe(404);
    expect(JSON.stringify(results.body)).not.toMatch(/[\x1b\x80-\x9f]/);
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/post-results?offset=3&limit=10', '/v1/posts?limit=2', '/v1/posts/post_9', '/api/v1/post-results/res_2', '/v1/nothing']);
  });

  it('(a) puts every escape in every string of every object, error bodies and request-id headers included', async () => {
    server = await startHostileServer({ escapes: true });
    expect(HOSTILE).toContain('https://evil.example/');
    for (const escape of Object.values(ESCAPES)) expect(HOSTILE).toContain(escape);
    const answers = [
      await getJson('/api/v1/post-results'),
      await getJson('/v1/posts'),
      await getJson('/v1/posts/post_1'),
      await getJson('/api/v1/post-results/res_2'),
      await getJson('/v1/nothing'),
    ];
    // The rows still parse: the client gets as far as printing them.
    expect(postResultListSchema.parse(answers[0]!.body).data).toHaveLength(3);
    expect(postListSchema.parse(answers[1]!.body).data).toHaveLength(3);
    const found = answers.flatMap((a) => strings(a.body));
    // Usernames, texts, error messages, ids, timestamps, the error body's message and request id.
    expect(found.map(([at]) => at)).toEqual(expect.arrayContaining(['$.data[0].platform_data.username', '$.data[1].error.message', '$.data[0].payloads.bluesky.text', '$.error.message', '$.requestId', '$.id']));
    expect(found.length).toBeGreaterThan(40);
    for (const [at, value] of found) expect(value.endsWith(HOSTILE), at).toBe(true);
    const failed = await fetch(server.url + '/v1/posts');
    // A header value is read as latin1: the C1 bytes arrive as control characters.
    expect(failed.headers.get('request-id')).toMatch(new RegExp(`^${HOSTILE_HEADER.replace(/\W/g, '\\$&')}\\d+$`));
    expect(failed.headers.get('request-id')).toMatch(/[\x9b\x9d]/);
    await failed.body?.cancel();
  });

  it('(a) failWith answers every route with that status and a poisoned error body', async () => {
    server = await startHostileServer({ escapes: true, failWith: 500 });
    const r = await getJson('/api/v1/post-results/res_1');
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ error: { code: `HOSTILE${HOSTILE}`, message: `The server refused (500)${HOSTILE}`, issues: [{ path: `payloads.bluesky.text${HOSTILE}` }] } });
  });

  it('(b) streams a body without end: more than 20 MiB arrive, and it stops when the client goes', async () => {
    server = await startHostileServer({ endless: true });
    const limit = 20 * 1024 * 1024;
    const { received, head } = await new Promise<{ received: number; head: string }>((resolve, reject) => {
      get(server!.url + '/api/v1/post-results', (res) => {
        let received = 0;
        let head = '';
        res.on('data', (chunk: Buffer) => {
          if (head.length < 200) head += chunk.toString('latin1');
          received += chunk.length;
          if (received > limit) {
            res.destroy();
            resolve({ received, head });
          }
        });
        res.on('end', () => reject(new Error(`the body ended after ${received} bytes`)));
      }).on('error', reject);
    });
    expect(received).toBeGreaterThan(limit);
    expect(head).toMatch(/^\{"data":\[\{"id":"res_1"/);
    await server.endlessClosed();
    const after = server.endlessBytesSent();
    expect(after).toBeGreaterThanOrEqual(received);
    // Once the client is gone nothing more is written (a tick later the count is the same).
    await new Promise((r) => setImmediate(r));
    expect(server.endlessBytesSent()).toBe(after);
  });

  it('(c) repeats the same ids on every page while the total keeps growing', async () => {
    server = await startHostileServer({ repeatPages: true });
    const pages = [];
    for (const offset of [0, 3, 6, 300, 0]) pages.push(postResultListSchema.parse((await getJson(`/api/v1/post-results?offset=${offset}&limit=3`)).body));
    const ids = pages.map((p) => p.data.map((r) => r.id));
    expect(ids[0]).toEqual(['res_1', 'res_2', 'res_3']);
    expect(ids).toEqual([ids[0], ids[0], ids[0], ids[0], ids[0]]);
    const totals = pages.map((p) => p.meta.total);
    // Even the same page asked again claims more rows than before.
    expect(totals).toHaveLength(5);
    for (let i = 1; i < totals.length; i++) expect(totals[i], `page ${i}`).toBeGreaterThan(totals[i - 1]!);
    for (const p of pages) expect(p.meta.total).toBeGreaterThan(p.meta.offset + p.meta.limit);
    const posts = postListSchema.parse((await getJson('/v1/posts?offset=50&limit=2')).body);
    expect(posts.data.map((p) => p.id)).toEqual(['post_1', 'post_2']);
  });
});
