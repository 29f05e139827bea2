// The sandbox's SQLite storage at scale, through the built library (dist/sandbox):
//   seed: `fixtures: 1,000,000` from the call to a listening sandbox (target ≤ 2 s), median of 3;
//   deep page: GET /api/v1/post-results at offset 900,000 (limit 100), and a failed-posts page
//       near the end, in ms (target ≤ 10 ms), median of 50 after a warm-up;
//   reopen: a --data database of about 300 MB holding those fixtures, 500,000 stored posts and
//       2,000,000 stored results (written with SQL): the time to a listening sandbox, median of
//       3, beside what a whole PRAGMA quick_check of it costs (what start-up ran before);
//   a 2-platform page at offset 900,000 in the stored rows (target ≤ 50 ms), median of 20,
//       beside the earlier plan (count(*) and a UNION ALL with OFFSET), median of 3.
// Run: npm run bench sandbox-storage
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, ROOT } from './lib.mjs';

const require = createRequire(import.meta.url);
const FIXTURES = 1_000_000;
const STORED = 2_000_000;

async function timedStart(lib, options) {
  const t = performance.now();
  const sb = await lib.startSandbox({ port: 0, readLimit: 1_000_000_000, ...options });
  return { sb, ms: performance.now() - t };
}

async function pageMs(sb, path, runs = 50, warmup = 10) {
  const headers = { authorization: `Bearer ${sb.key('demo')}` };
  const times = [];
  for (let i = 0; i < warmup + runs; i++) {
    const t = performance.now();
    const res = await fetch(sb.url + path, { headers });
    const body = await res.json();
    if (res.status !== 200 || body.data.length === 0) throw new Error(`${path}: ${res.status}`);
    if (i >= warmup) times.push(performance.now() - t);
  }
  return median(times);
}

const check = (ms, target) => (ms <= target ? `✓ ≤ ${target} ms` : `✗ target ≤ ${target} ms`);

export async function run() {
  const lib = require(join(ROOT, 'dist', 'sandbox', 'index.cjs'));
  const seeds = [];
  for (let i = 0; i < 3; i++) {
    const { sb, ms } = await timedStart(lib, { fixtures: FIXTURES, seed: 42 });
    seeds.push(ms);
    if (i < 2) await sb.close();
    else {
      try {
        console.log(`seed ${FIXTURES.toLocaleString('en-US')} fixtures: ${median(seeds).toFixed(0)} ms (median of 3: ${seeds.map((s) => s.toFixed(0)).join(', ')})  ${check(median(seeds), 2000)}`);
        const deep = await pageMs(sb, '/api/v1/post-results?offset=900000&limit=100');
        console.log(`deep page, results offset 900,000 (limit 100): ${deep.toFixed(2)} ms (median of 50)  ${check(deep, 10)}`);
        const failed = (await (await fetch(`${sb.url}/v1/posts?status=failed&limit=1`, { headers: { authorization: `Bearer ${sb.key('demo')}` } })).json()).meta.total;
        const posts = await pageMs(sb, `/v1/posts?status=failed&offset=${failed - 100}&limit=100`);
        console.log(`deep page, failed posts offset ${(failed - 100).toLocaleString('en-US')} (limit 100): ${posts.toFixed(2)} ms (median of 50)  ${check(posts, 10)}`);
      } finally {
        await sb.close();
      }
    }
  }

  const dir = mkdtempSync(join(tmpdir(), 'bench-storage-'));
  const file = join(dir, 'large.db');
  try {
    const { sb } = await timedStart(lib, { fixtures: FIXTURES, seed: 42, dataFile: file });
    const fixturePosts = (await (await fetch(`${sb.url}/v1/posts?limit=1`, { headers: { authorization: `Bearer ${sb.key('demo')}` } })).json()).meta.total;
    await sb.close();
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const db = new DatabaseSync(file);
    const platforms = ['twitter-x', 'bluesky', 'linkedin', 'threads'];
    db.exec(`BEGIN;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${STORED / 4})
      INSERT INTO posts SELECT 1, ${fixturePosts} + i, 'published', '{"bluesky":{"text":"' || hex(randomblob(100)) || '"}}', NULL, i, i, i FROM n;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${STORED})
      INSERT INTO results SELECT 1, ${FIXTURES} + i, ${fixturePosts} + i / 4, CASE i % 4 ${platforms.map((p, k) => `WHEN ${k} THEN '${p}'`).join(' ')} END, 1, 0, 0, 1800000000000 + i, i / 4 FROM n;
      COMMIT; PRAGMA wal_checkpoint(TRUNCATE);`);
    const before = (runs, fn) => {
      const times = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        fn();
        times.push(performance.now() - t);
      }
      return median(times);
    };
    const quickCheck = before(1, () => db.prepare('PRAGMA quick_check').all());
    const arms = "SELECT row FROM results WHERE workspace = 1 AND platform = 'bluesky' UNION ALL SELECT row FROM results WHERE workspace = 1 AND platform = 'threads'";
    const offsetPlan = before(3, () => {
      db.prepare("SELECT count(*) AS n FROM results WHERE workspace = 1 AND platform IN ('bluesky', 'threads')").get();
      db.prepare(`${arms} ORDER BY row DESC LIMIT 100 OFFSET 900000`).all();
    });
    db.close();
    const size = statSync(file).size / 1024 / 1024;
    const opens = [];
    let last;
    for (let i = 0; i < 3; i++) {
      const o = await timedStart(lib, { dataFile: file });
      opens.push(o.ms);
      if (i < 2) await o.sb.close();
      else last = o.sb;
    }
    try {
      console.log(`reopen a ${size.toFixed(0)} MiB database (${FIXTURES.toLocaleString('en-US')} fixtures + ${STORED.toLocaleString('en-US')} stored results): ${median(opens).toFixed(0)} ms (median of 3; a whole PRAGMA quick_check of it, run at start before: ${quickCheck.toFixed(0)} ms)`);
      const filtered = await pageMs(last, '/api/v1/post-results?platform=bluesky,threads&offset=900000&limit=100', 20, 5);
      console.log(`deep page in the stored rows, 2 platforms, offset 900,000 (limit 100): ${filtered.toFixed(1)} ms (median of 20)  ${check(filtered, 50)}; the earlier count(*) + OFFSET plan in SQL alone: ${offsetPlan.toFixed(0)} ms (median of 3)`);
    } finally {
      await last.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
