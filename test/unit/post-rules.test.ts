// Each platform's rules (src/wire/platforms.ts), each with a passing and a failing case, judged as
// the client and the sandbox judge them (src/wire/post-rules.ts).
import { describe, expect, it } from 'vitest';
import { countHashtags, judgePayload, type MediaItemFacts, type PayloadFacts, type Verdict } from '../../src/wire/post-rules.js';
import type { Platform } from '../../src/wire/platforms.js';

const MB = 1024 * 1024;
const img = (width: number, height: number, mimeType = 'image/jpeg', sizeBytes = 200_000): MediaItemFacts => ({
  label: `${width}x${height}.img`,
  mimeType,
  sizeBytes,
  info: { format: mimeType === 'image/png' ? 'png' : 'jpeg', kind: 'image', width, height },
});
const png = (w: number, h: number, size?: number) => img(w, h, 'image/png', size);
const vid = (durationSec: number, width = 1080, height = 1920, codec = 'h264', sizeBytes = 20 * MB): MediaItemFacts => ({
  label: `${durationSec}s.mp4`,
  mimeType: 'video/mp4',
  sizeBytes,
  info: { format: 'mp4', kind: 'video', durationSec, width, height, codec },
});
const gifOf = (frames: number, sizeBytes = 2 * MB, width = 480, height = 270): MediaItemFacts => ({
  label: `${frames}f.gif`,
  mimeType: 'image/gif',
  sizeBytes,
  info: { format: 'gif', kind: 'image', width, height, frames, animated: frames > 1 },
});
const post = (media: MediaItemFacts[] = [], text = 'Hello', extra: Partial<PayloadFacts> = {}): PayloadFacts => ({ text, media, ...extra });

/** The verdict of one rule (the first check of that rule whose verdict is not pass, else pass). */
function verdict(platform: Platform, facts: PayloadFacts, rule: string): Verdict | undefined {
  const checks = judgePayload(platform, facts).filter((c) => c.rule === rule);
  if (checks.length === 0) return undefined;
  return checks.find((c) => c.verdict !== 'pass')?.verdict ?? 'pass';
}

const hashtags = (n: number) => Array.from({ length: n }, (_, i) => `#tag${i}`).join(' ');

