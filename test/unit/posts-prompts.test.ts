// Prompts that never lose what was typed: flag values are checked before the first question, a
// bad media answer is asked again, and the confirmation is a short summary, not raw HTTP.
// Nothing here reaches a server (the base URL points at a closed port).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { splitMedia } from '../../src/cli/commands/posts/prompts.js';

const dir = mkdtempSync(join(tmpdir(), 'posts-prompts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', SOCIALPUB_API_KEY: 'sk_test_never_used_1234', TZ: 'UTC' };
const NOW = Date.parse('2026-06-01T12:00:00Z');
const clock = { now: () => NOW, sleep: async () => {} };
const run = (argv: string[], prompter: ScriptedPrompter, extra: Parameters<typeof runCli>[1] = {}) => runCli(argv, { env, clock, tty: true, prompter, ...extra });

/** A PNG header (signature + IHDR) padded to `size` bytes: enough for the content check. */
function png(name: string, size = 2048): string {
  const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([head, Buffer.alloc(size - head.length)]));
  return path;
}

describe('flag values are checked before the first prompt', () => {
  it('refuses a bad flag with exit 2 and asks nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['posts', 'create', '--platform', 'twiter'], /--platform: "twiter" is not a platform id[\s\S]*twitter-x/],
      [['posts', 'create', '--platform', 'twiter', '--text', 'hi'], /--platform: "twiter" is not a platform id/],
      [['posts', 'create', '--platform', 'twiter,bluesky', '--media', join(dir, 'missing.png')], /2 problems[\s\S]*"twiter" is not a platform id[\s\S]*no such file/],
      [['posts', 'create', '--platform', 'instagram', '--text', 'x'.repeat(2201)], /2201 characters is 1 over instagram's limit of 2200/],
      [['posts', 'schedule', '--platform', 'twiter', '--text', 'hi'], /--platform: "twiter" is not a platform id/],
      [['posts', 'create', '--platform', 'bluesky', '--media', join(dir, 'missing.png')], /--media .*missing\.png: no such file/],
      [['posts', 'create', '--platform', 'bluesky', '--text', 'x'.repeat(301), '--media', join(dir, 'missing.png'), '--text-for', 'threads=t'], /not among the targets/],
      [['posts', 'schedule', '--platform', 'bluesky', '--at', '2026-01-01 09:00'], /--at: .* is in the past/],
      [['posts', 'schedule', '--platform', 'bluesky', '--tz', 'paris'], /--tz/],
      [['posts', 'create', '--platform', 'bluesky', '--idempotency-key', 'has space'], /--idempotency-key: "has space" is not a usable key/],
      [['posts', 'schedule', '--platform', 'bluesky', '--text', 'x'.repeat(301)], /301 .* over bluesky's limit of 300/],
    ];
    for (const [argv, re] of cases) {
      const prompter = new ScriptedPrompter([]);
      const r = await run(argv, prompter);
      expect(prompter.asked, argv.join(' ')).toEqual([]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(re);
    }
  });

  it('takes commas in --platform, mixed with repeats, and asks one text for all of them', async () => {
    const prompter = new ScriptedPrompter(['Hello all', 'https://cdn.example/a.jpg']);
    const r = await run(['posts', 'create', '--platform', 'twitter-x,linkedin', '--platform', 'pinterest', '--dry-run', '--json'], prompter);
    expect(prompter.asked[0]).toBe('Text for twitter-x, linkedin, pinterest (Enter alone: write it in your editor; - : one text per platform)');
    expect(prompter.asked[1]).toMatch(/^Media files or URLs.*pinterest needs at least one/);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).requests[0].body.payloads)).toEqual(['twitter-x', 'linkedin', 'pinterest']);
  });
});

