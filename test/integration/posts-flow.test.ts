// posts create / schedule / list through the in-process CLI against a sandbox on a manual clock:
// draft → list (draft) → schedule → the clock passes the time → list (published / failed),
// piped (TSV) and on a terminal (table), plus media uploads, idempotency and paging; in both
// dialects (socialpub's own API and SyncPostly's, which the sandbox serves on the same port).
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { JPEG_HEAD, allPosts, cliEnv, manualSandbox, oracleGet, postTotal, sandboxClock, type ManualSandbox } from './posts-support.js';
import { DIALECTS } from '../../src/wire/dialects.js';

const tsvRows = (text: string) => text.trim().split('\n').filter(Boolean).map((l) => l.split('\t'));

describe.each(DIALECTS)('in %s\'s API', (dialect) => {
  const sp = dialect === 'syncpostly';
  let sb: ManualSandbox;
  let dir: string;
  beforeAll(async () => {
    sb = await manualSandbox();
    dir = mkdtempSync(join(tmpdir(), 'posts-flow-'));
  });
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = (argv: string[], extra: Parameters<typeof runCli>[1] = {}) => runCli(argv, { env: cliEnv(sb, dialect), clock: sandboxClock(sb.clock), ...extra });

  describe('draft → schedule → published/failed', () => {
    it('works piped: ids with -q, TSV lists, the clock publishes', async () => {
      // SyncPostly's accounts have no default: a platform with two (X here) needs --account.
      const account = sp ? ['--account', 'twitter-x:@socialpub_demo'] : [];
      const created = await cli(['posts', 'create', '--platform', 'bluesky', '--platform', 'twitter-x', ...account, '--text', 'Piped hello', '-q']);
      expect(created.code, created.stderr).toBe(0);
      const id = created.stdout.trim();
      expect(id).toMatch(/^\S+$/);

      const drafts = await cli(['posts', 'list', '--status', 'draft']);
      expect(drafts.code).toBe(0);
      const row = tsvRows(drafts.stdout).find((r) => r[0] === id);
      expect(row).toEqual([id, 'draft', expect.stringMatching(/bluesky/), '', 'Piped hello']);
      expect(drafts.stderr).toBe(''); // no footer when piped

      const scheduled = await cli(['posts', 'schedule', id, '--at', '+1h']);
      expect(scheduled.code, scheduled.stderr).toBe(0);
      expect(scheduled.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
      expect(scheduled.stdout).toMatch(/^status\s+scheduled$/m);
      expect(scheduled.stdout).toContain('2026-12-01T10:00:00.000Z · 2026-12-01 10:00 UTC · in 1 hour');

      const waiting = await cli(['posts', 'list', '--status', 'scheduled']);
      expect(tsvRows(waiting.stdout).find((r) => r[0] === id)?.slice(1, 4)).toEqual(['scheduled', expect.any(String), '2026-12-01T10:00:00.000Z']);

      await sb.clock.advance(2 * 3_600_000);
      await sb.settle();
      const done = await cli(['posts', 'list', '--status', 'published', '--status', 'failed']);
      const after = tsvRows(done.stdout).find((r) => r[0] === id);
      expect(after?.[1]).toMatch(/^(published|failed)$/);
      const stillDraft = await cli(['posts', 'list', '--status', 'draft', '--status', 'scheduled']);
      expect(tsvRows(stillDraft.stdout).some((r) => r[0] === id)).toBe(false);
    });

    it('works on a terminal: prompts fill what is missing, the table colours statuses, the footer pages', async () => {
      const ids: string[] = [];
      // SyncPostly: LinkedIn has two accounts and no default, so the terminal also asks which.
      const linkedin = sp ? (await oracleGet<{ data: Array<{ id: string; username: string }> }>(sb, '/api/v1/social-accounts?platform=linkedin')).data.find((a) => a.username === 'socialpub-demo')! : undefined;
      for (let i = 0; i < 6; i++) {
        const answers: unknown[] = [['linkedin', 'threads'], `Terminal post ${i}`, '', 'send', ...(linkedin ? [linkedin.id] : [])];
        const asked: string[] = [];
        const prompter = {
          input: async (o: { message: string }) => (asked.push(o.message), answers.shift() as string),
          password: async () => '',
          confirm: async () => false,
          checkbox: async <T,>(o: { message: string }) => (asked.push(o.message), answers.shift() as T[]),
          select: async <T,>(o: { message: string }) => (asked.push(o.message), answers.shift() as T),
        };
        // SyncPostly's posts have no title (--title is refused there).
        const r = await cli(['posts', 'create', ...(sp ? [] : ['--title', `T${i}`])], { tty: true, prompter });
        expect(r.code, r.stderr).toBe(0);
        expect(asked).toEqual([
          'Platforms to post to',
          'Text for linkedin, threads (Enter alone: write it in your editor; - : one text per platform)',
          'Media files or URLs, comma-separated (empty for none)',
          'Send it?',
          ...(sp ? ['linkedin has 2 accounts and SyncPostly names no default: publish to which?'] : []),
        ]);
        expect(r.stderr).toContain('This will be sent:');
        ids.push(/^id\s+(\S+)$/m.exec(r.stdout)![1]!);
      }
      const drafts = await cli(['posts', 'list', '--status', 'draft'], { tty: true });
      expect(drafts.stdout.split('\n')[0]!.replace(/\u001b\[\d+m/g, '')).toMatch(/ID\s+STATUS\s+PLATFORMS\s+SCHEDULED\s+TITLE \/ TEXT/);
      for (const id of ids) expect(drafts.stdout).toContain(id);
      expect(drafts.stdout).toMatch(/\u001b\[\d+mdraft\u001b\[\d+m/); // coloured
      expect(drafts.stderr).toMatch(/^showing 1–6 of 6$/m);

      for (const id of ids) {
        const r = await cli(['posts', 'schedule', id, '--at', '2026-12-01 14:00', '--tz', 'Europe/Paris'], { tty: true });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('2026-12-01T13:00:00.000Z · 2026-12-01 14:00 CET (Europe/Paris)');
      }
      const upcoming = await cli(['posts', 'list', '--status', 'scheduled'], { tty: true });
      expect(upcoming.stdout.replace(/\u001b\[\d+m/g, '')).toMatch(/scheduled\s+linkedin,threads\s+2026-12-01 13:00 UTC \(in \d+ hours?\)/);

      await sb.clock.advance(24 * 3_600_000);
      await sb.settle();
      const outcome = await cli(['posts', 'list', '--status', 'published', '--status', 'failed', '--limit', '3'], { tty: true });
      expect(outcome.code).toBe(0);
      const shown = outcome.stdout.trim().split('\n').slice(1);
      expect(shown).toHaveLength(3);
      for (const line of shown) expect(line).toMatch(/published|failed/);
      expect(outcome.stderr).toMatch(/^showing 1–3 of \d+ · next: --offset 3 · --all for every row$/m);
      const statuses = (await allPosts(sb)).filter((p) => ids.includes(p.id)).map((p) => p.status);
      expect(statuses.every((s) => s === 'published' || s === 'failed')).toBe(true);
    });
  });

  describe('create details', () => {
    it('uploads local media and references the returned URL; URLs pass through', async () => {
      const photo = join(dir, 'photo.jpg');
      writeFileSync(photo, JPEG_HEAD);
      truncateSync(photo, 2048);
      // SyncPostly: Instagram has two accounts and no default.
      const account = sp ? ['--account', 'instagram:@socialpub.demo'] : [];
      // SyncPostly keeps uploads and web URLs in two lists (media, media_urls), so one post mixing
      // them is refused there (their order would be lost): the upload goes alone.
      const media = sp ? ['--media', photo] : ['--media', photo, '--media', 'https://cdn.example/b.jpg'];
      const r = await cli(['posts', 'create', '--platform', 'instagram', ...account, '--text', 'With media', ...media, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const post = JSON.parse(r.stdout);
      const sent = post.payloads.instagram.media as Array<{ url: string; type: string }>;
      expect(sent[0]!.url.startsWith(sb.url)).toBe(true);
      // SyncPostly's PostDto names media by id alone: no type is read back there.
      if (!sp) expect(sent[0]!.type).toBe('image');
      if (!sp) expect(sent[1]).toEqual({ url: 'https://cdn.example/b.jpg', type: 'image' });
      const fetched = await fetch(sent[0]!.url);
      expect(fetched.status).toBe(200);
      expect((await fetched.arrayBuffer()).byteLength).toBe(2048);
    });

    // SyncPostly documents no idempotency key: --idempotency-key is refused there, before any
    // request (syncpostly-cli.test.ts); a create whose answer is lost is looked for instead.
    it.skipIf(sp)('--idempotency-key: a re-run prints the original post and says it was already created', async () => {
      const before = await postTotal(sb);
      const argv = ['posts', 'schedule', '--platform', 'bluesky', '--text', 'Release 1.4.2 is out', '--at', '2026-12-10T09:00:00Z', '--idempotency-key', 'release-1.4.2', '--json'];
      const first = await cli(argv);
      const second = await cli(argv);
      expect(first.code, first.stderr).toBe(0);
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout).id).toBe(JSON.parse(first.stdout).id);
      expect(first.stderr).not.toMatch(/already created/);
      expect(second.stderr).toMatch(/already created: this idempotency key \(release-1\.4\.2\) was used before/);
      expect(await postTotal(sb)).toBe(before + 1);
      const quiet = await cli([...argv.slice(0, -1), '-q']);
      expect(quiet.stdout.trim()).toBe(JSON.parse(first.stdout).id);
    });

    it.skipIf(sp)('a server-side refusal of the same key with another body exits 2 with the reason', async () => {
      await cli(['posts', 'create', '--platform', 'bluesky', '--text', 'one', '--idempotency-key', 'k-reuse']);
      const r = await cli(['posts', 'create', '--platform', 'bluesky', '--text', 'two', '--idempotency-key', 'k-reuse']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/idempotency key/i);
    });
  });

  describe('posts list', () => {
    it('pages with --limit/--offset, streams --all, prints the API rows unchanged as JSON', async () => {
      for (let i = 0; i < 25; i++) {
        const r = await cli(['posts', 'create', '--platform', 'threads', '--text', `Paging ${i}`, '-q']);
        expect(r.code).toBe(0);
      }
      const total = await postTotal(sb);
      const oracle = await allPosts(sb);
      const first = await cli(['posts', 'list']);
      expect(tsvRows(first.stdout)).toHaveLength(20);
      expect(tsvRows(first.stdout).map((r) => r[0])).toEqual(oracle.slice(0, 20).map((p) => p.id));
      const next = await cli(['posts', 'list', '--offset', '20', '--limit', '7'], { tty: true });
      expect(next.stderr).toMatch(new RegExp(`showing 21–27 of ${total} · next: --offset 27`));
      const json = await cli(['posts', 'list', '--limit', '150', '--json']);
      // In SyncPostly's API the rows are its PostDto translated into our posts: the same posts,
      // in the same order and states, not the same objects as socialpub's own list.
      if (sp) expect(JSON.parse(json.stdout).map((p: { id: string; status: string }) => [p.id, p.status])).toEqual(oracle.slice(0, 150).map((p) => [p.id, p.status]));
      else expect(JSON.parse(json.stdout)).toEqual(oracle.slice(0, 150));
      const all = await cli(['posts', 'list', '--all', '--output', 'ndjson']);
      const rows = all.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(rows).toHaveLength(total);
      expect(rows.map((p: { id: string }) => p.id)).toEqual(oracle.map((p) => p.id));
      const ids = await cli(['posts', 'list', '--limit', '5', '-q'], { tty: true });
      expect(ids.stdout.trim().split('\n')).toEqual(oracle.slice(0, 5).map((p) => p.id));
      expect(ids.stderr).toBe('');
      const empty = await cli(['posts', 'list', '--offset', String(total + 5)], { tty: true });
      expect(empty.code).toBe(0);
      expect(empty.stdout).toBe('');
      expect(empty.stderr).toMatch(/no posts at offset/);
    });
  });
});
