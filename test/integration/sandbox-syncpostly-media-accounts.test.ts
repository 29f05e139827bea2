// The sandbox's SyncPostly dialect: social accounts (paged, filtered, per workspace, no status or
// default) and media (upload URL, PUT of the bytes, list, one, delete; only the four documented
// MIME types), used by a post and removed with it.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spAccountListSchema, spMediaListSchema, spMediaSchema, spUploadDoneSchema, spUploadUrlSchema } from '../../src/wire/syncpostly/schemas.js';
import { as, call, manualSandbox, type TestSandbox } from './sandbox-support.js';
import { accountsOf, spClient } from './sandbox-syncpostly-support.js';

let sb: TestSandbox;
let sp: ReturnType<typeof spClient>;

beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0, writeLimit: 100_000, readLimit: 100_000 });
  sp = spClient(sb, 'demo');
});
afterAll(() => sb.close());

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f1ad7d0000000049454e44ae426082', 'hex');

describe('GET /api/v1/social-accounts', () => {
  it('lists the same accounts as our dialect, as SocialAccountDto only, paged 10 by default', async () => {
    const { ours } = await accountsOf(sb, 'demo');
    const first = spAccountListSchema.parse((await sp.get('/api/v1/social-accounts')).body);
    expect(first.meta).toEqual({ offset: 0, limit: 10, total: ours.length });
    expect(first.data).toHaveLength(10);
    for (const a of first.data) expect(Object.keys(a).sort()).toEqual(['display_name', 'id', 'platform', 'username']);
    const all = (await sp.get('/api/v1/social-accounts?limit=100')).body.data;
    expect(all).toEqual(ours.map((a) => ({ id: a.id, platform: a.platform, username: a.username, display_name: a.displayName })));
  });

  it('filters by platform (any array encoding) and username, refuses an unknown platform (400)', async () => {
    const li = (await sp.get('/api/v1/social-accounts?platform[]=linkedin&platform[]=bluesky')).body;
    expect(new Set(li.data.map((a: { platform: string }) => a.platform))).toEqual(new Set(['linkedin', 'bluesky']));
    expect(li.meta.total).toBe(3);
    const one = li.data.find((a: { platform: string }) => a.platform === 'bluesky');
    expect((await sp.get(`/api/v1/social-accounts?username=${one.username}`)).body.data).toEqual([one]);
    const bad = await sp.get('/api/v1/social-accounts?platform=myspace');
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toEqual(['platform']);
  });

  it('answers one account, and 404 for another workspace\'s', async () => {
    const { theirs } = await accountsOf(sb, 'demo');
    const a = theirs[0]!;
    expect((await sp.get(`/api/v1/social-accounts/${a.id}`)).body).toEqual(a);
    const r = await spClient(sb, 'other').get(`/api/v1/social-accounts/${a.id}`);
    expect(r.status).toBe(404);
    expect(Object.keys(r.body)).toEqual(['error']);
  });
});