describe('the media prompt asks again', () => {
  it('after a missing file, a file that is not media, or one the platform cannot take', async () => {
    const bogus = join(dir, 'bogus.png');
    writeFileSync(bogus, 'just some text!\n');
    const image = png('real.png');
    const prompter = new ScriptedPrompter([join(dir, 'nope.png'), bogus, image, 'https://cdn.example/a.jpg'], { reask: true });
    const r = await run(['posts', 'create', '--platform', 'instagram', '--text', 'Look', '--dry-run'], prompter);
    expect(r.code).toBe(0);
    expect(prompter.refused.map((x) => x.reason)).toEqual([
      expect.stringMatching(/^\S*nope\.png: no such file/),
      expect.stringMatching(/bogus\.png: the content is not an image or video .*looks like text/),
      expect.stringMatching(/real\.png: instagram does not take image\/png/),
    ]);
    expect(prompter.asked).toHaveLength(4);
    expect(r.stdout).toContain('"url": "https://cdn.example/a.jpg"');
  });

  it('names a file with a bidi override as it is spelt, not as it would read', async () => {
    const prompter = new ScriptedPrompter([join(dir, 'invoice\u202egnp.exe'), 'https://cdn.example/a.jpg'], { reask: true });
    const r = await run(['posts', 'create', '--platform', 'instagram', '--text', 'Look', '--dry-run'], prompter);
    expect(r.code).toBe(0);
    expect(prompter.refused.map((x) => x.reason)).toEqual([expect.stringMatching(/invoice\\u202egnp\.exe: no such file/)]);
  });
});

describe('the confirmation before sending', () => {
  it('summarises platforms, counts, media and time instead of printing the requests', async () => {
    const image = png('photo.png', 2048);
    const prompter = new ScriptedPrompter(['Hello 👍🏽 world', '2026-06-02 09:30', 'cancel']);
    const r = await run(['posts', 'schedule', '--platform', 'bluesky,twitter-x', '--media', image, '--tz', 'Europe/Paris'], prompter);
    expect(r.code).toBe(0);
    const summary = r.stderr.slice(r.stderr.indexOf('This will be sent'), r.stderr.indexOf('cancelled'));
    expect(summary).not.toContain('POST /v1');
    expect(summary).not.toContain('Idempotency-Key');
    expect(summary).toMatch(/bluesky\s+13 of 300 characters/);
    expect(summary).toMatch(/twitter-x\s+14 of 280 characters/);
    expect(summary).toMatch(/photo\.png\s+PNG image \(image\/png\), 2 KB/);
    expect(summary).toMatch(/2026-06-02 09:30 .*Europe\/Paris.*07:30 UTC/);
    expect(summary.trim().split('\n').length).toBeLessThan(15);
  });

  it('shows a text that is over no limit and a media URL as given', async () => {
    const prompter = new ScriptedPrompter(['https://cdn.example/a.jpg', 'cancel']);
    const r = await run(['posts', 'create', '--platform', 'instagram', '--text', 'Look'], prompter);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/instagram\s+4 of 2200 characters/);
    expect(r.stderr).toMatch(/https:\/\/cdn\.example\/a\.jpg\s+image\/jpeg \(by its name; the service checks it\)/);
    expect(r.stderr).toMatch(/a draft: nothing is published until you schedule it/);
  });
});

describe('a platform that needs a title (YouTube)', () => {
  it('is asked for the title after the media, not refused with exit 2 after everything typed', async () => {
    const prompter = new ScriptedPrompter([['youtube'], 'Our autumn lookbook', 'https://cdn.example/lookbook.mp4', 'Autumn lookbook 2026', 'send']);
    const r = await run(['posts', 'create', '--dry-run', '--json'], prompter);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(prompter.asked[3]).toBe('Title (youtube needs one, at most 100 characters)');
    expect(JSON.parse(r.stdout).requests[0].body.title).toBe('Autumn lookbook 2026');
  });

  it('added at Edit → Platforms, asks for a video in place of the image and for the title', async () => {
    const prompter = new ScriptedPrompter(
      [['bluesky'], 'Autumn drops Friday', 'https://cdn.example/a.jpg', 'edit', 'platforms', ['bluesky', 'youtube'], 'The lookbook', 'https://cdn.example/a.jpg', 'https://cdn.example/lookbook.mp4', '', 'Lookbook', 'cancel'],
      { reask: true },
    );
    const r = await run(['posts', 'create'], prompter);
    expect(r.code).toBe(0);
    expect(prompter.refused.map((x) => x.reason)).toEqual([expect.stringMatching(/youtube/), 'youtube needs a title']);
    expect(r.stderr).toMatch(/youtube\s+12 of 5000/);
    expect(r.stderr).toContain('cancelled: nothing was sent');
  });

  it('a change the post cannot take is told at the confirmation, and the post stays as it was', async () => {
    const prompter = new ScriptedPrompter(['https://cdn.example/a.jpg', 'edit', 'platforms', ['instagram', 'twitter-x'], 'cancel']);
    const r = await run(['posts', 'create', '--platform', 'instagram', '--text', 'x'.repeat(290)], prompter);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*290 characters is 10 over twitter-x's limit of 280[\s\S]*: the change\s+was\s+not\s+kept/);
    expect(r.stderr).toContain('cancelled: nothing was sent');
  });
});

