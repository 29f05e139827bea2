// posts view / edit / schedule (move) / unschedule / delete / queue through the CLI against the
// sandbox over HTTP: what each prints, what reached the service (read back over plain HTTP), the
// editor path with a scripted $EDITOR, a PATCH racing a publish, and a service without the routes.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/width.js';
import type { Prompter } from '../../src/cli/prompter.js';
import type { Post, PostResult } from '../../src/wire/schemas.js';
import { runCli } from '../helpers/run-cli.js';
import { video, writeFixture } from '../helpers/media-fixtures.js';
import { onePost, proxyWithout } from '../helpers/route-proxy.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { allPosts, cliEnv, manualSandbox, oracleGet, PNG_HEAD, sandboxClock, START, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-manage-'));

beforeAll(async () => {
  sb = await manualSandbox({ fixtures: 60, failureRate: 0.4 });
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (argv: string[], options: Parameters<typeof runCli>[1] = {}) => runCli(argv, { clock: sandboxClock(sb.clock), ...options, env: { ...cliEnv(sb), ...options.env } });
/** The post without the accounts the service echoes per payload (its default account): these tests are about texts, media and titles. */
const withoutAccounts = (post: Post): Post => ({ ...post, payloads: Object.fromEntries(Object.entries(post.payloads).map(([k, v]) => [k, Object.fromEntries(Object.entries(v as object).filter(([f]) => f !== 'accounts'))])) });
const getPost = async (id: string) => withoutAccounts(await oracleGet<Post>(sb, `/v1/posts/${id}`));
const inHours = (h: number) => new Date(sb.clock.now() + h * 3_600_000).toISOString();

async function draft(payloads: Record<string, unknown>, title?: string): Promise<Post> {
  const r = await cli(['posts', 'create', '--file', '-', '--json'], { stdin: JSON.stringify({ payloads, ...(title ? { title } : {}) }) });
  expect(r.code).toBe(0);
  return withoutAccounts(JSON.parse(r.stdout) as Post);
}

async function scheduled(text: string, hours: number, platforms = ['bluesky']): Promise<Post> {
  const r = await cli(['posts', 'schedule', '--platform', platforms.join(','), '--text', text, '--at', inHours(hours), '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Post;
}

describe('posts view', () => {
  it('shows a partly failed post: the outcome, ✓ with the link, ✗ with the code; --json adds the results', async () => {
    const posts = await allPosts(sb, 'failed');
    const partial = posts.find((p) => Object.values(p.targets ?? {}).includes('published'))!;
    expect(partial).toBeDefined();
    const targets = Object.values(partial.targets!);
    const published = targets.filter((t) => t === 'published').length;
    const r = await cli(['posts', 'view', partial.id], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`failed · ${published}/${targets.length} published`);
    expect(r.stdout).toMatch(/✓ published https?:\/\//);
    expect(r.stdout).toMatch(/✗ [A-Z_]+: /);
    for (const line of r.stdout.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // Each failure names the command with its result's details, the id of that very result.
    const failedIds = new Set((await oracleGet<{ data: PostResult[] }>(sb, `/api/v1/post-results?post_id=${partial.id}&limit=100`)).data.filter((x) => !x.success).map((x) => x.id));
    const named = [...r.stdout.matchAll(/details: socialpub results get (\S+)/g)].map((m) => m[1]!);
    expect(named.length).toBe(targets.length - published);
    for (const id of named) expect(failedIds.has(id), id).toBe(true);

    const json = await cli(['posts', 'view', partial.id, '--json']);
    const viewed = JSON.parse(json.stdout) as Post & { results: PostResult[] };
    const oracle = await oracleGet<{ data: PostResult[] }>(sb, `/api/v1/post-results?post_id=${partial.id}&limit=100`);
    expect(viewed.id).toBe(partial.id);
    expect(viewed.results.map((x) => x.id).sort()).toEqual(oracle.data.map((x) => x.id).sort());
  });

  it('at 40 columns, a published link too wide for its line goes whole under it, to be copied, linking to itself; in a pipe it stays on the line', async () => {
    const posts = await allPosts(sb, 'published');
    expect(posts.length).toBeGreaterThan(0);
    const r = await cli(['posts', 'view', posts[0]!.id, '--json']);
    const url = (JSON.parse(r.stdout) as { results: PostResult[] }).results.find((x) => x.success)!.platform_data!.url as string;
    expect(url.length).toBeGreaterThan(36);
    const narrow = await cli(['posts', 'view', posts[0]!.id], { tty: true, columns: 40, env: { NO_COLOR: '1', FORCE_HYPERLINK: '1' } });
    expect(narrow.code).toBe(0);
    const lines = narrow.stdout.split('\n');
    const at = lines.indexOf(`    \u001b]8;;${url}\u0007${url}\u001b]8;;\u0007`);
    expect(at, narrow.stdout).toBeGreaterThan(0);
    expect(lines[at - 1]).toBe('  ✓ published');
    // Every other line fits; only whole links under "✓ published" may be wider.
    for (const [i, line] of lines.entries()) if (lines[i - 1] !== '  ✓ published') expect(displayWidth(line), line).toBeLessThanOrEqual(40);
    const piped = await cli(['posts', 'view', posts[0]!.id]);
    expect(piped.stdout).toContain(`✓ published ${url}\n`);
  });

  it('shows each text with its count against the limit, the title and the time in the zone and in UTC', async () => {
    const p = await draft({ 'twitter-x': { text: 'Launch 🚀 today' }, bluesky: { text: 'Launch today, in detail' } }, 'Launch');
    await cli(['posts', 'schedule', p.id, '--at', '2026-12-03T09:30:00Z']);
    const r = await cli(['posts', 'view', p.id, '--tz', 'Asia/Tokyo'], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('twitter-x  15 of 280');
    expect(r.stdout).toContain('bluesky  23 of 300');
    expect(r.stdout).toContain('Launch');
    expect(r.stdout).toContain('2026-12-03 18:30 GMT+9 (Asia/Tokyo)');
    expect(r.stdout).toContain('           2026-12-03 09:30 UTC');
    expect(r.stdout).toContain('· not sent yet');
    // In UTC itself, one line: no "(UTC)" after "UTC", no second UTC line.
    const utc = await cli(['posts', 'view', p.id], { tty: true, columns: 60, env: { NO_COLOR: '1', TZ: 'Etc/UTC' } });
    expect(utc.stdout).toContain('scheduled  2026-12-03 09:30 UTC · ');
    expect(utc.stdout.match(/09:30 UTC/g)).toHaveLength(1);
    expect(utc.stdout).not.toContain('(UTC)');
  });

  it('refuses an unknown --tz before sending anything (exit 2)', async () => {
    const before = sb.requests.length;
    const r = await cli(['posts', 'view', 'post_000000000000', '--tz', 'Mars/Olympus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--tz');
    expect(sb.requests.length).toBe(before);
  });

  it('says a post that does not exist is not found (exit 4)', async () => {
    const r = await cli(['posts', 'view', 'post_000000000000']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('not found');
  });
});

describe('posts edit', () => {
  it('replaces one text, removes a platform and the title; only what differs is sent', async () => {
    const p = await draft({ bluesky: { text: 'Old text' }, linkedin: { text: 'Keep me' }, threads: { text: 'Bye' } }, 'Title');
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--text-for', 'bluesky=New text', '--remove-platform', 'threads', '--title', '', '--json']);
    expect(r.code).toBe(0);
    const patch = sb.requests.slice(before).filter((q) => q.method === 'PATCH');
    expect(patch).toHaveLength(1);
    const now = await getPost(p.id);
    expect(now.payloads).toEqual({ bluesky: { text: 'New text' }, linkedin: { text: 'Keep me' } });
    expect(now.title).toBeUndefined();
    expect(withoutAccounts(JSON.parse(r.stdout))).toEqual(now);
  });

  it('a new title alone, or a platform removed alone, is an edit of its own', async () => {
    const p = await draft({ bluesky: { text: 'Stays' }, threads: { text: 'Goes' } }, 'Old title');
    const retitled = await cli(['posts', 'edit', p.id, '--title', 'New title', '--json']);
    expect(retitled.code, retitled.stderr).toBe(0);
    expect(await getPost(p.id)).toMatchObject({ title: 'New title', payloads: { bluesky: { text: 'Stays' }, threads: { text: 'Goes' } } });
    const removed = await cli(['posts', 'edit', p.id, '--remove-platform', 'threads', '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: 'Stays' } });
  });

  it('uploads new local media, then shows its name, type and size in posts view', async () => {
    const p = await draft({ bluesky: { text: 'With a picture' } });
    const png = join(dir, 'cover.png');
    writeFileSync(png, Buffer.concat([PNG_HEAD, Buffer.alloc(2048 - PNG_HEAD.length)]));
    const r = await cli(['posts', 'edit', p.id, '--media', png, '--json']);
    expect(r.code).toBe(0);
    const media = (await getPost(p.id)).payloads.bluesky as { media: Array<{ url: string; type: string }> };
    expect(media.media).toEqual([{ url: expect.stringContaining('/cover.png'), type: 'image' }]);
    const view = await cli(['posts', 'view', p.id], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    expect(view.stdout).toContain('media: cover.png · image/png · 2 KB');
  });

  it('adds a platform with the post\'s text, checked like a new post (X counts emoji as 2)', async () => {
    const p = await draft({ bluesky: { text: '🎉'.repeat(150) } });
    const refused = await cli(['posts', 'edit', p.id, '--platform', 'twitter-x']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('twitter-x');
    expect(refused.stderr).toMatch(/300 characters is 20 over twitter-x's limit of 280/);
    expect((await getPost(p.id)).payloads).toEqual(p.payloads);
    const ok = await cli(['posts', 'edit', p.id, '--platform', 'twitter-x', '--text-for', 'twitter-x=Short']);
    expect(ok.code).toBe(0);
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: '🎉'.repeat(150) }, 'twitter-x': { text: 'Short' } });
  });

  it('keeps the media the service holds (its own http:// address on the sandbox) and the title when only a text changes', async () => {
    const clip = writeFixture(join(dir, 'clip.mp4'), video({ durationSec: 10, width: 1280, height: 720 }));
    const created = await cli(['posts', 'create', '--platform', 'youtube,bluesky', '--text', 'First', '--media', clip, '--title', 'Launch', '--json']);
    expect(created.code).toBe(0);
    const p = JSON.parse(created.stdout) as Post;
    expect(JSON.stringify(p.payloads)).toContain('"url":"http://');
    const r = await cli(['posts', 'edit', p.id, '--text', 'Second']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const media = (platform: string) => (p.payloads[platform] as { media: unknown }).media;
    expect((await getPost(p.id)).payloads).toEqual({ youtube: { text: 'Second', media: media('youtube') }, bluesky: { text: 'Second', media: media('bluesky') } });
  });

  it('changes only the title, judged by each platform\'s title rule, and removes a platform alone', async () => {
    const p = await draft({ youtube: { text: 'Watch', media: [{ url: 'https://cdn.example/v.mp4' }] }, bluesky: { text: 'Watch' } }, 'Old title');
    const long = await cli(['posts', 'edit', p.id, '--title', 't'.repeat(101)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--title: the title is 101 characters; YouTube takes at most 100');
    const before = sb.requests.length;
    const ok = await cli(['posts', 'edit', p.id, '--title', 'New title']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const patch = sb.requests.slice(before).filter((q) => q.method === 'PATCH');
    expect(patch).toHaveLength(1);
    const now = await getPost(p.id);
    expect([now.title, now.payloads]).toEqual(['New title', p.payloads]);
    const misspelt = await cli(['posts', 'edit', p.id, '--remove-platform', 'blusky']);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain(`--remove-platform blusky: not a target of post ${p.id}`);
    expect(misspelt.stderr).toContain('did you mean --remove-platform bluesky? its targets are youtube, bluesky');
    const removed = await cli(['posts', 'edit', p.id, '--remove-platform', 'bluesky']);
    expect(removed.code).toBe(0);
    expect(Object.keys((await getPost(p.id)).payloads)).toEqual(['youtube']);
  });

  it('--remove-platform P with --platform P, --text-for P=… or an account of P is exit 2 before any write: which one was meant is not guessed', async () => {
    const p = await draft({ bluesky: { text: 'Keep' }, linkedin: { text: 'Keep too' } });
    const before = sb.requests.length;
    for (const extra of [['--platform', 'bluesky'], ['--text-for', 'bluesky=New'], ['--account', 'bluesky:@socialpub-demo.bsky.social']]) {
      const r = await cli(['posts', 'edit', p.id, '--remove-platform', 'bluesky', ...extra]);
      expect(r.code, `${extra.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('--remove-platform bluesky: bluesky is also');
    }
    expect(sb.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(Object.keys((await getPost(p.id)).payloads)).toEqual(['bluesky', 'linkedin']);
  });

  it('--dry-run prints the PATCH and sends nothing; the same change again says there is nothing to change', async () => {
    const p = await draft({ bluesky: { text: 'Same' } });
    const dry = await cli(['posts', 'edit', p.id, '--text', 'Other', '--dry-run', '--idempotency-key', 'edit-dry-1']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`PATCH /v1/posts/${p.id}`);
    expect(dry.stdout).toContain('Idempotency-Key: edit-dry-1');
    expect(dry.stdout).toContain('"text": "Other"');
    expect(dry.stdout).toContain('bluesky: "Same" → "Other"');
    expect(dry.stdout).not.toContain(sb.key('demo'));
    expect((await getPost(p.id)).payloads).toEqual(p.payloads);
    const same = await cli(['posts', 'edit', p.id, '--text', 'Same']);
    expect(same.code).toBe(0);
    expect(same.stderr).toContain('nothing to change');
  });

  it('replays an edit with the same --idempotency-key and shows the post as it is now', async () => {
    const p = await draft({ bluesky: { text: 'One' } });
    expect((await cli(['posts', 'edit', p.id, '--text', 'Two', '--idempotency-key', 'edit-k1'])).code).toBe(0);
    // Changed since by someone else; the re-run (a CI retry) sends the same request with the same key.
    await cli(['posts', 'edit', p.id, '--text', 'Three']);
    const again = await cli(['posts', 'edit', p.id, '--text', 'Two', '--idempotency-key', 'edit-k1', '--json']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('was used before');
    expect(withoutAccounts(JSON.parse(again.stdout)).payloads).toEqual({ bluesky: { text: 'Three' } });
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: 'Three' } });
  });

  it('refuses a published post (exit 2) and says what to do instead', async () => {
    const [failed] = await allPosts(sb, 'failed');
    const r = await cli(['posts', 'edit', failed!.id, '--text', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is failed · \d\/\d published: .*can no longer be changed/);
    expect(r.stderr).toContain(`socialpub results retry ${failed!.id}`);
  });

  it('names the missing change without a terminal', async () => {
    const p = await draft({ bluesky: { text: 'x' } });
    const r = await cli(['posts', 'edit', p.id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to change');
    expect(r.stderr).toContain('--editor');
  });

  it('asks on a terminal showing before → after; answering no changes nothing', async () => {
    const p = await draft({ bluesky: { text: 'Before' } });
    const prompter = new ScriptedPrompter([false]);
    const r = await cli(['posts', 'edit', p.id, '--text', 'After'], { tty: true, prompter });
    expect(prompter.asked).toEqual(['Send these changes?']);
    expect(r.stderr).toContain('bluesky: "Before" → "After"');
    expect(r.stderr).toContain('cancelled: nothing was changed');
    expect((await getPost(p.id)).payloads).toEqual(p.payloads);
  });

  it("shows the service's text and a new file name with their control characters visible in the confirmation", async () => {
    const p = await draft({ bluesky: { text: 'Old\u001b]0;pwned\u0007 \u202etxt.exe' } });
    const prompter = new ScriptedPrompter([false]);
    const r = await cli(['posts', 'edit', p.id, '--text', 'New \u2066x\u2069'], { tty: true, prompter, env: { NO_COLOR: '1' } });
    expect(prompter.asked).toEqual(['Send these changes?']);
    expect(r.stderr).toContain('bluesky: "Old\\u001b]0;pwned\\u0007 \\u202etxt.exe" → "New \\u2066x\\u2069"');
    expect(r.stderr).not.toMatch(/[\u0007\u001b\u202e\u2066\u2069]/);
  });

  it('shows long before → after texts under their labels, up to three lines each, within the terminal width', async () => {
    const long = 'Our spring release is out: faster sync, dark mode and 日本語 support 🎉 with more words after it';
    const p = await draft({ bluesky: { text: long } });
    const r = await cli(['posts', 'edit', p.id, '--text', `${long}, and more`], { tty: true, columns: 80, prompter: new ScriptedPrompter([false]), env: { NO_COLOR: '1' } });
    const lines = r.stderr.split('\n');
    expect(lines).toContain('  bluesky:');
    // The whole new text, to be checked before sending, over two lines.
    const after = lines.findIndex((l) => l.startsWith('    after  "Our spring'));
    expect(`${lines[after]} ${lines[after + 1]!.trim()}`).toBe(`    after  "${long}, and more"`);
    expect(lines[after + 1]).toMatch(/^ {11}\S/);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // Narrow, three lines each at most, the third cut.
    const narrow = await cli(['posts', 'edit', p.id, '--text', `${long} ${long}`], { tty: true, columns: 40, prompter: new ScriptedPrompter([false]), env: { NO_COLOR: '1' } });
    const n = narrow.stderr.split('\n');
    const at = n.findIndex((l) => l.startsWith('    after  "Our spring'));
    expect(n[at + 2]).toMatch(/^ {11}\S.*…$/);
    expect(n[at + 3]).not.toMatch(/^ {11}/);
    for (const line of n) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });

  it('refuses with 409 when the post is published while being edited: nothing changed, a clear message', async () => {
    const p = await scheduled('Racing', 1);
    // The confirmation is where the user lingers: the publish happens then.
    const racing: Prompter = Object.assign(new ScriptedPrompter([]), {
      confirm: async () => {
        await sb.clock.advance(2 * 3_600_000);
        return true;
      },
    });
    const r = await cli(['posts', 'edit', p.id, '--text', 'Too late'], { tty: true, prompter: racing });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`post ${p.id} was published while you edited it; nothing was changed`);
    const now = await getPost(p.id);
    expect(now.status).toMatch(/published|failed/);
    expect(now.payloads).toEqual(withoutAccounts(p).payloads);
  });
});

describe('posts edit --editor', () => {
  function editorScript(name: string, body: string): string {
    const file = join(dir, name);
    writeFileSync(file, `import { readFileSync, writeFileSync } from 'node:fs';\nconst path = process.argv[2];\n${body}\n`);
    chmodSync(file, 0o755);
    return `"${process.execPath}" "${file}"`;
  }

  it('opens $EDITOR on one section per platform with the limits; the saved texts are sent', async () => {
    const p = await draft({ bluesky: { text: 'Hello blue' }, linkedin: { text: 'Hello pro' } });
    const seen = join(dir, 'seen.txt');
    const editor = editorScript(
      'rewrite.mjs',
      `const text = readFileSync(path, 'utf8');
writeFileSync(${JSON.stringify(seen)}, text + '\\nKEY=' + (process.env.SOCIALPUB_API_KEY ?? 'absent'));
writeFileSync(path, text.replace('Hello pro', 'First paragraph.\\n\\n#launch Second paragraph.'));`,
    );
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: editor } });
    expect(r.code).toBe(0);
    const shown = readFileSync(seen, 'utf8');
    expect(shown).toContain('=== bluesky ===');
    expect(shown).toContain('// linkedin: at most 3000 characters; now 9');
    expect(shown).toContain('KEY=absent');
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: 'Hello blue' }, linkedin: { text: 'First paragraph.\n\n#launch Second paragraph.' } });
  });

  it('an unchanged or an emptied file changes nothing and says so (exit 0)', async () => {
    const p = await draft({ bluesky: { text: 'Stay' } });
    const before = sb.requests.length;
    const same = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: editorScript('noop.mjs', '') } });
    expect([same.code, same.stderr]).toEqual([0, expect.stringContaining('the file was saved as it was: the post is unchanged')]);
    const empty = await cli(['posts', 'edit', p.id, '--editor'], { env: { VISUAL: editorScript('empty.mjs', "writeFileSync(path, '');"), EDITOR: 'false' } });
    expect([empty.code, empty.stderr]).toEqual([0, expect.stringContaining('the file was empty')]);
    expect(sb.requests.slice(before).filter((q) => q.method === 'PATCH')).toHaveLength(0);
  });

  it('on a terminal, a text over its limit is told and the editor opens again on what was written; saved unchanged, it is the error', async () => {
    const p = await draft({ bluesky: { text: 'Short' } });
    const log = join(dir, 'reopen-log.json');
    writeFileSync(log, '[]');
    const editor = editorScript(
      'reopen.mjs',
      `const text = readFileSync(path, 'utf8');
const seen = JSON.parse(readFileSync(${JSON.stringify(log)}, 'utf8'));
writeFileSync(${JSON.stringify(log)}, JSON.stringify([...seen, text]));
if (seen.length === 0) writeFileSync(path, text.replace('Short', 'x'.repeat(400)));
else if (process.env.FIX === '1') writeFileSync(path, text.replace('x'.repeat(400), 'Fixed'));`,
    );
    const r = await cli(['posts', 'edit', p.id, '--editor'], { tty: true, prompter: new ScriptedPrompter([true]), env: { EDITOR: editor, FIX: '1', NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: bluesky: 400 characters is 100 over bluesky's limit of 300[\s\S]*opening the editor\s+again/);
    const files = JSON.parse(readFileSync(log, 'utf8')) as string[];
    expect(files).toHaveLength(2);
    expect(files[1]).toMatch(/^\/\/ problem: bluesky: 400 characters/);
    expect(files[1]).toContain('x'.repeat(400));
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: 'Fixed' } });
    // Saved as it was reopened: the problem is the error, nothing sent.
    writeFileSync(log, '[]');
    const q = await draft({ bluesky: { text: 'Short' } });
    const stuck = await cli(['posts', 'edit', q.id, '--editor'], { tty: true, prompter: new ScriptedPrompter([]), env: { EDITOR: editor, NO_COLOR: '1' } });
    expect(stuck.code).toBe(2);
    expect(JSON.parse(readFileSync(log, 'utf8'))).toHaveLength(2);
    expect((await getPost(q.id)).payloads).toEqual({ bluesky: { text: 'Short' } });
    // Without a terminal, no second chance: exit 2 at once.
    writeFileSync(log, '[]');
    const piped = await cli(['posts', 'edit', q.id, '--editor'], { env: { EDITOR: editor } });
    expect(piped.code).toBe(2);
    expect(JSON.parse(readFileSync(log, 'utf8'))).toHaveLength(1);
  });

  it('an editor that fails changes nothing (exit 1), naming the editor and its exit status', async () => {
    const p = await draft({ bluesky: { text: 'Stay' } });
    const before = sb.requests.length;
    const r = await cli(['posts', 'edit', p.id, '--editor'], { env: { EDITOR: 'exit 3; true' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: the editor (exit 3; true) exited with status 3: nothing was changed');
    // The post was read to fill the file; nothing was written.
    expect(sb.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: 'Stay' } });
  });
});

describe('posts edit --editor without a terminal', () => {
  it('with no $VISUAL or $EDITOR (so vi, which needs a terminal) and --no-input or CI: exit 2 before any request, vi never started', async () => {
    const p = await draft({ bluesky: { text: 'Stay' } });
    // A vi of our own first on PATH: it says whether it was started, and never waits.
    const bin = join(dir, 'fake-vi-bin');
    mkdirSync(bin, { recursive: true });
    const started = join(bin, 'started');
    writeFileSync(join(bin, 'vi'), `#!/bin/sh\necho "$1" >> '${started}'\n`);
    chmodSync(join(bin, 'vi'), 0o755);
    for (const env of [{ CI: 'true' }, {}]) {
      const before = sb.requests.length;
      const r = await cli(['posts', 'edit', p.id, '--editor', ...('CI' in env ? [] : ['--no-input'])], { env: { ...env, PATH: `${bin}:${process.env.PATH}`, VISUAL: undefined, EDITOR: undefined } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/error: --editor: no terminal to run vi on/);
      expect(r.stderr).toMatch(/\$VISUAL|\$EDITOR/);
      expect(sb.requests.length).toBe(before);
    }
    expect(existsSync(started)).toBe(false);
  });
});

describe('posts schedule (move), unschedule, delete', () => {
  it('moves a scheduled post to a new time; it publishes then, not before', async () => {
    const p = await scheduled('Move me', 1);
    const r = await cli(['posts', 'schedule', p.id, '--at', inHours(5), '--json']);
    expect(r.code).toBe(0);
    await sb.clock.advance(2 * 3_600_000);
    expect((await getPost(p.id)).status).toBe('scheduled');
    await sb.clock.advance(4 * 3_600_000);
    expect((await getPost(p.id)).status).toMatch(/published|failed/);
  });

  it('a published post cannot be moved: exit 2 with what to do instead', async () => {
    const [published] = await allPosts(sb, 'published');
    const r = await cli(['posts', 'schedule', published!.id, '--at', inHours(1)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('can no longer be changed');
    expect(r.stderr).toContain('results retry');
  });

  it('unschedules back to a draft that never publishes; a draft is left alone', async () => {
    const p = await scheduled('Not yet', 1);
    const r = await cli(['posts', 'unschedule', p.id, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ id: p.id, status: 'draft', scheduledAt: null });
    await sb.clock.advance(2 * 3_600_000);
    expect((await getPost(p.id)).status).toBe('draft');
    const again = await cli(['posts', 'unschedule', p.id]);
    expect([again.code, again.stderr]).toEqual([0, expect.stringContaining('already a draft')]);
  });

  it('posts list --status scheduled at 60 columns keeps the time and the text (the status every row shares goes first, then the platforms); unfiltered, the text', async () => {
    await scheduled('A week of posts, read by when', 5);
    const narrow = await cli(['posts', 'list', '--status', 'scheduled', '--limit', '3'], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(narrow.code).toBe(0);
    expect(narrow.stdout.split('\n')[0]).toMatch(/^ID\s+SCHEDULED\s+TITLE \/ TEXT$/);
    expect(narrow.stdout).toMatch(/ 20\d\d-\d\d-\d\d \d\d:\d\d/);
    const all = await cli(['posts', 'list', '--limit', '3'], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(all.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+(?:PLATFORMS\s+)?TITLE \/ TEXT$/);
    const outcomes = await cli(['posts', 'list', '--status', 'published,failed', '--limit', '3'], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(outcomes.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+SCHEDULED\s+TITLE \/ TEXT$/);
  });

  it('unschedule at 60 columns shows every header whole ("SCHEDULED", not "SCH…")', async () => {
    const p = await scheduled('A fairly long text for the unschedule table at sixty columns', 1, ['bluesky', 'linkedin', 'threads']);
    const r = await cli(['posts', 'unschedule', p.id], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const [header, row] = r.stdout.trimEnd().split('\n');
    expect(header).not.toContain('…');
    expect(header!.split(/\s{2,}/)).toEqual(['ID', 'STATUS', 'PLATFORMS', 'TITLE / TEXT']);
    expect(row).toMatch(new RegExp(`^${p.id}\\s+draft\\s+3 platforms\\s+A fairly long`));
    expect(r.stdout.split('\n').every((l) => displayWidth(l) <= 60)).toBe(true);
  });

  it('delete needs --yes without a terminal (exit 2 naming it); --dry-run shows the requests; --yes deletes', async () => {
    const a = await scheduled('Delete A', 3);
    const b = await draft({ bluesky: { text: 'Delete B' } });
    const refused = await cli(['posts', 'delete', a.id, b.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes is required');
    const dry = await cli(['posts', 'delete', a.id, b.id, '--dry-run']);
    expect(dry.stdout).toContain(`DELETE /v1/posts/${a.id}`);
    expect(dry.stdout).toContain(`DELETE /v1/posts/${b.id}`);
    expect((await getPost(b.id)).id).toBe(b.id);
    const r = await cli(['posts', 'delete', a.id, b.id, '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: a.id, deleted: true, was: 'scheduled' },
      { id: b.id, deleted: true, was: 'draft' },
    ]);
    expect((await cli(['posts', 'view', a.id])).code).toBe(4);
    await sb.clock.advance(4 * 3_600_000);
    const results = await oracleGet<{ meta: { total: number } }>(sb, `/api/v1/post-results?post_id=${a.id}`);
    expect(results.meta.total).toBe(0);
  });

  it('several posts, some published or unknown: every one refused is named at once, nothing is deleted, and the command for the others is given', async () => {
    const a = await scheduled('Mix A', 3);
    const b = await draft({ bluesky: { text: 'Mix B' } });
    const published = (await allPosts(sb, 'published'))[0]!;
    expect(published).toBeDefined();
    const r = await cli(['posts', 'delete', a.id, published.id, b.id, 'post_doesnotexist', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('2 of the 4 posts cannot be deleted; nothing was sent');
    expect(r.stderr).toContain(`post ${published.id} is published`);
    expect(r.stderr).toContain('post post_doesnotexist not found');
    // With the --yes it was given: without a terminal the command given would stop without it.
    expect(r.stderr).toContain(`delete the others: socialpub posts delete ${a.id} ${b.id} --yes\n`);
    expect((await getPost(a.id)).status).toBe('scheduled');
    expect((await getPost(b.id)).id).toBe(b.id);
    // One post alone keeps its own error: unknown is exit 4.
    expect((await cli(['posts', 'delete', 'post_doesnotexist', '--yes'])).code).toBe(4);
    const un = await cli(['posts', 'unschedule', a.id, published.id]);
    expect(un.code).toBe(2);
    expect(un.stderr).toContain(`unschedule the others: socialpub posts unschedule ${a.id}\n`);
    expect((await getPost(a.id)).status).toBe('scheduled');
  });

  it('asks before deleting on a terminal, naming the post', async () => {
    const p = await draft({ bluesky: { text: 'Ask first' } });
    const prompter = new ScriptedPrompter([false]);
    const r = await cli(['posts', 'delete', p.id], { tty: true, prompter });
    expect(prompter.asked).toEqual(['Delete this post? This cannot be undone']);
    expect(r.stderr).toContain(`${p.id} · draft · Ask first`);
    expect((await getPost(p.id)).id).toBe(p.id);
    // At 60 columns the text goes under the id and time, rather than cut to two letters.
    const narrow = await cli(['posts', 'delete', p.id], { tty: true, columns: 60, prompter: new ScriptedPrompter([false]), env: { TZ: 'Europe/Paris' } });
    expect(narrow.stderr).toContain(`  ${p.id} · draft · Ask first\n`);
    const later = await scheduled('Our autumn collection drops on Friday', 30);
    const long = await cli(['posts', 'delete', later.id], { tty: true, columns: 60, prompter: new ScriptedPrompter([false]), env: { TZ: 'Europe/Paris' } });
    expect(long.stderr).toMatch(new RegExp(`  ${later.id} · scheduled [^\n]+\n    Our autumn collection drops on Friday\n`));
    const hostile = await draft({ bluesky: { text: 'Ask\u001b[2J \u202efirst' } });
    const shown = await cli(['posts', 'delete', hostile.id], { tty: true, prompter: new ScriptedPrompter([false]) });
    expect(shown.stderr).toContain(`${hostile.id} · draft · Ask\\u001b[2J \\u202efirst`);
    expect(shown.stderr).not.toMatch(/\u001b\[2J|\u202e/);
  });
});

describe('posts queue', () => {
  let q: ManualSandbox;
  beforeAll(async () => {
    q = await manualSandbox({ fixtures: 0 });
    const key = q.key('demo');
    const texts = ['日本語のテキストはとても長いのでこの行は必ず切られるはずです、絵文字も🎉🎉🎉', 'Plain English text that goes on and on well past the width of any terminal line', '🚀🚀 launch day 🚀🚀 with emoji everywhere 🎉 and more'];
    const at = (h: number) => new Date(START + h * 3_600_000).toISOString();
    const bodies = [
      { payloads: { bluesky: { text: texts[0] }, 'twitter-x': { text: 'x' } }, scheduledAt: at(30) },
      { payloads: { linkedin: { text: texts[1] } }, scheduledAt: at(2) },
      { payloads: { threads: { text: texts[2] }, bluesky: { text: 'b' }, linkedin: { text: 'l' }, 'facebook-page': { text: 'f' } }, scheduledAt: at(26) },
      { payloads: { bluesky: { text: 'far away' } }, scheduledAt: at(24 * 10) },
    ];
    for (const body of bodies) {
      const res = await fetch(new URL('/v1/schedule', q.url), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => q.close());
  const queue = (args: string[], options: Parameters<typeof runCli>[1] = {}) =>
    runCli(['posts', 'queue', ...args], { env: { SOCIALPUB_BASE_URL: q.url, SOCIALPUB_API_KEY: q.key('demo'), TZ: 'UTC', NO_COLOR: '1' }, clock: sandboxClock(q.clock), ...options });

  it.each([60, 80, 120])('fits %i columns, by day in time order, CJK and emoji included', async (columns) => {
    const r = await queue(['--tz', 'Asia/Tokyo'], { tty: true, columns });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
    // START is 09:00 UTC = 18:00 in Tokyo: +2 h is 20:00 the same day, +26 h 20:00 the next, +30 h midnight after.
    // Each post with its id, to view, edit or move it next; at 60 columns the text goes under the
    // post's line rather than being cut to a word.
    const twoLines = columns < 80;
    const post = (head: RegExp, text: string) => new RegExp(twoLines ? `${head.source}\n {9}${text}` : `${head.source} +${text}`, 'm');
    const joined = lines.join('\n');
    expect(lines[0]).toBe('Tue 2026-12-01');
    expect(joined).toMatch(post(/^ {2}20:00 {2}post_\w+ {2}linkedin */m, 'Plain English'));
    expect(joined).toMatch(/\nWed 2026-12-02\n {2}20:00 {2}post_\w+ {2}(threads,bluesky,linkedin,facebook-page|4 platforms)/);
    expect(joined).toMatch(post(/ {2}20:00 {2}post_\w+ {2}(?:threads,bluesky,linkedin,facebook-page|4 platforms) */, '🚀🚀 launch'));
    expect(joined).toMatch(post(/\nThu 2026-12-03\n {2}00:00 {2}post_\w+ {2}bluesky,twitter-x */, '日本語'));
    expect(lines.filter((l) => /^ {2}\d\d:\d\d {2}post_\w+/.test(l))).toHaveLength(3);
    expect(r.stdout).not.toContain('far away');
    expect(lines.at(-1)).toMatch(/^3 scheduled/);
  });

  it('--json gives the days; piped text is not cut; --to widens the window', async () => {
    const json = await queue(['--to', '+30d', '--json']);
    const data = JSON.parse(json.stdout);
    expect(data.total).toBe(4);
    expect(data.days.map((d: { date: string }) => d.date)).toEqual(['2026-12-01', '2026-12-02', '2026-12-11']);
    const piped = await queue([]);
    expect(piped.stdout).toContain('Plain English text that goes on and on well past the width of any terminal line');
    // Piped, a list as every list is: one post per line, tab-separated, with its UTC time; no day headings.
    const rows = piped.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatch(/^post_\w+\t\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\t\d{4}-\d{2}-\d{2}\t\d{2}:\d{2}\t/);
    const csv = await queue(['-o', 'csv']);
    // RFC 4180: CRLF line ends.
    expect(csv.stdout.split('\r\n')[0]).toBe('id,scheduledAt,date,time,platforms,headline');
    expect(csv.stdout.trimEnd().split('\r\n')).toHaveLength(1 + 3);
    const bad = await queue(['--from', '+2d', '--to', '+1d']);
    expect(bad.code).toBe(2);
  });

  it('-o ics: the window as an iCalendar file, one event per post in it, its id the UID', async () => {
    const ids = (JSON.parse((await queue(['--json'])).stdout).days as Array<{ posts: Array<{ id: string }> }>).flatMap((d) => d.posts.map((p) => p.id));
    const r = await queue(['-o', 'ics']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(r.stdout.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
    expect([...r.stdout.matchAll(/^UID:(\S+)\r$/gm)].map((m) => m[1])).toEqual(ids);
    expect(r.stdout).not.toContain('far away');
    const wider = await queue(['--from', '2026-12-01', '--to', '+30d', '-o', 'ics']);
    expect(wider.stdout.match(/BEGIN:VEVENT/g)).toHaveLength(4);
  });

  it('a day alone: --from from its start, --to through its end (the day is included)', async () => {
    const days = async (args: string[]) => (JSON.parse((await queue([...args, '--tz', 'Asia/Tokyo', '--json'])).stdout).days as Array<{ date: string }>).map((d) => d.date);
    expect(await days(['--from', '2026-12-02', '--to', '2026-12-02'])).toEqual(['2026-12-02']);
    // Now is 18:00 on 1 December in Tokyo.
    expect(await days(['--from', 'tomorrow', '--to', '2026-12-03'])).toEqual(['2026-12-02', '2026-12-03']);
    expect(await days(['--from', 'today', '--to', 'today'])).toEqual(['2026-12-01']);
  });
});

describe('a service without these routes', () => {
  it('405 on PATCH: "this service does not support editing posts", exit 1', async () => {
    const p = await draft({ bluesky: { text: 'x' } });
    const svc = await proxyWithout(sb.url, onePost('PATCH', 'DELETE'), { status: 405, body: '', type: 'text/plain' });
    try {
      const r = await cli(['posts', 'edit', p.id, '--text', 'y'], { env: { SOCIALPUB_BASE_URL: svc.url } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('this service does not support editing posts (PATCH /v1/posts/{id} answered 405)');
    } finally {
      await svc.close();
    }
  });

  it('a plain 404 page on DELETE: not supported (exit 1), unlike a NOT_FOUND post (exit 4)', async () => {
    const p = await draft({ bluesky: { text: 'x' } });
    const svc = await proxyWithout(sb.url, onePost('PATCH', 'DELETE'), { status: 404, body: '<pre>Cannot DELETE</pre>', type: 'text/html' });
    try {
      const r = await cli(['posts', 'delete', p.id, '--yes'], { env: { SOCIALPUB_BASE_URL: svc.url } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('this service does not support deleting posts (DELETE /v1/posts/{id} answered 404)');
    } finally {
      await svc.close();
    }
    expect((await cli(['posts', 'delete', 'post_000000000000', '--yes'])).code).toBe(4);
  });
});

describe('the next step, on a terminal', () => {
  it('a new draft names the schedule command; a scheduled post where to see its outcome; neither in a pipe or with -q', async () => {
    const made = await cli(['posts', 'create', '--platform', 'bluesky', '--text', 'Next step'], { tty: true });
    expect(made.code, made.stderr).toBe(0);
    const id = /post_\w+/.exec(made.stdout)![0];
    expect(made.stderr).toContain(`next: socialpub posts schedule ${id} --at TIME`);
    const moved = await cli(['posts', 'schedule', id, '--at', inHours(3)], { tty: true });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain(`socialpub posts view ${id}`);
    expect(moved.stderr).not.toContain('posts schedule');
    const piped = await cli(['posts', 'create', '--platform', 'bluesky', '--text', 'Next step']);
    const quiet = await cli(['posts', 'create', '--platform', 'bluesky', '--text', 'Next step', '-q'], { tty: true });
    expect([piped.code, quiet.code]).toEqual([0, 0]);
    expect(piped.stderr + quiet.stderr).not.toContain('next:');
  });
});
