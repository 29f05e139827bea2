// posts: whole-process figures for the built binary.
//   - `posts create --dry-run` (validation, no network) against bare `node -e 0`
//   - `posts create` with one real request to a sandbox running in this process
//   - bulk throughput: `posts schedule --from-file` over 1,000 NDJSON rows (one fsync'd journal
//     line before and after each request), rows per second and peak RSS
// Run: npm run build && node test/bench/posts.bench.mjs  (or `npm run bench posts`)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, benchEnv, compare, measure, median, report } from './lib.mjs';

const node = process.execPath;

export async function run({ runs = 11, bulkRows = 1000 } = {}) {
  const { startSandbox } = await import(join(ROOT, 'dist', 'sandbox', 'index.cjs'));
  const sb = await startSandbox({ port: 0, seed: 7, writeLimit: 1_000_000_000, readLimit: 1_000_000_000 });
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-bench-posts-'));
  try {
    const demo = sb.workspaces.find((w) => w.name === 'demo');
    const env = (configDir) => benchEnv({ SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: demo.apiKey, SOCIALPUB_CONFIG_DIR: configDir, NO_COLOR: '1' });
    const cfg = join(tmp, 'cfg');

    report(
      await compare({
        name: 'posts create --dry-run vs node -e 0',
        subject: { cmd: node, args: [BIN, 'posts', 'create', '--platform', 'bluesky', '--text', 'bench', '--dry-run'], options: { env: env(cfg) } },
        baseline: { cmd: node, args: ['-e', '0'] },
        runs,
      }),
    );
    report(
      await compare({
        name: 'posts create (one POST to the sandbox) vs node -e 0',
        subject: { cmd: node, args: [BIN, 'posts', 'create', '--platform', 'bluesky', '--text', 'bench', '-q'], options: { env: env(cfg) } },
        baseline: { cmd: node, args: ['-e', '0'] },
        runs,
      }),
    );

    const file = join(tmp, 'bulk.ndjson');
    const at = Date.now() + 7 * 86_400_000;
    const rows = (tag) => Array.from({ length: bulkRows }, (_, i) => JSON.stringify({ payloads: { bluesky: { text: `bulk ${tag} ${i}` } }, scheduledAt: new Date(at + i * 60_000).toISOString() })).join('\n');
    const times = [];
    const mem = [];
    for (let r = 0; r < 3; r++) {
      writeFileSync(file, rows(`run${r}`));
      const res = await measure(node, [BIN, 'posts', 'schedule', '--from-file', file, '-q'], { env: env(join(tmp, `bulk-cfg-${r}`)) });
      if (res.code !== 0) throw new Error(`bulk run exited ${res.code}: ${res.stderr.slice(0, 500)}`);
      times.push(res.ms);
      if (res.maxRssKb) mem.push(res.maxRssKb / 1024);
    }
    const ms = median(times);
    console.log(`posts schedule --from-file (${bulkRows} rows, one fsync'd journal line per row): ${ms.toFixed(0)} ms = ${((bulkRows / ms) * 1000).toFixed(0)} rows/s (median of 3)${mem.length ? ` · peak ${Math.max(...mem).toFixed(1)} MiB` : ''}`);
  } finally {
    await sb.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
