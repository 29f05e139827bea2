// Threads, first comments, alt text and each platform's settings (contract 7.3), through the wire
// only: 422 naming the field and what the platform takes, THREAD_PART_FAILED with the part in
// `context` when a later part fails, a first comment's outcome in the result, and the media object.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, call, manualSandbox, START, type TestSandbox } from './sandbox-support.js';
import { gif, png } from '../helpers/media-fixtures.js';

let sb: TestSandbox;
let flaky: TestSandbox;
beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
  flaky = await manualSandbox({ failureRate: 1, seed: 7 });
});
afterAll(async () => {
  await sb.close();
  await flaky.close();
});

async function upload(s: TestSandbox, name: string, mimeType: string, bytes: Uint8Array): Promise<{ id: string; url: string }> {
  const demo = as(s, 'demo');
  const created = await demo.post('/v1/media', { name, mimeType, sizeBytes: bytes.length });
  expect(created.status).toBe(201);
  const put = await call(s, 'PUT', new URL(created.body.uploadUrl).pathname, { key: demo.key, raw: bytes, headers: { 'content-type': mimeType } });
  expect(put.status).toBe(200);
  return { id: created.body.id, url: created.body.url };
}

let at = START;
async function publish(s: TestSandbox, payloads: Record<string, unknown>): Promise<Record<string, any>> {
  const demo = as(s, 'demo');
  at = Math.max(at, s.clock.now()) + 60_000;
  const scheduled = await demo.post('/v1/schedule', { payloads, scheduledAt: new Date(at).toISOString() });
  expect(scheduled.status, scheduled.text).toBe(201);
  await s.clock.advance(at - s.clock.now());
  const results = await demo.get(`/api/v1/post-results?post_id=${scheduled.body.id}&limit=100`);
  return Object.fromEntries(results.body.data.map((r: any) => [r.platform, r]));
}

const issues = (r: { body: any }) => r.body.error.issues as Array<{ path: string; message: string }>;

describe('422 for what a platform does not take', () => {
  it('names an unknown option with the nearest key, and a bad value with every allowed one', async () => {
    const r = await as(sb, 'demo').post('/v1/posts', {
      payloads: { instagram: { text: 'Hi', options: { postTyp: 'reel' } }, tiktok: { text: 'Hi', options: { privacy: 'public' } } },
    });
    expect(r.status).toBe(422);
    expect(issues(r)).toEqual(
      expect.arrayContaining([
        { path: 'payloads.instagram.options.postTyp', message: expect.stringMatching(/no option "postTyp".*did you mean "postType"/) },
        { path: 'payloads.tiktok.options.privacy', message: expect.stringContaining('PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY') },
      ]),
    );
  });

  it('refuses a thread where the platform publishes none, a thread part over its limit, and alt text over X\'s 1,000', async () => {
    const r = await as(sb, 'demo').post('/v1/posts', {
      payloads: {
        linkedin: { text: 'Hi', thread: [{ text: 'more' }] },
        bluesky: { text: 'Hi', thread: [{ text: 'fine' }, { text: 'x'.repeat(301) }] },
        'twitter-x': { text: 'Hi', media: [{ url: 'https://example.com/a.png', alt: 'a'.repeat(1001) }] },
      },
    });
    expect(r.status).toBe(422);
    const paths = issues(r).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['payloads.linkedin.thread', 'payloads.bluesky.thread.1.text', 'payloads.twitter-x.media.0.alt']));
    expect(issues(r).find((i) => i.path === 'payloads.bluesky.thread.1.text')!.message).toMatch(/part 3.*301/);
  });

  it("refuses a thread part's alt text over the platform's limit, as the post's own (the client refuses it first)", async () => {
    const part = (alt: string) => ({ text: 'Hi', thread: [{ text: 'The map', media: [{ url: 'https://example.com/map.png', alt }] }] });
    const over = await as(sb, 'demo').post('/v1/posts', { payloads: { bluesky: part('a'.repeat(2001)) } });
    expect(over.status).toBe(422);
    expect(issues(over)).toEqual([{ path: 'payloads.bluesky.thread.0.media.0.alt', message: expect.stringMatching(/thread part 2: alt text of 2001 characters; Bluesky takes at most 2000/) }]);
    const within = await as(sb, 'demo').post('/v1/posts', { payloads: { bluesky: part('a'.repeat(2000)) } });
    expect(within.status, within.text).toBe(201);
  });

  it('takes every setting the contract lists, and a thread, a first comment and alt text where the platform does', async () => {
    const r = await as(sb, 'demo').post('/v1/posts', {
      payloads: {
        'twitter-x': { text: 'One', thread: [{ text: 'Two' }], firstComment: 'Links below', options: { replySettings: 'following' } },
        youtube: { text: 'Video', options: { privacy: 'unlisted', tags: ['a', 'b'], madeForKids: false } },
        pinterest: { text: 'Pin', options: { board: '123', link: 'https://example.com' }, media: [{ url: 'https://example.com/p.png', alt: 'A pin' }] },
        linkedin: { text: 'Li', options: { visibility: 'CONNECTIONS' }, firstComment: '#hashtags' },
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.payloads['twitter-x'].thread).toEqual([{ text: 'Two' }]);
  });

  it('an Instagram reel is one video and a story one item: a story of two is refused at once, a reel of an image fails when it publishes', async () => {
    const demo = as(sb, 'demo');
    const image = { url: 'https://example.com/a.jpg' };
    const video = { url: 'https://example.com/a.mp4' };
    // How many items is known when the post is made; what a URL holds, when it is published (as for every media rule).
    const storyOfTwo = await demo.post('/v1/posts', { payloads: { instagram: { text: 'Hi', media: [image, video], options: { postType: 'story' } } } });
    expect(storyOfTwo.status).toBe(422);
    expect(issues(storyOfTwo)).toContainEqual({ path: 'payloads.instagram.media', message: expect.stringMatching(/postType=story .*one image or one video.*2 items/) });
    const reelOfImage = await publish(sb, { instagram: { text: 'A reel of a photo', media: [image], options: { postType: 'reel' } } });
    expect(reelOfImage.instagram).toMatchObject({ success: false, error: { code: 'MEDIA_REJECTED', message: expect.stringMatching(/postType=reel .*one video/) } });
    const right = await publish(sb, { instagram: { text: 'A reel of a video', media: [video], options: { postType: 'reel' } } });
    expect(right.instagram.success, JSON.stringify(right.instagram.error)).toBe(true);
    const story = await publish(sb, { instagram: { text: 'A story of a photo', media: [image], options: { postType: 'story' } } });
    expect(story.instagram.success, JSON.stringify(story.instagram.error)).toBe(true);
  });
});

