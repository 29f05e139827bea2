// `posts edit --editor` beyond the texts, against the sandbox over HTTP with a scripted $EDITOR:
// a thread's parts, the first comment and a platform's settings written in the file reach the
// service (read back over plain HTTP), only the payloads that changed are in the PATCH, and a bad
// value names its line (or, on a terminal, reopens the editor on it) with nothing sent.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../src/wire/schemas.js';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { cliEnv, manualSandbox, oracleGet, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-edit-extras-'));

beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (argv: string[], options: Parameters<typeof runCli>[1] = {}) => runCli(argv, { clock: sandboxClock(sb.clock), ...options, env: { ...cliEnv(sb), NO_COLOR: '1', ...options.env } });
type Payloads = Record<string, Record<string, unknown>>;
const payloadsOf = async (id: string) => {
  const post = await oracleGet<Post>(sb, `/v1/posts/${id}`);
  // The accounts the service fills in are not what these tests are about.
  return Object.fromEntries<Record<string, unknown>>(Object.entries(post.payloads as Payloads).map(([p, v]) => [p, Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'accounts'))]));
};
const patches = (from: number) => sb.requests.slice(from).filter((q) => q.method === 'PATCH');

async function draft(payloads: Payloads): Promise<Post> {
  const r = await cli(['posts', 'create', '--file', '-', '--json'], { stdin: JSON.stringify({ payloads }) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Post;
}

/** An editor that logs each file it is opened on, then applies the replacements of its turn (the last turn's when there are more turns). */
function editor(name: string, turns: Array<Array<[string, string]>>): { command: string; seen: () => string[] } {
  const log = join(dir, `${name}.json`);
  writeFileSync(log, '[]');
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    `import { readFileSync, writeFileSync } from 'node:fs';
const path = process.argv[2];
const seen = JSON.parse(readFileSync(${JSON.stringify(log)}, 'utf8'));
let text = readFileSync(path, 'utf8');
writeFileSync(${JSON.stringify(log)}, JSON.stringify([...seen, text]));
const turns = ${JSON.stringify(turns)};
for (const [from, to] of turns[Math.min(seen.length, turns.length - 1)]) {
  if (!text.includes(from)) { console.error('editor script: no ' + from); process.exit(3); }
  text = text.replace(from, to);
}
writeFileSync(path, text);
`,
  );
  chmodSync(file, 0o755);
  return { command: `"${process.execPath}" "${file}"`, seen: () => JSON.parse(readFileSync(log, 'utf8')) as string[] };
}

const start: Payloads = {
  'twitter-x': { text: 'Launch day.', thread: [{ text: 'What is new.' }], firstComment: 'Docs at https://example.com/docs', options: { replySettings: 'following' } },
  linkedin: { text: 'We launched today.', options: { visibility: 'PUBLIC' } },
};

describe('posts edit --editor: threads, first comments and settings', () => {
  it('shows them, and the changed part, first comment and setting reach the service; an untouched payload is not sent', async () => {
    const p = await draft(start);
    const ed = editor('change', [
      [
        ['What is new.\n', 'What is new.\n---\nAnd what comes next.\n'],
        ['Docs at https://example.com/docs', 'Docs and the changelog: https://example.com/changes'],
        ['replySettings = following', 'replySettings = verified'],
      ],
    ]);
    // The dry run prints the PATCH: only twitter-x, whose payload changed.
    const dry = await cli(['posts', 'edit', p.id, '--editor', '--dry-run', '--json'], { env: { EDITOR: ed.command } });
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout) as { requests: Array<{ method: string; body: { payloads: Payloads } }>; notes: string[] };
    const patch = report.requests.find((q) => q.method === 'PATCH')!;
    expect(Object.keys(patch.body.payloads)).toEqual(['twitter-x']);
    expect(report.notes).toEqual(expect.arrayContaining(['twitter-x thread: 2 → 3 parts', expect.stringMatching(/^twitter-x first comment: "Docs at .*" → "Docs and the changelog/), 'twitter-x options: replySettings "following" → "verified"']));
    // What the editor was shown: each field where the platform takes it, the allowed values as comments.
    const shown = ed.seen()[0]!;
    expect(shown).toMatch(/=== twitter-x ===[\s\S]*Launch day\.\n---\nWhat is new\.\n\n--- first comment ---[\s\S]*\/\/ replySettings: following, mentionedUsers,/);
    expect(shown).toMatch(/=== linkedin ===[\s\S]*--- first comment ---[\s\S]*\/\/ visibility: PUBLIC, CONNECTIONS, LOGGED_IN[\s\S]*visibility = PUBLIC/);
    expect(await payloadsOf(p.id)).toEqual(start);

    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(0);
    expect(patches(before)).toHaveLength(1);
    expect(await payloadsOf(p.id)).toEqual({
      'twitter-x': { text: 'Launch day.', thread: [{ text: 'What is new.' }, { text: 'And what comes next.' }], firstComment: 'Docs and the changelog: https://example.com/changes', options: { replySettings: 'verified' } },
      linkedin: start.linkedin,
    });
  });

  it('a file saved as it was sends nothing and says the post is unchanged', async () => {
    const p = await draft(start);
    const ed = editor('same', [[]]);
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the file was saved as it was: the post is unchanged');
    expect(patches(before)).toHaveLength(0);
    expect(await payloadsOf(p.id)).toEqual(start);
  });

  it('a section saved as it was is left alone: a text holding a --- line does not become a thread', async () => {
    const p = await draft({ 'twitter-x': { text: 'Top\n---\nBottom' }, linkedin: { text: 'Hello', options: { visibility: 'PUBLIC' } } });
    const ed = editor('alone', [[['visibility = PUBLIC', 'visibility = LOGGED_IN']]]);
    const dry = await cli(['posts', 'edit', p.id, '--editor', '--dry-run', '--json'], { env: { EDITOR: ed.command } });
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout) as { requests: Array<{ method: string; body: { payloads: Payloads } }> };
    expect(Object.keys(report.requests.find((q) => q.method === 'PATCH')!.body.payloads)).toEqual(['linkedin']);
    expect((await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } })).code).toBe(0);
    expect(await payloadsOf(p.id)).toEqual({ 'twitter-x': { text: 'Top\n---\nBottom' }, linkedin: { text: 'Hello', options: { visibility: 'LOGGED_IN' } } });
  });

  it('an emptied first comment and setting are removed at the service', async () => {
    const p = await draft(start);
    const ed = editor('remove', [[['Docs at https://example.com/docs', ''], ['visibility = PUBLIC', 'visibility =']]]);
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(0);
    const now = await payloadsOf(p.id);
    expect(now['twitter-x']).toEqual({ text: 'Launch day.', thread: [{ text: 'What is new.' }], options: { replySettings: 'following' } });
    expect(now.linkedin).toEqual({ text: 'We launched today.' });
  });

  it('without a terminal, a bad setting is exit 2 naming its line, the value and the fix; nothing is sent', async () => {
    const p = await draft(start);
    const ed = editor('bad', [[['visibility = PUBLIC', 'visibility = CONECTIONS']]]);
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } });
    expect(r.code).toBe(2);
    const saved = ed.seen()[0]!.replace('visibility = PUBLIC', 'visibility = CONECTIONS');
    const line = saved.split('\n').indexOf('visibility = CONECTIONS') + 1;
    expect(line).toBeGreaterThan(0);
    expect(r.stderr).toContain(`line ${line} (linkedin option visibility): "CONECTIONS" is not a value of linkedin.visibility`);
    expect(r.stderr).toContain('did you mean "CONNECTIONS"?');
    expect(patches(before)).toHaveLength(0);
    expect(await payloadsOf(p.id)).toEqual(start);
  });

  it('on a terminal, the editor opens again with the problem on top, naming the line as it stands there; the fix is sent', async () => {
    const p = await draft(start);
    const ed = editor('reopen', [[['visibility = PUBLIC', 'visibility = CONECTIONS']], [['visibility = CONECTIONS', 'visibility = CONNECTIONS']]]);
    const r = await cli(['posts', 'edit', p.id, '--editor'], { tty: true, prompter: new ScriptedPrompter([true]), env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(0);
    const [, reopened] = ed.seen();
    expect(reopened).toMatch(/^\/\/ problem: line \d+ \(linkedin option visibility\)/);
    const named = Number(/^\/\/ problem: line (\d+)/.exec(reopened!)![1]);
    expect(reopened!.split('\n')[named - 1]).toBe('visibility = CONECTIONS');
    expect((await payloadsOf(p.id)).linkedin).toEqual({ text: 'We launched today.', options: { visibility: 'CONNECTIONS' } });
  });

  it('a thread part over the limit, or a first comment where the platform takes none, is named by its line', async () => {
    const p = await draft({ bluesky: { text: 'Hi', thread: [{ text: 'Two' }] } });
    const long = 'word '.repeat(70).trim();
    const ed = editor('thread', [[['\nTwo\n', `\nTwo\n---\n${long}\n\n--- first comment ---\nHello\n`]]]);
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } });
    expect(r.code).toBe(2);
    const saved = ed.seen()[0]!.replace('\nTwo\n', `\nTwo\n---\n${long}\n\n--- first comment ---\nHello\n`).split('\n');
    expect(r.stderr).toContain(`line ${saved.indexOf(long) + 1} (bluesky thread part 3)`);
    expect(r.stderr).toContain(`line ${saved.indexOf('Hello') + 1} (bluesky first comment): Bluesky takes no first comment`);
    expect(await payloadsOf(p.id)).toEqual({ bluesky: { text: 'Hi', thread: [{ text: 'Two' }] } });
  });

  it('alt text per media item: written under its item, it reaches the service; the other item keeps none', async () => {
    const media = [{ url: 'https://example.com/cake.png', type: 'image' }, { url: 'https://example.com/pie.png', type: 'image' }];
    const p = await draft({ linkedin: { text: 'Two cakes', media } });
    const ed = editor('alt', [[['--- alt 1: cake.png ---\n', '--- alt 1: cake.png ---\nA chocolate cake on a plate\n']]]);
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(0);
    expect(ed.seen()[0]).toContain('--- alt 2: pie.png ---');
    expect((await payloadsOf(p.id)).linkedin).toEqual({ text: 'Two cakes', media: [{ ...media[0], alt: 'A chocolate cake on a plate' }, media[1]] });
  });

  it("a thread part's alt text: written under its part's item, it reaches the service; the post's own alt stays", async () => {
    const top = { url: 'https://example.com/cover.png', type: 'image', alt: 'The cover' };
    const map = { url: 'https://example.com/map.png', type: 'image', alt: 'Old map' };
    const p = await draft({ bluesky: { text: 'Our route', media: [top], thread: [{ text: 'The map', media: [map] }] } });
    const ed = editor('part-alt', [[['\nOld map\n', '\nA map of the route from the station to the hall\n']]]);
    const dry = await cli(['posts', 'edit', p.id, '--editor', '--dry-run', '--json'], { env: { EDITOR: ed.command } });
    expect(dry.code, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { notes: string[] }).notes).toEqual(['bluesky thread part 2 alt text 1: "Old map" → "A map of the route from the station to the hall"']);
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(0);
    expect(ed.seen()[0]).toMatch(/--- alt 1: cover\.png ---\n(?:\/\/.*\n)*The cover\n[\s\S]*--- part 2 alt 1: map\.png ---\n(?:\/\/.*\n)*Old map\n/);
    expect(patches(before)).toHaveLength(1);
    expect((await payloadsOf(p.id)).bluesky).toEqual({ text: 'Our route', media: [top], thread: [{ text: 'The map', media: [{ ...map, alt: 'A map of the route from the station to the hall' }] }] });
  });

  it("a thread part's alt text over the platform's limit is exit 2 naming its line and part; no write is sent", async () => {
    const map = { url: 'https://example.com/map.png', type: 'image', alt: 'Old map' };
    const original = { bluesky: { text: 'Our route', thread: [{ text: 'The map', media: [map] }] } };
    const p = await draft(original);
    const long = 'm'.repeat(2001);
    const ed = editor('part-alt-long', [[['\nOld map\n', `\n${long}\n`]]]);
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: ed.command } });
    expect(r.code).toBe(2);
    const line = ed.seen()[0]!.replace('\nOld map\n', `\n${long}\n`).split('\n').indexOf(long) + 1;
    expect(line).toBeGreaterThan(0);
    expect(r.stderr).toContain(`line ${line} (bluesky thread part 2 alt text 1): thread part 2: alt text of 2001 characters; Bluesky takes at most 2000`);
    expect(r.stderr).toContain('shorten it by 1');
    // The post was read to open the editor; nothing was written.
    expect(sb.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(await payloadsOf(p.id)).toEqual(original);
  });

  it('--thread splitting the text again: each part keeps the media, and alt text, of the part it takes the place of', async () => {
    const top = { url: 'https://example.com/cover.png', type: 'image', alt: 'The cover' };
    const map = { url: 'https://example.com/map.png', type: 'image', alt: 'A map of the route' };
    const p = await draft({ bluesky: { text: 'Our route', media: [top], thread: [{ text: 'The map', media: [map] }] } });
    // Part 2 grows past Bluesky's 300 graphemes: split at its paragraphs into parts 2 and 3.
    const first = `From the station. ${'north '.repeat(30).trim()}.`;
    const second = `To the hall. ${'west '.repeat(30).trim()}.`;
    const ed = editor('resplit-keeps', [[['\nThe map\n', `\n${first}\n\n${second}\n`]]]);
    const dry = await cli(['posts', 'edit', p.id, '--editor', '--thread', '--dry-run', '--json'], { env: { EDITOR: ed.command } });
    expect(dry.code, dry.stderr).toBe(0);
    const patch = (JSON.parse(dry.stdout) as { requests: Array<{ method: string; body: { payloads: Payloads } }> }).requests.find((q) => q.method === 'PATCH')!;
    expect(patch.body.payloads.bluesky!.thread).toEqual([{ text: first, media: [map] }, { text: second }]);
    const r = await cli(['posts', 'edit', p.id, '--editor', '--thread'], { env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(0);
    expect((await payloadsOf(p.id)).bluesky).toEqual({ text: 'Our route', media: [top], thread: [{ text: first, media: [map] }, { text: second }] });
  });

  it('a new --text without --thread, which replaces the whole thread, is exit 2 when later parts have media; with --thread the media stay', async () => {
    const map = { url: 'https://example.com/map.png', type: 'image', alt: 'A map' };
    const original = { bluesky: { text: 'Our route', thread: [{ text: 'The map', media: [map] }, { text: 'See you' }] } };
    const p = await draft(original);
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--text', 'A new route']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--text: a new text replaces the whole bluesky thread, so the media of part 2 (with its alt text) would be lost');
    expect(r.stderr).toContain('add --thread to split the new text');
    expect(sb.requests.slice(before).map((q) => `${q.method} ${q.path}`)).toEqual([`GET /v1/posts/${p.id}`]);
    expect(await payloadsOf(p.id)).toEqual(original);
    // Without media in the later parts, a new text replaces the thread as before.
    const plain = await draft({ bluesky: { text: 'Our route', thread: [{ text: 'See you' }] } });
    const replaced = await cli(['posts', 'edit', plain.id, '--text', 'A new route']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect((await payloadsOf(plain.id)).bluesky).toEqual({ text: 'A new route' });
    // With --thread, the new text is split and its second part keeps the map.
    const long = `From the station. ${'north '.repeat(30).trim()}.\n\nTo the hall. ${'west '.repeat(30).trim()}.`;
    const split = await cli(['posts', 'edit', p.id, '--text', long, '--thread']);
    expect(split.code, split.stderr).toBe(0);
    expect((await payloadsOf(p.id)).bluesky).toMatchObject({ thread: [{ media: [map] }] });
  });

  it('--thread leaving fewer parts than had media is exit 2 naming those parts and the fix; only the read was sent', async () => {
    const map = { url: 'https://example.com/map.png', type: 'image', alt: 'A map' };
    const hall = { url: 'https://example.com/hall.png', type: 'image', alt: 'The hall' };
    const original = { bluesky: { text: 'Our route', thread: [{ text: 'The map', media: [map] }, { text: 'The hall', media: [hall] }, { text: 'See you' }] } };
    const p = await draft(original);
    // The part markers taken out: the whole text fits in one post.
    const ed = editor('resplit-loses', [[['---\nThe map', 'The map'], ['---\nThe hall', 'The hall'], ['---\nSee you', 'See you']]]);
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--editor', '--thread'], { env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--thread: split again, the bluesky thread has one part, so the media of parts 2 and 3 (with their alt text) would be lost');
    expect(r.stderr).toContain(`posts edit ${p.id} --editor without --thread`);
    expect(sb.requests.slice(before).map((q) => `${q.method} ${q.path}`)).toEqual([`GET /v1/posts/${p.id}`]);
    expect(await payloadsOf(p.id)).toEqual(original);
    // Without the editor, the parts joined and split again: the same refusal.
    const flag = await cli(['posts', 'edit', p.id, '--thread']);
    expect(flag.code, flag.stderr).toBe(2);
    expect(flag.stderr).toContain('so the media of parts 2 and 3 (with their alt text) would be lost');
  });

  it('--first-comment and --option values are in the file the editor opens on; what it saves wins', async () => {
    const p = await draft(start);
    const ed = editor('flags', [[['visibility = CONNECTIONS', 'visibility = LOGGED_IN']]]);
    const r = await cli(['posts', 'edit', p.id, '--editor', '--option', 'linkedin.visibility=connections', '--first-comment', 'See the docs'], { env: { EDITOR: ed.command } });
    expect(r.code, r.stderr).toBe(0);
    expect(ed.seen()[0]).toMatch(/--- first comment ---\n(?:\/\/.*\n)*See the docs\n/);
    const now = await payloadsOf(p.id);
    expect(now.linkedin).toEqual({ text: 'We launched today.', firstComment: 'See the docs', options: { visibility: 'LOGGED_IN' } });
    expect(now['twitter-x']!.firstComment).toBe('See the docs');
    // A bad --option value is exit 2 before the editor opens.
    const bad = await cli(['posts', 'edit', p.id, '--editor', '--option', 'linkedin.visibilty=PUBLIC'], { env: { EDITOR: ed.command } });
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toContain('did you mean "visibility"');
    expect(ed.seen()).toHaveLength(1);
  });
});