describe('the confirmation on a 40-column terminal', () => {
  it('wraps its note between words, --dry-run whole', async () => {
    const prompter = new ScriptedPrompter(['Hello', '', 'cancel']);
    const r = await run(['posts', 'create', '--platform', 'bluesky'], prompter, { columns: 40 });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(the exact requests: run it again with\n  --dry-run)');
  });
});

describe('a media answer with files dragged onto the terminal', () => {
  it('reads quoted and backslash-escaped paths as a shell would; typed paths keep their spaces', () => {
    expect(splitMedia("'/tmp/my folder/my photo.jpg' ")).toEqual(['/tmp/my folder/my photo.jpg']);
    expect(splitMedia('/tmp/my\\ folder/my\\ photo.jpg /tmp/b.png')).toEqual(['/tmp/my folder/my photo.jpg', '/tmp/b.png']);
    expect(splitMedia(`'/a/one.jpg' '/a/it'"'"'s.jpg', "/a/x y.png"`)).toEqual(['/a/one.jpg', "/a/it's.jpg", '/a/x y.png']);
    expect(splitMedia('my photo.jpg, https://cdn.example/a.jpg')).toEqual(['my photo.jpg', 'https://cdn.example/a.jpg']);
    expect(splitMedia("O'Brien.jpg")).toEqual(["O'Brien.jpg"]);
    expect(splitMedia('  ')).toEqual([]);
    expect(splitMedia('~/Pictures/a.jpg, ~b.jpg')).toEqual([join(homedir(), 'Pictures/a.jpg'), '~b.jpg']);
  });

  it('a dragged file with spaces in its path is found', async () => {
    const image = png('dragged photo.png');
    const prompter = new ScriptedPrompter([`'${image}' `], { reask: true });
    const r = await run(['posts', 'create', '--platform', 'pinterest', '--text', 'Look', '--dry-run', '--json'], prompter);
    expect(prompter.refused).toEqual([]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('a title missing for YouTube, the rest given as flags', () => {
  it('on a terminal, asked for (after the media when that is missing too) rather than refused', async () => {
    const prompter = new ScriptedPrompter(['Autumn lookbook', 'send']);
    const r = await run(['posts', 'create', '--platform', 'youtube', '--text', 'Lookbook', '--media', 'https://cdn.example/v.mp4', '--dry-run', '--json'], prompter);
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked[0]).toBe('Title (youtube needs one, at most 100 characters)');
    expect(JSON.parse(r.stdout).requests[0].body.title).toBe('Autumn lookbook');
    const both = new ScriptedPrompter(['https://cdn.example/v.mp4', 'Autumn lookbook', 'send']);
    const r2 = await run(['posts', 'schedule', '--platform', 'youtube', '--text', 'Lookbook', '--at', '2026-06-05 10:00', '--dry-run'], both);
    expect(r2.code, r2.stderr).toBe(0);
    expect(both.asked.slice(0, 2)).toEqual([expect.stringMatching(/^Media files/), 'Title (youtube needs one, at most 100 characters)']);
  });

  it('without a terminal, the error names --title and nothing is asked', async () => {
    const prompter = new ScriptedPrompter([]);
    const r = await run(['posts', 'create', '--platform', 'youtube', '--text', 'Lookbook', '--media', 'https://cdn.example/v.mp4'], prompter, { tty: false });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--title: YouTube needs a title');
    expect(prompter.asked).toEqual([]);
  });
});

describe('composing in an editor that fails', () => {
  it('says so, and the prompt asks again (the text can be typed instead)', async () => {
    const prompter = new ScriptedPrompter(['', 'Typed instead', '', 'send']);
    const r = await run(['posts', 'create', '--platform', 'bluesky', '--dry-run', '--json'], prompter, { env: { ...env, EDITOR: 'false', NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: the editor (false) exited with status 1: nothing was taken from it (check $VISUAL / $EDITOR)');
    expect(prompter.asked.slice(0, 2)).toEqual(['Text for bluesky (Enter alone: write it in your editor)', 'Text for bluesky (Enter alone: write it in your editor)']);
    expect(JSON.parse(r.stdout).requests[0].body.payloads.bluesky.text).toBe('Typed instead');
  });
});
