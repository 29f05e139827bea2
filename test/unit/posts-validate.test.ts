import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { draftFromBody, draftFromFlags, type Issue, type PostDraft } from '../../src/posts/draft.js';
import { mediaInspector } from '../../src/posts/media-facts.js';
import { sniffContent } from '../../src/posts/media-content.js';

const sniffMime = (head: Uint8Array) => sniffContent(head).mime;
import { collectFacts, buildBody } from '../../src/posts/body.js';
import { validateDraft } from '../../src/posts/validate.js';
import { formatBytes } from '../../src/wire/platforms.js';
import { png } from '../helpers/media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'posts-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const MP4 = Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 0, 0]);
const file = (name: string, head: Buffer, size = head.length) => {
  const p = join(dir, name);
  writeFileSync(p, head);
  if (size > head.length) truncateSync(p, size);
  return p;
};
file('photo.jpg', JPEG);
file('pic.png', PNG);
file('clip.mp4', MP4);
file('big.jpg', JPEG, 6 * 1024 * 1024);
file('empty.jpg', Buffer.alloc(0));
file('renamed.jpg', PNG);
file('notes.txt', Buffer.from('hello there, no media here'));

async function check(draft: PostDraft): Promise<Issue[]> {
  const facts = await collectFacts([draft], mediaInspector());
  return validateDraft(draft, (m) => facts.get(m));
}

const flags = (f: Parameters<typeof draftFromFlags>[0]) => {
  const issues: Issue[] = [];
  const d = draftFromFlags(f, (p) => resolve(dir, p), issues);
  return { d, issues };
};

