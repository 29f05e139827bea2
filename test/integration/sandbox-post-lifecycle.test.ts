// PATCH and DELETE /v1/posts/{id} and rescheduling over real HTTP: ownership, POST_NOT_EDITABLE,
// validation, the write limit, idempotency keys, the publisher following moves, and ids that a
// deletion never frees, also across a --data restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, startSandbox } from '../../src/sandbox/index.js';
import { allRows, as, call, manualSandbox, START, text, type TestSandbox } from './sandbox-support.js';

let sb: TestSandbox;
let demo: ReturnType<typeof as>;

beforeAll(async () => {
  sb = await manualSandbox({ writeLimit: 10_000, failureRate: 0 });
  demo = as(sb, 'demo');
});
afterAll(() => sb.close());

const at = (ms: number) => new Date(sb.clock.now() + ms).toISOString();
const patch = (id: string, body: unknown, headers: Record<string, string> = {}) => call(sb, 'PATCH', `/v1/posts/${id}`, { key: demo.key, body, headers });
const del = (id: string, headers: Record<string, string> = {}) => call(sb, 'DELETE', `/v1/posts/${id}`, { key: demo.key, headers });
const draft = async (platforms = ['bluesky', 'linkedin']) => (await demo.post('/v1/posts', { payloads: text(platforms), title: 'T' })).body;

describe('PATCH /v1/posts/{id}', () => {
  it('replaces a payload, removes a platform and the title (200 with the post)', async () => {
    const p = await draft();
    const r = await patch(p.id, { payloads: { bluesky: { text: 'New text' }, linkedin: null }, title: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: p.id, status: 'draft', payloads: { bluesky: { text: 'New text' } }, targets: { bluesky: 'pending' } });
    expect(r.body.title).toBeUndefined();
    expect((await demo.get(`/v1/posts/${p.id}`)).body).toEqual(r.body);
  });

  it('schedules with a time and unschedules with null', async () => {
    const p = await draft();
    const when = at(3_600_000);
    const scheduled = await patch(p.id, { scheduledAt: when });
    expect(scheduled.body).toMatchObject({ status: 'scheduled', scheduledAt: when });
    const back = await patch(p.id, { scheduledAt: null });
    expect(back.body).toMatchObject({ status: 'draft', scheduledAt: null });
    await sb.clock.advance(2 * 3_600_000);
    expect((await demo.get(`/v1/posts/${p.id}`)).body.status).toBe('draft');
  });

  it('refuses what create refuses (422 with issue paths) and changes nothing', async () => {
    const p = await draft();
    const r = await patch(p.id, { payloads: { 'twitter-x': { text: 'x'.repeat(300) }, bluesky: null, linkedin: null, nope: {} } });
    expect(r.status).toBe(422);
    expect(r.body.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(['payloads.nope', 'payloads.twitter-x.text']);
    const empty = await patch(p.id, { payloads: { bluesky: null, linkedin: null } });
    expect(empty.status).toBe(422);
    expect(empty.body.error.issues).toEqual([{ path: 'payloads', message: expect.stringContaining('at least one platform must remain') }]);
    const nothing = await patch(p.id, {});
    expect(nothing.body.error.issues[0].path).toBe('body');
    const past = await patch(p.id, { scheduledAt: new Date(START - 1000).toISOString() });
    expect(past.body.error.issues[0].path).toBe('scheduledAt');
    expect((await demo.get(`/v1/posts/${p.id}`)).body).toEqual(p);
  });

  it('answers 404 for an unknown id and for another workspace\'s post', async () => {
    const theirs = (await as(sb, 'other').post('/v1/posts', { payloads: text(['bluesky']) })).body;
    for (const id of ['post_000000000000', theirs.id]) {
      const r = await patch(id, { title: 'x' });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('NOT_FOUND');
      expect((await del(id)).status).toBe(404);
    }
  });

  it('answers 409 POST_NOT_EDITABLE once the post is published, for PATCH, DELETE and schedule', async () => {
    const p = (await demo.post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: at(60_000) })).body;
    await sb.clock.advance(60_000);
    const now = (await demo.get(`/v1/posts/${p.id}`)).body;
    expect(now.status).toBe('published');
    const answers = [await patch(p.id, { title: 'x' }), await del(p.id), await demo.post('/v1/schedule', { postId: p.id, scheduledAt: at(60_000) })];
    expect(answers.map((a) => [a.status, a.body.error.code])).toEqual(Array(3).fill([409, 'POST_NOT_EDITABLE']));
    expect((await demo.get(`/v1/posts/${p.id}`)).body).toEqual(now);
  });

  it('replays a PATCH with the same Idempotency-Key and body; refuses the key with another body', async () => {
    const p = await draft();
    const first = await patch(p.id, { title: 'Once' }, { 'idempotency-key': 'patch-1' });
    const again = await patch(p.id, { title: 'Once' }, { 'idempotency-key': 'patch-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await patch(p.id, { title: 'Twice' }, { 'idempotency-key': 'patch-1' });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('counts PATCH and DELETE against the write limit', async () => {
    const small = await manualSandbox({ writeLimit: 2 });
    try {
      const key = small.key('demo');
      const p = (await call(small, 'POST', '/v1/posts', { key, body: { payloads: text(['bluesky']) } })).body;
      expect((await call(small, 'PATCH', `/v1/posts/${p.id}`, { key, body: { title: 'a' } })).status).toBe(200);
      const limited = await call(small, 'DELETE', `/v1/posts/${p.id}`, { key });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('ratelimit-limit')).toBe('2');
    } finally {
      await small.close();
    }
  });
});

