// The sandbox's SyncPostly dialect, posts over real HTTP: create (draft, scheduled, now), read,
// list, change and delete as SyncPostly documents them, from the same store as our dialect (a post
// made in one reads in the other), judged by the same rules with issues on SyncPostly's fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spPostListSchema, spPostResultListSchema } from '../../src/wire/syncpostly/schemas.js';
import { as, call, manualSandbox, type TestSandbox } from './sandbox-support.js';
import { accountsOf, spClient, type SpPost } from './sandbox-syncpostly-support.js';

let sb: TestSandbox;
let sp: ReturnType<typeof spClient>;
let ours: ReturnType<typeof as>;
let bluesky: string;
let linkedin: string;
let otherBluesky: string;

beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0, writeLimit: 100_000, readLimit: 100_000 });
  sp = spClient(sb, 'demo');
  ours = as(sb, 'demo');
  const accounts = await accountsOf(sb, 'demo');
  bluesky = accounts.usable('bluesky');
  linkedin = accounts.usable('linkedin');
  otherBluesky = (await accountsOf(sb, 'other')).usable('bluesky');
});
afterAll(() => sb.close());

const inAnHour = () => new Date(sb.clock.now() + 3_600_000).toISOString();

describe('POST /api/v1/posts', () => {
  it('creates a draft: 200 with the PostDto, readable in both dialects as the same post', async () => {
    const post = await sp.create({ caption: 'A draft for two', social_accounts: [bluesky, linkedin], is_draft: true, scheduled_at: null });
    expect(post).toMatchObject({ caption: 'A draft for two', social_accounts: [bluesky, linkedin], is_draft: true, scheduled_at: null, status: 'draft', media: [], platform_configurations: null, account_configurations: null, processing_enabled: true });
    expect((await sp.get(`/api/v1/posts/${post.id}`)).body).toEqual(post);
    const mine = await ours.get(`/v1/posts/${post.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: post.id, status: 'draft', scheduledAt: null, payloads: { bluesky: { text: 'A draft for two', accounts: [bluesky] }, linkedin: { text: 'A draft for two', accounts: [linkedin] } } });
  });

  it('schedules with a future scheduled_at; the publisher posts it at its time, with result rows SyncPostly can read', async () => {
    const at = inAnHour();
    const post = await sp.create({ caption: 'Scheduled', social_accounts: [linkedin], scheduled_at: at });
    expect(post).toMatchObject({ status: 'scheduled', is_draft: false, scheduled_at: at });
    expect((await ours.get(`/v1/posts/${post.id}`)).body.status).toBe('scheduled');
    await sb.clock.advance(3_600_000);
    expect((await sp.get(`/api/v1/posts/${post.id}`)).body.status).toBe('posted');
    expect((await ours.get(`/v1/posts/${post.id}`)).body.status).toBe('published');
    const rows = spPostResultListSchema.parse((await sp.get(`/api/v1/post-results?post_id=${post.id}`)).body).data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ post_id: post.id, success: true, social_account_id: linkedin });
  });

  it('publishes now when scheduled_at is null and is_draft false: processing until the publisher has sent it, then posted', async () => {
    const post = await sp.create({ caption: 'Right now', social_accounts: [bluesky], is_draft: false, scheduled_at: null });
    expect(post.status).toBe('processing');
    expect((await sp.get(`/api/v1/posts?status=processing`)).body.data.map((p: SpPost) => p.id)).toContain(post.id);
    await sb.settle();
    expect((await sp.get(`/api/v1/posts/${post.id}`)).body).toMatchObject({ status: 'posted', is_draft: false });
    expect((await sp.get(`/api/v1/post-results?post_id=${post.id}`)).body.data).toHaveLength(1);
  });

  it('keeps per-platform overrides as our payloads, and echoes them and account_configurations back', async () => {
    const post = await sp.create({
      caption: 'Base caption',
      social_accounts: [linkedin, bluesky],
      is_draft: true,
      platform_configurations: { bluesky: { caption: 'Short for Bluesky' }, linkedin: { first_comment: 'more below', options: { visibility: 'PUBLIC' } } },
      account_configurations: { [bluesky]: { caption: 'kept verbatim' } },
      processing_enabled: false,
    });
    expect(post.platform_configurations).toEqual({ linkedin: { first_comment: 'more below', options: { visibility: 'PUBLIC' } }, bluesky: { caption: 'Short for Bluesky' } });
    expect(post.account_configurations).toEqual({ [bluesky]: { caption: 'kept verbatim' } });
    expect(post.processing_enabled).toBe(false);
    const mine = (await ours.get(`/v1/posts/${post.id}`)).body;
    expect(mine.payloads).toEqual({
      linkedin: { text: 'Base caption', accounts: [linkedin], firstComment: 'more below', options: { visibility: 'PUBLIC' } },
      bluesky: { text: 'Short for Bluesky', accounts: [bluesky] },
    });
  });

  it('reads back the accounts in the order sent, though the store groups them by platform', async () => {
    const li2 = (await accountsOf(sb, 'demo')).ours.find((a) => a.platform === 'linkedin' && !a.isDefault)!.id;
    const post = await sp.create({ caption: 'Order', social_accounts: [linkedin, bluesky, li2], is_draft: true });
    expect(post.social_accounts).toEqual([linkedin, bluesky, li2]);
    expect(Object.keys((await ours.get(`/v1/posts/${post.id}`)).body.payloads)).toEqual(['linkedin', 'bluesky']);
  });

  it('reads back the caption and media as sent, even when the first platform overrides them', async () => {
    const body = { caption: 'Base for most', social_accounts: [linkedin, bluesky], is_draft: true, media_urls: ['https://cdn.example/base.png'], platform_configurations: { linkedin: { caption: 'Only LinkedIn', media: [] } } };
    const post = await sp.create(body);
    expect(post).toMatchObject({ caption: body.caption, media: [], media_urls: body.media_urls, platform_configurations: body.platform_configurations });
    const mine = (await ours.get(`/v1/posts/${post.id}`)).body.payloads;
    expect(mine.linkedin).toEqual({ text: 'Only LinkedIn', accounts: [linkedin] });
    expect(mine.bluesky).toEqual({ text: 'Base for most', accounts: [bluesky], media: [{ url: 'https://cdn.example/base.png' }] });
    // Once no platform uses that caption any more (changed in our dialect), the first platform's is the base again.
    const changed = await call(sb, 'PATCH', `/v1/posts/${post.id}`, { key: ours.key, body: { payloads: { bluesky: { text: 'Changed', accounts: [bluesky] } } } });
    expect(changed.status, changed.text).toBe(200);
    const read = (await sp.get(`/api/v1/posts/${post.id}`)).body as SpPost;
    expect(read.caption).toBe('Only LinkedIn');
    expect(read.platform_configurations).toEqual({ bluesky: { caption: 'Changed' } });
  });

  it('reads a post made in our dialect: caption of the first platform, the others\' differences as overrides', async () => {
    const made = await ours.post('/v1/posts', { payloads: { 'twitter-x': { text: 'For X', thread: [{ text: 'second part' }] }, linkedin: { text: 'For LinkedIn', accounts: [linkedin] } } });
    expect(made.status).toBe(201);
    const post = (await sp.get(`/api/v1/posts/${made.body.id}`)).body as SpPost;
    expect(post).toMatchObject({ id: made.body.id, caption: 'For X', status: 'draft', is_draft: true });
    expect(post.social_accounts).toEqual([made.body.payloads['twitter-x'].accounts[0], linkedin]);
    expect(post.platform_configurations).toEqual({ 'twitter-x': { thread: [{ caption: 'second part' }] }, linkedin: { caption: 'For LinkedIn' } });
  });

  it('ignores Idempotency-Key (SyncPostly has none): the same body sent twice makes two posts', async () => {
    const body = { caption: 'Twice', social_accounts: [bluesky], is_draft: true };
    const a = await sp.post('/api/v1/posts', body, { 'idempotency-key': 'same-key-1' });
    const b = await sp.post('/api/v1/posts', body, { 'idempotency-key': 'same-key-1' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('validation: the same rules as our dialect, issues on SyncPostly\'s fields', () => {
  const issuesOf = async (body: unknown, status = 422) => {
    const r = await sp.post('/api/v1/posts', body);
    expect(r.status, r.text).toBe(status);
    expect(Object.keys(r.body).sort()).toEqual(['error', 'issues']);
    expect(typeof r.body.error).toBe('string');
    for (const i of r.body.issues) {
      expect(Array.isArray(i.path)).toBe(true);
      expect(typeof i.message).toBe('string');
      expect(typeof i.code).toBe('string');
    }
    return r.body.issues as { path: (string | number)[]; message: string; code: string }[];
  };

  it('a caption over a platform\'s limit: 422 on caption, or on that platform\'s override', async () => {
    const long = 'x'.repeat(301);
    const base = await issuesOf({ caption: long, social_accounts: [linkedin, bluesky], is_draft: true });
    expect(base).toEqual([{ path: ['caption'], message: expect.stringMatching(/bluesky.*300/), code: 'custom' }]);
    const override = await issuesOf({ caption: 'ok', social_accounts: [linkedin, bluesky], is_draft: true, platform_configurations: { bluesky: { caption: long } } });
    expect(override.map((i) => i.path)).toEqual([['platform_configurations', 'bluesky', 'caption']]);
  });

  it('an account of another workspace, an unknown one or one named twice: 422 naming its index in social_accounts', async () => {
    expect((await issuesOf({ caption: 'x', social_accounts: [bluesky, otherBluesky], is_draft: true })).map((i) => i.path)).toEqual([['social_accounts', 1]]);
    expect((await issuesOf({ caption: 'x', social_accounts: ['acc_nope', linkedin, linkedin], is_draft: true })).map((i) => i.path)).toEqual([['social_accounts', 0], ['social_accounts', 2]]);
  });

  it('Zod issues for a wrong type; a missing required field is a bad request (400) with its issues', async () => {
    const typed = await issuesOf({ caption: 'x', social_accounts: [bluesky], is_draft: 'yes' });
    expect(typed[0]).toMatchObject({ path: ['is_draft'], code: 'invalid_type' });
    const missing = await issuesOf({ social_accounts: [bluesky] }, 400);
    expect(missing[0]).toMatchObject({ path: ['caption'], code: 'invalid_type' });
    const malformed = await sp.post('/api/v1/posts', undefined);
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body)).toEqual(['error']);
  });

  it('overrides of a platform without an account, unknown override keys, settings a platform refuses, a past time, a draft with a time', async () => {
    expect((await issuesOf({ caption: 'x', social_accounts: [bluesky], is_draft: true, platform_configurations: { linkedin: { caption: 'y' } } })).map((i) => i.path)).toEqual([['platform_configurations', 'linkedin']]);
    expect((await issuesOf({ caption: 'x', social_accounts: [bluesky], is_draft: true, platform_configurations: { bluesky: { title: 'y' } } }))[0]).toMatchObject({ path: ['platform_configurations', 'bluesky'], code: 'unrecognized_keys' });
    expect((await issuesOf({ caption: 'x', social_accounts: [linkedin], is_draft: true, platform_configurations: { linkedin: { options: { visibility: 'SECRET' } } } }))[0]!.path).toEqual(['platform_configurations', 'linkedin', 'options', 'visibility']);
    expect((await issuesOf({ caption: 'x', social_accounts: [bluesky], scheduled_at: '2020-01-01T00:00:00Z' })).map((i) => i.path)).toEqual([['scheduled_at']]);
    expect((await issuesOf({ caption: 'x', social_accounts: [bluesky], is_draft: true, scheduled_at: inAnHour() })).map((i) => i.path)).toEqual([['scheduled_at']]);
  });

  it('media ids that are not this workspace\'s uploads: 422 on media', async () => {
    expect((await issuesOf({ caption: 'x', social_accounts: [bluesky], is_draft: true, media: ['med_nothere0000'] })).map((i) => i.path)).toEqual([['media', 0]]);
  });

  it('media URLs of a type SyncPostly does not document (a GIF, a WebP): 422 on that URL', async () => {
    const body = { caption: 'x', social_accounts: [linkedin, bluesky], is_draft: true, media_urls: ['https://cdn.example/a.png', 'https://cdn.example/b.gif'], platform_configurations: { bluesky: { thread: [{ caption: 'y', media: ['https://cdn.example/c.webp'] }] } } };
    const issues = await issuesOf(body);
    // The base media_urls go to both platforms: the GIF is named once.
    expect(issues.map((i) => i.path)).toEqual([['media_urls', 1], ['platform_configurations', 'bluesky', 'thread', 0, 'media', 0]]);
    expect(issues[0]!.message).toMatch(/image\/gif.*image\/png, image\/jpeg, video\/mp4, video\/quicktime/);
  });
});

describe('GET /api/v1/posts', () => {
  it('pages with limit 10 by default, newest first, in the documented list shape', async () => {
    for (let i = 0; i < 12; i++) await sp.create({ caption: `page ${i}`, social_accounts: [bluesky], is_draft: true });
    const page = spPostListSchema.parse((await sp.get('/api/v1/posts')).body);
    expect(page.meta).toMatchObject({ offset: 0, limit: 10 });
    expect(page.data).toHaveLength(10);
    expect(page.data[0]!.caption).toBe('page 11');
    const next = (await sp.get('/api/v1/posts?offset=10&limit=2')).body;
    expect(next.data.map((p: SpPost) => p.caption)).toEqual(['page 1', 'page 0']);
    expect(next.meta.total).toBe(page.meta.total);
  });

  it('filters by status in every array encoding, and by platform', async () => {
    const drafts = (await sp.get('/api/v1/posts?status=draft&limit=100')).body;
    expect(drafts.data.every((p: SpPost) => p.status === 'draft')).toBe(true);
    for (const q of ['status=draft&status=posted', 'status[]=draft&status[]=posted', 'status=draft,posted']) {
      const r = (await sp.get(`/api/v1/posts?${q}&limit=100`)).body;
      expect(new Set(r.data.map((p: SpPost) => p.status))).toEqual(new Set(['draft', 'posted']));
      expect(r.meta.total).toBeGreaterThan(drafts.meta.total);
    }
    const li = (await sp.get('/api/v1/posts?platform=linkedin&limit=100')).body;
    expect(li.data.length).toBeGreaterThan(0);
    for (const p of li.data as SpPost[]) expect(p.social_accounts).toContain(linkedin);
  });

  it('refuses bad query values with 400 naming the parameter', async () => {
    for (const [q, name] of [['offset=-1', 'offset'], ['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=ten', 'limit'], ['status=published', 'status'], ['platform=myspace', 'platform']] as const) {
      const r = await sp.get(`/api/v1/posts?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.issues[0].path).toEqual([name]);
    }
  });
});

