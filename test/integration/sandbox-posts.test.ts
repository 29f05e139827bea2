// The publishing API of the sandbox over real HTTP: drafts, scheduling, listing by status,
// validation with issue paths, malformed and oversized bodies, and workspace isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, call, manualSandbox, START, text, type TestSandbox } from './sandbox-support.js';

let sb: TestSandbox;
let demo: ReturnType<typeof as>;
let other: ReturnType<typeof as>;

beforeAll(async () => {
  sb = await manualSandbox({ writeLimit: 10_000 });
  demo = as(sb, 'demo');
  other = as(sb, 'other');
});
afterAll(() => sb.close());

const inAnHour = () => new Date(sb.clock.now() + 3_600_000).toISOString();
const total = async (ws = demo, query = '') => (await ws.get(`/v1/posts?limit=1${query}`)).body.meta.total as number;

describe('POST /v1/posts', () => {
  it('creates a draft (201) with the contract post object', async () => {
    const r = await demo.post('/v1/posts', { payloads: { 'twitter-x': { text: 'Hi', media: [{ url: 'https://example.com/a.png', type: 'image' }] } }, title: 'Launch' });
    expect(r.status).toBe(201);
    expect(r.headers.get('request-id')).toMatch(/^req_/);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^post_[0-9A-Za-z]{12}$/),
      status: 'draft',
      // The default account is filled in (contract 7.2).
      payloads: { 'twitter-x': { text: 'Hi', media: [{ url: 'https://example.com/a.png', type: 'image' }], accounts: [expect.stringMatching(/^acc_/)] } },
      scheduledAt: null,
      createdAt: new Date(START).toISOString(),
      updatedAt: new Date(START).toISOString(),
      title: 'Launch',
      targets: { 'twitter-x': 'pending' },
    });
    const again = await demo.get(`/v1/posts/${r.body.id}`);
    expect(again.body).toEqual(r.body);
  });

  it('keeps platform options it does not know in the payload', async () => {
    const r = await demo.post('/v1/posts', { payloads: { linkedin: { text: 'Hello', visibility: 'PUBLIC' } } });
    expect(r.status).toBe(201);
    expect(r.body.payloads.linkedin).toEqual({ text: 'Hello', visibility: 'PUBLIC', accounts: [expect.stringMatching(/^acc_/)] });
  });

  it.each([
    ['twitter-x', 280],
    ['bluesky', 300],
    ['threads', 500],
    ['linkedin', 3000],
    ['instagram', 2200],
    ['tiktok', 2200],
  ])('accepts %s text of exactly %i characters and refuses one more (422 with the issue path)', async (platform, max) => {
    const ok = await demo.post('/v1/posts', { payloads: { [platform]: { text: 'a'.repeat(max) } } });
    expect(ok.status).toBe(201);
    const before = await total();
    const r = await demo.post('/v1/posts', { payloads: { [platform]: { text: 'a'.repeat(max + 1) } } });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.issues).toEqual([{ path: `payloads.${platform}.text`, message: expect.stringContaining(String(max)) }]);
    expect(r.body.requestId).toBe(r.headers.get('request-id'));
    expect(await total()).toBe(before);
  });

  // Was "code points: 280 emoji fit on twitter-x"; now the service counts as X does (each emoji 2, so 140 fit) and Bluesky in graphemes (300 emoji fit).
  it('counts text as each platform does: 140 emoji fit on twitter-x, 141 do not; 300 fit on bluesky', async () => {
    expect((await demo.post('/v1/posts', { payloads: { 'twitter-x': { text: '😀'.repeat(140) } } })).status).toBe(201);
    expect((await demo.post('/v1/posts', { payloads: { 'twitter-x': { text: '😀'.repeat(141) } } })).status).toBe(422);
    expect((await demo.post('/v1/posts', { payloads: { bluesky: { text: '😀'.repeat(300) } } })).status).toBe(201);
  });

  it('reports every problem at once, each with its path', async () => {
    const before = await total();
    const r = await demo.post('/v1/posts', {
      payloads: { myspace: { text: 'x' }, 'twitter-x': { text: '   ' }, bluesky: { media: 'nope' }, youtube: { text: 'v', media: [{ url: 'https://e.com/a.jpg' }] } },
      title: 42,
    });
    expect(r.status).toBe(422);
    const paths = r.body.error.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['payloads.bluesky.media', 'payloads.bluesky.text', 'payloads.myspace', 'payloads.twitter-x.text', 'payloads.youtube.media.0.url', 'title']);
    expect(await total()).toBe(before);
  });

  it('refuses empty or missing payloads (422) and a body that is not a JSON object (400)', async () => {
    expect((await demo.post('/v1/posts', { payloads: {} })).body.error.issues).toEqual([{ path: 'payloads', message: 'at least one platform is required' }]);
    expect((await demo.post('/v1/posts', {})).body.error.issues[0].path).toBe('payloads');
    const arr = await call(sb, 'POST', '/v1/posts', { key: demo.key, raw: '[1,2]', headers: { 'content-type': 'application/json' } });
    expect(arr.status).toBe(400);
    expect(arr.body.error.code).toBe('BAD_REQUEST');
  });

  it('answers 400 BAD_REQUEST to malformed JSON and an empty body, changing nothing', async () => {
    const before = await total();
    for (const raw of ['{"payloads": {', '', 'nope']) {
      const r = await call(sb, 'POST', '/v1/posts', { key: demo.key, raw, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) }, requestId: r.headers.get('request-id') });
    }
    expect(await total()).toBe(before);
  });

  it('answers 413 to a body over 1 MiB, declared or streamed, and still serves the next request', async () => {
    const before = await total();
    const big = JSON.stringify({ payloads: { 'facebook-page': { text: 'x'.repeat(1024 * 1024) } } });
    const declared = await call(sb, 'POST', '/v1/posts', { key: demo.key, raw: big, headers: { 'content-type': 'application/json' } });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(declared.headers.get('ratelimit-limit')).toBe('10000');

    const chunk = new Uint8Array(64 * 1024).fill(32);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 24; i++) c.enqueue(chunk);
        c.close();
      },
    });
    const res = await fetch(new URL('/v1/posts', sb.url), { method: 'POST', headers: { authorization: `Bearer ${demo.key}` }, body: stream, duplex: 'half' });
    expect(res.status).toBe(413);
    expect(res.headers.get('transfer-encoding')).toBeNull();
    await res.text();
    expect(await total()).toBe(before);
  });
});

