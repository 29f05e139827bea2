// The client in SyncPostly's dialect against a scripted SyncPostly (the sandbox's own dialect is
// tested in test/integration): what goes on the wire for each call, what comes back, and a create
// whose answer is lost, which is looked for before it is ever sent again.
import { describe, expect, it } from 'vitest';
import { NotFoundError, NetworkError } from '../../src/client/errors.js';
import { AccountChoiceError } from '../../src/wire/syncpostly/account-choice.js';
import { InvalidInputError } from '../../src/wire/invalid-input.js';
import { fakeService, json, testClient, type SeenRequest } from './client-kit.js';

const ACCOUNTS = [
  { id: 'acc-x', platform: 'twitter-x', username: 'brand', display_name: null },
  { id: 'acc-bs', platform: 'bluesky', username: 'brand.bsky.social', display_name: 'Brand' },
  { id: 'acc-li-1', platform: 'linkedin', username: 'one', display_name: null },
  { id: 'acc-li-2', platform: 'linkedin', username: 'two', display_name: null },
];

type Lose = 'reset' | 'refused' | 500 | 'garbled' | 'failed' | 429 | undefined;

/** A small SyncPostly: posts in memory, newest first; `lose` drops the answer to the next create after applying it (or before, for `refused`). */
function syncpostly() {
  const posts: Record<string, unknown>[] = [];
  const accounts = ACCOUNTS.map((a) => ({ ...a }));
  const state = { lose: [] as Lose[], searchFails: false };
  const page = (rows: unknown[], r: SeenRequest) => {
    const q = new URL(r.url).searchParams;
    const offset = Number(q.get('offset') ?? 0);
    const limit = Number(q.get('limit') ?? 10);
    return { status: 200, body: { data: rows.slice(offset, offset + limit), meta: { offset, limit, total: rows.length } }, headers: json };
  };
  const svc = fakeService().always(undefined, () => true, (r) => {
    const path = new URL(r.url).pathname;
    if (path === '/api/v1/social-accounts') return page(accounts, r);
    if (path === '/api/v1/post-results') return page([{ id: 'r1', post_id: 'p', success: true, social_account_id: 'acc-x', platform_data: null, error: null }], r);
    if (path === '/api/v1/posts' && r.method === 'POST') {
      const lose = state.lose.shift();
      if (lose === 429) return { status: 429, body: { error: 'slow down' }, headers: { ...json, 'retry-after': '1' } };
      if (lose === 'failed') return { status: 503, body: { error: 'try later' }, headers: json };
      if (lose === 'refused') return { error: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) };
      const body = JSON.parse(r.body!) as Record<string, unknown>;
      const post = { id: `post-${posts.length + 1}`, status: body.is_draft ? 'draft' : 'scheduled', media: [], platform_configurations: null, ...body, created_at: '2026-03-01T12:00:00.000Z' };
      posts.unshift(post);
      if (lose === 'reset') return { error: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) };
      if (lose === 500) return { status: 500, body: { error: 'Internal error' }, headers: json };
      if (lose === 'garbled') return { status: 200, body: '{"id":"post-', headers: json };
      return { status: 200, body: post, headers: json };
    }
    if (path === '/api/v1/posts' && r.method === 'GET') {
      if (state.searchFails) return { status: 503, body: { error: 'down' }, headers: json };
      const statuses = new URL(r.url).searchParams.getAll('status');
      return page(posts.filter((p) => statuses.length === 0 || statuses.includes(p.status as string)), r);
    }
    const one = /^\/api\/v1\/posts\/(.+)$/.exec(path);
    if (one) {
      const post = posts.find((p) => p.id === one[1]);
      if (!post) return { status: 404, body: { error: 'Post not found' }, headers: json };
      if (r.method === 'PATCH') Object.assign(post, JSON.parse(r.body!), { status: 'x' }, { status: (JSON.parse(r.body!) as { is_draft?: boolean }).is_draft === false ? 'scheduled' : post.is_draft ? 'draft' : 'scheduled' });
      if (r.method === 'DELETE') posts.splice(posts.indexOf(post), 1);
      return { status: 200, body: r.method === 'DELETE' ? { success: true } : { data: post }, headers: json };
    }
    return { status: 404, body: { error: 'no route' }, headers: json };
  });
  return { svc, posts, state, accounts };
}

const creates = (svc: { requests: SeenRequest[] }) => svc.requests.filter((r) => r.method === 'POST');
const body = (r: SeenRequest) => JSON.parse(r.body!) as Record<string, unknown>;