describe('PATCH and DELETE /api/v1/posts/{id}', () => {
  it('changes what is sent and keeps what is not: an omitted scheduled_at keeps its time', async () => {
    const at = inAnHour();
    const post = await sp.create({ caption: 'Before', social_accounts: [bluesky, linkedin], scheduled_at: at, platform_configurations: { linkedin: { caption: 'LinkedIn before' } } });
    const r = await sp.patch(`/api/v1/posts/${post.id}`, { caption: 'After' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ caption: 'After', scheduled_at: at, status: 'scheduled', platform_configurations: { linkedin: { caption: 'LinkedIn before' } } });
    const later = new Date(Date.parse(at) + 3_600_000).toISOString();
    expect((await sp.patch(`/api/v1/posts/${post.id}`, { scheduled_at: later })).body.scheduled_at).toBe(later);
    expect((await ours.get(`/v1/posts/${post.id}`)).body.scheduledAt).toBe(later);
    const unscheduled = (await sp.patch(`/api/v1/posts/${post.id}`, { is_draft: true, scheduled_at: null })).body;
    expect(unscheduled).toMatchObject({ status: 'draft', is_draft: true, scheduled_at: null });
    const fewer = (await sp.patch(`/api/v1/posts/${post.id}`, { social_accounts: [bluesky] })).body;
    expect(fewer).toMatchObject({ social_accounts: [bluesky], platform_configurations: null });
  });

  it('an empty PATCH of a post made in our dialect leaves its payloads as they were (the translation goes both ways)', async () => {
    const payloads = {
      'twitter-x': { text: 'Thread on X', accounts: [] as string[], thread: [{ text: 'part two', media: [{ url: 'https://cdn.example/two.png' }] }], firstComment: 'replies here' },
      linkedin: { text: 'For LinkedIn', accounts: [linkedin], media: [{ url: 'https://cdn.example/one.png', alt: 'a chart' }], options: { visibility: 'CONNECTIONS' } },
      bluesky: { text: 'Thread on X', accounts: [bluesky] },
    };
    const made = await ours.post('/v1/posts', { payloads: { ...payloads, 'twitter-x': { ...payloads['twitter-x'], accounts: undefined } } });
    expect(made.status, made.text).toBe(201);
    const before = (await ours.get(`/v1/posts/${made.body.id}`)).body.payloads;
    const r = await sp.patch(`/api/v1/posts/${made.body.id}`, {});
    expect(r.status, r.text).toBe(200);
    expect(r.body.platform_configurations).toEqual({
      'twitter-x': { thread: [{ caption: 'part two', media: ['https://cdn.example/two.png'] }], first_comment: 'replies here' },
      linkedin: { caption: 'For LinkedIn', media: [], media_urls: ['https://cdn.example/one.png'], alt_text: ['a chart'], options: { visibility: 'CONNECTIONS' } },
    });
    expect((await ours.get(`/v1/posts/${made.body.id}`)).body.payloads).toEqual(before);
  });

  it('validates a change like a create (422), refuses a posted post (400), answers 404 for another workspace', async () => {
    const post = await sp.create({ caption: 'Short', social_accounts: [bluesky], is_draft: true });
    const long = await sp.patch(`/api/v1/posts/${post.id}`, { caption: 'y'.repeat(301) });
    expect(long.status).toBe(422);
    expect(long.body.issues[0].path).toEqual(['caption']);
    expect((await sp.get(`/api/v1/posts/${post.id}`)).body.caption).toBe('Short');
    const other = spClient(sb, 'other');
    for (const r of [await other.get(`/api/v1/posts/${post.id}`), await other.patch(`/api/v1/posts/${post.id}`, { caption: 'z' }), await other.del(`/api/v1/posts/${post.id}`)]) {
      expect(r.status).toBe(404);
      expect(Object.keys(r.body)).toEqual(['error']);
    }
    const sent = await sp.create({ caption: 'Gone out', social_accounts: [bluesky] });
    await sb.settle();
    const refused = await sp.patch(`/api/v1/posts/${sent.id}`, { caption: 'too late' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/posted/);
  });

  it('deletes a post: 404 afterwards in both dialects', async () => {
    const post = await sp.create({ caption: 'Delete me', social_accounts: [bluesky], is_draft: true });
    const r = await sp.del(`/api/v1/posts/${post.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect((await sp.get(`/api/v1/posts/${post.id}`)).status).toBe(404);
    expect((await ours.get(`/v1/posts/${post.id}`)).status).toBe(404);
  });
});
