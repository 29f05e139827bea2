// Platforms that publish only media (requiresMedia in src/wire/platforms.ts): the API accepts
// a text-only post for them, as the service does, and publishing fails for that target alone
// with MEDIA_REQUIRED, a message that names the fix and the provider's own answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_LIMITS, PLATFORMS } from '../../src/wire/platforms.js';
import { as, manualSandbox, START, text, type TestSandbox } from './sandbox-support.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
});
afterAll(() => sb.close());

const needMedia = PLATFORMS.filter((p) => PLATFORM_LIMITS[p].requiresMedia);

describe('media-only platforms given text alone', () => {
  it('are accepted as drafts and scheduled posts, then fail at publish with MEDIA_REQUIRED for those targets only', async () => {
    expect(needMedia).toEqual(['instagram', 'tiktok', 'youtube', 'pinterest']);
    const demo = as(sb, 'demo');
    const draft = await demo.post('/v1/posts', { payloads: text(['instagram']) });
    expect(draft.status).toBe(201);
    expect(draft.body.status).toBe('draft');

    const scheduled = await demo.post('/v1/schedule', { payloads: text([...needMedia, 'twitter-x']), scheduledAt: new Date(START + 60_000).toISOString() });
    expect(scheduled.status).toBe(201);
    await sb.clock.advance(60_000);

    const post = await demo.get(`/v1/posts/${scheduled.body.id}`);
    expect(post.body.status).toBe('failed');
    const results = await demo.get(`/api/v1/post-results?post_id=${scheduled.body.id}&limit=100`);
    const byPlatform = Object.fromEntries(results.body.data.map((r: any) => [r.platform, r]));
    expect(byPlatform['twitter-x']).toMatchObject({ success: true, error: null });
    const contexts: Record<string, unknown> = {
      instagram: { provider: 'meta', http_status: 400, error: { type: 'OAuthException', code: 100, message: expect.stringMatching(/image_url or video_url is required/) } },
      tiktok: { provider: 'tiktok', http_status: 400, error: { code: 'invalid_params', message: expect.stringMatching(/source_info is required/) } },
      youtube: { provider: 'google', http_status: 400, error: { code: 400, errors: [{ domain: 'youtube.video', reason: 'mediaBodyRequired' }] } },
      pinterest: { provider: 'pinterest', http_status: 400, code: 1, message: expect.stringMatching(/media_source is required/) },
    };
    for (const platform of needMedia) {
      const r = byPlatform[platform];
      expect(r.success).toBe(false);
      expect(r.platform_data.url).toBeNull();
      expect(r.error).toMatchObject({
        code: 'MEDIA_REQUIRED',
        message: expect.stringMatching(new RegExp(`^${platform} publishes only posts with an image or a video.*Add media to the ${platform} payload`)),
        context: { platform, ...(contexts[platform] as object) },
      });
    }
  });

  it('publish normally when the payload carries media', async () => {
    const demo = as(sb, 'demo');
    const payloads = { instagram: { text: 'With a photo', media: [{ url: 'https://cdn.example.com/a.jpg', type: 'image' }] } };
    const scheduled = await demo.post('/v1/schedule', { payloads, scheduledAt: new Date(sb.clock.now() + 1_000).toISOString() });
    expect(scheduled.status).toBe(201);
    await sb.clock.advance(1_000);
    const results = await demo.get(`/api/v1/post-results?post_id=${scheduled.body.id}`);
    expect(results.body.data).toHaveLength(1);
    expect(results.body.data[0]).toMatchObject({ platform: 'instagram', success: true, error: null });
  });
});