type Case = [Platform, string, PayloadFacts, PayloadFacts];
const CASES: Case[] = [
  ['twitter-x', 'text.length', post([], 'a'.repeat(280)), post([], 'a'.repeat(281))],
  ['twitter-x', 'media.mix', post([img(1200, 675), img(1200, 675), img(1200, 675), img(1200, 675)]), post([vid(30, 1280, 720), img(1200, 675)])],
  ['twitter-x', 'media.mix', post([gifOf(10)]), post([gifOf(10), gifOf(12)])],
  ['twitter-x', 'video.duration', post([vid(140, 1280, 720)]), post([vid(200, 1280, 720)])],
  ['twitter-x', 'video.dimensions', post([vid(30, 1920, 1080)]), post([vid(30, 2560, 1440)])],
  ['twitter-x', 'video.aspect', post([vid(30, 1200, 400)]), post([vid(30, 1600, 400)])],
  ['twitter-x', 'video.codec', post([vid(30, 1280, 720)]), post([vid(30, 1280, 720, 'hevc')])],
  ['twitter-x', 'gif.frames', post([gifOf(350)]), post([gifOf(351)])],
  ['twitter-x', 'media.size', post([gifOf(10, 12 * MB)]), post([gifOf(10, 16 * MB)])],
  ['instagram', 'image.aspect', post([img(1080, 1350)]), post([img(1080, 1920)])],
  ['instagram', 'image.aspect', post([img(1910, 1000)]), post([img(2000, 1000)])],
  ['instagram', 'text.hashtags', post([img(1080, 1080)], hashtags(30)), post([img(1080, 1080)], hashtags(40))],
  ['instagram', 'video.duration', post([vid(900)]), post([vid(2)])],
  ['instagram', 'media.required', post([img(1080, 1080)]), post([])],
  ['instagram', 'media.count', post(Array.from({ length: 10 }, () => img(1080, 1080))), post(Array.from({ length: 11 }, () => img(1080, 1080)))],
  ['instagram', 'media.type', post([img(1080, 1080)]), post([png(1080, 1080)])],
  ['linkedin', 'image.pixels', post([png(6000, 6000)]), post([png(6100, 6000)])],
  ['linkedin', 'video.duration', post([vid(1800)]), post([vid(1801)])],
  ['linkedin', 'media.mix', post([png(1200, 627), png(1200, 627)]), post([vid(30), png(1200, 627)])],
  ['facebook-page', 'video.duration', post([vid(14_400)]), post([vid(14_401)])],
  ['facebook-page', 'media.mix', post([vid(60)]), post([vid(60), img(1200, 630)])],
  ['tiktok', 'video.duration', post([vid(600)]), post([vid(601)])],
  ['tiktok', 'video.dimensions', post([vid(30, 1080, 1920)]), post([vid(30, 320, 568)])],
  ['tiktok', 'video.codec', post([vid(30, 1080, 1920, 'vp9')]), post([vid(30, 1080, 1920, 'av1')])],
  ['tiktok', 'image.dimensions', post([img(1080, 1920)]), post([img(2160, 3840)])],
  ['tiktok', 'media.required', post([vid(30)]), post([])],
  ['tiktok', 'media.mix', post([img(1080, 1920), img(1080, 1920)]), post([vid(30), img(1080, 1920)])],
  ['youtube', 'title.required', post([vid(600)], 'Hi', { title: 'Launch day' }), post([vid(600)], 'Hi')],
  ['youtube', 'title.length', post([vid(600)], 'Hi', { title: 't'.repeat(100) }), post([vid(600)], 'Hi', { title: 't'.repeat(101) })],
  ['youtube', 'media.required', post([vid(600)], 'Hi', { title: 'T' }), post([], 'Hi', { title: 'T' })],
  ['youtube', 'media.type', post([vid(600)], 'Hi', { title: 'T' }), post([img(1280, 720)], 'Hi', { title: 'T' })],
  ['youtube', 'video.shorts', post([vid(60, 1080, 1920)], 'New #Shorts', { title: 'T' }), post([vid(200, 1080, 1920)], 'New #Shorts', { title: 'T' })],
  ['youtube', 'video.duration', post([vid(43_200)], 'Hi', { title: 'T' }), post([vid(43_201)], 'Hi', { title: 'T' })],
  ['bluesky', 'media.mix', post([png(1000, 1000), png(1000, 1000), png(1000, 1000), png(1000, 1000)]), post([vid(30), png(1000, 1000)])],
  ['bluesky', 'video.duration', post([vid(180)]), post([vid(181)])],
  ['bluesky', 'media.size', post([png(1000, 1000, 1_000_000)]), post([png(1000, 1000, 1_000_001)])],
  ['bluesky', 'media.size', post([vid(60, 1080, 1920, 'h264', 100_000_000)]), post([vid(60, 1080, 1920, 'h264', 100_000_001)])],
  ['threads', 'text.length', post([], 'a'.repeat(500)), post([], 'a'.repeat(501))],
  ['threads', 'media.count', post(Array.from({ length: 20 }, () => img(1080, 1080))), post(Array.from({ length: 21 }, () => img(1080, 1080)))],
  ['threads', 'video.duration', post([vid(300)]), post([vid(301)])],
  ['threads', 'image.aspect', post([img(3000, 300)]), post([img(3300, 300)])],
  ['pinterest', 'media.required', post([img(1000, 1500)]), post([])],
  ['pinterest', 'title.length', post([img(1000, 1500)], 'Hi', { title: 't'.repeat(100) }), post([img(1000, 1500)], 'Hi', { title: 't'.repeat(101) })],
  ['pinterest', 'link.length', post([img(1000, 1500)], 'Hi', { link: `https://e.example/${'a'.repeat(2030)}` }), post([img(1000, 1500)], 'Hi', { link: `https://e.example/${'a'.repeat(2031)}` })],
];