describe('publishing a thread and a first comment', () => {
  it('fails a target whose third part carries a GIF over X\'s frame limit with THREAD_PART_FAILED and the part in context', async () => {
    const big = await upload(sb, 'many.gif', 'image/gif', gif(10, 10, 351));
    const r = await publish(sb, { 'twitter-x': { text: 'One', thread: [{ text: 'Two' }, { text: 'Three', media: [{ url: big.url }] }] } });
    expect(r['twitter-x']).toMatchObject({ success: false, error: { code: 'THREAD_PART_FAILED', context: { part: 1, partNumber: 3, parts: 3, rule: 'thread.gif.frames' } } });
  });

  it('tells a published first comment in the result row', async () => {
    const r = await publish(sb, { linkedin: { text: 'Post', firstComment: '#one #two' } });
    expect(r.linkedin).toMatchObject({ success: true, first_comment: { status: 'published', id: expect.any(String) } });
  });

  it('with every random failure on, a thread target fails either as a whole or at a later part, never silently', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const r = await publish(flaky, { bluesky: { text: `Part one ${i}`, thread: [{ text: 'two' }, { text: 'three' }] } });
      expect(r.bluesky.success).toBe(false);
      codes.add(r.bluesky.error.code);
      if (r.bluesky.error.code === 'THREAD_PART_FAILED') expect([0, 1]).toContain(r.bluesky.error.context.part);
    }
    expect(codes.has('THREAD_PART_FAILED')).toBe(true);
    expect(codes.size).toBeGreaterThan(1);
  });
});

describe('GET /v1/media/{id}', () => {
  it('answers the media object with its URL and the SHA-256 of the bytes, and 404 for an id it does not know', async () => {
    const bytes = png(40, 30);
    const m = await upload(sb, 'a.png', 'image/png', bytes);
    const r = await as(sb, 'demo').get(`/v1/media/${m.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: m.id, url: m.url, mimeType: 'image/png', sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect((await as(sb, 'other').get(`/v1/media/${m.id}`)).status).toBe(404);
  });
});
