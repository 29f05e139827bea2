// text: what counting text as the platforms do costs a whole `posts create --dry-run`. A text
// with a URL, emoji with skin tones and CJK takes the slow path (the grapheme segmenter's data
// and the URL pattern are loaded on first use); plain text skips both. Baseline: the same command
// with plain text, so the ratio is the counter's own start-up cost.
// Run: npm run build && node test/bench/text.bench.mjs  (or `npm run bench text`)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, benchEnv, compare, report } from './lib.mjs';

const node = process.execPath;

export async function run({ runs = 11 } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-bench-text-'));
  try {
    const options = { env: benchEnv({ SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', SOCIALPUB_API_KEY: 'sk_test_bench_unused_key_000000', SOCIALPUB_CONFIG_DIR: join(tmp, 'cfg'), NO_COLOR: '1' }) };
    const create = (text) => [BIN, 'posts', 'create', '--platform', 'twitter-x', '--platform', 'bluesky', '--text', text, '--dry-run'];
    report(
      await compare({
        name: 'posts create --dry-run: URL + emoji + CJK text vs plain text',
        subject: { cmd: node, args: create('Release notes 👍🏽 https://example.com/releases/v1.4.2 日本語のノート 👨‍👩‍👧‍👦'), options },
        baseline: { cmd: node, args: create('Release notes for v1 and what changed'), options },
        runs,
      }),
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