describe('rescheduling and the publisher', () => {
  it('moves a scheduled post with POST /v1/schedule: it publishes at the new time only', async () => {
    const p = (await demo.post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: at(60_000) })).body;
    const moved = await demo.post('/v1/schedule', { postId: p.id, scheduledAt: at(10 * 60_000) });
    expect(moved.status).toBe(201);
    await sb.clock.advance(2 * 60_000);
    expect((await demo.get(`/v1/posts/${p.id}`)).body.status).toBe('scheduled');
    await sb.clock.advance(10 * 60_000);
    expect((await demo.get(`/v1/posts/${p.id}`)).body).toMatchObject({ status: 'published', targets: { bluesky: 'published' } });
    const results = await allRows(sb, demo.key, '/api/v1/post-results', `&post_id=${p.id}`);
    expect(results.total).toBe(1);
  });

  it('moves with PATCH scheduledAt, earlier than before', async () => {
    const p = (await demo.post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: at(60 * 60_000) })).body;
    await patch(p.id, { scheduledAt: at(60_000) });
    await sb.clock.advance(60_000);
    expect((await demo.get(`/v1/posts/${p.id}`)).body.status).toBe('published');
  });
});

describe('DELETE /v1/posts/{id}', () => {
  it('deletes (204), the post is gone from GET, lists and the publisher; a replay answers 204 again', async () => {
    const p = (await demo.post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: at(60_000) })).body;
    const before = (await demo.get('/v1/posts?limit=1')).body.meta.total;
    const r = await del(p.id, { 'idempotency-key': 'del-1' });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const replay = await del(p.id, { 'idempotency-key': 'del-1' });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([204, 'true']);
    expect((await demo.get(`/v1/posts/${p.id}`)).status).toBe(404);
    expect((await del(p.id)).status).toBe(404);
    expect((await demo.get('/v1/posts?limit=1')).body.meta.total).toBe(before - 1);
    const all = await allRows(sb, demo.key, '/v1/posts');
    expect(all.rows).toHaveLength(all.total);
    expect(all.rows.map((x: { id: string }) => x.id)).not.toContain(p.id);
    await sb.clock.advance(2 * 60_000);
    expect((await allRows(sb, demo.key, '/api/v1/post-results', `&post_id=${p.id}`)).total).toBe(0);
    const next = await draft();
    expect(next.id).not.toBe(p.id);
  });
});

describe('--data', () => {
  it('keeps edits and deletions across a restart, and never hands a deleted id out again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-lifecycle-'));
    try {
      const file = join(dir, 'state.json');
      const first = await startSandbox({ port: 0, clock: createManualClock(START), dataFile: file });
      const key = first.key('demo');
      const a = (await call(first, 'POST', '/v1/posts', { key, body: { payloads: text(['bluesky']), title: 'Keep?' } })).body;
      const b = (await call(first, 'POST', '/v1/posts', { key, body: { payloads: text(['linkedin']) } })).body;
      await call(first, 'PATCH', `/v1/posts/${a.id}`, { key, body: { title: null, payloads: { bluesky: { text: 'Edited' } } } });
      expect((await call(first, 'DELETE', `/v1/posts/${b.id}`, { key })).status).toBe(204);
      await first.close();

      const second = await startSandbox({ port: 0, clock: createManualClock(START + 1000), dataFile: file });
      try {
        const got = (await call(second, 'GET', `/v1/posts/${a.id}`, { key })).body;
        expect(got.payloads).toEqual({ bluesky: { text: 'Edited', accounts: [expect.stringMatching(/^acc_/)] } });
        expect(got.title).toBeUndefined();
        expect((await call(second, 'GET', `/v1/posts/${b.id}`, { key })).status).toBe(404);
        const c = (await call(second, 'POST', '/v1/posts', { key, body: { payloads: text(['bluesky']) } })).body;
        expect([a.id, b.id]).not.toContain(c.id);
        expect((await allRows(second, key, '/v1/posts')).rows.map((x: { id: string }) => x.id)).toEqual([c.id, a.id]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