describe('each platform rule passes and fails where the platform draws the line', () => {
  it.each(CASES)('%s %s', (platform, rule, passing, failing) => {
    expect(verdict(platform, passing, rule)).toBe('pass');
    expect(verdict(platform, failing, rule)).toBe('fail');
  });

  it('the mix row judges only the kinds a platform takes: images on YouTube fail on their type rows, never pass as a mix', () => {
    const images = judgePayload('youtube', post([img(1280, 720), img(1280, 720)], 'Hi', { title: 'T' }));
    expect(images.filter((c) => c.rule === 'media.mix')).toEqual([]);
    expect(images.filter((c) => c.rule === 'media.type').map((c) => [c.verdict, c.message])).toEqual([
      ['fail', 'YouTube does not take image/jpeg'],
      ['fail', 'YouTube does not take image/jpeg'],
    ]);
    // A video and an image: the image is the one to remove, not the video.
    const mixed = judgePayload('youtube', post([vid(60), img(1280, 720)], 'Hi', { title: 'T' }));
    expect(mixed.filter((c) => c.rule === 'media.mix').map((c) => [c.verdict, c.actual, c.fix])).toEqual([['pass', '1 video', undefined]]);
    expect(mixed.filter((c) => c.rule === 'media.type' && c.verdict === 'fail').map((c) => c.actual)).toEqual(['image/jpeg']);
  });

  it("writes a platform name ending in s as Threads', not Threads's", () => {
    const size = judgePayload('threads', post([img(1080, 1080, 'image/jpeg', 9 * MB)])).find((c) => c.rule === 'media.size');
    expect(size).toMatchObject({ verdict: 'fail', message: "9 MB is over Threads' limit of 8 MB" });
  });

  it('gives each failure the code the platform answers with, a message and a fix', () => {
    const checks = judgePayload('twitter-x', post([vid(30, 1280, 720), img(1200, 675)]));
    const mix = checks.find((c) => c.rule === 'media.mix')!;
    expect(mix).toMatchObject({ verdict: 'fail', code: 'MEDIA_REJECTED', message: expect.stringContaining('X takes up to 4 images or one video'), fix: 'remove the video or post it separately' });
    expect(mix.source).toMatch(/X API/);
    expect(judgePayload('youtube', post([vid(60)])).find((c) => c.rule === 'title.required')?.code).toBe('TITLE_REQUIRED');
    expect(judgePayload('tiktok', post([])).find((c) => c.rule === 'media.required')?.code).toBe('MEDIA_REQUIRED');
    expect(judgePayload('instagram', post([img(1080, 1080)], hashtags(40))).find((c) => c.rule === 'text.hashtags')?.code).toBe('TEXT_TOO_LONG');
  });

  it('names a source for every rule it judges', () => {
    const checks = judgePayload('twitter-x', post([vid(30, 1280, 720)]));
    expect(checks.length).toBeGreaterThan(5);
    expect(checks.every((c) => c.source.length > 10)).toBe(true);
  });
});

describe('what cannot be judged, and guidance', () => {
  it('leaves the rules a URL cannot answer unjudged, and refuses http:// URLs', () => {
    const url: MediaItemFacts = { label: 'https://cdn.example/clip.mp4', url: 'https://cdn.example/clip.mp4', mimeType: 'video/mp4' };
    const checks = judgePayload('twitter-x', post([url]));
    expect(checks.find((c) => c.rule === 'video.duration')?.verdict).toBe('unknown');
    expect(checks.find((c) => c.rule === 'media.size')?.verdict).toBe('unknown');
    expect(checks.some((c) => c.verdict === 'fail')).toBe(false);
    const plain = judgePayload('bluesky', post([{ ...url, url: 'http://cdn.example/clip.mp4' }]));
    expect(plain.find((c) => c.rule === 'media.url')).toMatchObject({ verdict: 'fail', fix: expect.stringContaining('https://cdn.example/clip.mp4') });
  });

  it("warns (without refusing) where Pinterest gives guidance on the aspect ratio", () => {
    expect(verdict('pinterest', post([img(1000, 1500)]), 'image.aspect')).toBe('pass');
    const checks = judgePayload('pinterest', post([img(1000, 3000)]));
    expect(checks.find((c) => c.rule === 'image.aspect')?.verdict).toBe('warn');
    expect(checks.some((c) => c.verdict === 'fail')).toBe(false);
  });

  it('counts hashtags as the platforms link them', () => {
    expect(countHashtags('#one #two, and#not #123 #ok_3 ＃full')).toBe(4);
  });
});

describe('a text over its limit', () => {
  it('says how the platform counted it once, with why', () => {
    const long = judgePayload('twitter-x', post([], `${'a'.repeat(270)} https://example.com/a https://example.com/b`)).find((c) => c.rule === 'text.length')!;
    expect(long.verdict).toBe('fail');
    expect(long.message).toBe('X counts this text as 318: 2 URLs count 23 each; 38 over its limit of 280');
    // Without a reason to give, the count alone.
    expect(judgePayload('bluesky', post([], 'b'.repeat(301))).find((c) => c.rule === 'text.length')!.message).toBe('Bluesky counts this text as 301, 1 over its limit of 300');
  });
});
