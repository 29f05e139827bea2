// posts preview from payload options (no service at all) and the preview model's folds.
import { describe, expect, it } from 'vitest';
import { foldText, previewPost, type PostPreview } from '../../src/wire/preview/model.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import type { ToolContext } from '../../src/mcp/types.js';
import { html, previewPage } from '../../src/wire/preview/html.js';
import { runCli } from '../helpers/run-cli.js';
import { PLATFORMS, PLATFORM_LIMITS } from '../../src/wire/platforms.js';
import { PLATFORM_EXTRAS } from '../../src/wire/post-extras.js';

const LONG = `${'Launch day. '.repeat(14)}Read the rest after the fold.`;

describe('the preview model', () => {
  it('folds Instagram at 125 characters between words, and keeps what it hides', () => {
    const p = previewPost({ payloads: { instagram: { text: LONG } } }).platforms[0]!;
    expect(Array.from(p.text.visible).length).toBeLessThanOrEqual(125);
    expect(p.text.visible.endsWith('day.') || p.text.visible.endsWith('Launch')).toBe(true);
    expect(`${p.text.visible} ${p.text.hidden}`).toBe(LONG);
    expect(p.text.hidden).toContain('after the fold');
  });

  it('folds Instagram at the third line break, before 125 characters', () => {
    const f = foldText('one\ntwo\nthree\nfour', 125, 3);
    expect(f).toEqual({ visible: 'one\ntwo\nthree', hidden: 'four', length: 18 });
  });

  it('X and Bluesky have no fold; thread parts are numbered from the post itself', () => {
    const p = previewPost({ payloads: { 'twitter-x': { text: 'first', thread: [{ text: 'second' }, { text: 'third', media: [{ url: 'https://e.x/a.png', alt: 'a cat' }] }] } } }).platforms[0]!;
    expect(p.text.hidden).toBe('');
    expect(p.thread.map((t) => [t.part, t.text.visible])).toEqual([[1, 'first'], [2, 'second'], [3, 'third']]);
    expect(p.thread[2]!.media[0]!.alt).toBe('a cat');
  });

  it('reads new fields tolerantly: first comment, options, alt; a field of the wrong type is left out', () => {
    const p = previewPost({ payloads: { linkedin: { text: 'hi', firstComment: 'link in here', options: { visibility: 'PUBLIC' }, media: [{ url: 'https://e.x/p.jpg' }, { url: 3 }] }, youtube: { text: 5 } } });
    const li = p.platforms[0]!;
    expect(li.firstComment).toBe('link in here');
    expect(li.options).toEqual({ visibility: 'PUBLIC' });
    expect(li.media).toHaveLength(1);
    expect(li.notes).toContain('an image has no alt text');
    expect(li.crop).toMatch(/4:5/);
    expect(p.platforms[1]!.text.visible).toBe('');
  });

  it('the crop note says what the media are: a video is not called an image, and each kind gets its own framing', () => {
    const crop = (payload: unknown) => previewPost({ payloads: { 'twitter-x': payload } }).platforms[0]!.crop;
    const video = crop({ text: 'clip', media: [{ url: 'https://e.x/clip.mp4', type: 'video' }] })!;
    expect(video).toMatch(/^the video: /);
    expect(video).not.toMatch(/image/);
    // Its kind from the extension when the type is not declared.
    expect(crop({ text: 'clip', media: [{ url: 'https://e.x/clip.mov' }] })).toMatch(/^the video: /);
    expect(crop({ text: 'two', media: [{ url: 'https://e.x/a.png' }, { url: 'https://e.x/b.jpg', type: 'image' }] })).toMatch(/^2 images: /);
    expect(crop({ text: 'none' })).toBeNull();
  });

  it("an Instagram reel (options.postType=reel) is framed as post-extras.ts's reel row says: 9:16, full screen", () => {
    const reel = PLATFORM_EXTRAS.instagram.options.find((o) => o.key === 'postType');
    const frame = reel?.kind === 'enum' ? reel.media?.reel?.frame : undefined;
    expect(frame?.shows).toMatch(/9:16/);
    expect(frame?.source).toMatch(/Reels specifications/);
    const media = [{ url: 'https://e.x/reel.mp4', type: 'video' }];
    const asReel = previewPost({ payloads: { instagram: { text: 'r', media, options: { postType: 'reel' } } } }).platforms[0]!.crop!;
    expect(asReel).toBe(`a reel (one video): ${frame!.shows}`);
    // The same video in the feed is framed as a feed video.
    const inFeed = previewPost({ payloads: { instagram: { text: 'r', media, options: { postType: 'feed' } } } }).platforms[0]!.crop!;
    expect(inFeed).toMatch(/^the video: feed shows 4:5/);
  });

  it("a page names the source of a platform's fold and crop as such (Bluesky's, about images, is no fold)", () => {
    const page = previewPage(previewPost({ payloads: { bluesky: { text: 'hi' } } }));
    expect(page).toContain('no fold: the whole text shows');
    expect(page).toMatch(/source of the fold and crop: <bdi>AT Protocol/);
    expect(page).not.toContain('fold: <bdi>AT Protocol');
  });

  it('a page escapes every string the post holds', () => {
    const page = previewPage(previewPost({ id: 'post_1', title: '"><img src=x onerror=alert(1)>', payloads: { bluesky: { text: '<script>alert(1)</script>', media: [{ url: 'https://e.x/"onload="x', alt: '<b>' }] } } }));
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('"onload="');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('service text in HTML is isolated from our labels (bidi)', () => {
  const evil = '\u202Eevil';
  // As the page shows it: the override itself as an escape (as the command line shows it), so it reverses nothing.
  const shown = '\\u202eevil';
  it('a string in text is wrapped in <bdi>; one in an attribute or an option is escaped alone', () => {
    const ws = 'مرحبا';
    const out = html`<p title="${evil}" data-x='${ws}'>@${evil} · default</p><a href="/x?${ws}"${html` selected`}>${ws}</a><select><option${html` selected`}>${ws}</option><option>${evil}</option></select><p>${3} of ${''}${null}</p>`.text;
    expect(out).toBe(
      `<p title="${shown}" data-x='${ws}'>@<bdi>${shown}</bdi> · default</p><a href="/x?${ws}" selected><bdi>${ws}</bdi></a><select><option selected>${ws}</option><option>${shown}</option></select><p>3 of </p>`,
    );
  });

  it('every string a preview shows is isolated, attributes untouched', () => {
    const page = previewPage(previewPost({ id: 'post_1', title: evil, payloads: { [evil]: { text: 'hi', firstComment: evil, accounts: [evil], media: [{ url: `https://e.x/${evil}`, alt: evil }], options: { [evil]: evil } } } }));
    const body = page.slice(page.indexOf('<body>'));
    // Each occurrence of the handle in the body's text sits in its own <bdi> (the aria-label one in its attribute).
    const bare = body.replace(/<bdi>[^<]*<\/bdi>/g, '').replace(/aria-label="[^"]*"/g, '');
    expect(bare).not.toContain(shown);
    expect(body).not.toContain(evil);
    expect(body).toContain(`aria-label="${shown} preview"`);
    expect(body.match(/<bdi>/g)!.length).toBeGreaterThanOrEqual(8);
  });
});

describe('the preview says when a text is over the limit, as the platform counts it', () => {
  it('every platform with a limit: one over is marked, at the limit is not', () => {
    for (const platform of PLATFORMS) {
      const max = PLATFORM_LIMITS[platform].maxText;
      const over = previewPost({ payloads: { [platform]: { text: 'a'.repeat(max + 1) } } }).platforms[0]!;
      expect(over.limit, platform).toEqual({ count: max + 1, max, unit: expect.any(String), over: 1 });
      expect(over.notes.join('\n'), platform).toMatch(new RegExp(`is 1 over ${platform}'s? limit of ${max}.*shorten it by 1 (character|byte)`));
      const fits = previewPost({ payloads: { [platform]: { text: 'a'.repeat(max) } } }).platforms[0]!;
      expect(fits.limit!.over, platform).toBe(0);
      expect(fits.notes.join('\n'), platform).not.toMatch(/over/);
    }
  });

  it("X counts a URL as 23 and CJK as 2: the preview's count is X's, not the code points", () => {
    const url = `https://example.com/${'x'.repeat(200)}`;
    // 251 code points before the URL, which counts 23: 274 as X counts it, under 280 though 452 code points long.
    const fits = previewPost({ payloads: { 'twitter-x': { text: `${'a'.repeat(250)} ${url}` } } }).platforms[0]!;
    expect(fits.limit).toMatchObject({ count: 274, max: 280, over: 0 });
    expect(fits.notes).toEqual([]);
    // 150 CJK characters: 150 code points, 300 as X counts them.
    const cjk = previewPost({ payloads: { 'twitter-x': { text: '漢'.repeat(150) } } }).platforms[0]!;
    expect(cjk.text.length).toBe(150);
    expect(cjk.limit).toMatchObject({ count: 300, over: 20 });
    expect(cjk.notes[0]).toMatch(/^300 characters is 20 over twitter-x's limit of 280/);
  });

  it('each thread part is judged on its own', () => {
    const p = previewPost({ payloads: { 'twitter-x': { text: 'first', thread: [{ text: 'b'.repeat(290) }] } } }).platforms[0]!;
    expect(p.thread.map((t) => t.limit?.over)).toEqual([0, 10]);
    expect(p.notes).toEqual([expect.stringMatching(/^part 2: 290 characters is 10 over/)]);
  });

  it('a text given as options is offered --thread where the platform takes threads, in the words posts create uses', async () => {
    const text = 'word '.repeat(460).trim();
    const offer = ', or split it into a thread with --thread';
    const notesOf = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as PostPreview).platforms.map((p) => [p.platform, p.notes.join('\n')]));
    const r = await runCli(['posts', 'preview', '--platform', 'twitter-x,instagram', '--text', text, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const notes = notesOf(r.stdout);
    expect(notes['twitter-x']).toMatch(/2299 characters is 2019 over twitter-x's limit of 280: the platform refuses it; shorten it by 2019 characters, or split it into a thread with --thread$/);
    // Instagram publishes no threads: only the shortening is offered.
    expect(notes.instagram).toMatch(/shorten it by 99 characters$/);
    const create = await runCli(['posts', 'create', '--platform', 'twitter-x', '--text', text]);
    expect(create.code).toBe(2);
    expect(create.stderr).toContain(offer);
    // Split with --thread, every part fits: nothing to offer.
    const split = await runCli(['posts', 'preview', '--platform', 'twitter-x', '--text', text, '--thread', '--json']);
    expect(notesOf(split.stdout)['twitter-x']).toBe('');
    // A post on the service, or read from a file, is not offered the flag (its text is not split by it).
    expect(previewPost({ payloads: { 'twitter-x': { text } } }).platforms[0]!.notes.join('\n')).not.toContain('--thread');
  });

  it('on a 60-column terminal the warning and the header fit the width', async () => {
    const r = await runCli(['posts', 'preview', '--platform', 'twitter-x,instagram', '--text', '漢'.repeat(150), '--no-color'], { tty: true, columns: 60, env: { SOCIALPUB_PAGER: '' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(lines).toContain('instagram 150 of 2200 characters');
    expect(lines).toContain('  folds after ~125 characters or 3 lines');
    expect(r.stdout).toMatch(/ {2}! 300 characters is 20 over twitter-x's limit of 280 \(X\n {4}counts/);
  });

  it('the terminal, the page and --json show it', async () => {
    const text = '漢'.repeat(150);
    const r = await runCli(['posts', 'preview', '--platform', 'twitter-x,bluesky', '--text', text]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^twitter-x 300 of 280 characters, 20 over the limit · no fold$/m);
    // The note wraps to the width, its continuation lines indented.
    expect(r.stdout.replace(/\n {4}/g, ' ')).toMatch(/! 300 characters is 20 over twitter-x's limit of 280 \(X counts this text as 300: .*\): the platform refuses it; shorten it by 20 characters/);
    expect(r.stdout).toMatch(/^bluesky 150 of 300 characters · no fold$/m);
    const json = await runCli(['posts', 'preview', '--platform', 'twitter-x', '--text', text, '--json']);
    expect(JSON.parse(json.stdout).platforms[0].limit).toEqual({ count: 300, max: 280, unit: 'characters', over: 20 });
    const page = previewPage(previewPost({ payloads: { 'twitter-x': { text } } }));
    expect(page).toMatch(/<strong class="bad">(<bdi>)?300 of 280 characters, 20 over the limit(<\/bdi>)?<\/strong>/);
    expect(page).toMatch(/<p class="warn">.*20 over twitter-x&#39;s limit of 280/);
  });
});

describe('socialpub posts preview with payload options', () => {
  it('prints each platform above and below its fold, with no key and no service', async () => {
    const r = await runCli(['posts', 'preview', '--platform', 'instagram,bluesky', '--text', LONG], { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('instagram');
    expect(r.stdout).toMatch(/… more — hidden \(\d+ characters\)/);
    expect(r.stdout).toContain('bluesky');
  });

  it('--json prints the preview model', async () => {
    const r = await runCli(['posts', 'preview', '--platform', 'linkedin', '--text', 'Hello', '--json']);
    expect(r.code).toBe(0);
    const model = JSON.parse(r.stdout) as { platforms: { platform: string; text: { visible: string } }[] };
    expect(model.platforms[0]).toMatchObject({ platform: 'linkedin', text: { visible: 'Hello' } });
  });

  it('an id and payload options together is exit 2', async () => {
    const r = await runCli(['posts', 'preview', 'post_abc', '--text', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot be combined/);
  });
});

describe('MCP preview_post', () => {
  const tool = TOOLS.find((t) => t.name === 'preview_post')!;
  const noClient = { deps: { client: () => Promise.reject(new Error('no client may be built')), mediaDirs: [] } } as unknown as ToolContext;

  it('previews payload fields without a client, read-only', async () => {
    expect(tool.write).toBe(false);
    const res = await tool.run({ platforms: ['instagram'], text: LONG }, noClient);
    const preview = res.preview as PostPreview;
    expect(preview.platforms[0]!.platform).toBe('instagram');
    expect(preview.platforms[0]!.text.hidden).toContain('after the fold');
    expect(res.note).toBe('nothing was sent');
  });

  it('refuses post_id together with payload fields, before any request', async () => {
    await expect(tool.run({ post_id: 'post_abc', text: 'x' }, noClient)).rejects.toThrow(/cannot be combined/);
  });
});
