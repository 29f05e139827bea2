// --data: state survives a restart (keys, posts, results, media, idempotency keys, scheduled
// posts); the database and the media folder are private; the bytes of an upload are a file
// named by their sha256 (never base64 inside the database); the tables can be read with SQL.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlite } from '../../src/sandbox/db/sqlite.js';
import { createManualClock, startSandbox } from '../../src/sandbox/index.js';
import { allRows, call, START, text } from './sandbox-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence across restarts', () => {
  it('keeps keys, posts, results, media, idempotency keys and pending schedules', async () => {
    const file = join(dir, 'nested', 'state.db');
    const clock = createManualClock(START);
    const first = await startSandbox({ port: 0, clock, dataFile: file, fixtures: 40, failureRate: 0.3, webhookRetryDelaysMs: [] });
    const key = first.key('demo');
    const post = (o: unknown, headers: Record<string, string> = {}) => call(first, 'POST', '/v1/posts', { key, body: o, headers });
    await post({ payloads: text(['twitter-x']) });
    const replayable = await post({ payloads: text(['linkedin']) }, { 'idempotency-key': 'persisted-key' });
    await call(first, 'POST', '/v1/schedule', { key, body: { payloads: text(['bluesky', 'threads']), scheduledAt: new Date(START + 60_000).toISOString() } });
    const later = await call(first, 'POST', '/v1/schedule', { key, body: { payloads: text(['pinterest']), scheduledAt: new Date(START + 3_600_000).toISOString() } });
    await clock.advance(60_000);
    const media = await call(first, 'POST', '/v1/media', { key, body: { name: 'logo.png', mimeType: 'image/png', sizeBytes: 4 } });
    await call(first, 'PUT', new URL(media.body.uploadUrl).pathname, { key, raw: new Uint8Array([1, 2, 3, 4]) });
    const posts = await allRows(first, key, '/v1/posts');
    const results = await allRows(first, key, '/api/v1/post-results');
    expect(results.total).toBe(42);
    const secret = first.webhookSecret;
    const keys = first.workspaces;
    await first.close();

    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A clean stop folds the WAL back in: the database, and the uploaded bytes beside it.
    expect(readdirSync(join(dir, 'nested')).sort()).toEqual(['state.db', 'state.db.media']);
    const sha = createHash('sha256').update(new Uint8Array([1, 2, 3, 4])).digest('hex');
    expect(readdirSync(join(dir, 'nested', 'state.db.media'))).toEqual([sha]);
    expect(statSync(join(dir, 'nested', 'state.db.media')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'nested', 'state.db.media', sha)).mode & 0o777).toBe(0o600);
    const db = new (sqlite().DatabaseSync)(file, { readOnly: true });
    try {
      // Fixture rows are regenerated, not stored: only the two published live.
      expect(db.prepare('SELECT platform, success FROM results ORDER BY row').all().map((r) => r.platform)).toEqual(['bluesky', 'threads']);
      expect(db.prepare('SELECT name, size_bytes, sha256 FROM media').all()).toEqual([{ name: 'logo.png', size_bytes: 4, sha256: sha }]);
      expect(db.prepare("SELECT count(*) AS n FROM posts WHERE workspace = 1").get()).toEqual({ n: 4 });
    } finally {
      db.close();
    }

    // An upload a crash cut short leaves a temporary file, named by no row: the next start removes it.
    writeFileSync(join(dir, 'nested', 'state.db.media', `${sha}.4242.tmp`), 'half');

    // The second run starts two hours later: the post scheduled for START + 1 h is overdue.
    const laterClock = createManualClock(START + 2 * 3_600_000);
    const second = await startSandbox({ port: 0, clock: laterClock, dataFile: file });
    try {
      expect(second.restored).toBe(true);
      expect(readdirSync(join(dir, 'nested', 'state.db.media'))).toEqual([sha]);
      expect(second.workspaces).toEqual(keys);
      expect(second.webhookSecret).toBe(secret);
      expect(await allRows(second, key, '/v1/posts')).toEqual(posts);
      expect(await allRows(second, key, '/api/v1/post-results')).toEqual(results);
      const replay = await call(second, 'POST', '/v1/posts', { key, body: { payloads: text(['linkedin']) }, headers: { 'idempotency-key': 'persisted-key' } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.id).toBe(replayable.body.id);
      // The media URL is served by the new process (under its own port).
      const bytes = await fetch(new URL(new URL(media.body.url).pathname, second.url));
      expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4]));
      // The overdue post is still scheduled until the publisher runs; settle() runs what is due.
      expect((await call(second, 'GET', `/v1/posts/${later.body.id}`, { key })).body.status).toBe('scheduled');
      await second.settle();
      expect((await call(second, 'GET', `/v1/posts/${later.body.id}`, { key })).body.status).toMatch(/^(published|failed)$/);
      const newest = (await call(second, 'GET', '/api/v1/post-results?limit=1', { key })).body;
      expect(newest.meta.total).toBe(43);
      expect(newest.data[0].created_at).toBe(new Date(START + 2 * 3_600_000).toISOString());
    } finally {
      await second.close();
    }
  });

  it('writes the keys of a fresh file at once, before any change', async () => {
    const file = join(dir, 'fresh.db');
    const sb = await startSandbox({ port: 0, dataFile: file });
    const keys = sb.workspaces;
    await sb.close();
    const again = await startSandbox({ port: 0, dataFile: file });
    expect(again.workspaces).toEqual(keys);
    await again.close();
  });
});
