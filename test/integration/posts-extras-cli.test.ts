// --thread, --first-comment, --alt and --option from the command line to the sandbox (contract
// 7.4): what is wrong exits 2 naming what is allowed, with "did you mean", before any request;
// what is right arrives in the payloads as the contract shapes it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { jpeg, png } from '../helpers/media-fixtures.js';
import { allPosts, cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-extras-'));
const config = tempConfigDir();
beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
  writeFileSync(join(dir, 'a.png'), png(800, 600));
  writeFileSync(join(dir, 'b.png'), png(600, 600));
  writeFileSync(join(dir, 'a.jpg'), jpeg(800, 600));
  writeFileSync(join(dir, 'b.jpg'), jpeg(600, 600));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => runCli(argv, { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });

async function refused(...argv: string[]): Promise<string> {
  const before = sb.requests.length;
  const r = await run(...argv);
  expect(r.code, r.stderr).toBe(2);
  expect(sb.requests.length).toBe(before);
  return r.stderr;
}

async function created(...argv: string[]): Promise<Record<string, any>> {
  const r = await run(...argv, '-q');
  expect(r.code, r.stderr).toBe(0);
  const id = r.stdout.trim();
  const post = (await allPosts(sb)).find((p) => p.id === id)!;
  return post.payloads as Record<string, any>;
}

describe('--option', () => {
  it('an unknown key: exit 2 naming the nearest key, nothing sent', async () => {
    const err = await refused('posts', 'create', '--platform', 'instagram', '--text', 'Hi', '--media', join(dir, 'a.png'), '--option', 'instagram.postTyp=reel');
    expect(err).toMatch(/--option instagram\.postTyp: Instagram has no option "postTyp"/);
    expect(err).toContain('did you mean "postType"?');
  });

  it('an unknown value: exit 2 listing every allowed value, with the nearest', async () => {
    const err = await refused('posts', 'create', '--platform', 'tiktok', '--text', 'Hi', '--media', join(dir, 'a.png'), '--option', 'tiktok.privacy=SELF_ONL');
    expect(err).toContain('did you mean "SELF_ONLY"?');
    expect(err).toContain('PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY');
  });

  it('also with --no-local-checks, and for a platform that is not a target', async () => {
    await refused('posts', 'create', '--platform', 'youtube', '--title', 't', '--text', 'Hi', '--media', 'https://example.com/v.mp4', '--option', 'youtube.privacy=hidden', '--no-local-checks');
    const err = await refused('posts', 'create', '--platform', 'bluesky', '--text', 'Hi', '--option', 'linkedin.visibility=PUBLIC');
    expect(err).toContain('linkedin is not among the targets');
  });

  it('reads values as each setting takes them: any case, true/false, comma-separated tags', async () => {
    const payloads = await created('posts', 'create', '--platform', 'youtube', '--title', 'Launch', '--text', 'Video', '--media', 'https://example.com/v.mp4', '--option', 'youtube.privacy=UNLISTED', '--option', 'youtube.madeForKids=no', '--option', 'youtube.tags=launch, demo');
    expect(payloads.youtube.options).toEqual({ privacy: 'unlisted', madeForKids: false, tags: ['launch', 'demo'] });
  });
});

describe('--thread, --first-comment, --alt', () => {
  const long = `${'We are launching today and this sentence is long enough. '.repeat(5).trim()}\n\n${'Here is a second paragraph with more to say about it. '.repeat(4).trim()}`;

  it('a long text becomes a thread on Bluesky and X, and stays whole on LinkedIn', async () => {
    const payloads = await created('posts', 'create', '--platform', 'bluesky,twitter-x,linkedin', '--text', long, '--thread');
    expect(payloads.bluesky.thread.length).toBeGreaterThan(0);
    expect(payloads['twitter-x'].thread.length).toBeGreaterThan(payloads.bluesky.thread.length - 1);
    expect(payloads.linkedin.thread).toBeUndefined();
    expect(payloads.linkedin.text).toBe(long);
    const words = (t: string) => t.split(/\s+/).filter(Boolean);
    expect(words([payloads.bluesky.text, ...payloads.bluesky.thread.map((p: any) => p.text)].join(' '))).toEqual(words(long));
  });

  it('without --thread the same text is refused for X, naming the limit', async () => {
    const err = await refused('posts', 'create', '--platform', 'twitter-x', '--text', long);
    expect(err).toMatch(/over twitter-x's limit of 280/);
  });

  it('--- lines in a text file mark the parts by hand', async () => {
    writeFileSync(join(dir, 'parts.txt'), 'One.\n---\nTwo.\n---\nThree.\n');
    const payloads = await created('posts', 'create', '--platform', 'threads', '--text-file', join(dir, 'parts.txt'), '--thread');
    expect(payloads.threads.text).toBe('One.');
    expect(payloads.threads.thread).toEqual([{ text: 'Two.' }, { text: 'Three.' }]);
  });

  it('--first-comment goes where platforms take one; --alt to the --media before it', async () => {
    const payloads = await created('posts', 'create', '--platform', 'instagram,bluesky', '--text', 'Photos', '--media', join(dir, 'a.jpg'), '--alt', 'A wide one', '--media', join(dir, 'b.jpg'), '--first-comment', '#one #two');
    expect(payloads.instagram.firstComment).toBe('#one #two');
    expect(payloads.bluesky.firstComment).toBeUndefined();
    expect(payloads.bluesky.media.map((m: any) => m.alt)).toEqual(['A wide one', undefined]);
  });

  it('alt text over the platform\'s limit, and --alt before any --media, are refused before any request', async () => {
    const err = await refused('posts', 'create', '--platform', 'pinterest', '--text', 'Pin', '--media', join(dir, 'a.png'), '--alt', 'x'.repeat(501));
    expect(err).toMatch(/--alt \(for --media .*a\.png\): alt text of 501 characters; Pinterest takes at most 500/);
    const early = await refused('posts', 'create', '--platform', 'bluesky', '--text', 'Hi', '--alt', 'nothing to describe');
    expect(early).toContain('follows no media item');
  });

  it('posts check counts each thread part against its limit, and the alt text and option values', async () => {
    const r = await run('posts', 'check', '--platform', 'bluesky', '--text', long, '--thread', '--media', join(dir, 'a.png'), '--alt', 'Alt', '--json');
    expect(r.code, r.stderr).toBe(0);
    const checks = JSON.parse(r.stdout).targets[0].checks as Array<{ rule: string; actual: string; limit: string; path?: string }>;
    const parts = checks.filter((c) => c.rule === 'thread.text.length');
    expect(parts.length).toBeGreaterThan(0);
    for (const c of parts) expect(Number(c.actual)).toBeLessThanOrEqual(300);
    expect(checks.find((c) => c.rule === 'media.alt')).toMatchObject({ actual: '3', limit: '≤ 2000' });
  });

  it('a URL that fits a part is never cut, even in Japanese text without spaces around it; nothing to warn about', async () => {
    const url = `https://example.com/${'a'.repeat(120)}?utm_source=newsletter`;
    const text = `${'日本語の文章です'.repeat(30)}${url}${'これは'.repeat(20)}`;
    const r = await run('posts', 'create', '--platform', 'bluesky', '--text', text, '--thread', '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning');
    const post = (await allPosts(sb)).find((p) => p.id === r.stdout.trim())!;
    const bluesky = (post.payloads as Record<string, any>).bluesky;
    const parts: string[] = [bluesky.text, ...bluesky.thread.map((p: any) => p.text)];
    expect(parts.filter((p) => p.includes(url))).toHaveLength(1);
  });

  it('a URL longer than a whole part is cut on Bluesky and the CLI says so; X counts it 23 and keeps it whole', async () => {
    const url = `https://example.com/${'b'.repeat(400)}`;
    const text = `Read the report first. ${url} Then tell us what you think.`;
    const r = await run('posts', 'create', '--platform', 'bluesky,twitter-x', '--text', text, '--thread', '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: --text: bluesky: a URL of 420 characters is longer than a whole part \(300\) and is cut between thread parts 2 and 3, so neither part holds a working link: https:\/\/example\.com\/b+…b+/);
    expect(r.stderr).not.toMatch(/twitter-x: a URL/);
    const post = (await allPosts(sb)).find((p) => p.id === r.stdout.trim())!;
    const x = (post.payloads as Record<string, any>)['twitter-x'];
    expect([x.text, ...(x.thread ?? []).map((p: any) => p.text)].some((p: string) => p.includes(url))).toBe(true);
  });

  it('posts check shows each cut as a warning row: a URL longer than a part, and a word longer than a part', async () => {
    const url = `https://example.com/${'b'.repeat(400)}`;
    const r = await run('posts', 'check', '--platform', 'bluesky,threads', '--text', `Before. ${url} ${'z'.repeat(700)} after.`, '--thread', '--json');
    expect(r.code, r.stderr).toBe(0);
    const targets = JSON.parse(r.stdout).targets as Array<{ platform: string; checks: Array<{ rule: string; verdict: string; message?: string; path?: string }> }>;
    const cuts = (p: string) => targets.find((t) => t.platform === p)!.checks.filter((c) => c.rule === 'thread.cut');
    expect(cuts('bluesky').map((c) => [c.verdict, c.message?.slice(0, 40)])).toEqual([
      ['warn', 'a URL of 420 characters is longer than a'],
      ['warn', 'a word of 700 characters is longer than '],
      ['warn', 'a word of 700 characters is longer than '],
    ]);
    // Threads (500) takes the URL whole; only the word is cut.
    expect(cuts('threads').map((c) => c.message?.slice(0, 40))).toEqual(['a word of 700 characters is longer than ']);
    const table = await run('posts', 'check', '--platform', 'threads', '--text', `Before. ${'z'.repeat(700)} after.`, '--thread');
    expect(table.stderr).toContain('threads: warning: a word of 700 characters is longer than a whole part (500) and is cut between thread parts 2 and 3: ');
    // Piped, each thread part's rows name their part in the item column (2 is the first reply).
    const rows = table.stdout.split('\n').map((l) => l.split('\t'));
    expect(rows.filter((r) => r[1] === 'thread.text.length').map((r) => r[3])).toEqual(['part 2', 'part 3']);
  });
});

describe('bulk columns first_comment, alt, option.PLATFORM.KEY', () => {
  const at = (m: number) => new Date(Date.parse('2026-12-02T09:00:00Z') + m * 60_000).toISOString();

  it('posts check names a bad option value with its line and the allowed values; a good file schedules with every field', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, `at,platforms,text,media,alt,first_comment,option.linkedin.visibility\n${at(0)},linkedin,Hello,a.jpg,A photo,#tags,CONECTIONS\n`);
    const r = await run('posts', 'check', '--from-file', bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean "CONNECTIONS"?');
    expect(r.stdout + r.stderr).toMatch(/line 2/);

    const good = join(dir, 'good.csv');
    writeFileSync(good, `at,platforms,text,media,alt,first_comment,option.linkedin.visibility\n${at(0)},linkedin,Hello,a.jpg,A photo,#tags,connections\n`);
    const s = await run('posts', 'schedule', '--from-file', good, '--json');
    expect(s.code, s.stderr).toBe(0);
    const id = JSON.parse(s.stdout).rows[0].id as string;
    const post = (await allPosts(sb)).find((p) => p.id === id)!;
    expect(post.payloads.linkedin).toMatchObject({ firstComment: '#tags', options: { visibility: 'CONNECTIONS' }, media: [{ alt: 'A photo' }] });
  });

  it('an option cell for a platform the row does not go to is refused by check and schedule alike, naming line, column and fix, before any request', async () => {
    const slip = join(dir, 'off-target-option.csv');
    // Line 3 fills the cell for a row that goes to LinkedIn (fine); line 2's would be dropped unsaid.
    writeFileSync(slip, `at,platforms,text,option.linkedin.visibility\n${at(0)},bluesky,Hello,PUBLIC\n${at(1)},linkedin,Hello,PUBLIC\n${at(2)},bluesky,Hi,\n`);
    const said = 'line 2: option.linkedin.visibility: linkedin is not among the targets (bluesky)';
    const fix = 'add linkedin to the platforms of line 2, or leave its option.linkedin.visibility cell empty';
    const check = await run('posts', 'check', '--from-file', slip);
    expect(check.code).toBe(2);
    expect(check.stdout + check.stderr).toContain(said);
    expect(check.stdout + check.stderr).toContain(fix);
    for (const extra of [[], ['--dry-run']]) {
      const stderr = await refused('posts', 'schedule', '--from-file', slip, ...extra);
      expect(stderr).toContain(said);
      expect(stderr).toContain(fix);
      expect(stderr).not.toMatch(/line [34]:/);
    }
  });

  it('--option instagram.postType=reel with an image is refused before any upload or request, naming what a reel takes', async () => {
    const stderr = await refused('posts', 'create', '--platform', 'instagram', '--text', 'Hi', '--media', join(dir, 'a.jpg'), '--option', 'instagram.postType=reel');
    expect(stderr).toContain('postType=reel on Instagram takes one video; this post has 1 item (image)');
  });

  it('a bulk alt column with more texts than media says how the column pairs them, not how --alt does', async () => {
    const extra = join(dir, 'extra-alt.csv');
    writeFileSync(extra, `at,platforms,text,media,alt\n${at(0)},linkedin,Hello,a.jpg|b.jpg,A photo|A door|A third\n`);
    const r = await run('posts', 'schedule', '--from-file', extra, '--dry-run');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 2: alt: there is no media item 3 for it to describe (2 given)');
    expect(r.stderr).toContain('in the order of the media column, separated by |');
    expect(r.stderr).not.toContain('--alt right after');
  });
});

describe('posts edit and posts view', () => {
  it('edit --thread says a URL longer than a part is cut, as create does', async () => {
    const r = await run('posts', 'create', '--platform', 'bluesky', '--text', 'Short for now.', '-q');
    expect(r.code, r.stderr).toBe(0);
    const url = `https://example.com/${'c'.repeat(400)}`;
    const e = await run('posts', 'edit', r.stdout.trim(), '--text', `The report: ${url} Tell us what you think.`, '--thread', '--yes', '-q');
    expect(e.code, e.stderr).toBe(0);
    expect(e.stderr).toMatch(/warning: --text: bluesky: a URL of 420 characters is longer than a whole part \(300\) and is cut between thread parts 2 and 3/);
  });

  it('edit merges an --option, sets a first comment and splits into a thread; view shows parts, comment and options', async () => {
    const r = await run('posts', 'create', '--platform', 'bluesky,linkedin', '--text', `${'A long sentence for the thread. '.repeat(12).trim()}`, '--thread', '-q');
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim();
    // The post is read first (a GET); nothing is written.
    const writes = () => sb.requests.filter((q) => q.method !== 'GET').length;
    const before = writes();
    const bad = await run('posts', 'edit', id, '--option', 'linkedin.visiblity=PUBLIC', '--yes');
    expect(bad.code).toBe(2);
    expect(writes()).toBe(before);
    expect(bad.stderr).toContain('did you mean "visibility"?');
    const e = await run('posts', 'edit', id, '--option', 'linkedin.visibility=connections', '--first-comment', 'More at example.com', '--yes', '-q');
    expect(e.code, e.stderr).toBe(0);
    const post = (await allPosts(sb)).find((p) => p.id === id)!;
    const payloads = post.payloads as Record<string, any>;
    expect(payloads.linkedin).toMatchObject({ options: { visibility: 'CONNECTIONS' }, firstComment: 'More at example.com' });
    expect(payloads.bluesky.thread.length).toBeGreaterThan(0);
    expect(payloads.bluesky.firstComment).toBeUndefined();
    const v = await run('posts', 'view', id, '-o', 'table');
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(/thread part 2 of \d+ +\d+ of 300/);
    expect(v.stdout).toContain('first comment (19 of 1250)');
    expect(v.stdout).toContain('options: visibility=CONNECTIONS');
  });

  it('edit --alt without --media is told it needs its --media, on a terminal too (not "nothing to change", nor the editor)', async () => {
    const r = await run('posts', 'create', '--platform', 'linkedin', '--text', 'Alt later', '-q');
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const writes = () => sb.requests.filter((q) => q.method !== 'GET').length;
    const before = writes();
    for (const tty of [false, true]) {
      const e = await runCli(['posts', 'edit', id, '--alt', 'A red bicycle', '--yes'], { env: { ...cliEnv(sb), EDITOR: 'false', VISUAL: 'false' }, clock: sandboxClock(sb.clock), configDir: config.dir, tty });
      expect(e.code, e.stderr).toBe(2);
      expect(e.stderr).toContain('--alt describes the --media before it, and this edit gives no --media');
      expect(e.stderr).not.toContain('nothing to change');
    }
    expect(writes()).toBe(before);
  });
});