describe('POST /v1/schedule', () => {
  it('schedules an existing draft by id (201, status scheduled)', async () => {
    const draft = await demo.post('/v1/posts', { payloads: text(['linkedin']) });
    const at = inAnHour();
    const r = await demo.post('/v1/schedule', { postId: draft.body.id, scheduledAt: at });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: draft.body.id, status: 'scheduled', scheduledAt: at });
  });

  it('creates and schedules at once, normalising the time to UTC with milliseconds', async () => {
    const r = await demo.post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: '2026-12-01T12:30:00+02:00' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'scheduled', scheduledAt: '2026-12-01T10:30:00.000Z' });
  });

  it.each([
    ['malformed', 'tomorrow', /not an RFC 3339 timestamp/],
    ['an impossible date', '2026-02-30T10:00:00Z', /not an RFC 3339 timestamp/],
    ['without an offset', '2026-12-01T12:00:00', /no UTC offset/],
    ['in the past', '2026-12-01T08:59:59Z', /in the past/],
    ['missing', undefined, /required/],
  ])('refuses a scheduledAt %s (422, path scheduledAt)', async (_what, scheduledAt, message) => {
    const before = await total();
    const r = await demo.post('/v1/schedule', { payloads: text(['bluesky']), ...(scheduledAt === undefined ? {} : { scheduledAt }) });
    expect(r.status).toBe(422);
    expect(r.body.error.issues).toEqual([{ path: 'scheduledAt', message: expect.stringMatching(message) }]);
    expect(await total()).toBe(before);
  });

  it('answers 404 for an unknown post id and for another workspace’s post, identically', async () => {
    const theirs = await other.post('/v1/posts', { payloads: text(['threads']) });
    const missing = await demo.post('/v1/schedule', { postId: 'post_000000000000', scheduledAt: inAnHour() });
    const foreign = await demo.post('/v1/schedule', { postId: theirs.body.id, scheduledAt: inAnHour() });
    expect(missing.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect(foreign.body.error.message.replace(theirs.body.id, 'ID')).toBe(missing.body.error.message.replace('post_000000000000', 'ID'));
    expect((await other.get(`/v1/posts/${theirs.body.id}`)).body.status).toBe('draft');
  });

  it('refuses both postId and payloads', async () => {
    const r = await demo.post('/v1/schedule', { postId: 'post_x', payloads: text(['bluesky']), scheduledAt: inAnHour() });
    expect(r.status).toBe(422);
    expect(r.body.error.issues[0].path).toBe('postId');
  });
});