describe('local validation', () => {
  it('accepts a good post and builds its body', async () => {
    const { d, issues } = flags({ platform: ['bluesky', 'twitter-x'], text: 'Hello', textFor: ['bluesky=Hi bsky'], media: ['photo.jpg', 'https://cdn.example/x.png'], title: 'T' });
    expect(issues).toEqual([]);
    expect(await check(d)).toEqual([]);
    const facts = await collectFacts([d], mediaInspector());
    expect(buildBody(d, facts, () => 'https://uploaded/1')).toEqual({
      payloads: {
        bluesky: { text: 'Hi bsky', media: [{ url: 'https://uploaded/1', type: 'image' }, { url: 'https://cdn.example/x.png', type: 'image' }] },
        'twitter-x': { text: 'Hello', media: [{ url: 'https://uploaded/1', type: 'image' }, { url: 'https://cdn.example/x.png', type: 'image' }] },
      },
      title: 'T',
    });
  });

  it('counts text in code points and says by how much it is over', async () => {
    const emoji = '😀'.repeat(300); // 600 UTF-16 units, 300 characters
    const { d } = flags({ platform: ['bluesky'], text: emoji });
    expect(await check(d)).toEqual([]); // exactly at the limit
    const { d: d2 } = flags({ platform: ['bluesky'], text: emoji + '😀😀' });
    const [issue] = await check(d2);
    expect(issue?.message).toBe("--text: 302 characters is 2 over bluesky's limit of 300");
    expect(issue?.fix).toMatch(/--text-for bluesky/);
    // Bluesky publishes threads: the text can go as one, split within the limit.
    expect(issue?.fix).toMatch(/with --thread$/);
  });

  it('offers --thread only where the platform publishes threads and the text is not split already', async () => {
    const long = 'word '.repeat(700);
    const { d } = flags({ platform: ['linkedin', 'twitter-x'], text: long });
    const fixes = new Map((await check(d)).map((i) => [i.message.match(/over (\S+?)'s? limit/)?.[1], i.fix]));
    expect(fixes.get('twitter-x')).toMatch(/--thread/);
    expect(fixes.get('linkedin')).toBeDefined();
    expect(fixes.get('linkedin')).not.toMatch(/--thread/);
    const { d: split } = flags({ platform: ['twitter-x'], text: long, thread: true });
    expect((await check(split)).map((i) => i.fix).join(' ')).not.toMatch(/--thread/);
  });

  it('writes the possessive of a platform ending in s with the apostrophe alone', async () => {
    const { d } = flags({ platform: ['threads'], text: 'x'.repeat(501) });
    expect((await check(d))[0]?.message).toBe("--text: 501 characters is 1 over threads' limit of 500");
  });

  it('names unknown platforms with the nearest id, empty and missing text', async () => {
    const { d } = flags({ platform: ['twiter', 'linkedin', 'bluesky'], text: '  ', textFor: ['bluesky='] });
    const msgs = (await check(d)).map((i) => i.message);
    expect(msgs).toContain('--platform: "twiter" is not a platform id');
    expect(msgs).toContain('--text: the text for linkedin is empty');
    expect(msgs).toContain('--text-for bluesky: the text for bluesky is empty');
    const { d: d3 } = flags({ platform: ['linkedin'] });
    expect((await check(d3))[0]).toMatchObject({ field: '--text', message: 'text for linkedin is missing' });
    const { issues } = flags({ textFor: ['nonsense'] });
    expect(issues[0]?.field).toBe('--text-for');
  });

  it('checks media: missing, empty, wrong type, disguised, too big, too many, required', async () => {
    const cases: Array<[Parameters<typeof draftFromFlags>[0], RegExp]> = [
      [{ platform: ['bluesky'], text: 'x', media: ['nope.jpg'] }, /--media nope\.jpg: no such file/],
      [{ platform: ['bluesky'], text: 'x', media: ['empty.jpg'] }, /the file is empty/],
      [{ platform: ['bluesky'], text: 'x', media: ['notes.txt'] }, /unknown media type/],
      [{ platform: ['instagram'], text: 'x', media: ['pic.png'] }, /instagram does not take image\/png/],
      [{ platform: ['youtube'], text: 'x', media: ['photo.jpg'] }, /youtube does not take image\/jpeg/],
      // Judged by its content: a PNG named .jpg is a PNG, refused where PNG is not taken.
      [{ platform: ['instagram'], text: 'x', media: ['renamed.jpg'] }, /instagram does not take image\/png/],
      [{ platform: ['twitter-x'], text: 'x', media: ['big.jpg'] }, /6 MB is over twitter-x's image limit of 5 MB by 1 MB/],
      [{ platform: ['bluesky'], text: 'x', media: ['photo.jpg', 'photo.jpg', 'photo.jpg', 'photo.jpg', 'photo.jpg'] }, /--media: 5 items, bluesky takes at most 4/],
      [{ platform: ['pinterest'], text: 'x' }, /--media: pinterest needs at least one image or video/],
      [{ platform: ['bluesky'], text: 'x', media: [dir] }, /not a regular file/],
      [{ platform: ['instagram'], text: 'x', media: ['https://cdn.example/a.gif'] }, /instagram does not take image\/gif/],
    ];
    for (const [f, re] of cases) {
      const { d } = flags(f);
      const msgs = (await check(d)).map((i) => i.message).join('\n');
      expect(msgs, JSON.stringify(f)).toMatch(re);
    }
  });

  it('reports a missing file once even for several platforms', async () => {
    const { d } = flags({ platform: ['bluesky', 'twitter-x', 'threads'], text: 'x', media: ['nope.jpg'] });
    expect((await check(d)).filter((i) => /no such file/.test(i.message))).toHaveLength(1);
  });

  it('reads bodies in the contract shape and names payload paths', async () => {
    const issues: Issue[] = [];
    const body = draftFromBody(
      { payloads: { bluesky: { text: 'x', media: [{ url: 'clip.mp4', type: 'image' }], langs: ['en'] }, 'twitter-x': { text: 5 } }, titel: 'x' },
      'post.json: ',
      (p) => resolve(dir, p),
      issues,
      { schedule: false },
    );
    expect(issues.map((i) => i.message)).toEqual(['post.json: titel: unknown field', 'post.json: payloads.twitter-x.text: expected a string']);
    expect(issues[0]?.fix).toMatch(/title/);
    const found = await check(body.draft!);
    expect(found.map((i) => i.message)).toContain('post.json: payloads.bluesky.media[0].url: declared as image but it is video/mp4');
    const scheduleIssues: Issue[] = [];
    draftFromBody({ payloads: {}, scheduledAt: 'x' }, '', (p) => p, scheduleIssues, { schedule: false });
    expect(scheduleIssues[0]?.message).toMatch(/scheduledAt: posts create makes a draft/);
    const noPayloads: Issue[] = [];
    draftFromBody([1], 'f: ', (p) => p, noPayloads, { schedule: true });
    expect(noPayloads[0]?.message).toBe('f: (body): expected a JSON object');
  });

  it('keeps platform options and media extras unchanged in the body', async () => {
    const issues: Issue[] = [];
    const { draft } = draftFromBody({ payloads: { youtube: { text: 'v', privacy: 'unlisted', media: [{ url: 'https://cdn.example/v.mp4', thumb: 't.jpg' }] } }, title: 'T' }, '', (p) => p, issues, { schedule: true });
    const facts = await collectFacts([draft!], mediaInspector());
    expect(validateDraft(draft!, (m) => facts.get(m))).toEqual([]);
    expect(buildBody(draft!, facts, (p) => p)).toEqual({ payloads: { youtube: { text: 'v', privacy: 'unlisted', media: [{ url: 'https://cdn.example/v.mp4', thumb: 't.jpg', type: 'video' }] } }, title: 'T' });
  });

  it('reads each file on its own: the first-read buffer shared by all files leaks nothing from one into the next', async () => {
    // A full PNG fills the shared buffer; each shorter file after it must be judged by its own bytes only.
    const long = png(1200, 900, 8192);
    const cut = long.subarray(0, 20); // signature and half of IHDR: no dimensions to read
    const paths = [file('long.png', long), file('cut.png', cut), file('short.txt', Buffer.from('hi')), file('long-again.png', long)];
    const inspect = mediaInspector();
    const facts = [];
    for (const path of paths) facts.push(await inspect({ source: path, isUrl: false, path, label: path }));
    expect(facts.map((f) => [f.sizeBytes, f.mimeType, f.content, f.info?.width, f.info?.height])).toEqual([
      [8192, 'image/png', 'a PNG image', 1200, 900],
      [20, 'image/png', 'a PNG image', undefined, undefined],
      [2, undefined, 'text', undefined, undefined],
      [8192, 'image/png', 'a PNG image', 1200, 900],
    ]);
  });

  it('refuses an empty media value and a URL that is not one, naming the flag', async () => {
    const { d } = flags({ platform: ['bluesky'], text: 'Hi', media: ['  ', 'https://', 'https://cdn.example/a.png'] });
    expect(await check(d)).toEqual([
      { field: '--media', message: '--media: empty', fix: 'give a path to an image or video file, or an https:// URL' },
      { field: '--media https://', message: '--media https://: not a valid URL', fix: 'give the whole address, https://host/path/photo.jpg' },
    ]);
  });

  it.skipIf(process.platform === 'win32')('names a link that leads in circles, with a fix that is not about permissions', async () => {
    symlinkSync(join(dir, 'loop-b.png'), join(dir, 'loop-a.png'));
    symlinkSync(join(dir, 'loop-a.png'), join(dir, 'loop-b.png'));
    const { d } = flags({ platform: ['bluesky'], text: 'Hi', media: ['loop-a.png'] });
    expect(await check(d)).toEqual([
      { field: '--media loop-a.png', message: '--media loop-a.png: cannot read the file: too many symbolic links', fix: 'check the path (ls -l shows where a link leads), or copy the file itself there' },
    ]);
  });

  it('sniffs content types and formats sizes', () => {
    expect(sniffMime(JPEG)).toBe('image/jpeg');
    expect(sniffMime(PNG)).toBe('image/png');
    expect(sniffMime(MP4)).toBe('video/mp4');
    expect(sniffMime(Buffer.from('GIF89a..........'))).toBe('image/gif');
    expect(sniffMime(Buffer.from('hello world!!!!!'))).toBeUndefined();
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1_000_000)).toBe('977 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
  });
});
