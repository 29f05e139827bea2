// The sandbox publishes by the platforms' rules (src/wire/platforms.ts): a target that breaks one
// fails there with the matching code before any random failure applies, media uploaded to it is
// judged by its bytes, a URL only by its address, and a text-only post never fails for media.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, call, manualSandbox, START, type TestSandbox } from './sandbox-support.js';
import { png as pngBytes, video } from '../helpers/media-fixtures.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
});
afterAll(() => sb.close());

/** Declares and uploads bytes (POST /v1/media, PUT), returning the media's URL. */
async function upload(name: string, mimeType: string, bytes: Uint8Array): Promise<string> {
  const demo = as(sb, 'demo');
  const created = await demo.post('/v1/media', { name, mimeType, sizeBytes: bytes.length });
  expect(created.status).toBe(201);
  const put = await call(sb, 'PUT', new URL(created.body.uploadUrl).pathname, { key: demo.key, raw: bytes, headers: { 'content-type': mimeType } });
  expect(put.status).toBe(200);
  return created.body.url as string;
}

let at = START;
/** Schedules the payloads, publishes them, and returns each platform's result. */
async function publish(payloads: Record<string, unknown>, title?: string): Promise<Record<string, any>> {
  const demo = as(sb, 'demo');
  at = Math.max(at, sb.clock.now()) + 60_000;
  const scheduled = await demo.post('/v1/schedule', { payloads, scheduledAt: new Date(at).toISOString(), ...(title ? { title } : {}) });
  expect(scheduled.status, scheduled.text).toBe(201);
  await sb.clock.advance(at - sb.clock.now());
  const results = await demo.get(`/api/v1/post-results?post_id=${scheduled.body.id}&limit=100`);
  expect(results.body.data.length).toBe(Object.keys(payloads).length);
  return Object.fromEntries(results.body.data.map((r: any) => [r.platform, r]));
}

