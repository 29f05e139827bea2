// Media: declare (POST /v1/media), upload the bytes (PUT uploadUrl, with the key, exactly the
// declared size), then the URL serves them without a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, call, manualSandbox, type TestSandbox } from './sandbox-support.js';

let sb: TestSandbox;
let demo: ReturnType<typeof as>;
const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6]);

beforeAll(async () => {
  sb = await manualSandbox();
  demo = as(sb, 'demo');
});
afterAll(() => sb.close());

describe('media', () => {
  it('declares, uploads and serves a file', async () => {
    const created = await demo.post('/v1/media', { name: 'photo.jpg', mimeType: 'image/jpeg', sizeBytes: bytes.length });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^med_/), status: 'pending', uploadUrl: expect.stringContaining(sb.url), url: expect.stringContaining(sb.url) });
    expect((await fetch(created.body.url)).status).toBe(404);

    const noKey = await call(sb, 'PUT', created.body.uploadUrl, { raw: bytes });
    expect(noKey.status).toBe(401);
    const otherKey = await call(sb, 'PUT', created.body.uploadUrl, { key: sb.key('other'), raw: bytes });
    expect(otherKey.status).toBe(404);
    const short = await call(sb, 'PUT', created.body.uploadUrl, { key: demo.key, raw: bytes.slice(0, 4) });
    expect(short.status).toBe(422);
    expect(short.body.error.issues[0].path).toBe('body');
    const long = await call(sb, 'PUT', created.body.uploadUrl, { key: demo.key, raw: new Uint8Array(bytes.length + 1) });
    expect(long.status).toBe(413);

    const put = await call(sb, 'PUT', created.body.uploadUrl, { key: demo.key, raw: bytes, headers: { 'content-type': 'image/jpeg' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.body.id, url: created.body.url, status: 'ready', sizeBytes: bytes.length });

    const served = await fetch(created.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    expect((await demo.get(`/v1/media/${created.body.id}`)).body.status).toBe('ready');
  });

  it('validates the declaration (422 with paths)', async () => {
    const r = await demo.post('/v1/media', { name: '', mimeType: 'application/pdf', sizeBytes: -1 });
    expect(r.status).toBe(422);
    expect(r.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['name', 'mimeType', 'sizeBytes']);
    const huge = await demo.post('/v1/media', { name: 'a.png', mimeType: 'image/png', sizeBytes: 10 * 1024 ** 3 });
    expect(huge.status).toBe(422);
    expect(huge.body.error.issues[0].path).toBe('sizeBytes');
  });

  it('lets a post reference the media URL', async () => {
    const m = await demo.post('/v1/media', { name: 'clip.mp4', mimeType: 'video/mp4', sizeBytes: 3 });
    const r = await demo.post('/v1/posts', { payloads: { tiktok: { text: 'clip', media: [{ url: m.body.url, type: 'video' }] } } });
    expect(r.status).toBe(201);
    expect(r.body.payloads.tiktok.media[0].url).toBe(m.body.url);
  });
});
