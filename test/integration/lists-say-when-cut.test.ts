// A list cut by --limit says so on stderr in every format, and an export that fails part-way says
// where to resume: a file of 20 rows must not pass for the whole list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { faultyProxy } from '../helpers/faulty-proxy.js';
import { testSandbox, cliEnv, ROOMY_LIMITS, type TestSandbox } from '../helpers/sandbox.js';
import type { PostResult } from '../../src/wire/schemas.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await testSandbox({ fixtures: 250, failureRate: 0.3, ...ROOMY_LIMITS });
});
afterAll(async () => {
  await sb?.close();
});

describe('a list cut by --limit', () => {
  it.each([['tsv'], ['csv'], ['json'], ['ndjson']])('says so on stderr with -o %s: "20 of 250; --all for every row"', async (format) => {
    const r = await runCli(['results', 'list', '-o', format], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('20 of 250; --all for every row, --offset 20 for the next rows');
  });

  it('filtered while paging (--failed): how many were shown and how far the scan went', async () => {
    const r = await runCli(['results', 'list', '--failed', '--limit', '5', '--json'], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(5);
    expect(r.stderr).toMatch(/^5 failed shown, \d+ of 250 scanned; --all for every row, --offset \d+ for the next rows$/m);
  });

  it('posts list too; and nothing is said when the list was whole', async () => {
    const posts = await runCli(['posts', 'list', '--limit', '3', '--json'], { env: cliEnv(sb) });
    expect(posts.code, posts.stderr).toBe(0);
    expect(posts.stderr).toMatch(/^3 of \d+; --all for every row/m);
    const all = await runCli(['results', 'list', '--all', '-o', 'csv'], { env: cliEnv(sb) });
    expect(all.code).toBe(0);
    expect(all.stderr).not.toContain('--all for every row');
    const whole = await runCli(['results', 'list', '--limit', '500', '--json'], { env: cliEnv(sb) });
    expect(whole.stderr).not.toContain('--all for every row');
  });

  it('a table on a terminal says it in its footer', async () => {
    const r = await runCli(['results', 'list'], { env: cliEnv(sb), tty: true });
    expect(r.stderr).toMatch(/next: --offset 20 · --all for every row/);
  });
});

describe('an export that fails part-way', () => {
  it('says how to resume: --until just past the last row written', async () => {
    let pages = 0;
    const proxy = await faultyProxy(sb.url, (req) => ((req.url ?? '').startsWith('/api/v1/post-results') && pages++ >= 1 ? { status: 503 } : 'pass'));
    try {
      const r = await runCli(['--max-retries', '0', 'results', 'list', '--all', '--concurrency', '1', '-o', 'ndjson'], { env: cliEnv(sb, 'demo', { SOCIALPUB_BASE_URL: proxy.url }) });
      expect(r.code).toBe(1);
      const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as PostResult);
      expect(rows).toHaveLength(100);
      const last = Date.parse(rows.at(-1)!.created_at as string);
      expect(r.stderr).toContain(`100 rows were written before the failure, newest first, down to ${new Date(last).toISOString()}: resume with --until ${new Date(last + 1).toISOString()}`);
    } finally {
      await proxy.close();
    }
  });
});

describe('--jq over --all', () => {
  it('with --json it says that every row is held, and that -o ndjson --jq streams', async () => {
    const whole = await runCli(['results', 'list', '--all', '--jq', 'length'], { env: cliEnv(sb) });
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout.trim()).toBe('250');
    expect(whole.stderr).toContain('-o ndjson --jq runs the filter on each row as it streams');
    const streamed = await runCli(['results', 'list', '--all', '-o', 'ndjson', '--jq', '.id'], { env: cliEnv(sb) });
    expect(streamed.stdout.trim().split('\n')).toHaveLength(250);
    expect(streamed.stderr).not.toContain('held in memory');
  });
});
