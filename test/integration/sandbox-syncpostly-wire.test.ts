// The sandbox's SyncPostly dialect at the edges: its 401 word for word (no 403 either), errors as
// `{ error, issues? }` from every step of the pipeline, one write limit for both dialects (429 with
// Retry-After), /api/v1/post-results shared, and a test's way to lose the answer to one create.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spPostResultListSchema } from '../../src/wire/syncpostly/schemas.js';
import { CREATE_PATH, loseNextAnswer } from '../helpers/sandbox.js';
import { allRows, as, call, manualSandbox, text, type TestSandbox } from './sandbox-support.js';
import { accountsOf, spClient, type SpPost } from './sandbox-syncpostly-support.js';

describe('authentication and error shapes', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await manualSandbox();
  });
  afterAll(() => sb.close());

  it('answers 401 {"error":"Bearer Token missing or invalid"} to a missing, malformed or unknown key, and to a workspace without the add-on', async () => {
    const cases: Record<string, string>[] = [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer sk_sandbox_notARealKey' }, { authorization: `Bearer ${sb.key('lapsed')}` }];
    for (const path of ['/api/v1/posts', '/api/v1/social-accounts', '/api/v1/media']) {
      for (const headers of cases) {
        const r = await call(sb, 'GET', path, { headers });
        expect(r.status).toBe(401);
        expect(r.text).toBe('{"error":"Bearer Token missing or invalid"}');
      }
    }
    // Our dialect is unchanged: its own body, and 403 for the lapsed workspace.
    expect((await call(sb, 'GET', '/v1/posts')).body.error.code).toBe('UNAUTHORIZED');
    expect((await call(sb, 'GET', '/v1/posts', { key: sb.key('lapsed') })).status).toBe(403);
  });

  it('says at / that it speaks the dialect, naming its endpoints', async () => {
    const about = (await call(sb, 'GET', '/')).body;
    expect(about.syncpostly.endpoints).toEqual(expect.arrayContaining(['GET /api/v1/posts', 'PATCH /api/v1/posts/{id}', 'PUT /api/v1/media/upload/{id}', 'POST /api/v1/media/create-upload-url']));
  });

  it('answers every other refusal of the pipeline in SyncPostly\'s shape: an unknown route, a method, malformed JSON', async () => {
    const key = sb.key('demo');
    const unknown = await call(sb, 'GET', '/api/v1/nothing-here', { key });
    expect(unknown.status).toBe(404);
    expect(Object.keys(unknown.body)).toEqual(['error']);
    const method = await call(sb, 'PUT', '/api/v1/posts', { key, raw: '{}' });
    expect(method.status).toBe(405);
    expect(typeof method.body.error).toBe('string');
    const malformed = await call(sb, 'POST', '/api/v1/posts', { key, raw: '{"caption":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: expect.stringMatching(/malformed JSON/) });
  });
});

describe('rate limits: one write window for both dialects', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await manualSandbox({ writeLimit: 3 });
  });
  afterAll(() => sb.close());

  it('counts writes of either dialect together, and answers 429 with Retry-After in SyncPostly\'s shape', async () => {
    const { usable } = await accountsOf(sb, 'demo');
    const sp = spClient(sb, 'demo');
    expect((await sp.post('/api/v1/posts', { caption: 'one', social_accounts: [usable('bluesky')], is_draft: true })).status).toBe(200);
    expect((await as(sb, 'demo').post('/v1/posts', { payloads: text(['bluesky']) })).status).toBe(201);
    expect((await sp.post('/api/v1/posts', { caption: 'three', social_accounts: [usable('bluesky')], is_draft: true })).status).toBe(200);
    const limited = await sp.post('/api/v1/posts', { caption: 'four', social_accounts: [usable('bluesky')], is_draft: true });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toEqual({ error: expect.stringMatching(/write rate limit/) });
    expect((await as(sb, 'demo').post('/v1/posts', { payloads: text(['bluesky']) })).status).toBe(429);
  });
});

describe('/api/v1/post-results, shared by both dialects', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await manualSandbox({ fixtures: 200, failureRate: 0.3 });
  });
  afterAll(() => sb.close());

  it('serves rows SyncPostly\'s schema reads (social_account_id and platform_data nullable) to a post made in its dialect', async () => {
    const all = spPostResultListSchema.parse({ data: (await allRows(sb, sb.key('demo'), '/api/v1/post-results')).rows, meta: { offset: 0, limit: 100, total: 0 } }).data;
    expect(all.some((r) => r.social_account_id === null)).toBe(true);
    const failed = all.filter((r) => !r.success);
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) expect(r.platform_data?.url).toBeNull();
    const { usable } = await accountsOf(sb, 'demo');
    const sp = spClient(sb, 'demo');
    const post = await sp.create({ caption: 'results please', social_accounts: [usable('bluesky'), usable('linkedin')] });
    await sb.settle();
    const rows = spPostResultListSchema.parse((await sp.get(`/api/v1/post-results?post_id=${post.id}`)).body).data;
    expect(rows.map((r) => r.post_id)).toEqual([post.id, post.id]);
    expect(new Set(rows.map((r) => r.social_account_id))).toEqual(new Set([usable('bluesky'), usable('linkedin')]));
  });
});

describe('losing the answer to exactly one create (the test hook)', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await manualSandbox();
  });
  afterAll(() => sb.close());

  it.each(['syncpostly', 'socialpub'] as const)('%s: the create is committed, its answer never arrives, and only that request meets the fault', async (dialect) => {
    const { usable } = await accountsOf(sb, 'demo');
    const caption = `lost answer (${dialect})`;
    const body = dialect === 'syncpostly' ? { caption, social_accounts: [usable('bluesky')], is_draft: true } : { payloads: { bluesky: { text: caption } } };
    // A read of the same path and a create in another workspace do not meet it.
    loseNextAnswer(sb, 'POST', CREATE_PATH[dialect], 'demo');
    expect((await call(sb, 'GET', CREATE_PATH[dialect], { key: sb.key('demo') })).status).toBe(200);
    const lost = call(sb, 'POST', CREATE_PATH[dialect], { key: sb.key('demo'), body });
    await expect(lost).rejects.toThrow();
    const listed = (await call(sb, 'GET', `${CREATE_PATH[dialect]}?limit=100`, { key: sb.key('demo') })).body.data as (SpPost & { payloads?: { bluesky?: { text: string } } })[];
    const made = listed.filter((p) => (p.caption ?? p.payloads?.bluesky?.text) === caption);
    expect(made).toHaveLength(1);
    expect(sb.requests.filter((r) => r.fault === 'lost' && r.path === CREATE_PATH[dialect])).toHaveLength(1);
    // Once only: the next create answers.
    expect((await call(sb, 'POST', CREATE_PATH[dialect], { key: sb.key('demo'), body })).status).toBe(dialect === 'syncpostly' ? 200 : 201);
  });

  it('can be cancelled before any request meets it', async () => {
    const cancel = loseNextAnswer(sb, 'POST', CREATE_PATH.socialpub);
    cancel();
    expect((await call(sb, 'POST', CREATE_PATH.socialpub, { key: sb.key('demo'), body: { payloads: text(['bluesky']) } })).status).toBe(201);
  });
});
