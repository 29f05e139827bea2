// A database too large to check whole at start (over 16 MiB: posts and results are checked at
// spread-out points only, so gigabytes start in seconds) with a results page damaged in the
// middle: either start-up refuses it, or the first read that touches the page answers 500
// naming the damage and the fix, and from then on every request gets the same answer. Never a
// 200 built from the damaged page.
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlite } from '../../src/sandbox/db/sqlite.js';
import { IdCodec } from '../../src/sandbox/ids.js';
import { startSandbox, StateFileError, type Sandbox } from '../../src/sandbox/index.js';
import { entropyFromSeed } from '../../src/sandbox/random.js';
import { PLATFORMS } from '../../src/wire/platforms.js';
import { call } from './sandbox-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SEED = 8;
const STORED = 300_000;
const DAMAGE = /state\.db is damaged \(SQLite: .+\); the sandbox will not serve it\. Restore it from a backup, try `sqlite3 .*state\.db \.recover` into a new file, or pass another --data file/;

/** A sandbox database over 16 MiB: STORED results (and a post for every 4) written with SQL. */
async function largeDatabase(file: string): Promise<void> {
  const first = await startSandbox({ port: 0, dataFile: file, seed: SEED });
  await first.close();
  const db = new (sqlite().DatabaseSync)(file);
  db.function('platform_name', (i) => PLATFORMS[Number(i) % PLATFORMS.length]!);
  db.exec(`BEGIN;
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${STORED / 4})
    INSERT INTO posts (workspace, idx, status, payloads, title, scheduled_at, created_at, updated_at)
      SELECT 1, i, 'published', '{"bluesky":{"text":"stored"}}', NULL, 1800000000000 + i, 1800000000000, 1800000000000 + i FROM n;
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${STORED})
    INSERT INTO results (workspace, row, post, platform, success, no_account, broke_rule, at, nth)
      SELECT 1, i, i / 4, platform_name(i), 1, 0, 0, 1800000000000 + i, i / ${PLATFORMS.length} FROM n;
    COMMIT; PRAGMA wal_checkpoint(TRUNCATE);`);
  db.close();
}

/** Overwrites the header and cell pointers of the results table's middle leaf page; returns a row that was on it. */
function damageResultsPage(file: string): number {
  const db = new (sqlite().DatabaseSync)(file);
  const leaves = db.prepare("SELECT pageno FROM dbstat WHERE name = 'results' AND pagetype = 'leaf' ORDER BY path").all().map((r) => Number(r.pageno));
  const pageSize = Number(db.prepare('PRAGMA page_size').get()!.page_size);
  db.close();
  expect(leaves.length).toBeGreaterThan(100);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(512, 0x5a), 0, 512, (leaves[Math.floor(leaves.length / 2)]! - 1) * pageSize);
  closeSync(fd);
  // Which rows sat on that page: those SQLite can no longer read.
  const after = new (sqlite().DatabaseSync)(file);
  const read = after.prepare('SELECT * FROM results WHERE workspace = 1 AND row = ?');
  try {
    for (let row = 0; row < STORED; row += 10) {
      try {
        read.get(row);
      } catch (err) {
        expect((err as Error).message).toMatch(/malformed|corrupt/);
        return row;
      }
    }
  } finally {
    after.close();
  }
  throw new Error('no row reads as damaged');
}

describe('a large database damaged in the middle of a table', () => {
  it('starts in seconds or refuses; serves no answer from the damaged page, and nothing after it', async () => {
    const file = join(dir, 'state.db');
    await largeDatabase(file);
    expect(statSync(file).size).toBeGreaterThan(16 * 1024 * 1024);
    const damagedRow = damageResultsPage(file);

    const started: Sandbox | Error = await startSandbox({ port: 0, dataFile: file, readLimit: 1_000 }).catch((err: unknown) => err as Error);
    if (started instanceof Error) {
      // (a) Refused at start: the bounded check met the page.
      expect(started).toBeInstanceOf(StateFileError);
      expect(started.message).toMatch(DAMAGE);
      return;
    }
    const sb = started;
    try {
      const key = sb.key('demo');
      const ids = new IdCodec(entropyFromSeed(SEED));
      const result = (row: number) => call(sb, 'GET', `/api/v1/post-results/${ids.encode('result', 1, row)}`, { key });
      // The control: a row far from the damage reads back.
      const intact = await result(10);
      expect(intact.status).toBe(200);
      expect(intact.body.platform).toBe(PLATFORMS[10 % PLATFORMS.length]);

      // (b) The first read that touches the page: refused, naming the damage and the fix.
      const damaged = await result(damagedRow);
      expect(damaged.status).toBe(500);
      expect(damaged.body.error.message).toMatch(DAMAGE);
      expect(damaged.body.error.message).toMatch(/Met while serving: the sandbox stopped serving it/);

      // From then on, the same answer to everything: reads that would work, and writes.
      for (const later of [await result(10), await call(sb, 'GET', '/v1/posts?limit=1', { key }), await call(sb, 'POST', '/v1/posts', { key, body: { payloads: { threads: { text: 'after' } } } })]) {
        expect(later.status).toBe(500);
        expect(later.body.error.message).toBe(damaged.body.error.message);
      }
    } finally {
      await sb.close();
    }
  }, 120_000);
});