describe('media', () => {
  async function upload(name = 'pixel.png', bytes = PNG) {
    const made = await sp.post('/api/v1/media/create-upload-url', { mime_type: 'image/png', size_bytes: bytes.length, name });
    expect(made.status, made.text).toBe(200);
    const { media_id, upload_url } = spUploadUrlSchema.parse(made.body);
    expect(upload_url).toBe(`${sb.url}/api/v1/media/upload/${media_id}`);
    const put = await call(sb, 'PUT', new URL(upload_url).pathname, { key: sp.key, raw: bytes });
    expect(put.status, put.text).toBe(200);
    return { id: media_id, done: spUploadDoneSchema.parse(put.body) };
  }

  it('round trip: upload URL, PUT with the key, then the bytes served at its url and the MediaDto read back', async () => {
    const pending = (await sp.post('/api/v1/media/create-upload-url', { mime_type: 'image/png', size_bytes: PNG.length, name: 'later.png' })).body;
    expect(spMediaSchema.parse((await sp.get(`/api/v1/media/${pending.media_id}`)).body)).toMatchObject({ status: 'pending', object: { url: null } });
    const { id, done } = await upload();
    expect(done).toMatchObject({ success: true, media_id: id });
    const bytes = Buffer.from(await (await fetch(done.url!)).arrayBuffer());
    expect(bytes.equals(PNG)).toBe(true);
    const dto = spMediaSchema.parse((await sp.get(`/api/v1/media/${id}`)).body);
    expect(dto).toEqual({ id, mime_type: 'image/png', type: 'image', post_id: null, status: 'uploaded', object: { isDeleted: false, url: done.url, size_bytes: PNG.length, name: 'pixel.png' } });
    const other = spClient(sb, 'other');
    expect((await other.get(`/api/v1/media/${id}`)).status).toBe(404);
    expect((await other.del(`/api/v1/media/${id}`)).status).toBe(404);
    const put = await call(sb, 'PUT', `/api/v1/media/upload/${id}`, { key: other.key, raw: PNG });
    expect(put.status).toBe(404);
    expect(Object.keys(put.body)).toEqual(['error']);
  });

  it('an upload over 16 MiB (kept only in part): our dialect reads it with the sha256 of every byte', async () => {
    const big = Buffer.alloc(17 * 1024 * 1024, 7);
    big.write('....ftypisom', 0, 'latin1');
    const made = (await sp.post('/api/v1/media/create-upload-url', { mime_type: 'video/mp4', size_bytes: big.length, name: 'big.mp4' })).body;
    expect((await call(sb, 'PUT', `/api/v1/media/upload/${made.media_id}`, { key: sp.key, raw: big })).status).toBe(200);
    const ours = await as(sb, 'demo').get(`/v1/media/${made.media_id}`);
    expect(ours.body).toMatchObject({ sizeBytes: big.length, status: 'ready', sha256: createHash('sha256').update(big).digest('hex') });
  });

  it('refuses a MIME type SyncPostly does not document (422, Zod issue on mime_type) and a wrong byte count', async () => {
    for (const mime of ['image/gif', 'image/webp']) {
      const r = await sp.post('/api/v1/media/create-upload-url', { mime_type: mime, size_bytes: 10, name: 'a' });
      expect(r.status).toBe(422);
      expect(r.body.issues[0]).toMatchObject({ path: ['mime_type'], code: 'invalid_value' });
    }
    const huge = await sp.post('/api/v1/media/create-upload-url', { mime_type: 'image/png', size_bytes: 10 ** 11, name: 'a.png' });
    expect(huge.status).toBe(422);
    expect(huge.body.issues[0].path).toEqual(['size_bytes']);
    const made = (await sp.post('/api/v1/media/create-upload-url', { mime_type: 'image/png', size_bytes: 10, name: 'short.png' })).body;
    const short = await call(sb, 'PUT', `/api/v1/media/upload/${made.media_id}`, { key: sp.key, raw: Buffer.alloc(4) });
    expect(short.status).toBe(422);
    expect(typeof short.body.error).toBe('string');
  });

  it('lists uploads newest first, paged, and deletes one', async () => {
    const a = await upload('a.png');
    const b = await upload('b.png');
    const page = spMediaListSchema.parse((await sp.get('/api/v1/media?limit=2')).body);
    expect(page.data.map((m) => m.id)).toEqual([b.id, a.id]);
    expect(page.meta.limit).toBe(2);
    expect((await sp.get('/api/v1/media')).body.meta).toMatchObject({ offset: 0, limit: 10 });
    expect((await sp.get('/api/v1/media?limit=101')).status).toBe(400);
    expect((await sp.del(`/api/v1/media/${a.id}`)).body).toEqual({ success: true });
    expect((await sp.get(`/api/v1/media/${a.id}`)).status).toBe(404);
    expect((await fetch(a.done.url!)).status).toBe(404);
    expect((await sp.get('/api/v1/media?limit=100')).body.meta.total).toBe(page.meta.total - 1);
  });

  it('a post names uploads by id (our dialect sees their URLs); deleting the post removes its media', async () => {
    const { usable } = await accountsOf(sb, 'demo');
    const m = await upload('post.png');
    const post = await sp.create({ caption: 'With a picture', social_accounts: [usable('bluesky')], media: [m.id], is_draft: true, platform_configurations: { bluesky: { alt_text: ['a pixel'] } } });
    expect(post.media).toEqual([m.id]);
    expect(post.platform_configurations).toEqual({ bluesky: { alt_text: ['a pixel'] } });
    expect((await as(sb, 'demo').get(`/v1/posts/${post.id}`)).body.payloads.bluesky.media).toEqual([{ url: m.done.url, type: 'image', alt: 'a pixel' }]);
    expect((await sp.get(`/api/v1/media/${m.id}`)).body.post_id).toBe(post.id);
    expect((await sp.del(`/api/v1/posts/${post.id}`)).status).toBe(200);
    expect((await sp.get(`/api/v1/media/${m.id}`)).status).toBe(404);
  });

  it('media replaced on PATCH; URLs kept as media_urls', async () => {
    const { usable } = await accountsOf(sb, 'demo');
    const m = await upload('first.png');
    const post = await sp.create({ caption: 'Swap', social_accounts: [usable('linkedin')], media: [m.id], is_draft: true });
    const r = await sp.patch(`/api/v1/posts/${post.id}`, { media_urls: ['https://cdn.example/b.png'] });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ media: [], media_urls: ['https://cdn.example/b.png'] });
  });
});