describe('publishing by the platforms rules', () => {
  it('fails an X post mixing a video and an image with MEDIA_REJECTED, the reason in context, and no platform post id', async () => {
    const clip = await upload('clip.mp4', 'video/mp4', video({ durationSec: 30, width: 1280, height: 720 }));
    const photo = await upload('photo.png', 'image/png', pngBytes(1200, 675));
    const media = [{ url: clip, type: 'video' }, { url: photo, type: 'image' }];
    const r = await publish({ 'twitter-x': { text: 'Mixed', media }, threads: { text: 'Mixed is fine here', media } });
    expect(r['twitter-x']).toMatchObject({
      success: false,
      platform_data: { url: null },
      error: { code: 'MEDIA_REJECTED', message: expect.stringContaining('remove the video or post it separately'), context: { provider: 'x', rule: 'media.mix', reason: expect.stringContaining('X takes up to 4 images or one video'), http_status: 400 } },
    });
    expect(r['twitter-x'].platform_data).not.toHaveProperty('id');
    expect(r.threads).toMatchObject({ success: true, error: null, platform_data: { id: expect.any(String), url: expect.stringMatching(/^https:/) } });
  });

  it('judges an uploaded video by its bytes, wherever its moov sits: 200 s is too long for X, not for LinkedIn', async () => {
    const long = await upload('long.mp4', 'video/mp4', video({ durationSec: 200, width: 1280, height: 720, moovAtEnd: true }));
    const ok = await upload('ok.mp4', 'video/mp4', video({ durationSec: 120, width: 1280, height: 720 }));
    const r = await publish({ 'twitter-x': { text: 'Long', media: [{ url: long }] }, bluesky: { text: 'Short enough', media: [{ url: ok }] }, linkedin: { text: 'Long is fine', media: [{ url: long }] } });
    expect(r['twitter-x'].error).toMatchObject({ code: 'MEDIA_REJECTED', context: { rule: 'video.duration', actual: expect.stringContaining('200 s'), limit: '0.5 s–140 s' } });
    expect(r.bluesky.success).toBe(true);
    expect(r.linkedin.success).toBe(true);
  });

  it('fails YouTube without a title with TITLE_REQUIRED, Instagram with 40 hashtags with TEXT_TOO_LONG, text-only TikTok with MEDIA_REQUIRED', async () => {
    const clip = await upload('v.mp4', 'video/mp4', video({ durationSec: 60, width: 1080, height: 1920 }));
    const tags = Array.from({ length: 40 }, (_, i) => `#t${i}`).join(' ');
    const r = await publish({ youtube: { text: 'Watch', media: [{ url: clip }] }, instagram: { text: tags, media: [{ url: clip }] }, tiktok: { text: 'No video' } });
    expect(r.youtube.error).toMatchObject({ code: 'TITLE_REQUIRED', context: { provider: 'google', rule: 'title.required' } });
    expect(r.instagram.error).toMatchObject({ code: 'TEXT_TOO_LONG', context: { provider: 'meta', rule: 'text.hashtags', actual: '40', limit: '≤ 30' } });
    expect(r.tiktok.error).toMatchObject({ code: 'MEDIA_REQUIRED' });
    const titled = await publish({ youtube: { text: 'Watch', media: [{ url: clip }] } }, 'Launch day');
    expect(titled.youtube.success).toBe(true);
  });

  it('judges uploaded bytes by what they are, not by the type declared for them', async () => {
    const png = await upload('photo.jpg', 'image/jpeg', pngBytes(1080, 1080));
    const r = await publish({ instagram: { text: 'A PNG called JPEG', media: [{ url: png }] } });
    expect(r.instagram.error).toMatchObject({ code: 'MEDIA_REJECTED', context: { rule: 'media.type', actual: 'image/png' } });
  });

  it('judges a URL elsewhere only by what its address tells, and refuses http:// URLs', async () => {
    const r = await publish({ 'twitter-x': { text: 'Remote', media: [{ url: 'https://cdn.example/clip.mp4' }] }, bluesky: { text: 'Plain', media: [{ url: 'http://cdn.example/a.png' }] } });
    expect(r['twitter-x'].success).toBe(true);
    expect(r.bluesky.error).toMatchObject({ code: 'MEDIA_REJECTED', context: { rule: 'media.url' } });
  });
});

describe('random failures', () => {
  it('apply only to targets that keep the rules, and never fail a text-only post for its media', async () => {
    const noisy = await manualSandbox({ failureRate: 1 });
    try {
      const demo = as(noisy, 'demo');
      const scheduled = await demo.post('/v1/schedule', { payloads: Object.fromEntries(['twitter-x', 'linkedin', 'facebook-page', 'bluesky', 'threads'].map((p) => [p, { text: 'Text only' }])), scheduledAt: new Date(START + 60_000).toISOString() });
      expect(scheduled.status).toBe(201);
      // Many rows of text-only posts, all failing at random.
      for (let i = 0; i < 40; i++) {
        const s = await demo.post('/v1/schedule', { payloads: { 'twitter-x': { text: `Text only ${i}` }, instagram: { text: `Text ${i}`, media: [{ url: 'https://cdn.example/a.jpg' }] } }, scheduledAt: new Date(START + 60_000).toISOString() });
        expect(s.status).toBe(201);
      }
      await noisy.clock.advance(60_000);
      const rows = (await demo.get('/api/v1/post-results?limit=100&platform=twitter-x')).body.data.filter((r: any) => r.created_at >= new Date(START).toISOString());
      expect(rows.length).toBeGreaterThan(30);
      expect(rows.every((r: any) => !r.success && r.error.code !== 'MEDIA_REJECTED' && !('id' in r.platform_data))).toBe(true);
      const withMedia = (await demo.get('/api/v1/post-results?limit=100&platform=instagram')).body.data.filter((r: any) => r.created_at >= new Date(START).toISOString());
      expect(withMedia.length).toBe(40);
      expect(withMedia.some((r: any) => r.error.code === 'MEDIA_REJECTED')).toBe(true);
    } finally {
      await noisy.close();
    }
  });
});
