// A large state: a database with a million fixture results and 200,000 stored results (and
// 50,000 stored posts, written straight into its tables with SQL) is reopened: nothing is
// loaded whole at start (rows are read when a page asks for them), every page is what the
// tables say (the newest, deep in the stored rows with a platform filter, deep in the fixtures),
// and the fixtures come back exactly as they were.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlite } from '../../src/sandbox/db/sqlite.js';
import { IdCodec } from '../../src/sandbox/ids.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { entropyFromSeed } from '../../src/sandbox/random.js';
import { PLATFORMS } from '../../src/wire/platforms.js';
import { call } from './sandbox-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURES = 1_000_000;
const STORED_POSTS = 50_000;
const TARGETS = 4;

describe('a large database', () => {
  it('reopens with a million fixtures and 200,000 stored results, and pages them all correctly', async () => {
    const file = join(dir, 'large.db');
    const first = await startSandbox({ port: 0, dataFile: file, fixtures: FIXTURES, seed: 21, readLimit: 1_000_000 });
    const key = first.key('demo');
    const deepFixturePage = (await call(first, 'GET', '/api/v1/post-results?offset=900000&limit=100', { key })).body;
    expect(deepFixturePage.meta.total).toBe(FIXTURES);
    const fixturePosts = (await call(first, 'GET', '/v1/posts?limit=1', { key })).body.meta.total;
    await first.close();

    // Stored rows after the fixtures, as the publisher writes them: 4 targets a post, in time order.
    const db = new (sqlite().DatabaseSync)(file);
    const start = Date.parse('2026-12-01T00:00:00Z');
    db.function('platform_name', (i) => PLATFORMS[Number(i) % PLATFORMS.length]!);
    db.exec(`BEGIN;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${STORED_POSTS})
      INSERT INTO posts (workspace, idx, status, payloads, title, scheduled_at, created_at, updated_at)
        SELECT 1, ${fixturePosts} + i, 'published', '{"bluesky":{"text":"stored"}}', NULL, ${start} + i * 1000, ${start}, ${start} + i * 1000 FROM n;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${STORED_POSTS * TARGETS})
      INSERT INTO results (workspace, row, post, platform, success, no_account, broke_rule, at, nth)
        SELECT 1, ${FIXTURES} + i, ${fixturePosts} + i / ${TARGETS}, platform_name(i), 1, 0, 0, ${start} + (i / ${TARGETS}) * 1000, i / ${PLATFORMS.length} FROM n;
      COMMIT;`);
    db.close();

    const opened = performance.now();
    const again = await startSandbox({ port: 0, dataFile: file, readLimit: 1_000_000 });
    console.log(`large database reopened in ${(performance.now() - opened).toFixed(0)} ms (${FIXTURES.toLocaleString('en-US')} fixtures regenerated, ${(STORED_POSTS * TARGETS).toLocaleString('en-US')} stored results)`);
    try {
      const ids = new IdCodec(entropyFromSeed(21));
      const rowOf = (id: string) => ids.decode('result', 1, id);
      const total = FIXTURES + STORED_POSTS * TARGETS;
      const newest = (await call(again, 'GET', '/api/v1/post-results?limit=5', { key })).body;
      expect(newest.meta.total).toBe(total);
      expect(newest.data.map((r: { id: string }) => rowOf(r.id))).toEqual([total - 1, total - 2, total - 3, total - 4, total - 5]);
      // Deep in the stored rows, two platforms: every 9th row is one platform (row i has platform i mod 9).
      const two: string[] = [PLATFORMS[0], PLATFORMS[3]];
      const filtered = (await call(again, 'GET', `/api/v1/post-results?platform=${two.join(',')}&offset=40000&limit=100`, { key })).body;
      const storedOfTwo = Array.from({ length: STORED_POSTS * TARGETS }, (_, i) => i)
        .filter((i) => two.includes(PLATFORMS[i % PLATFORMS.length]!))
        .reverse()
        .map((i) => FIXTURES + i);
      expect(filtered.data.map((r: { id: string }) => rowOf(r.id))).toEqual(storedOfTwo.slice(40_000, 40_100));
      // The fixtures, under the stored rows, exactly as before the restart.
      const deep = (await call(again, 'GET', `/api/v1/post-results?offset=${900_000 + STORED_POSTS * TARGETS}&limit=100`, { key })).body;
      expect(deep.data).toEqual(deepFixturePage.data);
      const posts = (await call(again, 'GET', '/v1/posts?status=published&limit=1', { key })).body;
      expect(posts.data[0].payloads).toEqual({ bluesky: { text: 'stored' } });
    } finally {
      await again.close();
    }
  }, 120_000);
});
