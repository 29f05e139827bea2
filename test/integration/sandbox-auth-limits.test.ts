// Keys, the add-on, rate windows and the headers every response carries, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, call, manualSandbox, text, type TestSandbox } from './sandbox-support.js';

let sb: TestSandbox;

beforeAll(async () => {
  sb = await manualSandbox({ writeLimit: 3, readLimit: 5 });
});
afterAll(() => sb.close());

const expectCommonHeaders = (h: Headers) => {
  expect(h.get('request-id')).toMatch(/^req_[0-9A-Za-z]{12}$/);
  expect(h.get('ratelimit-limit')).toMatch(/^\d+$/);
  expect(h.get('ratelimit-remaining')).toMatch(/^\d+$/);
  expect(h.get('ratelimit-reset')).toMatch(/^\d+$/);
};

describe('authentication', () => {
  it('answers 401 UNAUTHORIZED to a missing, malformed or unknown key, with a helpful message', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /missing API key.*Authorization: Bearer/],
      [{ authorization: 'Basic dXNlcjpwYXNz' }, /Authorization: Bearer/],
      [{ authorization: 'Bearer sk_sandbox_notARealKey' }, /invalid API key/],
      [{ authorization: `Bearer ${sb.key('demo')}x` }, /invalid API key/],
    ];
    for (const [headers, message] of cases) {
      const r = await call(sb, 'GET', '/v1/posts', { headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.stringMatching(message) }, requestId: r.headers.get('request-id') });
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expectCommonHeaders(r.headers);
    }
    expect(sb.requests.filter((q) => q.status === 401).every((q) => q.workspace === null)).toBe(true);
  });

  it('accepts each key for its own workspace only', async () => {
    const keys = sb.workspaces.map((w) => w.apiKey);
    expect(new Set(keys).size).toBe(3);
    for (const k of keys) expect(k).toMatch(/^sk_sandbox_[0-9A-Za-z]{32}$/);
    expect(sb.workspaces.map((w) => [w.name, w.addon])).toEqual([
      ['demo', true],
      ['other', true],
      ['lapsed', false],
    ]);
  });

  it('answers 403 ADDON_REQUIRED to every request of the lapsed workspace, and changes nothing', async () => {
    const lapsed = as(sb, 'lapsed');
    const answers = [
      await lapsed.get('/v1/posts'),
      await lapsed.post('/v1/posts', { payloads: text(['bluesky']) }),
      await lapsed.post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: '2030-01-01T00:00:00Z' }),
      await lapsed.get('/api/v1/post-results'),
      await lapsed.get('/api/v1/post-results/res_000000000000'),
      await lapsed.post('/v1/media', { name: 'a.png', mimeType: 'image/png', sizeBytes: 3 }),
    ];
    for (const r of answers) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('ADDON_REQUIRED');
      expect(r.body.error.message).toMatch(/Billing/);
      expectCommonHeaders(r.headers);
    }
  });
});

describe('rate limits', () => {
  it('counts writes and reads in separate rolling windows and answers 429 with Retry-After', async () => {
    const demo = as(sb, 'demo');
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await demo.post('/v1/posts', { payloads: text(['bluesky']) });
      expect(r.status).toBe(201);
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      remaining.push(r.headers.get('ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    await sb.clock.advance(10 * 60_000);
    const limited = await demo.post('/v1/posts', { payloads: text(['bluesky']) });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    // The first slot frees an hour after the first write, 50 minutes from now.
    expect(limited.headers.get('retry-after')).toBe('3000');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe('3000');
    expectCommonHeaders(limited.headers);

    // Reads have their own window.
    const read = await demo.get('/v1/posts');
    expect(read.status).toBe(200);
    expect(read.headers.get('ratelimit-limit')).toBe('5');
    expect(read.headers.get('ratelimit-remaining')).toBe('4');
    expect(read.body.meta.total).toBe(3);

    // Another workspace is not affected.
    expect((await as(sb, 'other').post('/v1/posts', { payloads: text(['bluesky']) })).status).toBe(201);

    // Just before the slot frees: still limited; at the hour: allowed again.
    await sb.clock.advance(3000 * 1000 - 1000);
    const still = await demo.post('/v1/posts', { payloads: text(['bluesky']) });
    expect(still.status).toBe(429);
    expect(still.headers.get('retry-after')).toBe('1');
    await sb.clock.advance(1000);
    expect((await demo.post('/v1/posts', { payloads: text(['bluesky']) })).status).toBe(201);
  });

  it('limits reads the same way', async () => {
    const other = as(sb, 'other');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await other.get('/api/v1/post-results')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const r = await other.get('/v1/posts');
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  it('gives every response its own Request-Id', () => {
    const ids = sb.requests.map((r) => r.requestId);
    expect(ids.length).toBeGreaterThan(20);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
