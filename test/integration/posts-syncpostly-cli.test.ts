// The command line in SyncPostly's dialect (SOCIALPUB_API=syncpostly) against the sandbox's second
// dialect: `posts create --media FILE` end to end, a platform whose account cannot be picked sends
// nothing (no upload either), and a lost create, alone or in a bulk run, leaves one post per row.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { png } from '../helpers/media-fixtures.js';
import { loseNextAnswer } from '../helpers/sandbox.js';
import { SP_PATHS } from '../../src/wire/syncpostly/assumptions.js';
import type { Post } from '../../src/wire/schemas.js';
import { START, allPosts, cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sp-cli-'));
const opened: ManualSandbox[] = [];
afterEach(async () => {
  for (const sb of opened.splice(0)) await sb.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sandbox(): Promise<ManualSandbox> {
  const sb = await manualSandbox({ failureRate: 0 });
  opened.push(sb);
  return sb;
}
const env = (sb: ManualSandbox) => ({ ...cliEnv(sb), SOCIALPUB_API: 'syncpostly' });
const run = (sb: ManualSandbox, argv: string[]) => runCli(argv, { env: env(sb), clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
const sent = (sb: ManualSandbox, method: string, path: RegExp) => sb.requests.filter((q) => q.method === method && path.test(q.path)).length;
const textOf = (p: Post, platform: string) => (p.payloads[platform] as { text?: string } | undefined)?.text;
const iso = (minutes: number) => new Date(START + 86_400_000 + minutes * 60_000).toISOString();

describe('SyncPostly from the command line', () => {
  it('posts create --media FILE: uploaded through the upload URL, the post names it, and it reads back', async () => {
    const sb = await sandbox();
    const photo = join(dir, 'photo.png');
    writeFileSync(photo, png(400, 300));
    const r = await run(sb, ['posts', 'create', '--platform', 'bluesky', '--text', 'from the CLI', '--media', photo, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(sb, 'POST', /^\/api\/v1\/media\/create-upload-url$/)).toBe(1);
    expect(sent(sb, 'POST', /^\/api\/v1\/posts$/)).toBe(1);
    const post = JSON.parse(r.stdout) as Post;
    expect((post.payloads.bluesky as { media: unknown[] }).media).toHaveLength(1);
    const [stored] = (await allPosts(sb)).filter((p) => textOf(p, 'bluesky') === 'from the CLI');
    expect((stored!.payloads.bluesky as { media: unknown[] }).media).toHaveLength(1);
    const view = await run(sb, ['posts', 'view', post.id, '--json']);
    expect(view.code, view.stderr).toBe(0);
    expect((JSON.parse(view.stdout) as Post).status).toBe('draft');
  });

  it('the same file for a second post is uploaded again: SyncPostly\'s media belongs to one post (no digest to trust)', async () => {
    const sb = await sandbox();
    const photo = join(dir, 'again.png');
    writeFileSync(photo, png(400, 300));
    const config = tempConfigDir().dir;
    const create = (text: string) => runCli(['posts', 'create', '--platform', 'bluesky', '--text', text, '--media', photo, '--json'], { env: env(sb), clock: sandboxClock(sb.clock), configDir: config });
    const first = await create('first of two');
    expect(first.code, first.stderr).toBe(0);
    const second = await create('second of two');
    expect(second.code, second.stderr).toBe(0);
    // Asked (GET media/{id}), found attached to the first post, so uploaded anew.
    expect(sent(sb, 'GET', /^\/api\/v1\/media\/[^/]+$/)).toBe(1);
    expect(sent(sb, 'PUT', /^\/api\/v1\/media\/upload\//)).toBe(2);
    expect(second.stderr).not.toContain('not uploaded again');
    const ids = [first, second].map((r) => ((JSON.parse(r.stdout) as Post).payloads.bluesky as { media: { id: string }[] }).media[0]!.id);
    expect(new Set(ids).size).toBe(2);
  });

  it('a platform with several accounts and no --account: exit 2 naming them, nothing sent, not even the upload', async () => {
    const sb = await sandbox();
    const photo = join(dir, 'photo2.png');
    writeFileSync(photo, png(400, 300));
    const r = await run(sb, ['posts', 'create', '--platform', 'linkedin', '--text', 'which page?', '--media', photo]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--account/);
    expect(sent(sb, 'POST', /^\/api\/v1\/(posts|media)/)).toBe(0);
    expect(sent(sb, 'PUT', /./)).toBe(0);
  });

  it('a create whose answer is lost: --debug shows the search, and exactly one post exists', async () => {
    const sb = await sandbox();
    loseNextAnswer(sb, 'POST', SP_PATHS.posts);
    const r = await run(sb, ['posts', 'create', '--platform', 'bluesky', '--text', 'lost then found', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/lost create: searching the newest 100 posts/);
    expect(r.stderr).toMatch(/lost create: post \S+ .*is the one sent/);
    expect((await allPosts(sb)).filter((p) => textOf(p, 'bluesky') === 'lost then found')).toHaveLength(1);
  });

  it('a bulk run whose creates lose their answers: one post per row', async () => {
    const sb = await sandbox();
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, ['at,platforms,text', ...[0, 1, 2, 3].map((i) => `${iso(i * 10)},bluesky,Row ${i}`)].join('\n') + '\n');
    loseNextAnswer(sb, 'POST', SP_PATHS.posts);
    loseNextAnswer(sb, 'POST', SP_PATHS.posts);
    const r = await run(sb, ['posts', 'schedule', '--from-file', csv]);
    expect(r.code, r.stderr).toBe(0);
    const rows = (await allPosts(sb)).filter((p) => /^Row \d$/.test(textOf(p, 'bluesky') ?? ''));
    expect(rows.map((p) => textOf(p, 'bluesky')).sort()).toEqual(['Row 0', 'Row 1', 'Row 2', 'Row 3']);
    expect(sent(sb, 'POST', /^\/api\/v1\/posts$/)).toBe(4);
  });

  it('bulk --no-resume with the file\'s journal is exit 2 (no keys: every row would post again), naming the journal to remove; without one it runs', async () => {
    const sb = await sandbox();
    const csv = join(dir, 'again.csv');
    writeFileSync(csv, ['at,platforms,text', ...[0, 1].map((i) => `${iso(i * 10)},bluesky,Again ${i}`)].join('\n') + '\n');
    const configDir = tempConfigDir().dir;
    const go = (extra: string[]) => runCli(['posts', 'schedule', '--from-file', csv, ...extra], { env: env(sb), clock: sandboxClock(sb.clock), configDir });
    const fresh = await go(['--no-resume']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(sent(sb, 'POST', /^\/api\/v1\/posts$/)).toBe(2);
    const again = await go(['--no-resume']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("--no-resume: SyncPostly's API has no idempotency keys");
    const journal = /remove the journal and run again: rm (\S+)/.exec(again.stderr)?.[1];
    expect(journal).toBeDefined();
    expect(existsSync(journal!)).toBe(true);
    expect(sent(sb, 'POST', /^\/api\/v1\/posts$/)).toBe(2);
    // Started over deliberately: the journal removed, every row is sent again.
    rmSync(journal!);
    const over = await go(['--no-resume']);
    expect(over.code, over.stderr).toBe(0);
    expect(sent(sb, 'POST', /^\/api\/v1\/posts$/)).toBe(4);
  });

  it('posts edit reads the post once, then sends the merged change', async () => {
    const sb = await sandbox();
    const made = await run(sb, ['posts', 'create', '--platform', 'bluesky,threads', '--text', 'before', '-q']);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    sb.requests.length = 0;
    const r = await run(sb, ['posts', 'edit', id, '--text-for', 'bluesky=after']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(sb, 'GET', new RegExp(`^/api/v1/posts/${id}$`))).toBe(1);
    expect(sent(sb, 'PATCH', new RegExp(`^/api/v1/posts/${id}$`))).toBe(1);
    const [stored] = (await allPosts(sb)).filter((p) => p.id === id);
    expect([textOf(stored!, 'bluesky'), textOf(stored!, 'threads')]).toEqual(['after', 'before']);
  });

  it('a bulk row on a platform with several accounts and no account column is an invalid row: nothing sent', async () => {
    const sb = await sandbox();
    const csv = join(dir, 'ambiguous.csv');
    writeFileSync(csv, ['at,platforms,text', `${iso(0)},bluesky,Fine row`, `${iso(10)},linkedin,Which account?`].join('\n') + '\n');
    const r = await run(sb, ['posts', 'schedule', '--from-file', csv]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/1 of 2 rows .* are invalid; nothing was sent/);
    expect(r.stderr).toMatch(/line 3: linkedin has 2 accounts on SyncPostly/);
    expect(r.stderr).toMatch(/fill the row's account column with one of: acc_\w+, acc_\w+/);
    expect(sent(sb, 'POST', /^\/api\/v1\/posts$/)).toBe(0);
  });
});