describe('GET /v1/posts', () => {
  it('lists newest first with meta, limit 10 by default', async () => {
    const r = await demo.get('/v1/posts');
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ offset: 0, limit: 10, total: expect.any(Number) });
    expect(r.body.data.length).toBe(Math.min(10, r.body.meta.total));
    const created = r.body.data.map((p: { id: string }) => p.id);
    const newest = await demo.post('/v1/posts', { payloads: text(['pinterest']) });
    const after = await demo.get('/v1/posts?limit=2');
    expect(after.body.data[0].id).toBe(newest.body.id);
    expect(after.body.data[1].id).toBe(created[0]);
  });

  it('filters by one or several statuses in each encoding, with totals', async () => {
    const drafts = await total(demo, '&status=draft');
    const scheduled = await total(demo, '&status=scheduled');
    expect(drafts).toBeGreaterThan(0);
    expect(scheduled).toBeGreaterThan(0);
    for (const q of ['&status=draft&status=scheduled', '&status[]=draft&status[]=scheduled', '&status=draft,scheduled']) {
      const r = await demo.get(`/v1/posts?limit=100${q}`);
      expect(r.body.meta.total).toBe(drafts + scheduled);
      expect(new Set(r.body.data.map((p: { status: string }) => p.status))).toEqual(new Set(['draft', 'scheduled']));
    }
    const onlyScheduled = await demo.get('/v1/posts?status=scheduled&limit=100');
    expect(onlyScheduled.body.data.every((p: { status: string }) => p.status === 'scheduled')).toBe(true);
  });

  it('pages with offset and limit and refuses out-of-range values (400)', async () => {
    const all = await demo.get('/v1/posts?limit=100');
    const page = await demo.get('/v1/posts?offset=2&limit=3');
    expect(page.body.meta).toEqual({ offset: 2, limit: 3, total: all.body.meta.total });
    expect(page.body.data.map((p: { id: string }) => p.id)).toEqual(all.body.data.slice(2, 5).map((p: { id: string }) => p.id));
    const past = await demo.get(`/v1/posts?offset=${all.body.meta.total + 5}`);
    expect(past.body.data).toEqual([]);
    for (const q of ['limit=0', 'limit=101', 'limit=ten', 'offset=-1', 'offset=1.5', 'status=archived']) {
      const r = await demo.get(`/v1/posts?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('BAD_REQUEST');
      expect(r.body.error.issues[0].path).toBe(q.split('=')[0]);
    }
  });

  it('never shows another workspace’s posts', async () => {
    const mine = await demo.get('/v1/posts?limit=100');
    const theirs = await other.get('/v1/posts?limit=100');
    const ids = new Set(mine.body.data.map((p: { id: string }) => p.id));
    expect(theirs.body.data.length).toBeGreaterThan(0);
    expect(theirs.body.data.some((p: { id: string }) => ids.has(p.id))).toBe(false);
    const foreign = await demo.get(`/v1/posts/${theirs.body.data[0].id}`);
    expect(foreign.status).toBe(404);
  });
});

describe('routing', () => {
  it('answers 404 to unknown endpoints and 405 with Allow to a wrong method, in the error body', async () => {
    const missing = await demo.get('/v1/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const wrong = await call(sb, 'DELETE', '/v1/posts', { key: demo.key });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST, GET');
  });
});