describe('SyncPostly dialect: posts', () => {
  it('create is a draft on /api/v1/posts with no idempotency header; the answer reads as the domain post', async () => {
    const { svc } = syncpostly();
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    const res = await client.posts.create({ payloads: { bluesky: { text: 'hello' } } }, { idempotencyKey: 'k1' });
    const [sent] = creates(svc);
    expect(sent!.path).toBe('/api/v1/posts');
    expect(sent!.headers['idempotency-key']).toBeUndefined();
    expect(body(sent!)).toEqual({ caption: 'hello', social_accounts: ['acc-bs'], media: [], platform_configurations: null, is_draft: true, scheduled_at: null });
    expect(res.data).toMatchObject({ id: 'post-1', status: 'draft', scheduledAt: null, payloads: { bluesky: { text: 'hello', accounts: ['acc-bs'] } } });
    expect(client.dialect).toBe('syncpostly');
  });

  it('schedule creates with scheduled_at and is_draft false, or PATCHes an existing post', async () => {
    const { svc } = syncpostly();
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    const at = '2026-12-01T10:00:00.000Z';
    const made = await client.posts.schedule({ payloads: { 'twitter-x': { text: 'soon' } }, scheduledAt: at });
    expect(body(creates(svc)[0]!)).toMatchObject({ scheduled_at: at, is_draft: false });
    expect(made.data.status).toBe('scheduled');
    const draft = await client.posts.create({ payloads: { 'twitter-x': { text: 'later' } } });
    await client.posts.schedule({ postId: draft.data.id, scheduledAt: at });
    const patch = svc.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe(`/api/v1/posts/${draft.data.id}`);
    expect(body(patch)).toEqual({ scheduled_at: at, is_draft: false });
  });

  it('an edit reads the post and PATCHes the whole translation; unscheduling is a draft with no time, never is_draft false', async () => {
    const { svc } = syncpostly();
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    const post = await client.posts.schedule({ payloads: { bluesky: { text: 'a' }, 'twitter-x': { text: 'a' } }, scheduledAt: '2026-12-01T10:00:00.000Z' });
    await client.posts.update(post.data.id, { payloads: { 'twitter-x': null, bluesky: { text: 'b' } } });
    const patches = () => svc.requests.filter((r) => r.method === 'PATCH').map(body);
    expect(patches()[0]).toEqual({ caption: 'b', social_accounts: ['acc-bs'], media: [], platform_configurations: null });
    await client.posts.update(post.data.id, { scheduledAt: null });
    expect(patches()[1]).toEqual({ is_draft: true, scheduled_at: null });
    for (const p of patches()) expect(p.is_draft === false && p.scheduled_at === null).toBe(false);
  });

  it('lists in SyncPostly\'s statuses as repeated keys, and reads posted as published', async () => {
    const { svc, posts } = syncpostly();
    posts.push({ id: 'old', status: 'posted', caption: 'done', social_accounts: ['acc-x'], scheduled_at: null });
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    const page = await client.posts.list({ status: ['published', 'processing'] });
    expect(svc.requests.find((r) => r.path.startsWith('/api/v1/posts'))!.path).toMatch(/^\/api\/v1\/posts\?status=posted&status=processing/);
    expect(page.data.data.map((p) => [p.id, p.status])).toEqual([['old', 'published']]);
    const all = [];
    for await (const p of client.posts.iterate({ status: ['published'] })) all.push(p.id);
    expect(all).toEqual(['old']);
  });

  it('a 404 on a post is NOT_FOUND (exit 4), not a missing route', async () => {
    const { svc } = syncpostly();
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    for (const call of [() => client.posts.get('nope'), () => client.posts.delete('nope'), () => client.posts.update('nope', { scheduledAt: null })]) {
      const err = (await call().catch((e: unknown) => e)) as NotFoundError;
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.code).toBe('NOT_FOUND');
    }
  });

  it('a platform whose account cannot be picked, or a title, is refused before any post request', async () => {
    const { svc } = syncpostly();
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    await expect(client.posts.create({ payloads: { linkedin: { text: 'hi' } } })).rejects.toBeInstanceOf(AccountChoiceError);
    await expect(client.posts.create({ payloads: { bluesky: { text: 'hi' } }, title: 'T' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(svc.requests.filter((r) => r.path.startsWith('/api/v1/posts'))).toEqual([]);
  });
});

describe('SyncPostly dialect: accounts and media', () => {
  it('an account by id falls back to the list where the single route answers 404; an id the list lacks is NOT_FOUND', async () => {
    const { svc } = syncpostly();
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    const one = await client.accounts.get('acc-bs');
    expect(one.data).toMatchObject({ id: 'acc-bs', platform: 'bluesky', displayName: 'Brand', status: null, isDefault: null, tokenExpiresAt: null });
    expect(svc.requests.map((r) => r.path.split('?')[0])).toEqual(['/api/v1/social-accounts/acc-bs', '/api/v1/social-accounts']);
    const err = (await client.accounts.get('acc-none').catch((e: unknown) => e)) as NotFoundError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.code).toBe('NOT_FOUND');
  });

  it('the accounts are read once a minute, and again at most once a minute for an account the last read lacked', async () => {
    const { svc, accounts } = syncpostly();
    const { client, clock } = testClient(svc, { dialect: 'syncpostly' });
    const reads = () => svc.requests.filter((r) => r.path.startsWith('/api/v1/social-accounts')).length;
    await client.posts.create({ payloads: { bluesky: { text: 'a' } } });
    await client.posts.create({ payloads: { bluesky: { text: 'b' } } });
    expect(reads()).toBe(1);
    accounts.push({ id: 'acc-new', platform: 'threads', username: 'new', display_name: null });
    await client.posts.create({ payloads: { threads: { text: 'c', accounts: ['acc-new'] } } });
    expect(reads()).toBe(2);
    accounts.push({ id: 'acc-newer', platform: 'pinterest', username: 'newer', display_name: null });
    await expect(client.posts.create({ payloads: { pinterest: { text: 'd', accounts: ['acc-newer'] } } })).rejects.toThrow(/no account acc-newer/);
    expect(reads()).toBe(2);
    await clock.sleep(60_000);
    await client.posts.create({ payloads: { pinterest: { text: 'd', accounts: ['acc-newer'] } } });
    expect(reads()).toBe(3);
  });

  it('a full read of the accounts (accounts list) serves the results beside it: read once', async () => {
    const { svc } = syncpostly();
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    const ids = [];
    for await (const a of client.accounts.iterate()) ids.push(a.id);
    expect(ids).toHaveLength(4);
    const rows = [];
    for await (const r of client.results.iterate()) rows.push(r.platform);
    expect(rows).toEqual(['twitter-x']);
    expect(svc.requests.filter((r) => r.path.startsWith('/api/v1/social-accounts'))).toHaveLength(1);
  });

  it('a media type SyncPostly does not document is refused before any request, naming the four it takes', async () => {
    const { svc } = syncpostly();
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    await expect(client.media.create({ name: 'a.gif', mimeType: 'image/gif', sizeBytes: 10 })).rejects.toThrow(/image\/png, image\/jpeg, video\/mp4, video\/quicktime only; a\.gif is image\/gif/);
    expect(() => client.media.check!([{ name: 'a.png', mimeType: 'image/png' }, { name: 'b.webp', mimeType: 'image/webp' }])).toThrow(/b\.webp is image\/webp/);
    expect(svc.requests).toEqual([]);
  });
});

describe('SyncPostly dialect: a create whose answer is lost', () => {
  for (const lose of ['reset', 500, 'garbled'] as const) {
    it(`(${lose}) is found among the newest posts and not sent again`, async () => {
      const { svc, posts, state } = syncpostly();
      state.lose.push(lose);
      const trace: string[] = [];
      const { client } = testClient(svc, { dialect: 'syncpostly', debug: (l) => trace.push(l) });
      const res = await client.posts.schedule({ payloads: { bluesky: { text: 'once' } }, scheduledAt: '2026-12-01T10:00:00.000Z' });
      expect(creates(svc)).toHaveLength(1);
      expect(posts).toHaveLength(1);
      expect(res.recovered).toBe(true);
      expect(res.data.id).toBe(posts[0]!.id);
      expect(trace.join('\n')).toMatch(/lost create: searching the newest 100 posts[\s\S]*lost create: post post-1 .*taking it as the answer/);
    });
  }

  it('not found (an identical post from before the attempt does not count): sent again, once', async () => {
    const { svc, posts, state } = syncpostly();
    posts.push({ id: 'older', status: 'draft', caption: 'twice?', social_accounts: ['acc-bs'], scheduled_at: null, is_draft: true, created_at: '2026-03-01T11:00:00.000Z' });
    state.lose.push('refused');
    const { client } = testClient(svc, { dialect: 'syncpostly' });
    await client.posts.create({ payloads: { bluesky: { text: 'twice?' } } });
    // Refused before sending: retried without a search.
    expect(svc.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST']);
    expect(posts.map((p) => p.id)).toEqual(['post-2', 'older']);
  });

  it('a 429 made nothing: waited out and sent again, without a search', async () => {
    const { svc, posts, state } = syncpostly();
    state.lose.push(429);
    const { client, clock } = testClient(svc, { dialect: 'syncpostly' });
    await client.posts.create({ payloads: { bluesky: { text: 'limited' } } });
    expect(svc.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual(['GET /api/v1/social-accounts', 'POST /api/v1/posts', 'POST /api/v1/posts']);
    expect(clock.sleeps).toEqual([1000]);
    expect(posts).toHaveLength(1);
  });

  it('a 5xx before anything was made: searched, not found, sent again', async () => {
    const { svc, posts, state } = syncpostly();
    const trace: string[] = [];
    const { client } = testClient(svc, { dialect: 'syncpostly', debug: (l) => trace.push(l) });
    state.lose.push('failed');
    const res = await client.posts.create({ payloads: { bluesky: { text: 'x' } } });
    expect(creates(svc)).toHaveLength(2);
    expect(posts).toHaveLength(1);
    expect(res.recovered).toBeUndefined();
    expect(trace.join('\n')).toMatch(/lost create: none of the 0 newest posts is it[\s\S]*POST .*\/api\/v1\/posts → 200/);
  });

  it('when the search itself fails, nothing is sent again and the error says the post may exist', async () => {
    const { svc, state } = syncpostly();
    state.lose.push('reset');
    state.searchFails = true;
    const { client } = testClient(svc, { dialect: 'syncpostly', maxRetries: 0 });
    const err = (await client.posts.create({ payloads: { bluesky: { text: 'x' } } }).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/the post may exist/);
    expect(creates(svc)).toHaveLength(1);
  });
});
